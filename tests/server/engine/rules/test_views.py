"""views.py: what a seat, and a spectator, may know (R3, R4, R9, R10 on hidden cards).

A seat sees its own hand, the drawn cards it drew and the top card; a spectator
sees no hand at all; every hand is revealed once a hand is over (R9); nobody
sees the stock, nor a reshuffled stock's order (R10).
"""

from __future__ import annotations

import random

from craits.server.engine import (
    Draw,
    Game,
    Play,
    Rules,
    event_dict_for,
    event_for,
    view,
)
from craits.server.engine.events import Dealt, Drew, HandEnded, Played, ShufflePenalty, TurnedUp

from tests.support.engine import card_codes, flatten, game_at


def _started(players: int = 4, seed: int = 3) -> tuple[Game, list]:
    return Game.start(players, Rules(), random.Random(seed))


def test_spectator_view_holds_no_hand() -> None:
    """R3: a spectator sees the top card and card counts, never a card of any hand."""
    game, _ = _started()
    v = view(game, None)
    assert v["seat"] is None and v["hand"] is None and v["drawn"] is None
    assert v["legal"] == [] and v["result"] is None
    assert v["hand_sizes"] == [len(h) for h in game.hands]
    assert v["stock_size"] == len(game.stock)
    assert card_codes(v) == {game.top}
    assert not card_codes(v) & flatten(game.hands)


def test_seat_view_holds_its_own_hand_only() -> None:
    """R3: each seat sees its own hand, and no card of another hand nor of the stock."""
    game, _ = _started()
    for seat in range(game.players):
        v = view(game, seat)
        assert v["hand"] == game.hands[seat]
        others = flatten(h for s, h in enumerate(game.hands) if s != seat)
        assert card_codes(v) <= set(game.hands[seat]) | {game.top}
        assert not card_codes(v) & (others | set(game.stock)) - {game.top}


def test_seat_view_legal_actions_only_for_itself() -> None:
    """R4: the view lists the seat's own legal actions; other seats and spectators none to play."""
    game, _ = _started()
    to_act = game.to_act
    assert to_act is not None
    assert view(game, to_act)["legal"]
    for seat in range(game.players):
        if seat != to_act:
            assert all("play" not in a and "draw" not in a for a in view(game, seat)["legal"])


def test_drawn_card_shown_to_the_drawer_only() -> None:
    """R4 play_drawn_card: the card just drawn is shown to its drawer alone."""
    game = game_at(
        {"play_drawn_card": True},
        players=3,
        turn=0,
        hands=[["KC"], ["AS"], ["AD"]],
        stock=["9H", "TS"],
        discard=["5H"],
    )
    game.apply(Draw(0))
    assert view(game, 0)["drawn"] == "9H"
    for seat in (1, 2, None):
        v = view(game, seat)
        assert v["drawn"] is None and v["deciding_drawn"] is True
        assert "9H" not in card_codes(v)


def test_event_for_redacts_the_deal() -> None:
    """R3: the deal shows each seat its own cards only; a spectator none."""
    _, events = _started()
    dealt = next(e for e in events if isinstance(e, Dealt))
    for seat in range(4):
        mine = event_for(dealt, seat)
        assert isinstance(mine, Dealt)
        assert mine.hands[seat] == dealt.hands[seat]
        assert all(h is None for s, h in enumerate(mine.hands) if s != seat)
    assert all(h is None for h in event_for(dealt, None).hands)
    assert all(h is not None for h in dealt.hands), "the original event is not changed"


def test_event_for_redacts_draws_for_others() -> None:
    """R4: drawn cards are shown to the drawer only."""
    drew = Drew(1, 2, ("AS", "KD"), "idiot")
    assert event_for(drew, 1) == drew
    for seat in (0, 2, None):
        assert event_for(drew, seat) == Drew(1, 2, None, "idiot")
    assert event_dict_for(drew, 0) == {
        "event": "drew",
        "seat": 1,
        "n": 2,
        "cards": None,
        "reason": "idiot",
    }


def test_event_for_hides_a_reshuffled_stock_from_everyone() -> None:
    """R10: a reshuffled stock's order is for nobody, not even the seat that shuffled."""
    penalty = ShufflePenalty(2, 10, 3, ("AS", "KD", "7C"))
    for seat in (0, 1, 2, None):
        assert event_for(penalty, seat) == ShufflePenalty(2, 10, 3, None)
    assert not card_codes(event_dict_for(penalty, 2))


def test_public_events_pass_unchanged() -> None:
    """R3, R4: plays and the turned-up card are public."""
    for event in (Played(0, "8S", "D", False), TurnedUp(1, "KH")):
        for seat in (0, 1, None):
            assert event_for(event, seat) == event


def test_hand_end_reveals_every_hand() -> None:
    """R9: once a hand is over every hand is revealed, to seats and spectators alike."""
    game = game_at(
        players=3,
        turn=0,
        hands=[["KH"], ["5C", "2C"], ["9D", "JD"]],
        stock=["4C", "7S"],
        discard=["QH"],
    )
    events = game.apply(Play(0, "KH"))
    end = events[-1]
    assert isinstance(end, HandEnded)
    for seat in (0, 1, 2, None):
        assert event_for(end, seat) == end
        v = view(game, seat)
        assert v["phase"] == "hand_over" and v["legal"] == []
        assert v["result"]["results"][1]["cards"] == ["5C", "2C"]
        assert v["result"]["results"][2]["cards"] == ["9D", "JD"]
        assert "4C" not in card_codes(v) and "7S" not in card_codes(v)
    assert card_codes(view(game, None)) == {"KH", "5C", "2C", "9D", "JD"}
