"""The journal's writer (issue 25): a process of its own commits the journal,
so the event loop never waits for a write, a commit or an fsync; what a batch's
moves caused goes out once the batch is committed; writes that wait meanwhile
go in one batch (group commit); a writer that dies pauses the tables, with one
line for the operator; a write that fails spoils only what it wrote to.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import signal
import sqlite3
from pathlib import Path

import pytest
from craits.server.app import Server, ServerConfig
from craits.server.journal.writer import Writer

from tests.server.journal.test_journal_failure import actor_of, seat_two
from tests.support.faulty import build_journal
from tests.support.processes import open_player
from tests.support.server import Player, strip_seat


async def _move(players: list[Player], rng: random.Random) -> tuple[Player, int]:
    """The player to act sends a random legal action; returns them and its id."""
    actor = actor_of(players)
    assert actor.view is not None
    return actor, await actor.act(strip_seat(rng.choice(actor.view["legal"])))


async def _answer(player: Player, action_id: int) -> dict[str, object]:
    """The ``ok`` or the error that answers ``action_id``."""
    while True:
        message = await player.recv(15)
        if message.get("id") == action_id:
            return message


async def test_the_loop_serves_while_a_commit_waits(config: ServerConfig, tmp_path: Path) -> None:
    """The test runs on the server's own event loop and holds the database's
    write lock from outside. Before, the loop waited inside the commit (SQLite's
    busy timeout, 5 s): this test could not run to let the lock go, and the
    commit failed (``table_paused``). Now the writer waits; the loop, and this
    test on it, go on; nothing about the action is sent meanwhile; once the
    lock is let go the action is answered ``ok`` and is in the journal."""
    config.data_dir = tmp_path / "data"
    server = Server(config)
    await server.start()
    locker = sqlite3.connect(str(config.data_dir / "craits.db"), isolation_level=None)
    try:
        players = await seat_two(server, "t")
        journal = server.journal
        assert journal is not None
        locker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        actor, action_id = await _move(players, random.Random(3))
        for _ in range(20):  # the loop goes round: the server takes the act in
            await asyncio.sleep(0.01)
        assert journal.pending  # its write waits for the lock
        await actor.drain(0.1)
        assert not any(m.get("id") == action_id for m in actor.received)
        locker.execute("COMMIT")
        assert (await _answer(actor, action_id))["type"] == "ok"
        (data,) = locker.execute(
            "SELECT data FROM log WHERE kind = 'action' ORDER BY n DESC LIMIT 1"
        ).fetchone()
        assert json.loads(data)["id"] == action_id
    finally:
        locker.close()
        await server.stop()


async def test_writes_that_wait_for_a_batch_go_in_the_next_one_together(
    config: ServerConfig, tmp_path: Path
) -> None:
    """Group commit: while a batch waits (held here by a lock from outside),
    the writes of three more tables queue, and go to the writer as one batch."""
    config.data_dir = tmp_path / "data"
    server = Server(config)
    await server.start()
    locker = sqlite3.connect(str(config.data_dir / "craits.db"), isolation_level=None)
    rng = random.Random(4)
    try:
        tables = [await seat_two(server, name) for name in ("a", "b", "c", "d")]
        journal = server.journal
        assert journal is not None
        locker.execute("BEGIN IMMEDIATE")
        first = await _move(tables[0], rng)
        while not journal.out.batches or journal.written(journal.submitted):
            await asyncio.sleep(0.01)  # the first batch is in flight, held by the lock
        before = journal.out.batches
        more = [await _move(players, rng) for players in tables[1:]]
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert journal.out.batches == before  # they wait for the batch in flight
        locker.execute("COMMIT")
        for actor, action_id in [first, *more]:
            assert (await _answer(actor, action_id))["type"] == "ok"
        assert journal.out.batches == before + 1  # all three in one batch
    finally:
        locker.close()
        await server.stop()


async def test_a_writer_that_dies_pauses_the_tables_and_says_so_once(
    config: ServerConfig, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The writer killed (say, by the kernel's out-of-memory killer): nothing
    unrecorded is announced, the tables pause, the operator reads one line,
    and the server goes on serving (it is not stuck)."""
    config.data_dir = tmp_path / "data"
    server = Server(config)
    await server.start()
    rng = random.Random(5)
    try:
        players = await seat_two(server, "t")
        journal = server.journal
        assert journal is not None
        os.kill(journal._link.proc.pid, signal.SIGKILL)
        journal._link.proc.wait()
        with caplog.at_level(logging.ERROR, logger="craits.server"):
            actor, action_id = await _move(players, rng)
            answer = await _answer(actor, action_id)
            assert answer["type"] == "error" and answer["code"] == "table_paused"
            maker = players[1]  # a new table: not created, and it says so
            await maker.send({"type": "create_table", "name": "u", "seats": 2})
            refused = await maker.expect("error", 15, lambda m: "'u'" in m["message"])
            assert refused["code"] == "table_paused"
        lines = [r.getMessage() for r in caplog.records]
        stopped = [line for line in lines if "writer stopped (exit status" in line]
        assert len(stopped) == 1, lines  # once, then each table says it paused
        assert "restart the server" in stopped[0]
        for p in players:
            await p.close()
    finally:
        await server.stop()


