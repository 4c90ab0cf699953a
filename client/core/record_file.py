"""A game record read from its file (``craits-client --replay FILE``, ``docs/records.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

from craits.protocol.types import GameRecord

from ..errors import RecordError

RECORD_FORMAT = "craits-record"
"""The ``format`` of a game record (``docs/records.md``)."""


def load_record(path: Path) -> GameRecord:
    """Read a game record file.

    Raises:
        RecordError: the file cannot be read, is not JSON, or is not a record.
    """
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError:
        raise RecordError(f"{path} is not a JSON file") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path} is not a Craits game record")
    if not isinstance(record.get("hands"), list) or not isinstance(record.get("players"), list):
        raise RecordError(f"{path} is a damaged Craits game record")
    # the format and the lists checked; a hand damaged further is shown as such
    return cast(GameRecord, record)
