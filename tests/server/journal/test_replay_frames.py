"""A finished game move by move (``docs/records.md`` "Frames", protocol §7.3
``get_replay``): the frames of a real game, exported with ``craits-server
export --frames`` and served over TCP, against what a spectator saw live."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.protocol.types import ReplayMsg
from craits.protocol.vocab import Phase, ServerMessage
from craits.protocol.wire import MAX_SERVER_FRAME, encode
from craits.server.app import Server
from craits.server.engine import Rules
from craits.server.journal.rebuilds import RebuildBudget, seconds
from craits.server.journal.replay_frames import PAGE, hand_frames

from tests.protocol.shapes import problems
from tests.support.processes import run_export
from tests.support.replays import WatchedGame, quick_config, random_game_log
from tests.support.server import Player


@pytest.fixture
def watched(watched_game: WatchedGame) -> WatchedGame:
    """The session's watched and exported game (``tests/support/plugin.py``)."""
    return watched_game


def as_spectator(event: dict[str, Any]) -> dict[str, Any]:
    """A frame's event as a spectator received it live: no seat's cards."""
    if event["event"] == "dealt":
        return {**event, "hands": [None for _ in event["hands"]]}
    if event["event"] == "drew":
        return {**event, "cards": None}
    return event


def all_frames(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for hand in record["hands"] for f in hand["frames"]]


def test_every_frame_is_what_the_spectator_saw_at_that_step(watched: WatchedGame) -> None:
    frames = all_frames(watched.record)
    assert len(frames) == len(watched.updates)
    for i, (frame, update) in enumerate(zip(frames, watched.updates, strict=True)):
        assert frame["view"] == update["view"], i
        assert [as_spectator(e) for e in frame["events"]] == update["events"], i


def test_frames_show_every_hand_and_follow_the_moves(watched: WatchedGame) -> None:
    record = watched.record
    for hand in record["hands"]:
        frames = hand["frames"]
        assert frames[0]["move"] is None and frames[0]["action"] is None
        # the deal shows every seat's cards: as the record's "dealt", and what the
        # turned-up card made a seat draw (R3)
        dealt = [list(cards) for cards in hand["dealt"]]
        for e in frames[0]["events"]:
            if e["event"] == "drew":
                dealt[e["seat"]] += e["cards"]
        assert [sorted(h) for h in frames[0]["hands"]] == [sorted(h) for h in dealt]
        assert len(frames) == len(hand["moves"]) + 1
        for i, (frame, move) in enumerate(zip(frames[1:], hand["moves"], strict=True)):
            assert (frame["move"], frame["seat"], frame["action"]) == (
                i,
                move["seat"],
                move["action"],
            )
        for frame in frames:
            v = frame["view"]
            assert [len(h) for h in frame["hands"]] == v["hand_sizes"]
            assert v["seat"] is None and v["hand"] is None and v["legal"] == []
            if v["phase"] == Phase.PLAY:
                assert set(frame["playable"]) <= set(frame["hands"][v["to_act"]])
            else:
                assert frame["playable"] == []
        assert frames[-1]["view"]["result"] == hand["result"]
        # a draw's cards are shown whole
        drew = [e for f in frames for e in f["events"] if e["event"] == "drew"]
        assert all(e["cards"] and len(e["cards"]) == e["n"] for e in drew)


def test_a_record_exported_without_frames_has_none(watched: WatchedGame, tmp_path: Path) -> None:
    out = tmp_path / "plain.json"
    assert run_export(watched.data, out, "--game", "1").returncode == 0
    assert "frames" not in out.read_text()


async def test_get_replay_over_tcp_pages_a_hand_and_refuses_what_is_not_there(
    watched: WatchedGame,
) -> None:
    srv = Server(quick_config(watched.data))
    await srv.start()
    try:
        p = Player(await Connection.open("127.0.0.1", srv.port, name="Rae"), "Rae")
        for n, hand in enumerate(watched.record["hands"], 1):
            await p.send({"type": "get_replay", "game": 1, "hand": n})
            reply = await p.expect("replay")
            assert not problems(reply, ReplayMsg), problems(reply, ReplayMsg)
            assert (reply["game"], reply["hand"], reply["offset"]) == (1, n, 0)
            assert reply["total"] == len(hand["frames"])
            assert reply["frames"] == hand["frames"][:PAGE]
        await p.send({"type": "get_replay", "game": 1, "hand": 1, "offset": 1})
        second = await p.expect("replay")
        assert second["frames"] == watched.record["hands"][0]["frames"][1 : 1 + PAGE]
        await p.send({"type": "get_replay", "game": 1, "hand": 1, "offset": 10_000})
        assert (await p.expect("replay"))["frames"] == []
        hands = len(watched.record["hands"])
        await p.send({"type": "get_replay", "game": 1, "hand": hands + 1})
        error = await p.expect("error")
        assert error["code"] == "no_such_hand" and f"has {hands} hand" in error["message"]
        await p.send({"type": "get_replay", "game": 99, "hand": 1})
        assert (await p.expect("error"))["code"] == "no_such_game"
        await p.send({"type": "get_replay", "game": 1, "hand": 0})
        assert (await p.expect("error"))["code"] == "bad_message"
        await p.send({"type": "get_replay", "game": 1})
        assert (await p.expect("error"))["code"] == "bad_message"
        await p.send({"type": "ping", "nonce": 1})  # still served after the refusals
        assert (await p.expect("pong"))["nonce"] == 1
        await p.close()
    finally:
        await srv.stop()


