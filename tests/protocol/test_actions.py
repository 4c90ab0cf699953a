"""The action type and its one parser (docs/protocol.md §6): every form, and
every malformed form refused with a message that names the field and the fault."""

from __future__ import annotations

from typing import Any

import pytest
from craits.protocol.actions import (
    NO_SEAT,
    Action,
    ActionFormError,
    Announce,
    CallIdiot,
    Draw,
    NameSuit,
    Pass,
    Play,
    action_kind,
    action_to_wire,
    parse_action,
)
from craits.protocol.vocab import CARDS, ActionKind, Suit

FORMS: list[tuple[dict[str, Any], Action]] = [
    ({"play": "7H"}, Play(3, "7H")),
    ({"play": "8S", "suit": "D"}, Play(3, "8S", "D")),
    ({"play": "KD", "announce": True}, Play(3, "KD", None, True)),
    ({"play": "9C", "suit": "S", "announce": True}, Play(3, "9C", "S", True)),
    ({"draw": True}, Draw(3)),
    ({"pass": True}, Pass(3)),
    ({"announce": True}, Announce(3)),
    ({"idiot": 0}, CallIdiot(3, 0)),
    ({"idiot": 7}, CallIdiot(3, 7)),
    ({"name_suit": "H"}, NameSuit(3, "H")),
]


@pytest.mark.parametrize(("form", "action"), FORMS)
def test_every_form_parses_and_goes_back_to_the_same_map(
    form: dict[str, Any], action: Action
) -> None:
    assert parse_action(form, 3) == action
    assert action_to_wire(action) == form
    assert parse_action(action_to_wire(action), 3) == action


def test_the_forms_cover_every_action_kind() -> None:
    assert {action_kind(a) for _, a in FORMS} == set(ActionKind)


def test_the_seat_defaults_to_none_known_yet() -> None:
    assert parse_action({"draw": True}) == Draw(NO_SEAT)


def test_an_explicit_false_announce_is_the_same_play() -> None:
    assert parse_action({"play": "KD", "announce": False}, 0) == Play(0, "KD")
    assert action_to_wire(Play(0, "KD", None, False)) == {"play": "KD"}


@pytest.mark.parametrize("card", CARDS)
def test_every_card_code_plays(card: str) -> None:
    assert parse_action({"play": card}, 1) == Play(1, card)


@pytest.mark.parametrize("suit", list(Suit))
def test_every_suit_code_names(suit: Suit) -> None:
    assert parse_action({"name_suit": str(suit)}, 1) == NameSuit(1, suit)
    assert parse_action({"play": "8H", "suit": str(suit)}, 1) == Play(1, "8H", suit)


MALFORMED: list[tuple[object, str]] = [
    (None, "action: must be a map"),
    ([["draw", True]], "action: must be a map"),
    ("draw", "action: must be a map"),
    ({}, "action: must be one of play, draw, pass, announce, idiot, name_suit"),
    ({"dance": True}, "action: must be one of play, draw, pass, announce, idiot, name_suit"),
    ({"draw": True, "pass": True}, "action: must be one of play, draw, pass, announce, idiot"),
    ({"seat": 0, "draw": True}, "action: must be one of play, draw, pass"),
    ({"play": "8S", "seat": 0}, "action: unexpected field 'seat' with play"),
    ({"play": "8S", "draw": True}, "action: unexpected field 'draw' with play"),
    ({"play": "ZZ"}, "action.play: must be a card code such as 'TD'"),
    ({"play": "10H"}, "action.play: must be a card code such as 'TD'"),
    ({"play": "8s"}, "action.play: must be a card code such as 'TD'"),
    ({"play": ""}, "action.play: must be a card code such as 'TD'"),
    ({"play": 8}, "action.play: must be a card code such as 'TD'"),
    ({"play": None}, "action.play: must be a card code such as 'TD'"),
    ({"play": "8S", "suit": "X"}, "action.suit: must be a suit: S, H, D or C"),
    ({"play": "8S", "suit": "s"}, "action.suit: must be a suit: S, H, D or C"),
    ({"play": "8S", "suit": "SH"}, "action.suit: must be a suit: S, H, D or C"),
    ({"play": "8S", "suit": 1}, "action.suit: must be a suit: S, H, D or C"),
    ({"play": "8S", "announce": 1}, "action.announce: must be true or false"),
    ({"play": "8S", "announce": "yes"}, "action.announce: must be true or false"),
    ({"draw": False}, "action.draw: must be true"),
    ({"draw": 1}, "action.draw: must be true"),
    ({"pass": None}, "action.pass: must be true"),
    ({"announce": False}, "action.announce: must be true"),
    ({"idiot": True}, "action.idiot: must be an integer"),
    ({"idiot": "1"}, "action.idiot: must be an integer"),
    ({"idiot": -1}, "action.idiot: must be 0..7"),
    ({"idiot": 8}, "action.idiot: must be 0..7"),
    ({"name_suit": "X"}, "action.name_suit: must be a suit: S, H, D or C"),
    ({"name_suit": None}, "action.name_suit: must be a suit: S, H, D or C"),
]


@pytest.mark.parametrize(("data", "message"), MALFORMED)
def test_a_malformed_form_is_refused_naming_the_field(data: object, message: str) -> None:
    with pytest.raises(ActionFormError) as err:
        parse_action(data)
    assert str(err.value).startswith(message), str(err.value)
    assert str(err.value) == f"{err.value.where}: {err.value.what}"


def test_the_path_in_messages_is_the_callers() -> None:
    with pytest.raises(ActionFormError, match=r"^act\.action\.play: "):
        parse_action({"play": "ZZ"}, where="act.action")
    with pytest.raises(ActionFormError, match=r"^play: must be a card code"):
        parse_action({"play": "ZZ"}, where="")
    with pytest.raises(ActionFormError, match=r"^must be a map$"):
        parse_action(3, where="")


def test_a_long_unknown_key_is_cut_short_in_the_message() -> None:
    with pytest.raises(ActionFormError) as err:
        parse_action({"play": "8S", "k" * 500: 1})
    assert len(str(err.value)) < 100
