"""The ``state`` message's ``events`` and ``score_sheet`` (protocol §7.1, round 2):
a seat that comes back, or a spectator who arrives, reads the hand so far exactly
as it was sent to it (never a hidden card) and the score sheet of the hands ended,
across a reconnection and a server restart."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from craits.protocol import wire
from craits.server.app import Server, ServerConfig
from craits.server.engine import Event, events_for
from craits.server.engine.events import Dealt, Drew, HandEnded
from craits.server.table.gamelog import HAND_EVENTS_MAX, HandLog

from tests.server.table.test_audit import card_codes
from tests.support.processes import open_player
from tests.support.server import Player, play_until, settle


async def _seated(port: int, names: list[str], **create: Any) -> list[Player]:
    players = [await open_player(port, n) for n in names]
    await players[0].send({"type": "create_table", "name": "h", "seats": len(names), **create})
    await players[0].expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": "h", "name": p.name})
        await p.expect("joined")
    return players


def hand_so_far(p: Player) -> list[dict[str, Any]]:
    """The events of the hand in play as ``p`` received them in updates: from the
    last ``dealt`` (hand 1: from the ``cut``)."""
    events = [e for m in p.received if m["type"] == "update" for e in m["events"]]
    start = max(i for i, e in enumerate(events) if e["event"] == "dealt")
    if start and events[start - 1]["event"] == "cut":
        start -= 1
    return events[start:]


async def _back(port: int, old: Player) -> tuple[Player, dict[str, Any]]:
    p = await open_player(port, old.name)
    p.seat, p.token, p._next_id = old.seat, old.token, old._next_id
    await p.send({"type": "resume", "token": old.token})
    await p.expect("resumed")
    return p, await p.expect("state")


async def _watch(port: int, name: str) -> tuple[Player, dict[str, Any]]:
    w = await open_player(port, name)
    await w.send({"type": "spectate", "table": "h"})
    return w, await w.expect("state")


def _drawn_by(seat: int, events: list[dict[str, Any]]) -> list[str]:
    return [c for e in events if e["event"] == "drew" and e["seat"] == seat for c in e["cards"]]


async def test_a_seat_back_reads_the_hand_so_far_as_it_saw_it(server: Server) -> None:
    ana, ben, cy = await _seated(server.port, ["Ana", "Ben", "Cy"])
    watcher, first = await _watch(server.port, "Wat")
    assert first["score_sheet"] == []
    rng = random.Random(5)
    everyone = [ana, ben, cy, watcher]
    await settle(everyone, 1)

    def hand_two_under_way() -> bool:
        v = ana.view
        return v is not None and v["hand_number"] == 2 and v["phase"] == "play"

    await play_until(everyone, hand_two_under_way, rng)
    steps = 0
    while not _drawn_by(1, hand_so_far(ben)) and steps < 200:  # a draw of Ben's to hide
        await play_until(everyone, lambda: False, rng, max_steps=1)
        if ana.view is None or ana.view["hand_number"] != 2:
            break
        steps += 1
    seen_by_ben = hand_so_far(ben)
    await ben.close()
    ben, state = await _back(server.port, ben)
    assert state["events"] == seen_by_ben
    assert state["events"][0]["event"] == "dealt"
    assert state["events"][0]["hand_number"] == 2
    # a late spectator reads what the spectator who stayed read: no hand, no drawn card
    late, seen = await _watch(server.port, "Late")
    assert seen["events"] == hand_so_far(watcher)
    for e in seen["events"]:
        if e["event"] == "dealt":
            assert e["hands"] == [None, None, None]
        if e["event"] == "drew":
            assert e["cards"] is None
    others = set(ana.view["hand"] if ana.view else []) | set(cy.view["hand"] if cy.view else [])
    assert not others & set(card_codes(state["events"])) - set(ben.view["hand"] or [])
    # the sheet holds hand 1 as its hand_ended said
    ended = next(
        e
        for m in ana.received
        if m["type"] == "update"
        for e in m["events"]
        if e["event"] == "hand_ended"
    )
    (row,) = state["score_sheet"]
    assert row == seen["score_sheet"][0]
    assert row["hand_number"] == 1
    assert row["scores"] == ended["scores"]
    assert row["penalties"] == ended["penalties"]
    assert row["points"] == [r["points"] for r in sorted(ended["results"], key=lambda r: r["seat"])]
    for p in (late, ben):
        await p.close()


async def test_the_hand_so_far_and_the_sheet_survive_a_server_restart(
    config: ServerConfig, tmp_path: Path
) -> None:
    config.data_dir = tmp_path / "data"
    srv = Server(config)
    await srv.start()
    rng = random.Random(7)
    try:
        ana, ben = await _seated(srv.port, ["Ana", "Ben"])
        await settle([ana, ben], 1)

        def hand_two_moved() -> bool:
            v = ana.view
            return v is not None and v["hand_number"] == 2 and len(hand_so_far(ana)) > 4

        await play_until([ana, ben], hand_two_moved, rng)
        seen_by_ana = hand_so_far(ana)
        sheet_before = [
            e["scores"]
            for m in ana.received
            if m["type"] == "update"
            for e in m["events"]
            if e["event"] == "hand_ended"
        ]
        await ana.close()
        await ben.close()
    finally:
        await srv.stop()
    srv = Server(config)
    await srv.start()
    try:
        back, state = await _back(srv.port, ana)
        assert state["events"] == seen_by_ana
        assert [r["scores"] for r in state["score_sheet"]] == sheet_before
        await back.close()
    finally:
        await srv.stop()


def test_a_long_hand_keeps_its_latest_events_within_the_frame_limit() -> None:
    log = HandLog()
    deal = Dealt(1, 0, 8, tuple(("2S",) * 8 for _ in range(8)), 40)
    draws: list[Event] = [Drew(s % 8, 2, ("AS", "KD"), "count") for s in range(3 * HAND_EVENTS_MAX)]
    log.take([deal, *draws])
    assert len(log.events) == HAND_EVENTS_MAX
    for seat in (0, None):
        body = wire.pack({"type": "state", "events": log.events_for(seat)})
        assert len(body) < wire.MAX_SERVER_FRAME // 4
    # a spectator's copy went through the filter
    assert all(e["cards"] is None for e in log.events_for(None))
    assert log.events_for(None) == events_for(log.events, None)


def test_a_new_deal_and_a_new_game_start_the_log_and_the_sheet_over() -> None:
    log = HandLog()
    deal = Dealt(1, 0, 1, ((), ()), 40)
    ended = HandEnded(1, (), (3, 0), (0, 0), 1, False, (), (0, 0))
    log.take([deal, Drew(0, 1, ("AS",), "turn"), ended])
    assert [type(e) for e in log.events] == [Dealt, Drew, HandEnded]
    log.take([deal._replace(hand_number=2)])
    assert len(log.events) == 1 and len(log.score_sheet()) == 1
    assert log.score_sheet()[0]["scores"] == [3, 0]