def test_a_page_of_an_eight_seat_game_fits_a_clients_frame_limit() -> None:
    """The longest hands (eight random bots) in pages of PAGE frames: each
    ``replay`` message well inside the 1 MiB a client accepts."""
    hands = hand_frames(8, Rules(short_game=True), random_game_log(8, 5))
    longest = max(hands, key=len)
    largest = 0
    for start in range(0, len(longest), PAGE):
        message = {
            "type": ServerMessage.REPLAY,
            "game": 1,
            "hand": 1,
            "offset": start,
            "total": len(longest),
            "frames": longest[start : start + PAGE],
        }
        largest = max(largest, len(encode(message)))
    assert largest < MAX_SERVER_FRAME // 2, largest


async def test_get_replay_at_a_server_without_a_journal_is_no_such_game(
    server: Server, connect: Any
) -> None:
    p = await connect("Rae")
    await p.send({"type": "get_replay", "game": 1, "hand": 1})
    error = await p.expect("error")
    assert error["code"] == "no_such_game"


async def test_rebuilding_games_is_bounded_in_time_and_refused_politely(
    watched: WatchedGame,
) -> None:
    """``get_record`` and ``get_replay`` of a hand not kept replay the game on
    the server's loop: past the server's budget of time for that they are
    answered ``records_busy`` (with the seconds to wait); a kept hand is still
    served, the connection stays, and nothing else waits."""
    config = dataclasses.replace(
        quick_config(watched.data), records_share=0.000_1, records_burst=0.000_1
    )
    srv = Server(config)
    await srv.start()
    try:
        p = Player(await Connection.open("127.0.0.1", srv.port, name="Rae"), "Rae")
        await p.send({"type": "get_replay", "game": 1, "hand": 1})
        assert (await p.expect("replay"))["total"] == len(watched.record["hands"][0]["frames"])
        await p.send({"type": "get_replay", "game": 1, "hand": 1, "offset": 1})
        assert (await p.expect("replay"))["offset"] == 1  # kept: costs nothing
        for asked in (
            {"type": "get_replay", "game": 1, "hand": 2},
            {"type": "get_record", "game": 1},
        ):
            await p.send(asked)
            error = await p.expect("error")
            assert error["code"] == "records_busy", error
            assert re.search(r"ask again in \d+(\.\d)? s$", error["message"]), error["message"]
        other = Player(await Connection.open("127.0.0.1", srv.port, name="Sam"), "Sam")
        await other.send({"type": "create_table", "name": "busy", "seats": 2})
        await other.expect("table_created")
        await p.send({"type": "ping", "nonce": 7})  # not an error of the connection
        assert (await p.expect("pong"))["nonce"] == 7
        await p.close()
        await other.close()
    finally:
        await srv.stop()


def test_the_rebuild_budget_fills_at_its_share_up_to_its_burst() -> None:
    now = [0.0]
    budget = RebuildBudget(share=0.1, burst=2.0, clock=lambda: now[0])
    assert budget.wait() == 0
    budget.spend(3.0)  # a rebuild may overrun what was left
    assert budget.wait() == pytest.approx(10.0)  # 1 s below zero, at 0.1 s a second
    now[0] = 10.5
    assert budget.wait() == 0
    now[0] = 1000.0
    budget.spend(2.0)  # the bucket held no more than its burst
    assert budget.wait() == pytest.approx(0.0)
    budget.spend(0.5)
    assert budget.wait() == pytest.approx(5.0)
    assert (seconds(0.01), seconds(0.3), seconds(2.51), seconds(9.99), seconds(10.2)) == (
        "0.1",
        "0.3",
        "2.6",
        "10.0",
        "11",
    )
    unlimited = RebuildBudget(share=0.0, burst=0.0, clock=lambda: now[0])
    unlimited.spend(100.0)
    assert unlimited.wait() == 0