def _db(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), isolation_level=None)
    db.executescript(
        "CREATE TABLE log (game_id INTEGER NOT NULL, n INTEGER NOT NULL, kind TEXT NOT NULL,"
        " data TEXT NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID;"
        "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, table_name TEXT NOT NULL,"
        " players TEXT NOT NULL, rules TEXT NOT NULL, started REAL NOT NULL, finished REAL,"
        " result TEXT);"
    )
    return db


def test_a_failed_write_spoils_only_its_own_log_and_those_after_it(tmp_path: Path) -> None:
    """One batch of three games' appends, one of which cannot be written (its
    row is there already): the others are committed, whole; later writes to
    the failed game fail too (its log never has a gap)."""
    db = _db(tmp_path / "j.db")
    db.execute("INSERT INTO log VALUES (2, 0, 'start', '{}')")
    writer = Writer(db)
    rows = [[1, 0, "start", {}], [2, 0, "start", {"x": 1}], [3, 0, "start", {"y": [1, 2]}]]
    ops = [["a", t, g, g - 1, g, None, None] for t, g in ((1, 1), (2, 2), (3, 3))]
    failed = writer.write(ops, json.dumps(rows))
    assert [f[:3] for f in failed] == [[2, "game", 2]]
    assert "UNIQUE" in failed[0][3]
    stored = db.execute("SELECT game_id, n, kind, data FROM log ORDER BY game_id").fetchall()
    assert [(g, n, k, json.loads(d)) for g, n, k, d in stored] == [
        (1, 0, "start", {}),
        (2, 0, "start", {}),
        (3, 0, "start", {"y": [1, 2]}),
    ]
    later = writer.write(
        [["a", 4, 2, 0, 1, None, None], ["a", 5, 1, 1, 2, None, None]],
        json.dumps([[2, 1, "action", {}], [1, 1, "action", {}]]),
    )
    assert [f[:3] for f in later] == [[4, "game", 2]]
    assert db.execute("SELECT COUNT(*) FROM log WHERE game_id = 1").fetchone() == (2,)


async def test_records_read_off_the_loop_are_answered_in_the_order_asked(
    config: ServerConfig, tmp_path: Path
) -> None:
    """``list_records``, ``get_record`` and ``get_replay`` read the journal in a
    thread (the loop goes on); what the connection sends after them waits, so
    the replies come in the order of the requests."""
    built = await build_journal(tmp_path / "data")
    config.data_dir = built.data
    server = Server(config)
    await server.start()
    try:
        p = await open_player(server.port, "Ana")
        await p.send({"type": "list_records"})
        await p.send({"type": "get_record", "game": 1})
        await p.send({"type": "get_replay", "game": 2, "hand": 1})
        await p.send({"type": "get_record", "game": 99})
        await p.send({"type": "ping"})
        kinds = [(await p.recv(15))["type"] for _ in range(5)]
        assert kinds == ["records", "record", "replay", "error", "pong"]
        assert [g["id"] for g in p.received[-5]["games"]] == [3, 2, 1]
        assert p.received[-2]["code"] == "no_such_game"
        await p.close()
    finally:
        await server.stop()
