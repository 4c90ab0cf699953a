"""The journal database itself: its schema, and databases written by earlier versions."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from craits.server.journal.check import check_journal
from craits.server.journal.journal import Durability, Journal, JournalReader

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


def test_the_write_ahead_log_starts_over_under_steady_writes(tmp_path: Path) -> None:
    """Writes that never pause: the background checkpoints alone never let
    SQLite start the log over (it grew by every page written, without end);
    the writer's catch-up keeps it bounded."""
    path = tmp_path / "craits.db"
    journal = Journal(path, checkpoint_every=0.02, wal_reset_frames=50)
    game = journal.start_game("t", ["Ana", "Ben"], {}, [("start", {})])
    wal = Path(str(path) + "-wal")
    largest = 0
    # a count of writes, not a time: on a loaded machine a second held only
    # 92-320 fsynced writes, too few to tell a bounded log from an unbounded one
    writes = 1_000
    for n in range(writes):
        journal.append(game, [("action", {"seat": n % 2, "id": n})])
        time.sleep(0.0001)  # a busy server's pace, not a tight loop
        if n % 20 == 0:
            largest = max(largest, wal.stat().st_size)
    entries = journal.entries(game)
    journal.close()
    assert len(entries) == writes + 1  # nothing lost to the restarts
    # every write adds at least one 4 KiB page to the log: without starting
    # over, the file would hold them all; it held a fraction
    assert writes * 4096 > 5 * largest, (writes, largest)


def test_the_write_ahead_log_stays_a_few_mib_with_the_shipped_threshold(tmp_path: Path) -> None:
    """Issue 11, item 12: the log grew to 35–80 MB under steady play before it
    started over (a threshold of 16,384 frames), so a small data partition
    filled with log long before data. With the shipped threshold
    (``WAL_RESET_FRAMES``), 8,000 steady commits (56 MiB of log with the old
    threshold) leave it under 16 MiB (~5 MiB measured). Time is scaled down:
    checkpoints every 40 ms, not every second."""
    path = tmp_path / "craits.db"
    journal = Journal(path, checkpoint_every=0.04, durability=Durability.NORMAL)
    game = journal.start_game("t", ["Ana", "Ben"], {}, [("start", {})])
    wal = Path(str(path) + "-wal")
    largest = 0
    for n in range(8_000):
        journal.append(game, [("action", {"seat": n % 2, "id": n, "pad": "x" * 200})])
        time.sleep(0.0002)  # steady: no pause long enough for a whole checkpoint
        if n % 10 == 0:
            largest = max(largest, wal.stat().st_size)
    entries = journal.entries(game)
    journal.close()
    assert len(entries) == 8_001
    assert largest < 16 * 1024 * 1024, largest


def test_a_journal_from_before_the_abandon_clock_reads_and_checks_without_a_writer(
    tmp_path: Path,
) -> None:
    """``export`` and ``check`` open a journal read-only: one no newer server
    has opened yet has no ``vacant_since`` column (nor ``access``, from round
    2's private tables, nor ``timing``, from time banks), and still reads whole."""
    path = tmp_path / "craits.db"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE tables DROP COLUMN timing")
    db.execute("ALTER TABLE tables DROP COLUMN access")
    db.execute("ALTER TABLE tables DROP COLUMN vacant_since")
    db.execute("INSERT INTO tables VALUES ('t', 2, '{}', 60.0, 'Ana', 'waiting', '[]', NULL, 0)")
    db.commit()
    db.close()
    reader = JournalReader(path)
    try:
        (saved,) = reader.tables()
        assert (saved.name, saved.vacant_since, saved.problem) == ("t", None, None)
        assert saved.access is None and saved.timing is None
        assert check_journal(reader).problems == 0
    finally:
        reader.close()
