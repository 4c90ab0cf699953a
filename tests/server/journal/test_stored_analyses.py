"""Post-game analyses stored with their game in the journal (issue 28; protocol
§7.6, ``docs/bots.md``): the ``analyses`` table is additive, made in a journal
from before it when the server opens it, and read back as written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from craits.server.errors import JournalError
from craits.server.journal.journal import Journal, JournalReader

PREVIOUS_SCHEMA = """
CREATE TABLE tables (
    name TEXT PRIMARY KEY, capacity INTEGER NOT NULL, rules TEXT NOT NULL,
    turn_timeout REAL NOT NULL, creator TEXT, state TEXT NOT NULL, seats TEXT NOT NULL,
    game_id INTEGER, updated REAL NOT NULL, vacant_since REAL, access TEXT, timing TEXT
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, table_name TEXT NOT NULL, players TEXT NOT NULL,
    rules TEXT NOT NULL, started REAL NOT NULL, finished REAL, result TEXT, private INTEGER
);
CREATE TABLE readers (
    game_id INTEGER NOT NULL, digest BLOB NOT NULL, PRIMARY KEY (game_id, digest)
) WITHOUT ROWID;
CREATE INDEX readers_by_digest ON readers (digest);
CREATE TABLE log (
    game_id INTEGER NOT NULL, n INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
"""
"""The journal's schema before analyses were stored (every column the server wrote)."""

ANALYSIS = {"format": "craits-analysis", "game": 1, "seed": 0, "budget": 300, "decisions": []}


def _previous_journal(path: Path) -> None:
    """A journal made by the previous schema, with one finished game."""
    db = sqlite3.connect(path)
    db.executescript(PREVIOUS_SCHEMA)
    db.execute("INSERT INTO games VALUES (1, 'p', ?, '{}', 1, 2, '{}', NULL)", ('["Ana", "Ben"]',))
    db.commit()
    db.close()


def test_a_journal_from_before_stored_analyses_is_read_and_then_stores_them(
    tmp_path: Path,
) -> None:
    path = tmp_path / "craits.db"
    _previous_journal(path)
    old = JournalReader(path)  # read only (craits-server analyse): nothing to find, no error
    try:
        assert old.analysis(1) is None
    finally:
        old.close()
    journal = Journal(path)  # the server's writer: it adds the analyses table
    try:
        assert journal.analysis(1) is None
        journal.save_analysis(1, ANALYSIS)
        assert journal.analysis(1) == ANALYSIS
        later = {**ANALYSIS, "budget": 600}
        journal.save_analysis(1, later)  # made again: in place of the first
        assert journal.analysis(1) == later
        assert journal.analysis(2) is None
        assert [g["id"] for g in journal.games()] == [1]  # the game is as it was
    finally:
        journal.close()
    reader = JournalReader(path)
    try:
        assert reader.analysis(1) == later
        row = reader.db.execute("SELECT seed, budget FROM analyses WHERE game_id = 1").fetchone()
        assert row == (0, 600)
    finally:
        reader.close()


def test_a_stored_analysis_that_is_not_json_is_a_journal_error(tmp_path: Path) -> None:
    path = tmp_path / "craits.db"
    _previous_journal(path)
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO analyses VALUES (1, 0, 300, ?, 3)", ("{not json",))
    db.execute("INSERT INTO analyses VALUES (2, 0, 300, ?, 3)", (json.dumps([1, 2]),))
    db.commit()
    db.close()
    reader = JournalReader(path)
    try:
        for game in (1, 2):
            with pytest.raises(JournalError, match=f"game {game}'s stored analysis"):
                reader.analysis(game)
    finally:
        reader.close()
