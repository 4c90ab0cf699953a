"""Time banks through real sockets (protocol §11.10, issue 27): the option
checked, each seat's bank in ``state``/``update``/``deadline`` on a clock the
test moves, an empty bank played for as a timeout, and a restart that gives
the seat to act the time the server was down."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig

from tests.server.manual_time import ManualTime
from tests.support.client import ANA, BEN, deal_order, script
from tests.support.server import Player

BANK = {"bank_ms": 180_000, "increment_ms": 10_000}


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    """The tests' settings, on a clock the test moves."""
    return dataclasses.replace(config, timekeeper=ManualTime())


def moved(server: Server) -> ManualTime:
    time = server.config.timekeeper
    assert isinstance(time, ManualTime)
    return time


async def sit(server: Server) -> list[Player]:
    """Ben (seat 0) and Ana (seat 1) at table ``t`` with a 3 min + 10 s bank,
    its game started: Ben deals, Ana plays first on a turned-up K♥ and holds
    7♥ (:data:`~tests.client.test_table.ANA`)."""
    players = [
        Player(await Connection.open("127.0.0.1", server.port, name=n), n) for n in ("Ben", "Ana")
    ]
    await players[0].send({"type": "create_table", "name": "t", "seats": 2, "time_bank": BANK})
    created = await players[0].expect("table_created")
    assert created["table"]["time_bank"] == BANK and created["table"]["turn_timeout_ms"] == 0
    script(server.tables["t"], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    for p in players:
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    for p in players:
        await p.expect("update")
    return players


async def play_7h(ana: Player, players: list[Player]) -> dict[str, Any]:
    """Ana plays 7♥ (with two players, Ben draws one and plays: R5); returns
    the update everyone gets."""
    await ana.act({"play": "7H"}, seq=True)
    await ana.expect("ok")
    updates = [await p.expect("update") for p in players]
    return updates[0]


async def test_create_table_checks_the_time_bank(server: Server, connect: Any) -> None:
    ana = await connect("Ana")
    refusals = [
        ({"bank_ms": 1000, "increment_ms": 0}, "bad_time_control", "out of range: 30000..7200000"),
        ({"bank_ms": 180_000, "increment_ms": 61_000}, "bad_time_control", "0..60000 ms"),
        ({"bank_ms": 180_000}, "bad_message", "missing field 'increment_ms'"),
        ({"bank_ms": 180_000, "increment_ms": -1}, "bad_message", "must be 0..2147483648"),
        ({**BANK, "extra": 1}, "bad_message", "unexpected field 'extra'"),
        ([180_000, 10_000], "bad_message", "must be a map"),
    ]
    for asked, code, why in refusals:
        await ana.send({"type": "create_table", "name": "t", "seats": 2, "time_bank": asked})
        error = await ana.expect("error")
        assert error["code"] == code and why in error["message"], error
    await ana.send(
        {"type": "create_table", "name": "t", "seats": 2, "time_bank": BANK, "turn_timeout_ms": 0}
    )
    error = await ana.expect("error")
    assert error == {
        "type": "error",
        "code": "bad_time_control",
        "message": "time_bank replaces turn_timeout_ms: send one or the other",
    }
    assert "t" not in server.tables
    await ana.send({"type": "create_table", "name": "plain", "seats": 2})
    assert "time_bank" not in (await ana.expect("table_created"))["table"]


async def test_each_seats_bank_runs_on_its_turn_and_an_empty_one_is_played_for(
    server: Server,
) -> None:
    time = moved(server)
    players = await sit(server)
    ana = players[1]
    first = ana.received[-1]
    assert first["view"]["to_act"] == ana.seat == 1
    assert first["clocks"] == {
        "at_ms": round(time.wall() * 1000),
        "left_ms": [180_000, 180_000],
        "running": 1,
    }
    assert first["deadline_ms"] == 180_000
    time.advance(30.0)
    update = await play_7h(ana, players)
    assert update["view"]["to_act"] == 0
    assert update["clocks"]["running"] == 0
    assert update["clocks"]["left_ms"] == [180_000, 160_000]  # Ana: 180 − 30 + 10
    assert update["deadline_ms"] == 180_000
    # a state sent now shows the same banks
    watcher = Player(await Connection.open("127.0.0.1", server.port, name="Eve"), "Eve")
    await watcher.send({"type": "spectate", "table": "t"})
    state = await watcher.expect("state")
    assert state["clocks"]["left_ms"] == [180_000, 160_000] and state["clocks"]["running"] == 0
    # Ben's bank runs out: the server plays for him, as for a turn timeout
    time.advance(179.0)
    assert all(m.get("notice") is None for m in ana.received)
    time.advance(1.0)
    timed_out = await ana.expect("update", where=lambda m: "notice" in m)
    assert timed_out["notice"] == {"kind": "timeout", "seat": 0, "name": "Ben"}
    # Ben is away: his turns are played at once, adding nothing; Ana's bank runs
    ana_turn = timed_out
    while ana_turn["view"]["to_act"] != 1:
        ana_turn = await ana.expect("update")
    assert ana_turn["clocks"]["left_ms"] == [10_000, 160_000]  # his: the increment only
    assert ana_turn["clocks"]["running"] == 1
    for p in [*players, watcher]:
        await p.close()


async def test_a_restart_gives_the_seat_to_act_the_time_the_server_was_down(
    config: ServerConfig, tmp_path: Path
) -> None:
    config = dataclasses.replace(config, data_dir=tmp_path / "data")
    server = Server(config)
    await server.start()
    time = moved(server)
    players = await sit(server)
    actor = players[1]  # Ana, to act
    time.advance(40.0)
    tokens = {p.name: p.token for p in players}
    for p in players:
        await p.close()
    await server.stop()

    down = ManualTime(wall=time.wall() + 3600.0)  # an hour later
    again = Server(dataclasses.replace(config, timekeeper=down))
    await again.start()
    try:
        back = Player(await Connection.open("127.0.0.1", again.port, name="x"), actor.name)
        await back.send({"type": "resume", "token": tokens[actor.name]})
        state = await back.expect("state")
        seat = actor.seat
        assert seat is not None
        left = state["clocks"]["left_ms"]
        # the 40 s it used stay used; the hour the server was down is not taken
        assert left[seat] == 140_000 and left[1 - seat] == 180_000
        assert state["clocks"]["running"] == seat and state["deadline_ms"] == 140_000
        assert state["table"]["time_bank"] == BANK
        down.advance(140.0)
        timed_out = await back.expect("update", where=lambda m: "notice" in m)
        assert timed_out["notice"] == {"kind": "timeout", "seat": seat, "name": actor.name}
        await back.close()
    finally:
        await again.stop()
