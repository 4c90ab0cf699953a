"""Positions (shared/vectors/README.md "A position"): round trips, defaults, bad positions."""

from __future__ import annotations

import random
from typing import Any

import pytest
from craits.server.engine import Game, Rules
from craits.server.ops.vectors import load_position

from tests.support.engine import game_at

FULL: dict[str, Any] = {
    "players": 4,
    "hand_number": 9,
    "dealer": 3,
    "direction": -1,
    "turn": 2,
    "hands": [["AS", "2H"], ["KD"], ["9S", "TD", "TC"], []],
    "stock": ["QH", "3C", "4C"],
    "discard": ["JS", "JD", "KS"],
    "suit": "S",
    "count": 0,
    "again": False,
    "scores": [10, -20, 0, 55],
    "pressure": [1, 0, 0, 3],
    "lost_turns": [0, 1, 0, 2],
    "unannounced": [1],
    "jacks": 0,
    "king_cards": 2,
    "pending": None,
    "drawn": "TD",
}

MINIMAL: dict[str, Any] = {
    "players": 3,
    "turn": 1,
    "hands": [["AS"], ["KD", "QD"], ["7C"]],
    "discard": ["5D"],
}


def test_round_trip_of_a_full_position() -> None:
    """README: to_position → load_position → to_position is identical, every field written."""
    game = load_position(FULL, Rules(face_cards=True, play_drawn_card=True))
    pos = game.to_position()
    assert pos == FULL
    assert load_position(pos, game.rules).to_position() == pos


def test_round_trip_with_a_pending_suit_and_a_count() -> None:
    """README: ``pending`` and ``count`` survive the round trip."""
    pos = {**FULL, "pending": {"name_suit": 3}, "drawn": None, "count": 6, "discard": ["2S"]}
    game = load_position(pos)
    assert game.to_position() == {**pos, "suit": "S"}
    assert game.to_act == 3


def test_minimal_position_takes_the_defaults() -> None:
    """README: fields left out take the documented defaults."""
    pos = load_position(MINIMAL).to_position()
    assert pos == {
        **MINIMAL,
        "hand_number": 1,
        "dealer": 0,
        "direction": 1,
        "stock": [],
        "suit": "D",
        "count": 0,
        "again": False,
        "scores": [0, 0, 0],
        "pressure": [0, 0, 0],
        "lost_turns": [0, 0, 0],
        "unannounced": [],
        "jacks": 0,
        "king_cards": 0,
        "pending": None,
        "drawn": None,
    }


def test_to_position_is_a_copy() -> None:
    """README: a position is data: changing it does not change the game."""
    game = load_position(FULL)
    pos = game.to_position()
    pos["hands"][0].append("QS")
    pos["stock"].clear()
    assert game.to_position() == FULL


def test_stock_is_top_first() -> None:
    """README: stock index 0 is the top card, drawn first."""
    game = game_at(
        players=2, turn=0, hands=[["KC"], ["AS"]], stock=["9H", "TS", "3D"], discard=["5H"]
    )
    game.apply(game.legal_actions()[0])
    assert game.hands[0] == ["KC", "9H"]
    assert game.to_position()["stock"] == ["TS", "3D"]


def test_round_trip_through_random_play() -> None:
    """README: the round trip is identical at every moment of random hands."""
    rng = random.Random(5)
    for players in (2, 6):
        game, _ = Game.start(players, Rules(face_cards=True, play_drawn_card=True), rng)
        for _ in range(3):
            while game.phase == "play":
                pos = game.to_position()
                assert load_position(pos, game.rules).to_position() == pos
                game.apply(rng.choice(game.legal_actions()))
            game.next_hand()


def _bad(**changes: Any) -> dict[str, Any]:
    pos = {**MINIMAL, **changes}
    return {k: v for k, v in pos.items() if v is not _DROP}


_DROP = object()


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ([], "map of fields"),
        (_bad(colour="red"), "unknown position field"),
        (_bad(players=_DROP), "needs 'players'"),
        (_bad(players=9), "'players' must be an integer 2..8"),
        (_bad(players=True), "'players' must be an integer"),
        (_bad(players="3"), "'players' must be an integer"),
        (_bad(turn=_DROP), "needs 'turn'"),
        (_bad(turn=3), "'turn' must be an integer 0..2"),
        (_bad(dealer=-1), "'dealer' must be an integer 0..2"),
        (_bad(hand_number=16), "'hand_number' must be an integer 1..15"),
        (_bad(direction=0), "'direction' must be 1 or -1"),
        (_bad(direction=True), "'direction' must be 1 or -1"),
        (_bad(direction="1"), "'direction' must be 1 or -1"),
        (_bad(hands=_DROP), "'hands' must list 3 hands"),
        (_bad(hands=[["AS"], ["KD"]]), "'hands' must list 3 hands"),
        (_bad(hands=[["AS"], "KD", ["7C"]]), "'hands' must be a list of cards"),
        (_bad(hands=[["AS"], ["KD", "1X"], ["7C"]]), "holds '1X', not a card code"),
        (_bad(hands=[["AS"], ["kd"], ["7C"]]), "not a card code"),
        (_bad(stock="QH"), "'stock' must be a list of cards"),
        (_bad(discard=_DROP), "'discard' must be a list of cards"),
        (_bad(discard=[]), "'discard' needs at least the top card"),
        (_bad(suit="X"), "'suit' must be S, H, D or C"),
        (_bad(count=-2), "'count' must be an integer"),
        (_bad(again="yes"), "'again' must be true or false"),
        (_bad(scores=[0, 0]), "'scores' must list 3 integers"),
        (_bad(scores=[0, 1.5, 0]), "'scores' holds 1.5"),
        (_bad(pressure=[0, -1, 0]), "'pressure' holds -1, not an integer >= 0"),
        (_bad(lost_turns=[0, False, 0]), "'lost_turns' holds False"),
        (_bad(unannounced=[3]), "'unannounced' must list seats"),
        (_bad(unannounced=["0"]), "'unannounced' must list seats"),
        (_bad(jacks=-1), "'jacks' must be an integer"),
        (_bad(king_cards=4), "'king_cards' must be an integer 0..3"),
        (_bad(pending={"name_suit": 3}), "'name_suit' must be an integer 0..2"),
        (_bad(pending={"seat": 0}), "'pending' must be null or"),
        (_bad(pending=0), "'pending' must be null or"),
        (_bad(drawn="AS"), "'drawn' must be null or a card in the hand of the turn"),
        (_bad(drawn="ZZ"), "'drawn' must be null or a card"),
    ],
)
def test_bad_position_raises_a_clear_value_error(position: Any, message: str) -> None:
    """README: a position with a missing, unknown, mistyped or out-of-range field is refused."""
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(".", r"\.")):
        load_position(position)


@pytest.mark.parametrize("direction", [1.0, -1.0])
def test_bad_position_float_direction_is_refused(direction: float) -> None:
    """README: ``direction`` is the integer 1 or -1; a float would make the turn a float seat."""
    with pytest.raises(ValueError, match="'direction' must be 1 or -1"):
        load_position(_bad(direction=direction))
