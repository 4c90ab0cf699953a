"""The actions a seat can take (RULES.md R3–R7, R11), and their one parser.

Actions are small immutable tuples, each with the ``seat`` that acts. They are
the rules engine's own action type (``craits.server.engine.actions`` re-exports
them) and the protocol's: :func:`parse_action` is the one place an action's
map form is checked, for the wire (``act``), the rule vectors and records
alike. Like :mod:`craits.protocol.vocab`, this module depends on nothing but
that vocabulary, so the pure engine may import it.

The map form (protocol §6, vectors README "Actions"): exactly one of ``play``,
``draw``, ``pass``, ``announce``, ``idiot``, ``name_suit`` names the kind;
``suit`` and ``announce`` may accompany ``play``; records and vectors add
``seat``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from .vocab import PLAY_FIELDS, SUITS, ActionKind, is_card, is_suit


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

NO_SEAT = -1
"""The seat of an action parsed from the wire before the server knows who sent it."""

MAX_SEAT = 7
"""The highest seat number (eight seats, R1)."""


class ActionFormError(ValueError):
    """An action's map form is malformed; ``str()`` says how in one line.

    ``where`` names the offending field (``"action.play"``) or is the action's
    own path when the form as a whole is wrong.
    """

    def __init__(self, where: str, what: str) -> None:
        super().__init__(f"{where}: {what}" if where else what)
        self.where = where
        self.what = what


_KINDS = ", ".join(ActionKind)
_SUIT_LIST = ", ".join(SUITS[:-1]) + " or " + SUITS[-1]
# the keys as plain strings: the enum members hash slower, and these build every legal action
_PLAY = ActionKind.PLAY.value
_IDIOT = ActionKind.IDIOT.value
_NAME_SUIT = ActionKind.NAME_SUIT.value
_SUIT, _ANNOUNCE = PLAY_FIELDS
_PLAY_KEYS = frozenset((_PLAY, *PLAY_FIELDS))


def _field_path(where: str, key: str) -> str:
    """The path of field ``key`` inside ``where`` (``action.suit``), for error messages."""
    return f"{where}.{key}" if where else key


def _flag(value: object, where: str) -> bool:
    if value is not True:
        raise ActionFormError(where, "must be true")
    return True


def _seat_number(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionFormError(where, "must be an integer")
    if not 0 <= value <= MAX_SEAT:
        raise ActionFormError(where, f"must be 0..{MAX_SEAT}")
    return value


def _suit(value: object, where: str) -> str:
    if not is_suit(value):
        raise ActionFormError(where, f"must be a suit: {_SUIT_LIST}")
    assert isinstance(value, str)
    return value


def _play(data: Mapping[str, Any], seat: int, where: str) -> Play:
    for key in data:
        if key not in _PLAY_KEYS:
            raise ActionFormError(where, f"unexpected field {str(key)[:40]!r} with play")
    card = data[_PLAY]
    if not is_card(card):
        raise ActionFormError(_field_path(where, _PLAY), "must be a card code such as 'TD'")
    # optional fields are left out when not used: null is refused, never "no suit" (§3)
    suit = _suit(data[_SUIT], _field_path(where, _SUIT)) if _SUIT in data else None
    announce = data.get(_ANNOUNCE, False)
    if not isinstance(announce, bool):
        raise ActionFormError(_field_path(where, _ANNOUNCE), "must be true or false")
    return Play(seat, card, suit, announce)


def parse_action(data: object, seat: int = NO_SEAT, where: str = "action") -> Action:
    """The action a map form describes (protocol §6), checked once, here.

    Args:
        data: the decoded map, without ``seat``: ``{"play": "8S", "suit": "D"}``.
        seat: who acts; from the wire the server fills it in later with
            ``action._replace(seat=...)``, so it defaults to :data:`NO_SEAT`.
        where: the field path used in error messages.

    Raises:
        ActionFormError: not a map, no kind or several, an unknown field, a bad
            card or suit code, a seat outside 0..7, or a flag other than true.
    """
    if not isinstance(data, Mapping):
        raise ActionFormError(where, "must be a map")
    if _PLAY in data:
        return _play(data, seat, where)
    if len(data) != 1:
        raise ActionFormError(where, f"must be one of {_KINDS}")
    ((key, value),) = data.items()
    field = _field_path(where, str(key))
    if key == ActionKind.DRAW:
        _flag(value, field)
        return Draw(seat)
    if key == ActionKind.PASS:
        _flag(value, field)
        return Pass(seat)
    if key == ActionKind.ANNOUNCE:
        _flag(value, field)
        return Announce(seat)
    if key == ActionKind.IDIOT:
        return CallIdiot(seat, _seat_number(value, field))
    if key == ActionKind.NAME_SUIT:
        return NameSuit(seat, _suit(value, field))
    raise ActionFormError(where, f"must be one of {_KINDS}")


def action_kind(action: Action) -> ActionKind:
    """The kind of ``action`` (its key on the wire)."""
    return _KIND_OF[type(action)]


_KIND_OF: dict[type, ActionKind] = {
    Play: ActionKind.PLAY,
    Draw: ActionKind.DRAW,
    Pass: ActionKind.PASS,
    Announce: ActionKind.ANNOUNCE,
    CallIdiot: ActionKind.IDIOT,
    NameSuit: ActionKind.NAME_SUIT,
}


_FLAG_KEY: dict[type, str] = {kind: value.value for kind, value in _KIND_OF.items()}


def action_to_wire(action: Action) -> dict[str, Any]:
    """The map form of ``action`` without its seat (protocol §6), e.g. ``{"play": "8S"}``."""
    match action:
        case Play(card=card, suit=suit, announce=announce):
            d: dict[str, Any] = {_PLAY: card}
            if suit is not None:
                d[_SUIT] = suit
            if announce:
                d[_ANNOUNCE] = True
            return d
        case CallIdiot(target=target):
            return {_IDIOT: target}
        case NameSuit(suit=suit):
            return {_NAME_SUIT: suit}
        case Draw() | Pass() | Announce():
            return {_FLAG_KEY[type(action)]: True}
    raise TypeError(f"not an action: {action!r}")
