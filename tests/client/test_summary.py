"""The hand summary keeps the data of the hand it summarises."""

from __future__ import annotations

import io

from craits.client.cards import CardStyle
from craits.client.model import TableModel
from craits.client.summary import hand_table
from rich.console import Console


def render(table: object) -> str:
    console = Console(width=80, file=io.StringIO(), record=True, color_system=None)
    console.print(table)
    return console.export_text()


def test_the_shuffle_column_survives_the_next_deal() -> None:
    model = TableModel("t1", seat=0, me="Ana")
    result = {
        "event": "hand_ended",
        "hand_number": 1,
        "results": [
            {"seat": 0, "cards": [], "cancelled": [], "points": 0, "went_out": True},
            {"seat": 1, "cards": ["KH"], "cancelled": [], "points": 10, "went_out": False},
        ],
        "scores": [0, 15],
        "pressure": [0, 1],
        "next_dealer": 1,
        "game_over": False,
        "winners": [],
    }
    model.note_events([{"event": "dealt", "hand_number": 1}])
    model.note_events(
        [{"event": "shuffle_penalty", "seat": 1, "penalty": 5, "stock_size": 30}, result]
    )
    kept = model.last_result
    assert kept is not None
    before = render(hand_table(kept, model, CardStyle()))
    assert "+5" in before
    model.note_events([{"event": "dealt", "hand_number": 2}])  # the next hand
    after = render(hand_table(kept, model, CardStyle()))
    assert "+5" in after
    assert after == before
