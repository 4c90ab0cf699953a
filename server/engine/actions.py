"""The actions a seat can take (RULES.md R3–R7, R11).

Actions are small immutable tuples. Each has a ``seat`` (who acts) and
converts to and from the plain-dict form used by rule vectors and the wire
protocol (``{"seat": 1, "play": "8S", "suit": "D"}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .cards import is_card, is_suit
from .errors import InvalidAction


class Play(NamedTuple):
    """Play ``card`` (R4). ``suit`` names the suit for an 8 or 9 (R5, R12);
    ``announce`` says "one card" with the play (R7)."""

    seat: int
    card: str
    suit: str | None = None
    announce: bool = False


class Draw(NamedTuple):
    """Draw, when no card can be played (R4), or the count (R6)."""

    seat: int


class Pass(NamedTuple):
    """Keep the card just drawn and end the turn (R4, option ``play_drawn_card``)."""

    seat: int


class Announce(NamedTuple):
    """Announce "one card" after the play that left one card (R7)."""

    seat: int


class CallIdiot(NamedTuple):
    """Call "idiot" on ``target``, who owes a "one card" announcement (R7)."""

    seat: int
    target: int


class NameSuit(NamedTuple):
    """The dealer names the suit for a turned-up 8 or 9 (R3)."""

    seat: int
    suit: str


Action = Play | Draw | Pass | Announce | CallIdiot | NameSuit
"""Any action."""


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{what} must be an integer")
    return value


def action_from_dict(data: Mapping[str, Any], seat: int | None = None) -> Action:
    """Parse the dict form of an action (vectors README, "Actions").

    ``seat`` overrides (or supplies) the acting seat, as the server does from
    the connection. Exactly one of ``play``, ``draw``, ``pass``, ``announce``,
    ``idiot``, ``name_suit`` selects the kind; ``suit`` and ``announce`` may
    accompany ``play``.

    Raises:
        InvalidAction: the dict names no kind or several, has unknown keys,
            or holds a value of the wrong type or a bad card or suit code.
    """
    if seat is None:
        seat = _int(data.get("seat"), "seat")
    keys = set(data) - {"seat"}
    if "play" in keys:
        extra = keys - {"play", "suit", "announce"}
        if extra:
            raise InvalidAction(f"unexpected field(s) with play: {', '.join(sorted(extra))}")
        card = data["play"]
        if not is_card(card):
            raise InvalidAction(f"not a card code: {card!r}")
        suit = data.get("suit")
        if suit is not None and not is_suit(suit):
            raise InvalidAction(f"not a suit code: {suit!r}")
        announce = data.get("announce", False)
        if not isinstance(announce, bool):
            raise InvalidAction("announce must be true or false")
        return Play(seat, card, suit, announce)
    if len(keys) != 1:
        raise InvalidAction("an action is one of play, draw, pass, announce, idiot, name_suit")
    (key,) = keys
    value = data[key]
    if key in ("draw", "pass", "announce"):
        if value is not True:
            raise InvalidAction(f"{key} must be true")
        return {"draw": Draw, "pass": Pass, "announce": Announce}[key](seat)
    if key == "idiot":
        return CallIdiot(seat, _int(value, "idiot"))
    if key == "name_suit":
        if not is_suit(value):
            raise InvalidAction(f"not a suit code: {value!r}")
        return NameSuit(seat, value)
    raise InvalidAction(f"unknown action {key!r}")


def action_to_dict(action: Action) -> dict[str, Any]:
    """The dict form of ``action``, the inverse of :func:`action_from_dict`."""
    if type(action) is Play:
        d: dict[str, Any] = {"seat": action.seat, "play": action.card}
        if action.suit is not None:
            d["suit"] = action.suit
        if action.announce:
            d["announce"] = True
        return d
    if type(action) is Draw:
        return {"seat": action.seat, "draw": True}
    if type(action) is Pass:
        return {"seat": action.seat, "pass": True}
    if type(action) is Announce:
        return {"seat": action.seat, "announce": True}
    if type(action) is CallIdiot:
        return {"seat": action.seat, "idiot": action.target}
    if type(action) is NameSuit:
        return {"seat": action.seat, "name_suit": action.suit}
    raise TypeError(f"not an action: {action!r}")
