#!/usr/bin/env python3
"""The post-game analysis of a game of a server's journal, or of a record file
(``docs/bots.md``, "Post-game analysis"): the expert package's command
(:func:`craits.server.bots.expert.analyse.analyse_main`) with the journal's reader,
which the bots, under the journal in the server's layers, do not import.

    python scripts/analyse_game.py 12 --data-dir /var/lib/craits
    python scripts/analyse_game.py craits-game-12.json --json

A game id is read from ``craits.db`` in ``--data-dir`` (else ``CRAITS_DATA_DIR``,
else the server's default folder), read only (safe beside a running server), its
record built as ``craits-server export`` builds it. ``--help`` gives the options.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from craits.server.bots.expert.analyse import RecordError, analyse_main
from craits.server.errors import JournalError
from craits.server.journal.journal import JournalReader
from craits.server.journal.records import build_record
from platformdirs import user_data_dir


def load_game(game_id: int, data_dir: Path | None, unfinished: bool) -> dict[str, Any]:
    """Game ``game_id``'s record from the journal in ``data_dir`` (a ``GameLoader``).

    Raises:
        RecordError: no journal, no such game, still in play (unless ``unfinished``),
            a damaged row, a log that does not replay.
    """
    if data_dir is None:
        env = os.environ.get("CRAITS_DATA_DIR")
        data_dir = Path(env) if env else Path(user_data_dir("craits"))
    db = data_dir / "craits.db"
    if not db.exists():
        raise RecordError(f"no journal at {db}")
    try:
        journal = JournalReader(db)
        try:
            row = journal.game(game_id)
        finally:
            journal.close()
    except JournalError as exc:
        raise RecordError(str(exc)) from None
    if row is None:
        raise RecordError(f"no game {game_id} in {db}")
    if row["finished"] is None and not unfinished:
        raise RecordError(
            f"game {game_id} is still in play (--unfinished analyses it as it stands)"
        )
    try:
        return build_record(row)
    except ValueError as exc:
        raise RecordError(f"game {game_id}'s log does not replay: {exc}") from None


if __name__ == "__main__":
    sys.exit(analyse_main(prog="analyse_game.py", load_game=load_game))
