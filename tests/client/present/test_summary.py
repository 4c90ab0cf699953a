"""The hand summary keeps the data of the hand it summarises; the seats panel."""

from __future__ import annotations

import io

from craits.client.core.model import TableModel
from craits.client.present import tableview
from craits.client.present.card_style import CardStyle
from craits.client.present.results import hand_table
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
        "penalties": [0, 5],
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


def test_no_stale_turn_timer_while_offline() -> None:
    model = TableModel("t1", seat=0, me="Ana")
    model.view = {
        "phase": "play",
        "players": 2,
        "to_act": 1,
        "hand_sizes": [5, 5],
        "scores": [0, 0],
        "dealer": 0,
        "penalties_paid": [0, 0],
        "unannounced": [],
        "one_card": [],
        "lost_turns": [0, 0],
    }
    model.set_deadline(42_000)
    online = tableview.seat_views(model)[1]  # Ana's at the bottom, then Ben's: his turn
    assert online.to_act and online.seconds in (41, 42)
    offline = tableview.seat_views(model, timer=False)[1]
    assert offline.to_act and offline.seconds is None
