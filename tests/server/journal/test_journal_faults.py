"""Faults of the disk and of the people running the server (issue 11, items 7,
8, 9 and 11), against real ``craits-server`` processes.

- A journal that cannot be written stops the server at start, with one line
  and exit status 4; the server never changes the permissions of a file it
  did not create.
- ``create_table`` whose row cannot be written is not answered
  ``table_created`` (protocol §4.8: nothing about an unrecorded step is sent).
- The lock is on the database itself: deleting ``craits.lock`` does not let a
  second server run on the same journal.
- SIGHUP stops the server as SIGTERM does: clients are told ``shutdown`` and
  every acknowledged step is in the journal.

Tests run as root, where a file's mode stops no write: ``chattr +i`` makes a
file (or a directory) truly unwritable; without it those tests are skipped.
"""

from __future__ import annotations

import random
import signal
import stat
from pathlib import Path

from tests.support.faulty import immutable, launch
from tests.support.processes import open_player
from tests.support.server import Player, play_until, settle


async def _journal(data: Path) -> None:
    """A journal with one table in it, written by a real server."""
    server = await launch(data)
    p = await open_player(server.port, "Ana")
    await p.send({"type": "create_table", "name": "t", "seats": 2})
    await p.expect("table_created")
    await p.send({"type": "join", "table": "t", "name": "Ana"})
    await p.expect("joined")
    await p.close()
    assert server.stop() == 0


async def test_a_journal_it_did_not_create_keeps_its_permissions(tmp_path: Path) -> None:
    """Before: the server chmodded an existing journal to 0600 at every start."""
    data = tmp_path / "data"
    await _journal(data)
    db = data / "craits.db"
    assert stat.S_IMODE(db.stat().st_mode) == 0o600  # one it created: owner-only
    db.chmod(0o640)  # the operator's choice (a backup group, say)
    server = await launch(data)
    assert server.code is None, server.stderr
    assert server.stop() == 0
    assert stat.S_IMODE(db.stat().st_mode) == 0o640


async def test_a_journal_that_cannot_be_written_is_refused_at_start(tmp_path: Path) -> None:
    """Before: the server started, and every table paused at its first write."""
    data = tmp_path / "data"
    await _journal(data)
    db = data / "craits.db"
    before = (db.read_bytes(), db.stat().st_mode)
    with immutable(db):
        server = await launch(data)
    assert server.code == 4, server.stderr
    assert server.stderr == (
        f"craits-server: cannot write the journal {db}: Operation not permitted\n"
    )
    assert (db.read_bytes(), db.stat().st_mode) == before


async def test_a_data_directory_that_cannot_be_written_is_refused_at_start(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    await _journal(data)
    with immutable(data):
        server = await launch(data)
    assert server.code == 4, server.stderr
    lines = server.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("craits-server: cannot write the journal ")
    assert f"is the data directory {data} writable?" in lines[0]


async def test_create_table_whose_row_cannot_be_written_is_not_answered_table_created(
    tmp_path: Path,
) -> None:
    """Before: ``table_created`` (and the lobby's ``table_info``) went out,
    and after a restart the table did not exist."""
    data = tmp_path / "data"
    server = await launch(data)
    try:
        watcher = await open_player(server.port, "Wat")
        await watcher.send({"type": "list_tables", "watch": True})
        await watcher.expect("tables")
        maker = await open_player(server.port, "Ana")
        await maker.send({"type": "create_table", "name": "first", "seats": 2})
        await maker.expect("table_created")
        await watcher.expect("table_info", where=lambda m: m["table"]["name"] == "first")
        # the disk fails: every write to the write-ahead log is refused
        with immutable(data / "craits.db-wal"):
            await maker.send({"type": "create_table", "name": "second", "seats": 2})
            reply = await maker.recv()
            await maker.send({"type": "list_tables"})
            listed = await maker.expect("tables")
        assert reply["type"] == "error" and reply["code"] == "table_paused", reply
        assert reply["message"] == "table 'second' was not created: the server could not record it"
        assert [t["name"] for t in listed["tables"]] == ["first"]
        await watcher.drain(0.2)
        assert not any(
            m["type"] == "table_info" and m["table"]["name"] == "second" for m in watcher.received
        )
        # the disk is back: the name is free, and this time it is recorded
        await maker.send({"type": "create_table", "name": "second", "seats": 3})
        assert (await maker.expect("table_created"))["table"]["seats"] == 3
        await maker.close()
        await watcher.close()
    finally:
        server.stop()
    again = await launch(data)
    try:
        p = await open_player(again.port, "Ben")
        await p.send({"type": "list_tables"})
        tables = (await p.expect("tables"))["tables"]
        assert {t["name"]: t["seats"] for t in tables} == {"first": 2, "second": 3}
        await p.close()
    finally:
        again.stop()


async def test_deleting_the_lock_file_does_not_let_a_second_server_in(tmp_path: Path) -> None:
    """Before: the lock was on ``craits.lock``; deleted, a second server ran
    on the same journal and the two destroyed a table between them."""
    data = tmp_path / "data"
    first = await launch(data)
    assert first.code is None, first.stderr
    try:
        (data / "craits.lock").unlink()
        second = await launch(data)
        assert second.code == 1, second.stderr
        assert second.stderr == (
            f"craits-server: another craits-server (pid ?) is using the journal in {data}; "
            "stop it, or give this one its own --data-dir\n"
        )
        # the first goes on, alone
        p = await open_player(first.port, "Ana")
        await p.send({"type": "create_table", "name": "t", "seats": 2})
        await p.expect("table_created")
        await p.close()
    finally:
        assert first.stop() == 0
    third = await launch(data)  # once the first has gone, the journal is free
    assert third.code is None, third.stderr
    assert third.stop() == 0


async def test_sighup_stops_the_server_as_sigterm_does(tmp_path: Path) -> None:
    """Before: SIGHUP killed the server at once; its clients were not told."""
    data = tmp_path / "data"
    server = await launch(data)
    players = [await open_player(server.port, n) for n in ("Ana", "Ben")]
    await players[0].send({"type": "create_table", "name": "t", "seats": 2})
    await players[0].expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    await settle(players, 1)

    def some_moves() -> bool:
        v = players[0].view
        return v is not None and v["discard_size"] >= 4

    await play_until(players, some_moves, random.Random(2))
    seen = dict(players[0].view or {})
    tokens = [(p.name, p.token) for p in players]
    assert server.stop(signal.SIGHUP) == 0, server.stderr
    for p in players:
        told = await p.expect("error")
        assert told["code"] == "shutdown"
        await p.close()
    again = await launch(data)
    try:
        name, token = tokens[0]
        ana = Player((await open_player(again.port, name)).conn, name)
        await ana.send({"type": "resume", "token": token})
        await ana.expect("resumed")
        state = await ana.expect("state")
        for key in ("hand", "hand_sizes", "top", "count", "to_act", "stock_size"):
            assert state["view"][key] == seen[key], key
        await ana.close()
    finally:
        again.stop()
