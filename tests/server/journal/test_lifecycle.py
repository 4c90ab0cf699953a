"""A table's life across restarts, with a real ``craits-server`` process:

- remembered replies (protocol §4.8, §11.5) survive a SIGKILL and a restart, for a
  game's last move and a hand's last move (issue 11, faults 5);
- a game nobody is connected to ends after ``--abandon-after``, its record kept
  and marked abandoned, the clock surviving a restart; a creator can end a game
  by closing its table (issue 11, abuse 2).
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from craits.server.app import Server, ServerConfig
from craits.server.journal.journal import Journal
from craits.server.journal.records import verify_record
from craits.server.table.ports import TableRow

from tests.support.paths import REPO
from tests.support.processes import (
    SERVER,
    free_port,
    open_player,
    run_export,
    start_server,
    stop_server,
)
from tests.support.server import Player, finished_game, play_until, settle

VERIFY = [sys.executable, str(REPO / "scripts" / "verify_record.py")]


start = start_server
"""``craits-server`` on ``port`` with its journal in ``data`` (see :func:`start_server`)."""


async def kill(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL: no goodbye, no last checkpoint."""
    proc.send_signal(signal.SIGKILL)
    await proc.wait()


async def seated(port: int, table: str, names: list[str], **create: Any) -> list[Player]:
    """``names`` connected and seated at a new ``table`` (the first creates it);
    the game has started once they are all seated."""
    players = [await open_player(port, n) for n in names]
    await players[0].send({"type": "create_table", "name": table, "seats": len(names), **create})
    await players[0].expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    await settle(players, 1)
    return players


async def resumed(port: int, old: Player) -> Player:
    """``old``'s player back on a new connection with its token (its action ids go on)."""
    p = await open_player(port, old.name)
    p.seat, p.token, p._next_id = old.seat, old.token, old._next_id
    await p.send({"type": "resume", "token": old.token})
    await p.expect("resumed")
    await p.expect("state")
    return p


def last_actor(players: list[Player]) -> Player:
    """The player whose action made the last update: the seat its first event with
    a seat names (an update can open with an event of no seat, such as the count's
    change; failed once that way)."""
    last = max(
        (m for p in players for m in p.received if m.get("type") == "update"),
        key=lambda m: m["seq"],
    )
    seat = next(e["seat"] for e in last["events"] if "seat" in e)
    return next(p for p in players if p.seat == seat)


async def resend_after_restart(tmp_path: Path, until: str) -> dict[str, Any]:
    """Play until ``until`` ("game_over", or "hand_over": the end of hand 1),
    SIGKILL the server, start it again, resume the last actor's seat and send
    its last action id again; returns the reply with that id."""
    data, port = tmp_path / "data", free_port()
    pause = "30" if until == "hand_over" else "0.01"  # killed before the next deal
    proc = await start(port, data, "--hand-pause", pause)
    try:
        players = await seated(port, "r", ["Ana", "Ben"], rules={"short_game": True})

        def reached() -> bool:
            v = players[0].view
            return v is not None and v["phase"] == until

        await play_until(players, reached, random.Random(5))
        actor = last_actor(players)
        last_id = actor._next_id
    finally:
        await kill(proc)
    for p in players:
        await p.close()
    proc = await start(port, data)
    try:
        again = await resumed(port, actor)
        await again.send({"type": "act", "id": last_id, "action": {"draw": True}})
        reply = await again.expect("ok", where=lambda m: m.get("id") == last_id)
        await again.close()
        return reply
    except TimeoutError:
        errors = [m for m in again.received if m.get("type") == "error"]
        raise AssertionError(f"no remembered ok for id {last_id}: {errors}") from None
    finally:
        await stop_server(proc)


async def test_a_resent_game_ending_move_gets_its_ok_after_a_sigkill_and_restart(
    tmp_path: Path,
) -> None:
    reply = await resend_after_restart(tmp_path, "game_over")
    assert reply["type"] == "ok"


