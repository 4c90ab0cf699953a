"""Correspondence games through real sockets, on a clock the test moves
(protocol §11.11, issue 27): a three-day game whose moves come days apart,
its seats kept with nobody connected, ``my_games`` listing the asker's turns
first, the option checked, and a restart in the middle of someone's turn that
gives back the hour the server was down (after a stop, and after a death)."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig

from tests.server.manual_time import ManualTime
from tests.support.client import ANA, BEN, deal_order, script
from tests.support.server import Player

HOUR = 3600.0
DAY = 24 * HOUR
THREE_DAYS_MS = 259_200_000


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    """The tests' settings on a clock the test moves, with the server's own
    abandon times (a correspondence game must outlast them)."""
    return dataclasses.replace(
        config, timekeeper=ManualTime(), abandon_after=1800.0, abandon_offline_after=600.0
    )


def moved(server: Server) -> ManualTime:
    time = server.config.timekeeper
    assert isinstance(time, ManualTime)
    return time


async def player(server: Server, name: str) -> Player:
    return Player(await Connection.open("127.0.0.1", server.port, name=name), name)


async def open_game(
    server: Server, table: str, first: Player, second: Player, turn_ms: int
) -> None:
    """``first`` (seat 0, who deals) and ``second`` (seat 1, who plays first)
    at a correspondence table ``table``; the game starts."""
    await first.send(
        {"type": "create_table", "name": table, "seats": 2, "correspondence_ms": turn_ms}
    )
    created = await first.expect("table_created")
    assert created["table"]["correspondence_ms"] == turn_ms
    assert created["table"]["turn_timeout_ms"] == turn_ms
    script(server.tables[table], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    for p in (first, second):
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    for p in (first, second):
        await p.expect("update")


async def my_games(server: Server, *tokens: str | None) -> list[dict[str, Any]]:
    """``my_games`` on a fresh connection, with ``tokens``."""
    asker = await player(server, "x")
    await asker.send({"type": "my_games", "tokens": [t for t in tokens if t]})
    games: list[dict[str, Any]] = (await asker.expect("games"))["games"]
    await asker.close()
    return games


async def test_create_table_checks_the_correspondence_turn(server: Server, connect: Any) -> None:
    ana = await connect("Ana")
    limits = ana.conn.welcome["limits"]
    assert limits["max_correspondence_ms"] == THREE_DAYS_MS
    refusals = [
        ({"correspondence_ms": 3_599_999}, "out of range: 3600000..259200000 ms (1 hour to 3 days"),
        ({"correspondence_ms": THREE_DAYS_MS + 1}, "out of range: 3600000..259200000"),
        ({"correspondence_ms": 86_400_000, "turn_timeout_ms": 60_000}, "replaces turn_timeout_ms"),
        (
            {"correspondence_ms": 86_400_000, "time_bank": {"bank_ms": 60_000, "increment_ms": 0}},
            "replaces turn_timeout_ms and time_bank",
        ),
    ]
    for asked, why in refusals:
        await ana.send({"type": "create_table", "name": "c", "seats": 2, **asked})
        error = await ana.expect("error")
        assert error["code"] == "bad_time_control" and why in error["message"], error
    await ana.send({"type": "create_table", "name": "c", "seats": 2, "correspondence_ms": "1d"})
    assert (await ana.expect("error"))["code"] == "bad_message"
    assert "c" not in server.tables
    await ana.send(
        {"type": "create_table", "name": "c", "seats": 2, "correspondence_ms": 3_600_000}
    )
    assert (await ana.expect("table_created"))["table"]["correspondence_ms"] == 3_600_000


async def test_a_three_day_game_whose_moves_come_days_apart(server: Server) -> None:
    time = moved(server)
    ben, ana = await player(server, "Ben"), await player(server, "Ana")
    await open_game(server, "t", ben, ana, THREE_DAYS_MS)  # Ana plays first
    assert ana.received[-1]["deadline_ms"] == THREE_DAYS_MS
    ana2, ben2 = await player(server, "Ana"), await player(server, "Ben")
    await open_game(server, "u", ana2, ben2, THREE_DAYS_MS)  # there Ben plays first
    eve = await player(server, "Eve")  # watches t throughout
    await eve.send({"type": "spectate", "table": "t"})
    await eve.expect("state")
    tokens = {"Ana": (ana.token, ana2.token), "Ben": (ben.token, ben2.token)}
    for p in (ana, ben, ana2, ben2):
        await p.close()

    # two days on, nobody connected: nobody was played for, nothing abandoned
    time.advance(2 * DAY)
    assert set(server.tables) == {"t", "u"}
    info = (await eve.expect("table_info", where=lambda m: not m["table"]["people_connected"]))[
        "table"
    ]
    assert not info["on_hold"] and [p["away"] for p in info["players"]] == [False, False]
    assert all("notice" not in m for m in eve.received)
    games = await my_games(server, *tokens["Ana"])
    assert [(g["table"], g["your_turn"]) for g in games] == [("t", True), ("u", False)]
    mine = games[0]
    assert mine["seat"] == 1 and mine["name"] == "Ana" and mine["to_act_name"] == "Ana"
    assert mine["deadline_ms"] == round(1 * DAY * 1000)
    assert mine["deadline_at_ms"] == round((time.wall() + DAY) * 1000)
    assert mine["correspondence_ms"] == THREE_DAYS_MS and mine["state"] == "playing"
    assert [(g["table"], g["your_turn"]) for g in await my_games(server, *tokens["Ben"])] == [
        ("u", True),
        ("t", False),
    ]

    # Ana comes back and plays; her turn took two days
    ana = await player(server, "Ana")
    await ana.send({"type": "resume", "token": tokens["Ana"][0]})
    state = await ana.expect("state")
    assert state["deadline_ms"] == round(DAY * 1000)
    await ana.act({"play": "7H"}, seq=True)
    await ana.expect("ok")
    played = await ana.expect("update")
    assert played["view"]["to_act"] == 0 and played["deadline_ms"] == THREE_DAYS_MS
    await ana.send({"type": "leave"})  # the seat waits for her: not away
    await ana.expect("left")
    info = (await eve.expect("table_info", where=lambda m: not m["table"]["people_connected"]))[
        "table"
    ]
    assert [p["away"] for p in info["players"]] == [False, False]

    # Ben does not come back for three days: then, and not before, he is played for
    time.advance(3 * DAY - 1)
    assert all("notice" not in m for m in eve.received)
    time.advance(1)
    timed_out = await eve.expect("update", where=lambda m: "notice" in m)
    assert timed_out["notice"] == {"kind": "timeout", "seat": 0, "name": "Ben"}
    assert "t" in server.tables
    await eve.close()


async def test_a_restart_in_the_middle_of_a_turn_gives_back_the_time_it_was_down(
    config: ServerConfig, tmp_path: Path
) -> None:
    config = dataclasses.replace(config, data_dir=tmp_path / "data")
    server = Server(config)
    await server.start()
    time = moved(server)
    ben, ana = await player(server, "Ben"), await player(server, "Ana")
    await open_game(server, "t", ben, ana, round(DAY * 1000))  # Ana plays first
    time.advance(5 * HOUR)
    tokens = (ana.token, ben.token)
    for p in (ana, ben):
        await p.close()
    await server.stop()

    down = ManualTime(wall=time.wall() + HOUR)  # the server was down an hour
    again = Server(dataclasses.replace(config, timekeeper=down))
    await again.start()
    try:
        games = await my_games(again, *tokens)
        assert [(g["seat"], g["your_turn"]) for g in games] == [(1, True), (0, False)]
        assert games[0]["deadline_ms"] == round(19 * HOUR * 1000)  # 24 − 5: the hour given back
        assert games[0]["deadline_at_ms"] == round((down.wall() + 19 * HOUR) * 1000)
        # nobody resumes: the turn runs on all the same, and times out on time
        down.advance(19 * HOUR - 1)
        games = await my_games(again, *tokens)
        assert games[0]["your_turn"] and games[0]["deadline_ms"] == 1000
        down.advance(1)
        back = await player(again, "Ana")
        await back.send({"type": "resume", "token": tokens[0]})
        state = await back.expect("state")
        assert [n["kind"] for n in state["notices"]] == ["timeout"]
        assert state["notices"][0]["seat"] == 1
        await back.close()
    finally:
        await again.stop()


async def journal_caught_up(server: Server) -> None:
    """Wait until the journal has committed every write queued so far."""
    journal = server.journal
    assert journal is not None
    async with asyncio.timeout(10.0):
        while journal.pending:
            await asyncio.sleep(0.01)


def what_a_crash_leaves(path: Path, copy: Path) -> None:
    """The committed state of the journal at ``path``, as a server killed now
    would leave it (nothing of a stop), copied to ``copy``."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = sqlite3.connect(copy)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


