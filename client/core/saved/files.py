"""How the client writes the files it keeps: whole or not at all, readable by its
owner only (they hold resume tokens, record keys, pinned certificates)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path


def write_private(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: into a new file beside
    it, readable and writable by its owner only (mode 0600), then moved over it; its
    folder is made first if need be. A reader sees the old file or the new one,
    never half of one; a failure leaves no new file behind.

    Raises:
        OSError: the folder or the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_private_json(path: Path, data: object) -> None:
    """Write ``data`` as JSON to ``path`` (:func:`write_private`).

    Raises:
        OSError: the folder or the file cannot be written.
    """
    write_private(path, json.dumps(data, indent=1))
