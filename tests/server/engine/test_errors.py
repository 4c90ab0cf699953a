"""Every kind of illegal action is refused with its own error class and changes nothing.

Each case builds a position (``load_position``), applies one illegal action,
and checks the exact error class and that the position, phase and result are
exactly as before (errors.py: "leaves the game exactly as it was").
"""

from __future__ import annotations

from typing import Any

import pytest
from craits.server.engine import (
    Announce,
    CallIdiot,
    Draw,
    Game,
    NameSuit,
    Pass,
    Play,
    action_from_dict,
)
from craits.server.engine import errors as E
from craits.server.engine.actions import Action

from tests.support.engine import assert_refused, game_at, snapshot

# A three-player position: seat 0 to play on 7H, holding a playable 7C and 8S.
BASE: dict[str, Any] = {
    "players": 3,
    "turn": 0,
    "hands": [["7C", "8S", "9S", "KD"], ["AH", "2C", "QD"], ["3S", "4D", "5C"]],
    "stock": ["6H", "TC", "JD", "QS"],
    "discard": ["2D", "7H"],
}


def _with(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


# (test id citing the rule, position, rules options, the illegal action, the error class)
CASES: list[tuple[str, dict[str, Any], dict[str, Any] | None, Action, type[E.IllegalAction]]] = [
    ("R1-invalid-seat-out-of-range", BASE, None, Play(3, "AH"), E.InvalidAction),
    ("R1-invalid-negative-seat", BASE, None, Draw(-1), E.InvalidAction),
    ("R7-invalid-idiot-target", _with(unannounced=[]), None, CallIdiot(1, 7), E.InvalidAction),
    ("R5-invalid-suit-code-for-an-8", BASE, None, Play(0, "8S", "X"), E.InvalidAction),
    (
        "R3-invalid-suit-code-named",
        _with(discard=["8C"], pending={"name_suit": 0}, turn=1),
        None,
        NameSuit(0, "Z"),
        E.InvalidAction,
    ),
    (
        "R3-play-while-suit-pending",
        _with(discard=["8C"], pending={"name_suit": 2}, turn=0),
        None,
        Play(0, "7C"),
        E.ChoicePending,
    ),
    (
        "R3-draw-while-suit-pending",
        _with(discard=["9H"], pending={"name_suit": 2}, turn=1),
        None,
        Draw(1),
        E.ChoicePending,
    ),
    ("R3-name-suit-with-nothing-pending", BASE, None, NameSuit(0, "S"), E.NoChoicePending),
    (
        "R3-name-suit-by-the-wrong-seat",
        _with(discard=["8C"], pending={"name_suit": 2}, turn=0),
        None,
        NameSuit(0, "H"),
        E.NoChoicePending,
    ),
    ("R4-play-out-of-turn", BASE, None, Play(1, "QD"), E.NotYourTurn),
    ("R4-draw-out-of-turn", BASE, None, Draw(2), E.NotYourTurn),
    ("R4-card-not-in-hand", BASE, None, Play(0, "7S"), E.CardNotInHand),
    ("R4-card-held-by-another-seat", BASE, None, Play(0, "AH"), E.CardNotInHand),
    ("R4-card-does-not-match", BASE, None, Play(0, "KD"), E.CardDoesNotMatch),
    (
        "R4-suit-in-force-not-top-suit",
        _with(discard=["2D", "8H"], suit="C"),
        None,
        Play(0, "KD"),
        E.CardDoesNotMatch,
    ),
    (
        "R6-king-during-count",
        _with(count=2, discard=["2H"]),
        None,
        Play(0, "KD"),
        E.MustFollowCount,
    ),
    (
        "R6-eight-not-wild-during-count",
        _with(count=4, discard=["2H", "2S"]),
        None,
        Play(0, "8S", "H"),
        E.MustFollowCount,
    ),
    ("R12-draw-holding-a-playable-card", BASE, None, Draw(0), E.MustPlayCard),
    (
        "R12-decline-count-holding-an-ace",
        _with(turn=1, count=2, discard=["2D"]),
        None,
        Draw(1),
        E.MustPlayCard,
    ),
    (
        "R4-play-drawn-card-other-card",
        _with(hands=[["7C", "KD", "TS"], ["AH"], ["3S"]], discard=["5S"], drawn="TS"),
        {"play_drawn_card": True},
        Play(0, "KD"),
        E.MustPlayDrawnCard,
    ),
    (
        "R4-play-drawn-card-draw-again",
        _with(hands=[["7C", "KD", "TS"], ["AH"], ["3S"]], discard=["5S"], drawn="TS"),
        {"play_drawn_card": True},
        Draw(0),
        E.MustPlayDrawnCard,
    ),
    ("R4-pass-without-a-drawn-card", BASE, {"play_drawn_card": True}, Pass(0), E.NothingToPass),
    ("R4-pass-out-of-turn", BASE, None, Pass(1), E.NotYourTurn),
    ("R5-nine-names-other-colour", BASE, None, Play(0, "9S", "H"), E.SuitNotAllowed),
    ("R12-plain-card-names-a-suit", BASE, None, Play(0, "7C", "C"), E.SuitNotAllowed),
    (
        "R3-turned-nine-names-other-colour",
        _with(discard=["9H"], pending={"name_suit": 2}, turn=0),
        None,
        NameSuit(2, "S"),
        E.SuitNotAllowed,
    ),
    ("R7-announce-owing-nothing", BASE, None, Announce(0), E.NothingToAnnounce),
    (
        "R7-announce-for-another-seat",
        _with(unannounced=[1]),
        None,
        Announce(2),
        E.NothingToAnnounce,
    ),
    ("R7-idiot-on-seat-owing-nothing", BASE, None, CallIdiot(1, 0), E.NothingToCallIdiotOn),
    (
        "R7-idiot-on-oneself",
        _with(unannounced=[1]),
        None,
        CallIdiot(1, 1),
        E.NothingToCallIdiotOn,
    ),
    (
        "R7-idiot-on-a-seat-that-announced",
        _with(unannounced=[2]),
        None,
        CallIdiot(0, 1),
        E.NothingToCallIdiotOn,
    ),
]


@pytest.mark.parametrize(
    ("position", "rules", "action", "error"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_illegal_action_is_refused_and_changes_nothing(
    position: dict[str, Any],
    rules: dict[str, Any] | None,
    action: Action,
    error: type[E.IllegalAction],
) -> None:
    """R3–R7, R12: the action raises its own error class; the position is untouched."""
    game = game_at(rules, **position)
    assert_refused(game, action, error)


def _finished_hand(hand_number: int = 1, short: bool = False) -> Game:
    """A game whose hand just ended: seat 0 goes out on KH (R8)."""
    game = game_at(
        {"short_game": short},
        players=2,
        hand_number=hand_number,
        turn=0,
        hands=[["KH"], ["5C", "2C"]],
        stock=["4C"],
        discard=["QH"],
    )
    game.apply(Play(0, "KH"))
    return game


@pytest.mark.parametrize(
    "action",
    [Play(1, "5C"), Draw(1), Pass(1), Announce(0), CallIdiot(1, 0), NameSuit(0, "S")],
    ids=lambda a: type(a).__name__,
)
def test_R8_no_action_once_the_hand_is_over(action: Action) -> None:
    """R8: once the hand has ended, every action is refused with HandNotInPlay."""
    game = _finished_hand()
    assert game.phase == "hand_over"
    assert_refused(game, action, E.HandNotInPlay)


def test_R2_no_action_once_the_game_is_over() -> None:
    """R2: after the last hand (8 with short_game) nothing is accepted, nor a next hand."""
    game = _finished_hand(hand_number=8, short=True)
    assert game.phase == "game_over"
    assert_refused(game, Draw(1), E.HandNotInPlay)
    before = snapshot(game)
    with pytest.raises(E.HandNotInPlay, match="game is over"):
        game.next_hand()
    assert snapshot(game) == before


def test_R2_next_hand_refused_while_a_hand_is_played() -> None:
    """R2: the deal passes on only after a hand is over."""
    game = game_at(**BASE)
    before = snapshot(game)
    with pytest.raises(E.HandNotInPlay, match="not over"):
        game.next_hand()
    assert snapshot(game) == before


def test_not_an_action_is_invalid() -> None:
    """Anything that is not an action is refused as InvalidAction and changes nothing."""
    game = game_at(**BASE)
    before = snapshot(game)
    with pytest.raises(E.InvalidAction):
        game.apply(("play", "7C"))  # type: ignore[arg-type]
    with pytest.raises(E.InvalidAction):
        game.apply(Play(True, "7C"))  # type: ignore[arg-type]
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "data",
    [
        {"seat": 0},
        {"seat": 0, "play": "7C", "draw": True},
        {"seat": 0, "play": "1X"},
        {"seat": 0, "play": "8S", "suit": "spades"},
        {"seat": 0, "play": "7C", "announce": "yes"},
        {"seat": 0, "play": "7C", "colour": "red"},
        {"seat": 0, "draw": False},
        {"seat": 0, "idiot": "1"},
        {"seat": 0, "idiot": True},
        {"seat": 0, "name_suit": "X"},
        {"seat": 0, "shout": True},
        {"seat": "0", "draw": True},
    ],
)
def test_malformed_action_dict_is_invalid(data: dict[str, Any]) -> None:
    """Vectors README "Actions": a malformed action dict is an InvalidAction."""
    with pytest.raises(E.InvalidAction):
        action_from_dict(data)


def test_every_error_class_is_exercised() -> None:
    """Every concrete error class of errors.py has at least one case here."""
    covered = {c[-1] for c in CASES} | {E.HandNotInPlay}
    assert set(E.ERRORS) == covered
    codes = [cls.code for cls in E.ERRORS]
    assert len(set(codes)) == len(codes), "error codes are distinct"
    assert all(issubclass(cls, E.IllegalAction) for cls in E.ERRORS)
