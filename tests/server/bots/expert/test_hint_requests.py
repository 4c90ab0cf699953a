"""Hints and post-game analyses asked over the wire (protocol §7.6): a real server
on a loopback port, real msgpack clients, the expert's real worker processes.

A seated player with a decision gets the expert's move — one of its legal
actions, which the server then accepts — and its best choices; everyone else gets
a clear refusal, and a second hint while one runs is ``hint_pending``. A finished
game's analysis comes ``running`` then ``ready`` to everyone who asked, is the very
analysis of the game's record (:func:`analyse`, the server's seed and budget), is
kept (asked again: ``ready`` at once), and ``seat`` keeps that seat's decisions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from craits.server.app import Server, ServerConfig
from craits.server.bots.expert.analysis import analyse
from craits.server.net.analysis_requests import AnalysisDesk, use_desk

from tests.support.server import Player, finished_game, settle, strip_seat

pytestmark = pytest.mark.timeout(900)  # worker processes on 2 busy cores

WORKER = 120.0
"""Seconds a hint may take (a worker process to start on a busy machine)."""

BUDGET = 300
"""The analysis' simulated actions per decision here: its shape is what is checked."""


def _choices(view: dict[str, Any]) -> int:
    return len([a for a in view["legal"] if "play" in a])


async def _answer(p: Player) -> dict[str, Any]:
    """The next ``hint`` or ``error`` ``p`` gets (what answers its request)."""
    while True:
        m = await p.recv(WORKER)
        if m["type"] in ("hint", "error"):
            return m


async def test_a_seated_player_with_a_decision_gets_the_experts_move(
    server: Server, connect: Any
) -> None:
    """The hint answers the asker's position (its ``seq``); its move is legal and
    played; off the turn, to a spectator, away from a table and before a game: refused."""
    ana, ben, eve, dan = [await connect(n) for n in ("Ana", "Ben", "Eve", "Dan")]
    await dan.send({"type": "hint"})
    assert (await _answer(dan))["code"] == "not_at_table"
    await dan.send({"type": "create_table", "name": "w", "seats": 3})
    await dan.expect("table_created")
    await dan.send({"type": "join", "table": "w", "name": "Dan"})
    await dan.expect("joined")
    await dan.send({"type": "hint"})
    assert (await _answer(dan))["code"] == "game_not_running"

    await ana.send({"type": "create_table", "name": "h", "seats": 2})
    await ana.expect("table_created")
    await eve.send({"type": "spectate", "table": "h"})
    await eve.expect("state")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "h", "name": p.name})
        await p.expect("joined")
    await settle([ana, ben], 1)
    await eve.send({"type": "hint"})
    assert (await _answer(eve))["code"] == "spectator"

    rng = random.Random(5)
    for _ in range(200):  # play on until the seat to act has two cards it may play
        actor = next(p for p in (ana, ben) if p.view and p.view["to_act"] == p.seat)
        assert actor.view is not None
        if _choices(actor.view) >= 2:
            break
        turn = [a for a in actor.view["legal"] if "idiot" not in a]
        await actor.act(strip_seat(rng.choice(turn)))
        await settle([ana, ben], actor.seq + 1)
    other = ben if actor is ana else ana
    await other.send({"type": "hint"})
    refused = await _answer(other)
    assert refused["code"] == "nothing_to_decide", refused

    await actor.send({"type": "hint"})
    await actor.send({"type": "hint"})  # while the first is worked out
    answers = [await _answer(actor), await _answer(actor)]
    assert [a["type"] for a in answers] == ["error", "hint"], answers
    assert answers[0]["code"] == "hint_pending"
    message = answers[1]
    assert message["table"] == "h" and message["seq"] == actor.seq
    hint = message["hint"]
    assert hint["seat"] == actor.seat and hint["kind"] == "play" and hint["worlds"] > 0
    assert actor.view is not None
    legal = [strip_seat(a) for a in actor.view["legal"]]
    assert hint["expert"] in legal
    assert 2 <= len(hint["choices"]) <= 3
    assert hint["choices"][0]["action"] == hint["expert"]
    assert all(c["action"] in legal for c in hint["choices"])
    assert all(isinstance(c["points_x100"], int) for c in hint["choices"])
    assert hint["choices"][0]["se_x100"] == 0  # (the expert's choice against itself)
    assert all(isinstance(c["se_x100"], int) for c in hint["choices"])
    played = await actor.act(hint["expert"])
    await actor.expect("ok", where=lambda m: m.get("id") == played)


async def test_a_finished_games_analysis_comes_to_everyone_who_asked_and_is_kept(
    config: ServerConfig, tmp_path: Path
) -> None:
    """``running`` then ``ready`` to both askers; the analysis of the game's record
    at the server's seed (0) and budget; ``seat`` keeps that seat's decisions;
    asked again, ``ready`` at once; a game or seat that is not: refused."""
    config.data_dir = tmp_path
    srv = Server(config)
    use_desk(srv, AnalysisDesk(budget=BUDGET))
    await srv.start()
    try:
        (ana, ben), _ = await finished_game(srv)
        await ana.send({"type": "get_record", "game": 1})
        record = (await ana.expect("record"))["record"]
        expected = analyse(record, seed=0, budget=BUDGET)
        assert {e["seat"] for e in expected["decisions"]} == {0, 1}

        await ana.send({"type": "analysis", "game": 1, "seat": 1})
        await ben.send({"type": "analysis", "game": 1})
        for p in (ana, ben):
            first = await p.expect("analysis", timeout=30)
            assert first["state"] == "running" and first["game"] == 1
        mine = await ana.expect("analysis", timeout=600, where=lambda m: m["state"] == "ready")
        every = await ben.expect("analysis", timeout=600, where=lambda m: m["state"] == "ready")
        assert mine["seat"] == 1 and "seat" not in every
        assert json.loads(every["analysis"]) == expected
        ones = [e for e in expected["decisions"] if e["seat"] == 1]
        assert json.loads(mine["analysis"]) == {**expected, "decisions": ones}
        assert mine["done"] == mine["total"] == len(ones)

        await ben.send({"type": "analysis", "game": 1, "seat": 0})
        again = await ben.expect("analysis", timeout=30)  # kept: at once, no "running"
        assert again["state"] == "ready"
        zeros = [e for e in expected["decisions"] if e["seat"] == 0]
        assert json.loads(again["analysis"])["decisions"] == zeros

        for asked, code in [
            ({"game": 1, "seat": 2}, "bad_seat"),
            ({"game": 9}, "no_such_game"),
        ]:
            await ben.send({"type": "analysis", **asked})
            refused = await ben.expect("error", timeout=30)
            assert refused["code"] == code, refused
        for p in (ana, ben):
            await p.close()
    finally:
        await srv.stop()
