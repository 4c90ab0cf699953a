"""A journal write that fails: nothing is sent, the table pauses at its last
recorded state, and a restart restores exactly that state (issue: nothing lost).

The failure is real: SQLite's ``max_page_count`` caps the database at its
current size, so the next write that needs a page fails with "database or disk
is full", as on a full disk.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig
from craits.server.engine import view
from craits.server.errors import JournalError

from tests.support.processes import SERVER, free_port, open_player, start_server, stop_server
from tests.support.server import Player, settle, strip_seat


async def seat_two(server: Server, table: str) -> list[Player]:
    players = [
        Player(await Connection.open("127.0.0.1", server.port, name=n), n) for n in ("Ana", "Ben")
    ]
    await players[0].send({"type": "create_table", "name": table, "seats": 2})
    await players[0].expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    await settle(players, 1)
    return players


def actor_of(players: list[Player]) -> Player:
    view = players[0].view
    assert view is not None and view["phase"] == "play"
    return next(p for p in players if p.seat == view["to_act"])


def public(view: dict[str, Any]) -> dict[str, Any]:
    """What both seats see alike of a view."""
    return {k: v for k, v in view.items() if k not in ("seat", "hand", "drawn", "legal")}


async def test_a_failed_write_sends_nothing_pauses_the_table_and_a_restart_restores_it(
    config: ServerConfig, tmp_path: Path
) -> None:
    config.data_dir = tmp_path / "data"
    server = Server(config)
    await server.start()
    rng = random.Random(5)
    try:
        players = await seat_two(server, "t")
        other = await seat_two(server, "u")  # another table, on the same journal
        for _ in range(3):
            actor = actor_of(players)
            assert actor.view is not None
            await actor.act(strip_seat(rng.choice(actor.view["legal"])))
            await actor.expect("ok")
            await settle(players, actor.seq + 1)
        journal = server.journal
        assert journal is not None
        (pages,) = journal.db.execute("PRAGMA page_count").fetchone()
        journal.set_max_pages(pages)
        # play until a write needs a new page and fails: an action's, or the
        # next deal's (written by the table's timer between hands)
        paused_on = None
        for _ in range(500):
            recorded = [p.view for p in players]
            seq = players[0].seq
            assert recorded[0] is not None
            if recorded[0]["phase"] != "play":
                message = await players[0].recv()
                while message["type"] not in ("update", "error"):
                    message = await players[0].recv()
                if message["type"] == "error":
                    assert message["code"] == "table_paused"
                    paused_on = "deal"
                    break
                await settle(players, players[0].seq)
                continue
            actor = actor_of(players)
            assert actor.view is not None
            action_id = await actor.act(strip_seat(rng.choice(actor.view["legal"])))
            reply = await actor.recv()
            while reply.get("id") != action_id:  # the ok or the error answering it
                reply = await actor.recv()
            if reply["type"] == "error":
                assert reply["code"] == "table_paused"
                paused_on = "action"
                break
            assert reply["type"] == "ok"
            await settle(players, seq + 1)
        assert paused_on is not None, "no write failed"
        for p in players:
            await p.drain(0.2)
            # everyone is told; nobody got an update about the unrecorded action
            assert any(m.get("code") == "table_paused" for m in p.received[-3:])
            assert p.seq == seq
        # a seat that resumes sees the last recorded state, not the refused action
        ana = players[0]
        assert ana.token is not None
        await ana.send({"type": "resume", "token": ana.token})
        state = await ana.expect("state")
        assert state["view"] == recorded[0]
        # the other table was not touched: it has not written since, and is not paused
        for p in other:
            await p.drain(0.05)
            assert not any(m.get("code") == "table_paused" for m in p.received)
        assert server.tables["u"].status.state == "playing"
    finally:
        await server.stop()
    # a restart on the same journal restores the table at that recorded state
    restarted = Server(config)
    await restarted.start()
    try:
        table = restarted.tables["t"]
        assert table.game is not None and table.status.state == "playing"
        assert public(view(table.game, 0)) == public(recorded[0])
        assert view(table.game, 0)["hand"] == recorded[0]["hand"]
        assert view(table.game, 1)["hand"] == recorded[1]["hand"]
    finally:
        await restarted.stop()


async def test_nothing_about_an_action_is_sent_until_its_journal_write_is_committed(
    tmp_path: Path,
) -> None:
    """Validate → apply → write → send, seen from outside: a real server
    process, whose database another program holds locked. The server's commit
    waits for the lock; the ok and the update wait for the commit, and when
    they arrive the action is in the journal."""
    data = tmp_path / "data"
    port = free_port()
    proc = await start_server(port, data)
    try:
        players = [await open_player(port, n) for n in ("Ana", "Ben")]
        await players[0].send({"type": "create_table", "name": "t", "seats": 2})
        await players[0].expect("table_created")
        for p in players:
            await p.send({"type": "join", "table": "t", "name": p.name})
            await p.expect("joined")
        await settle(players, 1)
        rng = random.Random(8)
        locker = sqlite3.connect(str(data / "craits.db"), isolation_level=None)
        try:
            for _ in range(3):
                actor = actor_of(players)
                assert actor.view is not None
                seq = actor.seq
                locker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
                action_id = await actor.act(strip_seat(rng.choice(actor.view["legal"])))
                other = next(p for p in players if p is not actor)
                before = len(other.received)
                await actor.drain(0.3)
                await other.drain(0.0)
                assert not any(m.get("id") == action_id for m in actor.received)
                assert len(other.received) == before and actor.seq == seq
                locker.execute("COMMIT")
                await actor.expect("ok", where=lambda m, i=action_id: m.get("id") == i)
                (data_row,) = locker.execute(
                    "SELECT data FROM log WHERE kind = 'action' ORDER BY n DESC LIMIT 1"
                ).fetchone()
                assert json.loads(data_row)["id"] == action_id
                await settle(players, seq + 1)
                if players[0].view is None or players[0].view["phase"] != "play":
                    break
        finally:
            locker.close()
        for p in players:
            await p.close()
    finally:
        await stop_server(proc)


async def test_a_second_server_on_the_same_data_dir_is_refused(
    config: ServerConfig, tmp_path: Path
) -> None:
    """Two servers never write one journal: the second is refused, naming the first."""
    config.data_dir = tmp_path / "data"
    first = Server(config)
    await first.start()
    try:
        # the first server at work (messages written, journal committed) still holds it
        players = await seat_two(first, "t")
        second = Server(ServerConfig(**{**config.__dict__}))
        with pytest.raises(JournalError, match=rf"pid {os.getpid()}.*{config.data_dir}"):
            await second.start()
        for p in players:
            await p.close()
    finally:
        await first.stop()
    # once the first has stopped, the data dir is free again
    third = Server(config)
    await third.start()
    await third.stop()
    # and a real second process is refused with that message and exit status 1
    data = tmp_path / "other"
    port = free_port()
    proc = await start_server(port, data)
    try:
        refused = await asyncio.create_subprocess_exec(
            *SERVER,
            "--port",
            str(free_port()),
            "--data-dir",
            str(data),
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(refused.communicate(), 20)
        assert refused.returncode == 1
        assert f"pid {proc.pid}" in err.decode() and "--data-dir" in err.decode()
    finally:
        await stop_server(proc)
