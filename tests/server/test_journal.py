"""The journal database itself: its schema, and databases written by earlier versions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from craits.server.journal import Journal

OLD_LOG = """CREATE TABLE log (
    game_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
)"""
"""The log table as the first releases made it (a rowid table)."""


def log_sql(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'log'").fetchone()
    finally:
        db.close()
    return str(sql)


def test_a_new_journal_keeps_the_log_in_its_primary_key_b_tree(tmp_path: Path) -> None:
    """WITHOUT ROWID: one b-tree per log write instead of a table and its index."""
    journal = Journal(tmp_path / "craits.db")
    journal.close()
    assert "WITHOUT ROWID" in log_sql(tmp_path / "craits.db")


def test_a_journal_written_by_an_earlier_version_still_works(tmp_path: Path) -> None:
    path = tmp_path / "craits.db"
    db = sqlite3.connect(path)
    db.execute(OLD_LOG)
    db.execute("INSERT INTO log VALUES (7, 0, 'action', '{\"seat\": 1}')")
    db.commit()
    db.close()
    journal = Journal(path)
    game = journal.start_game("t", ["Ana", "Ben"], {}, [("start", {})])
    moves = [("action", {"seat": 0}), ("action", {"seat": 1})]
    journal.append(game, moves)
    assert journal.entries(game) == [("start", {}), *moves]
    assert journal.entries(7) == [("action", {"seat": 1})]
    journal.close()
    assert "WITHOUT ROWID" not in log_sql(path)  # the old table is kept as it was
