"""An expert bot at a real server, through real sockets (protocol §11.8).

Ana, a client over TCP that plays the basic bot's moves from her views, seats
an ``expert`` bot with ``add_bot`` at a two-seat short-game table (R2); the
game runs to its end. The expert's searches run in the server's worker process
(``craits.server.bots.expert.worker``), never on the event loop: while the game
goes on; the figures of how little the loop stalls are ``scripts/expert_load.py``'s.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
from craits.server.app import Server
from craits.server.bots import choose_basic
from craits.server.bots.expert.worker import default_pool

from tests.support.server import Player, connect, strip_seat

__all__ = ["connect"]


async def test_an_expert_bot_plays_a_whole_short_game_at_a_real_server(
    server: Server, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The expert's moves come as ordinary updates; the game ends (R2) with both seats scored.

    The pool's workers search at 100 simulated actions a decision (its fewest worlds), not the bot's
    20,000: what is tested (the searches run in the workers, their answers come back
    as moves, the game ends) is the same at any budget, and the game takes seconds
    rather than a minute (its workers run at the lowest priority, so on a busy
    machine far longer)."""
    monkeypatch.setattr(default_pool(), "budget", 100)
    ana: Player = await connect("Ana")
    await ana.send({"type": "create_table", "name": "x", "seats": 2, "rules": {"short_game": True}})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "x", "name": "Ana"})
    await ana.expect("joined")
    await ana.send({"type": "add_bot", "level": "expert"})
    info = await ana.expect("table_info", where=lambda m: len(m["table"]["players"]) == 2)
    assert info["table"]["players"][1]["bot"] == "expert"
    bot_moves = 0
    async with asyncio.timeout(100):
        while ana.view is None or ana.view["phase"] != "game_over":
            m = await ana.recv(100)
            if m["type"] != "update" or ana.view is None:
                continue
            if m["view"]["phase"] == "play" and any(
                e.get("seat") == 1 and e["event"] in ("played", "drew", "suit_named")
                for e in m["events"]
            ):
                bot_moves += 1
            v = ana.view
            if v["phase"] == "play" and v["to_act"] == ana.seat:
                choice = choose_basic(v)
                assert choice is not None
                await ana.act(strip_seat(choice), seq="play" in choice or "draw" in choice)
    final = ana.view
    assert final is not None and final["phase"] == "game_over"
    assert final["hand_number"] == 8
    assert bot_moves > 8
    # the searches ran in the pool's worker processes, which are still there
    workers = default_pool().worker_pids()
    assert workers and os.getpid() not in workers