async def test_a_server_that_dies_mid_turn_gives_back_its_time_down_and_ten_minutes_at_most(
    config: ServerConfig, tmp_path: Path
) -> None:
    config = dataclasses.replace(config, data_dir=tmp_path / "data")
    server = Server(config)
    await server.start()
    time = moved(server)
    ben, ana = await player(server, "Ben"), await player(server, "Ana")
    try:
        await open_game(server, "t", ben, ana, round(DAY * 1000))  # Ana plays first
        time.advance(25 * 60)  # the turn's time left was recorded at 10 and 20 minutes
        await journal_caught_up(server)
        crashed = tmp_path / "crashed"
        crashed.mkdir()
        what_a_crash_leaves(tmp_path / "data" / "craits.db", crashed / "craits.db")
    finally:
        for p in (ana, ben):
            await p.close()
        await server.stop()

    down = ManualTime(wall=time.wall() + HOUR)
    again = Server(dataclasses.replace(config, data_dir=crashed, timekeeper=down))
    await again.start()
    try:
        games = await my_games(again, ana.token)
        assert games[0]["your_turn"]
        # 24 h − 20 min: the hour down given back, and the 5 minutes since the last record
        assert games[0]["deadline_ms"] == round((DAY - 20 * 60) * 1000)
    finally:
        await again.stop()


