"""The seat's view as the bots read it: the protocol's :class:`~craits.protocol.types.View`.

A bot decides from exactly what a person at its seat would see: the view of
protocol §8, which :func:`craits.server.engine.view` builds for the seat and
the server sends in every ``update`` and ``state``. The policies read it as a
:class:`~craits.protocol.types.View` and answer with one of its ``legal``
entries, a :data:`~craits.protocol.types.LegalAction` (the very object).

The engine hands the view over as plain data (``dict[str, Any]``), and the
server passes a policy's answer on as plain data: :func:`seat_view` and
:func:`as_dict` are the two crossings, and change nothing.

A bot only ever decides for a seat: a spectator's view (``seat`` null) has no
legal actions, and every policy returns at once on an empty ``legal``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from craits.protocol.types import (
    LegalAction,
    LegalDraw,
    LegalIdiot,
    LegalNameSuit,
    LegalPass,
    LegalPlay,
    View,
)
from craits.protocol.vocab import TURN_ACTIONS, ActionKind, Phase

__all__ = [
    "ANNOUNCE",
    "PLAY",
    "ActionDict",
    "as_dict",
    "draw_or_pass",
    "idiot_calls",
    "is_turn_action",
    "own_hand",
    "own_seat",
    "passes",
    "plays",
    "seat_view",
    "suit_namings",
    "to_act",
]

# The action kinds' keys and the phase of play as plain strings, bound once from
# the vocabulary: the bots look keys up in every legal action of every view they
# see, and a plain str key does that about twice as fast as the enum member.
PLAY: str = ActionKind.PLAY.value
ANNOUNCE: str = ActionKind.ANNOUNCE.value
_DRAW: str = ActionKind.DRAW.value
_PASS: str = ActionKind.PASS.value
_IDIOT: str = ActionKind.IDIOT.value
_NAME_SUIT: str = ActionKind.NAME_SUIT.value
_IN_PLAY: str = Phase.PLAY.value
_TURN_KEYS = tuple(kind.value for kind in ActionKind if kind in TURN_ACTIONS)

ActionDict = dict[str, Any]
"""A legal action as plain data, as the server's callers hold it: the dict form
of :func:`craits.server.engine.action_to_dict`, e.g. ``{"seat": 1, "play": "8S",
"suit": "D"}`` (protocol §6, plus ``seat``)."""


def seat_view(data: Mapping[str, Any]) -> View:
    """``data``, a seat's view as the engine or the server gives it, typed for reading.

    Nothing is copied or checked: the view is trusted as it came (from the
    engine, or from the server the bot plays at).
    """
    return cast(View, data)


def as_dict(action: LegalAction) -> ActionDict:
    """``action``, one of a view's legal entries, as the plain dict it is."""
    return cast(ActionDict, action)


def own_seat(v: View) -> int:
    """The seat whose view ``v`` is.

    Raises:
        ValueError: a spectator's view (it has no legal action to choose from).
    """
    seat = v["seat"]
    if seat is None:
        raise ValueError("a spectator's view: no seat to decide for")
    return seat


def own_hand(v: View) -> list[str]:
    """The cards of the seat whose view ``v`` is.

    Raises:
        ValueError: a spectator's view.
    """
    hand = v["hand"]
    if hand is None:
        raise ValueError("a spectator's view: no hand to play from")
    return hand


def to_act(v: View) -> bool:
    """Whether the seat of ``v`` is the one to act now (a hand in play, R4)."""
    return v.get("phase") == _IN_PLAY and v.get("seat") is not None and v["to_act"] == v["seat"]


def is_turn_action(action: Mapping[str, object]) -> bool:
    """Whether ``action`` is a turn of its seat's (play, draw, pass or a suit named, R3, R4),
    not a call that may come off turn (R7)."""
    return any(key in action for key in _TURN_KEYS)


# Each legal entry names its kind by its key (protocol §6): these pick one kind.


def plays(legal: Iterable[LegalAction]) -> list[LegalPlay]:
    """The plays of ``legal`` (R4), in order."""
    return cast(list[LegalPlay], [a for a in legal if PLAY in a])


def passes(legal: Iterable[LegalAction]) -> list[LegalPass]:
    """The passes of ``legal`` (R4, option ``play_drawn_card``)."""
    return cast(list[LegalPass], [a for a in legal if _PASS in a])


def suit_namings(legal: Iterable[LegalAction]) -> list[LegalNameSuit]:
    """The suits the dealer may name for a turned-up 8 or 9 (R3), in order."""
    return cast(list[LegalNameSuit], [a for a in legal if _NAME_SUIT in a])


def idiot_calls(legal: Iterable[LegalAction]) -> list[LegalIdiot]:
    """The idiot calls of ``legal`` (R7), in order."""
    return cast(list[LegalIdiot], [a for a in legal if _IDIOT in a])


def draw_or_pass(legal: Sequence[LegalAction]) -> LegalDraw | LegalPass | None:
    """The draw of ``legal`` (R4, R6), else its pass, else None."""
    for key in (_DRAW, _PASS):
        for a in legal:
            if key in a:
                return cast(LegalDraw | LegalPass, a)
    return None
