"""A whole game between real clients over TCP (RULES.md R2), and what each saw."""

from __future__ import annotations

import random
from typing import Any

from craits.server.app import Server

from tests.support.server import play_until


async def test_two_players_play_a_whole_short_game(server: Server, connect: Any) -> None:
    ana = await connect("Ana")
    ben = await connect("Ben")
    await ana.send(
        {"type": "create_table", "name": "t1", "seats": 2, "rules": {"short_game": True}}
    )
    created = await ana.expect("table_created")
    assert created["table"]["seats"] == 2
    await ana.send({"type": "join", "table": "t1", "name": "Ana"})
    await ana.expect("joined")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    # a full table starts by itself: both get the first update (cut, deal)
    first_a = await ana.expect("update")
    first_b = await ben.expect("update")
    kinds = [e["event"] for e in first_a["events"]]
    assert kinds[:3] == ["cut", "dealt", "turned_up"]
    assert first_a["view"]["hand"] != first_b["view"]["hand"]
    assert first_a["view"]["hand_size"] == 8
    players = [ana, ben]

    def over() -> bool:
        return ana.view is not None and ana.view["phase"] == "game_over"

    steps = await play_until(players, over, random.Random(5))
    assert over(), f"game not over after {steps} actions"
    result = ana.view["result"]
    assert result["game_over"] is True
    assert result["hand_number"] == 8
    assert ben.view["scores"] == ana.view["scores"]
    low = min(ana.view["scores"])
    assert result["winners"] == [s for s, v in enumerate(ana.view["scores"]) if v == low]