async def test_a_resent_hand_ending_move_gets_its_ok_after_a_sigkill_and_restart(
    tmp_path: Path,
) -> None:
    reply = await resend_after_restart(tmp_path, "hand_over")
    assert reply["type"] == "ok"


# ------------------------------------------------------------ abandoned games


async def watcher(port: int) -> Player:
    """A lobby watcher (not at a table) on the server at ``port``."""
    w = await open_player(port, "Watcher")
    await w.send({"type": "list_tables", "watch": True})
    await w.expect("tables")
    return w


async def closed_at(w: Player, table: str, timeout: float) -> float:
    """When (``time.monotonic()``) the watcher ``w`` is told ``table`` closed."""
    await w.expect("table_closed", timeout, where=lambda m: m["name"] == table)
    return time.monotonic()


def exported(data: Path, out: Path) -> dict[str, Any]:
    """The one record ``craits-server export`` writes from ``data`` (finished games only)."""
    run = run_export(data, out)
    assert run.returncode == 0, run.stderr
    (path,) = sorted(out.glob("craits-game-*.json"))
    record: dict[str, Any] = json.loads(path.read_text())
    check = subprocess.run([*VERIFY, str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
    record["verified"] = check.stdout
    return record


async def test_a_game_nobody_is_at_is_abandoned_counted_from_the_departure_across_a_restart(
    tmp_path: Path,
) -> None:
    data, port = tmp_path / "data", free_port()
    after = 10.0  # room for two server starts on a busy machine before it is up
    proc = await start(port, data, "--abandon-after", str(after))
    try:
        players = await seated(port, "a", ["Ana", "Ben"])
        for p in players:
            await p.close()
        gone = time.monotonic()
        # the departure is recorded with the table: wait a little, then kill the server
        await asyncio.sleep(2.0)
    finally:
        await kill(proc)
    restarted = time.monotonic()
    proc = await start(port, data, "--abandon-after", str(after))
    try:
        w = await watcher(port)
        listed = w.received[-1]["tables"]
        assert [t["name"] for t in listed] == ["a"] and listed[0]["state"] == "playing"
        when = await closed_at(w, "a", timeout=3 * after)
        # counted from the departure, not from the restart (2 s and more later):
        # never before its time, and sooner than the full time from the restart,
        # however long the machine takes to start the server
        assert when - gone >= after - 0.5, when - gone
        assert when - restarted < after, (when - gone, when - restarted)
        await w.send({"type": "list_records"})
        (entry,) = (await w.expect("records"))["games"]
        assert entry["table"] == "a" and entry["finished"]
        await w.close()
    finally:
        await stop_server(proc)
    record = exported(data, tmp_path / "out")
    assert record["abandoned"] == "nobody_connected" and record["complete"] is False
    assert record["winners"] == [] and len(record["hands"]) == 1
    assert "1 hand, abandoned: nobody was connected" in record["verified"]


async def test_a_restored_table_nobody_comes_back_to_gets_the_full_time_at_most(
    tmp_path: Path,
) -> None:
    """The players were still connected when the server was killed: the count
    starts at the restart, and a second restart does not start it again."""
    data, port = tmp_path / "data", free_port()
    after = 10.0  # room for two server starts on a busy machine before it is up
    proc = await start(port, data, "--abandon-after", str(after))
    try:
        players = await seated(port, "b", ["Ana", "Ben"])
    finally:
        await kill(proc)
    for p in players:
        await p.close()
    launched = time.monotonic()
    proc = await start(port, data, "--abandon-after", str(after))
    try:
        await asyncio.sleep(3.0)
    finally:
        await kill(proc)
    relaunched = time.monotonic()
    proc = await start(port, data, "--abandon-after", str(after))
    try:
        w = await watcher(port)
        assert [t["name"] for t in w.received[-1]["tables"]] == ["b"]
        when = await closed_at(w, "b", timeout=3 * after)
        # from the first restart on (3 s and more before the second): not the full
        # time again from the second, however long the machine takes to start it
        assert when - launched >= after - 0.5, when - launched
        assert when - relaunched < after, (when - launched, when - relaunched)
        await w.close()
    finally:
        await stop_server(proc)
    record = exported(data, tmp_path / "out")
    assert record["abandoned"] == "nobody_connected"


async def test_a_player_back_stops_the_count(config: ServerConfig) -> None:
    config.abandon_after = 0.4
    srv = Server(config)
    await srv.start()
    try:
        players = await seated(srv.port, "c", ["Ana", "Ben"])
        ana, ben = players
        await ana.close()
        await ben.close()
        back = await resumed(srv.port, ana)  # before the time is up
        await asyncio.sleep(0.8)
        assert "c" in srv.tables and srv.tables["c"].status.playing
        assert srv.tables["c"].abandon_clock.since is None
        await back.close()  # gone again: the count starts over
        await asyncio.sleep(0.8)
        assert "c" not in srv.tables
    finally:
        await srv.stop()


async def test_a_spectator_or_a_bot_does_not_keep_a_game_alive(config: ServerConfig) -> None:
    config.abandon_after = 0.3
    srv = Server(config)
    await srv.start()
    try:
        ana = await open_player(srv.port, "Ana")
        await ana.send({"type": "create_table", "name": "d", "seats": 2})
        await ana.expect("table_created")
        await ana.send({"type": "join", "table": "d", "name": "Ana"})
        await ana.expect("joined")
        await ana.send({"type": "add_bot"})
        await ana.expect("update")
        cy = await open_player(srv.port, "Cy")
        await cy.send({"type": "spectate", "table": "d"})
        await cy.expect("state")
        await ana.close()
        closed = await cy.expect("table_closed", timeout=10)
        assert closed["name"] == "d" and "d" not in srv.tables
        await cy.close()
    finally:
        await srv.stop()


async def test_no_abandon_time_means_never(config: ServerConfig) -> None:
    config.abandon_after = 0.0
    srv = Server(config)
    await srv.start()
    try:
        players = await seated(srv.port, "e", ["Ana", "Ben"])
        for p in players:
            await p.close()
        await asyncio.sleep(0.3)
        table = srv.tables["e"]
        assert table.status.playing and table.abandon_clock.since is None
    finally:
        await srv.stop()


async def test_the_practice_table_abandoned_is_replaced(config: ServerConfig) -> None:
    config.abandon_after = 0.3
    config.bots = 1
    srv = Server(config)
    await srv.start()
    try:
        ana = await open_player(srv.port, "Ana")
        await ana.send({"type": "join", "table": "practice", "name": "Ana"})
        await ana.expect("joined")
        await ana.expect("update")
        first = srv.tables["practice"]
        w = await watcher(srv.port)
        await ana.close()
        await w.expect("table_closed", timeout=10, where=lambda m: m["name"] == "practice")
        fresh = await w.expect("table_info", where=lambda m: m["table"]["name"] == "practice")
        assert fresh["table"]["state"] == "waiting"
        assert srv.tables["practice"] is not first
        await w.close()
    finally:
        await srv.stop()


async def test_the_creator_closes_a_running_table_after_asking(
    config: ServerConfig, tmp_path: Path
) -> None:
    config.data_dir = tmp_path / "data"
    srv = Server(config)
    await srv.start()
    try:
        ana, ben = await seated(srv.port, "f", ["Ana", "Ben"])
        await ana.send({"type": "close_table"})
        refused = await ana.expect("error")
        assert refused["code"] == "game_running" and "end_game" in refused["message"]
        await ben.send({"type": "close_table", "end_game": True})
        assert (await ben.expect("error"))["code"] == "not_creator"
        await ana.send({"type": "close_table", "end_game": False})
        assert (await ana.expect("error"))["code"] == "game_running"
        assert srv.tables["f"].status.playing
        await ana.send({"type": "close_table", "end_game": True})
        for p in (ana, ben):
            assert (await p.expect("table_closed"))["name"] == "f"
        assert "f" not in srv.tables
        await ben.send({"type": "resume", "token": ben.token})
        assert (await ben.expect("error"))["code"] == "bad_token"
        await ana.send({"type": "list_records"})
        (entry,) = (await ana.expect("records"))["games"]
        await ana.send({"type": "get_record", "game": entry["id"]})
        record = (await ana.expect("record"))["record"]
        assert record["abandoned"] == "closed_by_creator" and not record["complete"]
        assert verify_record(record) == []
        for p in (ana, ben):
            await p.close()
    finally:
        await srv.stop()


async def test_closing_a_finished_table_needs_no_confirmation(config: ServerConfig) -> None:
    srv = Server(config)
    await srv.start()
    try:
        ana, ben = await seated(srv.port, "g", ["Ana", "Ben"], rules={"short_game": True})
        await play_until(
            [ana, ben],
            lambda: ana.view is not None and ana.view["phase"] == "game_over",
            random.Random(2),
        )
        await ana.expect("table_info", where=lambda m: m["table"]["state"] == "finished")
        await ana.send({"type": "close_table"})
        assert (await ana.expect("table_closed"))["name"] == "g"
        for p in (ana, ben):
            await p.close()
    finally:
        await srv.stop()


async def test_a_record_says_abandoned_only_of_a_game_that_did_not_end(
    config: ServerConfig, tmp_path: Path
) -> None:
    config.data_dir = tmp_path / "data"
    server = Server(config)
    await server.start()
    players, _ = await finished_game(server)
    ana = players[0]
    await ana.send({"type": "list_records"})
    (entry,) = (await ana.expect("records"))["games"]
    await ana.send({"type": "get_record", "game": entry["id"]})
    record = (await ana.expect("record"))["record"]
    assert record["abandoned"] is None and verify_record(record) == []
    forged = {**record, "abandoned": "nobody_connected"}
    assert verify_record(forged) == ["a game played to its end is recorded as abandoned"]
    odd = {**record, "complete": False, "abandoned": "bored"}
    assert "unknown reason for an abandoned game: 'bored'" in verify_record(odd)
    older = {k: v for k, v in record.items() if k != "abandoned"}  # before the field
    assert verify_record(older) == []
    for p in players:
        await p.close()
    await server.stop()


OLD_TABLES = """CREATE TABLE tables (
    name TEXT PRIMARY KEY,
    capacity INTEGER NOT NULL,
    rules TEXT NOT NULL,
    turn_timeout REAL NOT NULL,
    creator TEXT,
    state TEXT NOT NULL,
    seats TEXT NOT NULL,
    game_id INTEGER,
    updated REAL NOT NULL
)"""
"""The tables' rows as journals made them before the abandon clock."""


def test_a_journal_from_before_the_abandon_clock_gains_its_column(tmp_path: Path) -> None:
    path = tmp_path / "craits.db"
    db = sqlite3.connect(path)
    db.execute(OLD_TABLES)
    db.execute("INSERT INTO tables VALUES ('t', 2, '{}', 60, NULL, 'waiting', '[]', NULL, 1)")
    db.commit()
    db.close()
    journal = Journal(path)
    (old,) = journal.tables()
    assert old.name == "t" and old.vacant_since is None
    journal.save_table(TableRow("u", 2, {}, 60, None, "playing", [], None, 1234.5))
    assert {t.name: t.vacant_since for t in journal.tables()} == {"t": None, "u": 1234.5}
    journal.close()


def test_the_abandon_time_is_on_the_command_line() -> None:
    helped = subprocess.run([*SERVER, "--help"], capture_output=True, text=True)
    assert "--abandon-after SECONDS" in helped.stdout and "abandoned" in helped.stdout
    bad = subprocess.run([*SERVER, "--abandon-after", "-1"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--abandon-after must be >= 0" in bad.stderr
