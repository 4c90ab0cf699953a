"""What happened: the events that applying an action returns.

Each event is a small immutable tuple; its wire name is the vocabulary's
:class:`~craits.protocol.vocab.EventKind` (:data:`EVENT_KINDS`). Some carry cards
that not every seat may see (a draw, the deal, a reshuffled stock); the one
place that strips them for a given seat or spectator is
:func:`craits.server.engine.views.event_for`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from craits.protocol.vocab import DrawReason, EventKind, SkipReason


class Cut(NamedTuple):
    """The cut for the first dealer (R2): ``rounds[i]`` pairs each seat still in with its card."""

    rounds: tuple[tuple[tuple[int, str], ...], ...]
    dealer: int


class Dealt(NamedTuple):
    """A hand was dealt (R2, R3). ``hands[s]`` is seat s's cards (hidden: None)."""

    hand_number: int
    dealer: int
    hand_size: int
    hands: tuple[tuple[str, ...] | None, ...]
    stock_size: int


class TurnedUp(NamedTuple):
    """The dealer turned up ``card`` to start the discard pile (R3); it acts as the dealer's."""

    seat: int
    card: str


class Played(NamedTuple):
    """``seat`` played ``card``; ``suit`` is the suit in force after it (R4, R5)."""

    seat: int
    card: str
    suit: str
    announced: bool


class SuitNamed(NamedTuple):
    """The dealer named ``suit`` for a turned-up 8 or 9 (R3)."""

    seat: int
    suit: str


class Drew(NamedTuple):
    """``seat`` drew ``n`` cards (``cards``: only for the drawer) because of ``reason``.

    Reasons (:class:`~craits.protocol.vocab.DrawReason`): ``turn`` (R4),
    ``count`` (R6), ``six`` (R5), ``king`` (R11), ``five``, ``seven`` (R5),
    ``idiot`` (R7), ``jack``, ``queen`` (R11).
    """

    seat: int
    n: int
    cards: tuple[str, ...] | None
    reason: DrawReason


class ShufflePenalty(NamedTuple):
    """``seat`` had to draw from an empty stock and paid ``penalty`` (R10).

    If cards lay under the top card they became the new stock (``stock_size``);
    otherwise ``stock_size`` is 0 and the hand ends. ``order`` is the new stock,
    top first: it is for the server's records only and never sent.
    """

    seat: int
    penalty: int
    stock_size: int
    order: tuple[str, ...] | None


class CountChanged(NamedTuple):
    """The count (R6) is now ``count`` (0: it ended)."""

    # The wire calls it "count"; as a tuple field it hides tuple.count, which
    # nothing calls on an event.
    count: int  # type: ignore[assignment]


class Skipped(NamedTuple):
    """``seat``'s turn was skipped: ``reason`` (:class:`~craits.protocol.vocab.SkipReason`)
    is ``four`` (R5), ``lost_turn`` (R7), ``jack`` or ``queen`` (R11)."""

    seat: int
    reason: SkipReason


class Reversed(NamedTuple):
    """A 10 reversed the direction of play (R5); ``direction`` is the new one."""

    seat: int
    direction: int


class PlayAgain(NamedTuple):
    """``seat`` must play again after a 6 (R5), or play on after a king (R11, ``cards`` left)."""

    seat: int
    cards: int


class Passed(NamedTuple):
    """``seat`` kept the card it drew (R4, ``play_drawn_card``)."""

    seat: int


class Announced(NamedTuple):
    """``seat`` announced "one card" (R7)."""

    seat: int


class IdiotCalled(NamedTuple):
    """``seat`` called idiot on ``target`` (R7); the penalty follows as a draw."""

    seat: int
    target: int


class HandScore(NamedTuple):
    """One seat's scoring at the end of a hand (R9).

    ``cards``: the hand revealed; ``cancelled``: pairs (three, card it cancelled);
    ``points``: hand points, penalties not included; ``went_out``.
    """

    seat: int
    cards: tuple[str, ...]
    cancelled: tuple[tuple[str, str], ...]
    points: int
    went_out: bool


class HandEnded(NamedTuple):
    """The hand is over (R8, R10): every hand revealed and scored (R9).

    ``scores``: game totals after it; ``pressure``: shuffle penalties paid so far;
    ``next_dealer``: who deals next (R2); ``game_over``; ``winners`` (when over);
    ``penalties``: the shuffle-penalty points each seat paid during this hand (R10),
    already counted in ``scores``.
    """

    hand_number: int
    results: tuple[HandScore, ...]
    scores: tuple[int, ...]
    pressure: tuple[int, ...]
    next_dealer: int
    game_over: bool
    winners: tuple[int, ...]
    penalties: tuple[int, ...]


Event = (
    Cut
    | Dealt
    | TurnedUp
    | Played
    | SuitNamed
    | Drew
    | ShufflePenalty
    | CountChanged
    | Skipped
    | Reversed
    | PlayAgain
    | Passed
    | Announced
    | IdiotCalled
    | HandEnded
)
"""Any event."""

EVENT_KINDS: dict[type[Event], EventKind] = {
    Cut: EventKind.CUT,
    Dealt: EventKind.DEALT,
    TurnedUp: EventKind.TURNED_UP,
    Played: EventKind.PLAYED,
    SuitNamed: EventKind.SUIT_NAMED,
    Drew: EventKind.DREW,
    ShufflePenalty: EventKind.SHUFFLE_PENALTY,
    CountChanged: EventKind.COUNT,
    Skipped: EventKind.SKIPPED,
    Reversed: EventKind.REVERSED,
    PlayAgain: EventKind.PLAY_AGAIN,
    Passed: EventKind.PASSED,
    Announced: EventKind.ANNOUNCED,
    IdiotCalled: EventKind.IDIOT,
    HandEnded: EventKind.HAND_ENDED,
}
"""The wire name of each event class: one class per :class:`~craits.protocol.vocab.EventKind`."""

if sorted(EVENT_KINDS.values()) != sorted(EventKind) or len(EVENT_KINDS) != len(EventKind):
    raise RuntimeError("each of the vocabulary's event kinds needs exactly one event class")


def event_to_dict(event: Event) -> dict[str, Any]:
    """Plain-data form of an (already filtered) event: ``{"event": kind, ...fields}``.

    Tuples become lists, nested :class:`HandScore` become dicts.
    """
    d: dict[str, Any] = {"event": EVENT_KINDS[type(event)]}
    for key, value in zip(event._fields, event, strict=True):
        d[key] = value if type(value) in _SCALARS else _plain(value)
    return d


_SCALARS = frozenset({str, int, bool, type(None), DrawReason, SkipReason})


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, HandScore):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
