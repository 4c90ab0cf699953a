"""The seat's view as the bots read it: a typed lens on the view of protocol §8.

A bot decides from exactly what a person at its seat would see: the view that
:func:`craits.server.engine.view` builds for the seat, and that the server
sends in every ``update`` and ``state``. It arrives as plain data (a map with
string keys); :func:`seat_view` gives it the type :class:`SeatView`, which
names the keys the bots read, so the policies are checked against them.

A bot only ever decides for a seat (``seat`` is an int): a spectator's view
(``seat`` null) has no legal actions, and every policy returns at once on an
empty ``legal``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NotRequired, TypedDict, cast

from craits.protocol.vocab import TURN_ACTIONS, ActionKind, Phase

__all__ = [
    "ANNOUNCE",
    "DRAW",
    "IDIOT",
    "NAME_SUIT",
    "PASS",
    "PLAY",
    "ActionDict",
    "SeatView",
    "first_of",
    "is_turn_action",
    "of_kind",
    "seat_view",
    "to_act",
]

# The action kinds' keys and the phase of play as plain strings, bound once from
# the vocabulary: the bots look keys up in every legal action of every view they
# see, and a plain str key does that about twice as fast as the enum member.
PLAY: str = ActionKind.PLAY.value
DRAW: str = ActionKind.DRAW.value
PASS: str = ActionKind.PASS.value
ANNOUNCE: str = ActionKind.ANNOUNCE.value
IDIOT: str = ActionKind.IDIOT.value
NAME_SUIT: str = ActionKind.NAME_SUIT.value
_IN_PLAY: str = Phase.PLAY.value
_TURN_KEYS = tuple(kind.value for kind in ActionKind if kind in TURN_ACTIONS)

ActionDict = dict[str, Any]
"""An action in the dict form of :func:`craits.server.engine.action_to_dict`:
one of ``view["legal"]``, e.g. ``{"seat": 1, "play": "8S", "suit": "D"}``
(protocol §6, plus ``seat``). A policy answers with the very object."""


class SeatView(TypedDict):
    """The keys of a seat's view (protocol §8) that the bots read.

    The view holds more keys (``hand_number``, ``scores``, ``result``…); a
    policy does not need them. ``rules``, ``stock_size``, ``next_penalty`` and
    ``jacks`` are read with a default, so a hand-made view may leave them out.
    """

    seat: int
    """The bot's seat."""
    players: int
    """Seats in the game, 2–8."""
    phase: str
    """A :class:`~craits.protocol.vocab.Phase`."""
    direction: int
    """1 clockwise, -1 counter-clockwise (R5, the 10)."""
    to_act: int | None
    """The seat that must act now; None between hands."""
    hand: list[str]
    """The bot's cards (R1 codes)."""
    hand_sizes: list[int]
    """Cards held, by seat."""
    top: str | None
    """The discard pile's top card."""
    count: int
    """The count in progress (R6); 0 when there is none."""
    legal: list[ActionDict]
    """The seat's legal actions right now (protocol §8), off-turn calls included."""
    rules: NotRequired[dict[str, bool | int]]
    """The rules options that differ from the defaults."""
    stock_size: NotRequired[int]
    """Cards in the stock (R10)."""
    next_penalty: NotRequired[list[int]]
    """Each seat's next shuffle penalty, in points (R10)."""
    jacks: NotRequired[int]
    """Jacks in a row on the discard pile (R11)."""


def seat_view(data: Mapping[str, Any]) -> SeatView:
    """``data``, a seat's view as the engine or the server gives it, typed for reading.

    Nothing is copied or checked: the view is trusted as it came (from the
    engine, or from the server the bot plays at).
    """
    return cast(SeatView, data)


def to_act(v: SeatView) -> bool:
    """Whether the seat of ``v`` is the one to act now (a hand in play, R4)."""
    return v.get("phase") == _IN_PLAY and v.get("seat") is not None and v["to_act"] == v["seat"]


def is_turn_action(action: Mapping[str, Any]) -> bool:
    """Whether ``action`` is a turn of its seat's (play, draw, pass or a suit named, R3, R4),
    not a call that may come off turn (R7)."""
    return any(key in action for key in _TURN_KEYS)


def of_kind(legal: Iterable[ActionDict], kind: str) -> list[ActionDict]:
    """The actions of ``legal`` of one kind (an :class:`~craits.protocol.vocab.ActionKind`:
    each action names its kind by its key, protocol §6)."""
    return [a for a in legal if kind in a]


def first_of(legal: Sequence[ActionDict], kinds: Iterable[str]) -> ActionDict | None:
    """The first action of ``legal`` of the first of ``kinds`` that has one, or None."""
    for kind in kinds:
        for a in legal:
            if kind in a:
                return a
    return None
