"""The shuffle commitments this client received, kept per server and game, so a
game's record can later be checked against what was really published during
play (``docs/records.md``, "Checking a record against what was published").

The server publishes the SHA-256 commitment of every shuffle before any card
of it is seen (protocol §7.1): in the ``update`` that made it, and again in
the ``state`` of the hand in play. The client keeps each one it receives, in
the order received, in one JSON file per game::

    <user state dir>/craits/commitments/<server>/game-<id>.json

``<server>`` is the server's address as the resume tokens are keyed
(:func:`craits.client.core.saved.server_keys.normalize_key`, e.g. ``localhost:7777``) with
every character other than a letter, a digit, ``.`` or ``-`` written ``_``
(``localhost_7777``); ``<id>`` is the game's id, the table info's ``game``
(protocol §10) and the record's ``game``. A file holds::

    {"format": "craits-commitments", "version": 1,
     "server": "localhost:7777", "table": "t1", "game": 12,
     "players": ["Ana", "Ben"], "from_start": true,
     "commitments": ["<64 hex digits>", ...]}

``from_start``: the client saw the game's first update (the cut). A client
that joined late, or was away for a while, has a part of the list, still in
the order published. Games on a server without a journal have no id and are
not kept. ``scripts/verify_record.py --commitments FILE`` (or ``--saved``)
checks a record against such a file. Errors reading or writing the files are
ignored: a lost file only means a record cannot be checked against it.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from craits.protocol.types import Commitment

from .files import write_private_json
from .resume_tokens import default_path
from .server_keys import address_key, normalize_key

FORMAT = "craits-commitments"
VERSION = 1
DIR_NAME = "commitments"
"""The folder beside the resume tokens (:mod:`craits.client.core.saved.resume_tokens`) that holds
the files."""


def default_root() -> Path:
    """Where the files live: ``<user state dir>/craits/commitments`` (beside the
    resume tokens, :func:`craits.client.core.saved.resume_tokens.default_path`)."""
    return default_path().parent / DIR_NAME


def server_dir(address: str) -> str:
    """The folder name of the server at ``address`` (``HOST[:PORT]``)."""
    return re.sub(r"[^A-Za-z0-9.-]", "_", address_key(address))


@dataclass
class GameCommitments:
    """The commitments received for one game, in the order received."""

    server: str
    table: str
    game: int
    players: list[str] = field(default_factory=list)
    from_start: bool = False
    commitments: list[str] = field(default_factory=list)

    def add(self, received: list[Commitment]) -> bool:
        """Keep the commitments of ``received`` not kept yet, in order; True if any were new."""
        known = set(self.commitments)
        new = [c["sha256"] for c in received if c["sha256"] not in known]
        self.commitments.extend(dict.fromkeys(new))
        return bool(new)

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "server": self.server,
            "table": self.table,
            "game": self.game,
            "players": self.players,
            "from_start": self.from_start,
            "commitments": self.commitments,
        }


def read(path: Path) -> GameCommitments | None:
    """The commitments saved in ``path``, or None (no such file, or not one of ours)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    listed = data.get("commitments")
    game = data.get("game")
    if not isinstance(listed, list) or not isinstance(game, int):
        return None
    players = data.get("players")
    return GameCommitments(
        server=str(data.get("server", "")),
        table=str(data.get("table", "")),
        game=game,
        players=[str(p) for p in players] if isinstance(players, list) else [],
        from_start=data.get("from_start") is True,
        commitments=[str(c) for c in listed],
    )


class CommitmentStore:
    """The files of commitments under ``root`` (``<state dir>/craits/commitments``),
    and the game being followed, kept in memory between messages."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._current: GameCommitments | None = None

    def path(self, server: str, game: int) -> Path:
        """The file of game ``game`` at the server at ``server``."""
        return self.root / server_dir(server) / f"game-{game}.json"

    def received(
        self,
        server: str,
        table: str,
        game: int | None,
        players: list[str],
        commitments: list[Commitment],
        first: bool = False,
    ) -> None:
        """``commitments`` arrived for game ``game`` at ``table`` (None: a server
        without a journal; nothing is kept). ``first``: they came with the game's
        first update (its cut): a file left from another game of that id (a server
        started afresh at that address) is replaced."""
        if game is None or not commitments:
            return
        kept = self._current
        if first or kept is None or (kept.server, kept.game) != (normalize_key(server), game):
            kept = None if first else self._load(server, table, game)
            if kept is None:
                kept = GameCommitments(normalize_key(server), table, game, from_start=first)
            self._current = kept
        if players:
            kept.players = list(players)
        if kept.add(commitments):
            self._save(kept)

    def _load(self, server: str, table: str, game: int) -> GameCommitments | None:
        kept = read(self.path(server, game))
        if kept is None or kept.table != table or kept.server != normalize_key(server):
            return None
        return kept

    def _save(self, kept: GameCommitments) -> None:
        path = self.path(kept.server, kept.game)
        with contextlib.suppress(OSError):  # (not kept: nothing to check the record against)
            write_private_json(path, kept.to_json())


def find_saved(root: Path, game: int, table: str) -> list[tuple[Path, GameCommitments]]:
    """Every file under ``root`` (any server) saved for game ``game`` at ``table``."""
    found = []
    for path in sorted(root.glob(f"*/game-{game}.json")):
        kept = read(path)
        if kept is not None and kept.game == game and kept.table == table:
            found.append((path, kept))
    return found
