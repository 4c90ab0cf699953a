"""Resume tokens kept between runs, so a restarted client takes back its seat.

One JSON file in the user's state directory (``platformdirs.user_state_dir("craits")``)
maps a key — the server address and the player's name (``"host:port name"``) —
to the seat held there: its resume
token, table and name. Errors reading or writing the file are ignored: a lost
token only means the seat is not resumed automatically.

The key is normalized (:func:`~.server_keys.normalize_key`), so one server is one key however
its address was typed: the default port is filled in, the host name is
lowercased, and the loopback names ``localhost``, ``127.0.0.1`` and ``::1`` are
one server, ``localhost``. Files written before keys were normalized hold the
address as typed; such an entry is still found, and the next save or drop of
that seat replaces it with the normalized key.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TypedDict

import platformdirs

from .files import write_private_json
from .record_keys import RecordKeys
from .server_keys import normalize_key

FILE_NAME = "resume.json"


class SavedSeat(TypedDict):
    """A seat kept for a server and name: its resume token (protocol §11.7), table,
    the name it was taken under, and its number."""

    token: str
    table: str
    name: str
    seat: int


def _saved_seat(entry: object) -> SavedSeat | None:
    """``entry`` as a saved seat, or None if it is not one (a damaged file)."""
    if not isinstance(entry, dict):
        return None
    token, table, name, seat = (entry.get(k) for k in ("token", "table", "name", "seat"))
    if isinstance(token, str) and isinstance(table, str) and isinstance(seat, int):
        return SavedSeat(token=token, table=table, name=str(name), seat=seat)
    return None


def default_path() -> Path:
    """Where the tokens live: ``<user state dir>/craits/resume.json``."""
    return Path(platformdirs.user_state_dir("craits")) / FILE_NAME


class TokenStore:
    """The saved seat per server address."""

    def __init__(self, path: Path | None = None):
        self.path = path if path is not None else default_path()

    def _load(self) -> dict[str, object]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def get(self, server: str) -> SavedSeat | None:
        """The seat saved for ``server``, or None.

        An entry under the normalized key comes first; else one saved under an
        older spelling of the same key (the last such one in the file).
        """
        data = self._load()
        key = normalize_key(server)
        found = [data.get(key)]
        found += [v for k, v in reversed(data.items()) if k != key and normalize_key(k) == key]
        for entry in found:
            seat = _saved_seat(entry)
            if seat is not None:
                return seat
        return None

    def put(self, server: str, token: str, table: str, name: str, seat: int) -> None:
        """Save the seat held at ``server`` (under the normalized key only); the
        token is also kept among the server's record keys, beside this file,
        to read the table's games' records later
        (:class:`~craits.client.core.saved.record_keys.RecordKeys`)."""
        data = self._without(self._load(), server)
        data[normalize_key(server)] = SavedSeat(token=token, table=table, name=name, seat=seat)
        self._save(data)
        self.record_keys().keep(server, token, table)

    def record_keys(self) -> RecordKeys:
        """The tokens kept beside this file to read private games' records."""
        return RecordKeys(self.path.parent)

    def drop(self, server: str) -> None:
        """Forget the seat at ``server``, under every spelling of its key."""
        data = self._load()
        kept = self._without(data, server)
        if len(kept) != len(data):
            self._save(kept)

    @staticmethod
    def _without(data: dict[str, object], server: str) -> dict[str, object]:
        key = normalize_key(server)
        return {k: v for k, v in data.items() if normalize_key(k) != key}

    def _save(self, data: dict[str, object]) -> None:
        with contextlib.suppress(OSError):  # (a token not kept: the seat is not resumed)
            write_private_json(self.path, data)