async def test_my_games_shows_no_clock_running_for_a_game_on_hold(server: Server) -> None:
    ben, ana = await player(server, "Ben"), await player(server, "Ana")
    await ben.send({"type": "create_table", "name": "t", "seats": 2, "turn_timeout_ms": 60_000})
    await ben.expect("table_created")
    script(server.tables["t"], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    for p in (ben, ana):
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    await ana.expect("update")
    (playing,) = await my_games(server, ana.token)
    assert playing["your_turn"] and playing["deadline_ms"] == 60_000 and not playing["on_hold"]
    assert "correspondence_ms" not in playing
    tokens = (ana.token, ben.token)
    for p in (ana, ben):
        await p.close()
    async with asyncio.timeout(10.0):  # both connections dropped: the game waits
        while not server.tables["t"].status.on_hold():
            await asyncio.sleep(0.01)
    (held,) = await my_games(server, tokens[0])
    assert held["on_hold"] and held["your_turn"]
    assert held["deadline_ms"] is None and held["deadline_at_ms"] is None


async def test_after_a_restart_a_bots_turn_is_played_with_nobody_back(
    config: ServerConfig, tmp_path: Path
) -> None:
    config = dataclasses.replace(config, data_dir=tmp_path / "data", bot_delay=60.0)
    server = Server(config)
    await server.start()
    time = moved(server)
    ana = await player(server, "Ana")
    await ana.send(
        {"type": "create_table", "name": "t", "seats": 2, "correspondence_ms": 3_600_000}
    )
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "t", "name": "Ana"})
    await ana.expect("joined")
    await ana.send({"type": "add_bot"})
    first = await ana.expect("update")
    while first["view"]["to_act"] != 1:  # Ana plays until it is the bot's turn
        assert first["view"]["to_act"] == 0
        turn = [a for a in first["view"]["legal"] if "idiot" not in a and "announce" not in a]
        await ana.act({k: v for k, v in turn[0].items() if k != "seat"}, seq=True)
        first = await ana.expect("update")
    token = ana.token
    await ana.close()
    await server.stop()  # the bot's move was due in a minute

    down = ManualTime(wall=time.wall() + HOUR)
    again = Server(dataclasses.replace(config, timekeeper=down))
    await again.start()
    try:
        (before,) = await my_games(again, token)
        assert before["to_act"] == 1 and not before["your_turn"]
        down.advance(61.0)  # nobody came back: the bot plays all the same
        async with asyncio.timeout(10.0):
            while (await my_games(again, token))[0]["to_act"] == 1:
                await asyncio.sleep(0.01)
                down.advance(61.0)
    finally:
        await again.stop()
