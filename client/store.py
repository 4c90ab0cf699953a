"""Resume tokens kept between runs, so a restarted client takes back its seat.

One JSON file in the user's state directory (``platformdirs.user_state_dir("craits")``)
maps a key — the server address and the player's name (``"host:port name"``) —
to the seat held there: its resume
token, table and name. Errors reading or writing the file are ignored: a lost
token only means the seat is not resumed automatically.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import platformdirs

FILE_NAME = "resume.json"


def default_path() -> Path:
    """Where the tokens live: ``<user state dir>/craits/resume.json``."""
    return Path(platformdirs.user_state_dir("craits")) / FILE_NAME


class TokenStore:
    """The saved seat per server address."""

    def __init__(self, path: Path | None = None):
        self.path = path if path is not None else default_path()

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, server: str) -> dict[str, Any] | None:
        """The seat saved for ``server``: ``{"token", "table", "name", "seat"}``, or None."""
        entry = self._load().get(server)
        if isinstance(entry, dict) and isinstance(entry.get("token"), str):
            return entry
        return None

    def put(self, server: str, token: str, table: str, name: str, seat: int) -> None:
        """Save the seat held at ``server``."""
        data = self._load()
        data[server] = {"token": token, "table": table, "name": name, "seat": seat}
        self._save(data)

    def drop(self, server: str) -> None:
        """Forget the seat at ``server``."""
        data = self._load()
        if server in data:
            del data[server]
            self._save(data)

    def _save(self, data: dict[str, Any]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".resume-", suffix=".json")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=1)
                os.chmod(tmp, 0o600)
                os.replace(tmp, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise
        except OSError:
            pass
