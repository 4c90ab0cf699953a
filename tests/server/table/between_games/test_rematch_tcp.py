"""The rematch over real sockets (protocol §11.12, issue 27): after a whole
game, both players accept and the same table plays the next game with the
players one seat on; a decline frees the seat for a newcomer; an old
client's ``leave`` does the same; the offer and the series survive a restart."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig

from tests.support.server import Player, finished_game, play_until

WAIT = 20.0
"""Seconds a test waits for one message (a ceiling: the machine may be busy)."""


def info_where(cond: Any) -> Any:
    return lambda m: cond(m["table"])


async def offered(player: Player) -> dict[str, Any]:
    """The table info that opens the rematch, as ``player`` receives it."""
    message = await player.expect(
        "table_info", WAIT, info_where(lambda t: t["state"] == "finished" and "rematch" in t)
    )
    info: dict[str, Any] = message["table"]
    return info


async def test_both_accept_and_the_next_game_starts_one_seat_on(
    server: Server, connect: Any
) -> None:
    (ana, ben), _ = await finished_game(server)
    info = await offered(ana)
    assert info["rematch"] == {"accepted": [], "waiting": [0, 1]}
    series = info["series"]
    assert sorted(series) in ([0, 1], [1, 1])  # one winner, or a shared win (R2)
    await ben.send({"type": "rematch"})
    counted = await ana.expect(
        "table_info", WAIT, info_where(lambda t: t.get("rematch", {}).get("accepted") == [1])
    )
    assert counted["table"]["rematch"]["waiting"] == [0]
    await ana.send({"type": "rematch", "accept": True})
    for p, seat in ((ana, 1), (ben, 0)):
        update = await p.expect("update", WAIT, lambda m: m["view"]["hand_number"] == 1)
        assert update["view"]["seat"] == seat and update["view"]["phase"] in ("play", "hand_over")
        state = await p.expect("state", WAIT)
        assert state["seat"] == seat and state["view"]["seat"] == seat
        table = state["table"]
        assert table["state"] == "playing" and "rematch" not in table
        assert [s["name"] for s in table["players"]] == ["Ben", "Ana"]
        assert table["series"] == [series[1], series[0]]  # the wins moved with the players
    # Ana's resume token follows her to seat 1
    again = Player(await Connection.open("127.0.0.1", server.port, name="x"), "Ana")
    await again.send({"type": "resume", "token": ana.token})
    assert (await again.expect("resumed", WAIT))["seat"] == 1
    await again.close()
    for p in (ana, ben):
        await p.close()


async def test_a_decline_frees_the_seat_and_a_newcomer_plays_the_rematch(
    server: Server, connect: Any
) -> None:
    (ana, ben), _ = await finished_game(server)
    await offered(ana)
    await ben.send({"type": "rematch", "accept": False})
    assert (await ben.expect("left", WAIT))["table"] == "r"
    state = await ana.expect("state", WAIT)
    assert state["seat"] == 0 and state["view"] is None and state["score_sheet"] == []
    info = await ana.expect("table_info", WAIT, info_where(lambda t: t["state"] == "waiting"))
    assert [s["name"] for s in info["table"]["players"]] == ["Ana"]
    assert info["table"]["rematch"] == {"accepted": [], "waiting": [0]}
    assert info["table"]["seats"] == 2 and info["table"]["game"] is None
    eve = await connect("Eve")
    await eve.send({"type": "join", "table": "r", "name": "Eve"})
    assert (await eve.expect("joined", WAIT))["seat"] == 1
    full = await ana.expect("table_info", WAIT, info_where(lambda t: len(t["players"]) == 2))
    assert full["table"]["state"] == "waiting"  # not before Ana accepts
    assert full["table"]["rematch"] == {"accepted": [1], "waiting": [0]}
    await ana.send({"type": "rematch"})
    state = await eve.expect("state", WAIT, lambda m: m["table"]["state"] == "playing")
    assert state["seat"] == 0 and [s["name"] for s in state["table"]["players"]] == ["Eve", "Ana"]
    assert server.tables["r"].game is not None


async def test_an_old_client_s_leave_frees_the_seat_and_a_bot_may_take_it(
    server: Server, connect: Any
) -> None:
    (ana, ben), _ = await finished_game(server)
    await offered(ben)
    await ana.send({"type": "leave"})  # the creator leaves: Ben may seat a bot (§11.2)
    await ana.expect("left", WAIT)
    await ben.expect("table_info", WAIT, info_where(lambda t: t["state"] == "waiting"))
    assert [s.name for s in server.tables["r"].seats] == ["Ben"]
    await ben.send({"type": "add_bot"})
    waiting = await ben.expect(
        "table_info", WAIT, info_where(lambda t: t.get("rematch", {}).get("accepted") == [1])
    )
    assert waiting["table"]["state"] == "waiting"  # Ben has not accepted yet
    await ben.send({"type": "rematch"})
    await ben.expect("state", WAIT, lambda m: m["table"]["state"] == "playing")
    assert [s.name for s in server.tables["r"].seats] == ["basic-bot-1", "Ben"]


async def test_no_rematch_while_a_game_runs_and_none_for_a_spectator(
    server: Server, connect: Any
) -> None:
    ana, ben, eve = await connect("Ana"), await connect("Ben"), await connect("Eve")
    await ana.send({"type": "create_table", "name": "g", "seats": 2})
    await ana.expect("table_created", WAIT)
    for p in (ana, ben):
        await p.send({"type": "join", "table": "g", "name": p.name})
        await p.expect("joined", WAIT)
    await eve.send({"type": "rematch"})
    assert (await eve.expect("error", WAIT))["code"] == "not_at_table"
    for accept in (True, False):
        await ana.send({"type": "rematch", "accept": accept})
        assert (await ana.expect("error", WAIT))["code"] == "no_rematch"
    assert server.tables["g"].seats[0].member is not None  # a refused decline leaves nobody
    await ana.send({"type": "rematch", "accept": 1})
    assert (await ana.expect("error", WAIT))["code"] == "bad_message"


async def test_the_offer_and_the_series_survive_a_restart(
    config: ServerConfig, tmp_path: Path
) -> None:
    config.data_dir = tmp_path / "data"
    first = Server(config)
    await first.start()
    try:
        (ana, ben), _ = await finished_game(first)
        info = await offered(ana)
        await ana.send({"type": "rematch"})
        await ben.expect(
            "table_info", WAIT, info_where(lambda t: t.get("rematch", {}).get("accepted") == [0])
        )
        for p in (ana, ben):
            await p.close()
    finally:
        await first.stop()
    second = Server(config)
    await second.start()
    try:
        table = second.tables["r"]
        assert table.status.state == "finished"
        back = Player(await Connection.open("127.0.0.1", second.port, name="Ben"), "Ben")
        await back.send({"type": "resume", "token": ben.token})
        state = await back.expect("state", WAIT)
        assert state["table"]["rematch"] == {"accepted": [0], "waiting": [1]}
        assert state["table"]["series"] == info["series"]
        assert state["view"]["phase"] == "game_over"  # the finished game, as it ended
        await back.send({"type": "rematch"})
        update = await back.expect("update", WAIT)
        assert update["view"]["seat"] == 0 and update["view"]["hand_number"] == 1
        assert [s.name for s in table.seats] == ["Ben", "Ana"]
        back.seat = 0
        # the new game is played to its end like any: a second offer, the series goes on
        await back.close()
    finally:
        await second.stop()


async def test_a_second_game_of_the_series_adds_to_the_wins(server: Server, connect: Any) -> None:
    (ana, ben), _ = await finished_game(server)
    before = (await offered(ana))["series"]
    for p in (ana, ben):
        await p.send({"type": "rematch"})
    for p, seat in ((ana, 1), (ben, 0)):
        await p.expect("state", WAIT, lambda m: m["table"]["state"] == "playing")
        p.seat = seat

    def over() -> bool:
        return ana.view is not None and ana.view["phase"] == "game_over"

    await play_until([ana, ben], over, random.Random(5))
    info = await offered(ana)
    assert info["rematch"] == {"accepted": [], "waiting": [0, 1]}
    won = info["series"]
    assert won[1] + won[0] > sum(before)  # Ana at 1 now, Ben at 0
    assert won[1] >= before[0] and won[0] >= before[1]
