"""What each seat, and a spectator, may know: the one place hidden cards are filtered.

:func:`view` gives a seat (or a spectator, ``seat=None``) its view of the game;
:func:`event_for` gives it its copy of an event (:func:`events_for`, of a list:
the hand so far that a ``state`` carries). The server sends nothing about a
game except what these return (and :func:`score_sheet_row`'s public scores).
A seat sees its own hand and the drawn cards it drew; everyone sees the discard
pile's top card, counts of cards, and every hand once a hand is over (R9).
Nobody ever sees the stock.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from craits.protocol.vocab import Phase

from .actions import action_to_dict
from .events import Dealt, Drew, Event, HandEnded, ShufflePenalty, event_to_dict
from .game import Game, hand_size
from .scoring import penalty_figures


def event_for(event: Event, seat: int | None) -> Event:
    """The copy of ``event`` that ``seat`` may see (``None``: a spectator).

    A deal shows a seat its own cards only; a draw shows the cards to the drawer
    only; a reshuffled stock's order is shown to nobody. Other events are public.
    """
    # type(event) is …: mypy narrows it as it does a match, and it costs less (~90 ns)
    if type(event) is Drew:
        if event.seat != seat and event.cards is not None:
            return event._replace(cards=None)
        return event
    if type(event) is Dealt:
        return event._replace(
            hands=tuple(h if s == seat else None for s, h in enumerate(event.hands))
        )
    if type(event) is ShufflePenalty:
        return event._replace(order=None) if event.order is not None else event
    return event


def event_dict_for(event: Event, seat: int | None) -> dict[str, Any]:
    """:func:`event_for`, as plain data for the wire (see :func:`events.event_to_dict`)."""
    return event_to_dict(event_for(event, seat))


def events_for(events: Iterable[Event], seat: int | None) -> list[dict[str, Any]]:
    """Events (a hand's, say) as ``seat`` may see them, in wire form: each through
    :func:`event_for`, the one filter, so none shows a card ``seat`` could not see
    when it happened (the ``state`` message's ``events``, protocol §7.1)."""
    return [event_to_dict(event_for(e, seat)) for e in events]


def score_sheet_row(ended: HandEnded) -> dict[str, Any]:
    """One hand's line of the score sheet, from its end (R9, R10), public to all:
    ``hand_number``; per seat the hand's ``points`` (penalties not included), the
    shuffle ``penalties`` paid during the hand, and the game totals after it
    (``scores``, penalties included). The ``state`` message's ``score_sheet``
    (protocol §7.1) is one per hand ended."""
    points = [0] * len(ended.scores)
    for r in ended.results:
        points[r.seat] = r.points
    return {
        "hand_number": ended.hand_number,
        "points": points,
        "penalties": list(ended.penalties),
        "scores": list(ended.scores),
    }


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know of ``game``, as plain data (``None``: a spectator).

    Keys: ``seat``, ``players``, ``rules`` (options changed from the defaults),
    ``phase``, ``hand_number``, ``hands_in_game``, ``hand_size``, ``dealer``,
    ``direction``, ``turn``, ``to_act``, ``hand`` (own cards, or None for a
    spectator), ``hand_sizes``, ``top``, ``suit``, ``count``, ``again``,
    ``jacks``, ``king_cards``, ``pending``, ``drawn`` (own drawn card, else
    None), ``deciding_drawn`` (the seat to act is deciding on a drawn card),
    ``stock_size``, ``discard_size``, ``scores``, ``pressure``,
    ``next_penalty``, ``penalties_paid`` (shuffle-penalty points each seat paid
    this game, R10), ``lost_turns``, ``unannounced``, ``one_card`` (seats
    holding one card that announced or owe nothing), ``legal`` (this seat's
    legal actions in dict form; empty for spectators), and ``result`` (the
    revealed hands and scoring, once a hand is over).
    """
    return _seat_view(_public_view(game), game, seat)


class Moment:
    """One moment of a game as every member of a table may see it: the events
    just made and the view after them, per seat.

    What everyone may see (the public part of the view, public events) is
    built once and shared between the seats' copies, so a table with many
    members pays for it once. Filtering is :func:`view` and :func:`event_for`'s,
    unchanged: :meth:`view` equals ``view(game, seat)`` and :meth:`events`
    equals ``[event_dict_for(e, seat) for e in events]``.
    """

    __slots__ = ("_all", "_events", "_game", "_hidden", "_personal", "_public", "_shared")

    def __init__(self, game: Game, events: list[Event]) -> None:
        self._game = game
        self._events = events
        self._public: dict[str, Any] | None = None
        self._shared: list[dict[str, Any] | None] = [None] * len(events)
        self._hidden: dict[int, dict[str, Any]] = {}
        # only a deal, a draw and a shuffle penalty read differently from seat to seat
        self._personal = any(type(e) in _PERSONAL for e in events)
        self._all: list[dict[str, Any]] | None = None

    def view(self, seat: int | None) -> dict[str, Any]:
        """``view(game, seat)``; its public part is shared with the other seats'."""
        return _seat_view(self.public(), self._game, seat)

    def public(self) -> dict[str, Any]:
        """The keys of the view that are the same for every seat and spectator
        (built once; do not change it)."""
        if self._public is None:
            self._public = _public_view(self._game)
        return self._public

    def personal(self, seat: int | None) -> dict[str, Any]:
        """The keys of ``seat``'s view that are its own: ``seat``, ``hand``,
        ``drawn`` and ``legal``. ``view(seat)`` is :meth:`public` plus these."""
        return _personal_view(self._game, seat)

    def events(self, seat: int | None) -> list[dict[str, Any]]:
        """The events as ``seat`` may see them, in wire form (one list shared by
        every seat when all the events are public)."""
        if not self._personal:
            if self._all is None:
                self._all = [event_to_dict(e) for e in self._events]
            return self._all
        out = []
        shared = self._shared
        for i, event in enumerate(self._events):
            mine = event_for(event, seat)
            if mine is event:  # public, or this seat's own: the same for all who see it whole
                d = shared[i]
                if d is None:
                    d = shared[i] = event_to_dict(event)
            elif type(mine) is Drew:  # a draw seen from outside: the same for every other seat
                d = self._hidden.get(i)
                if d is None:
                    d = self._hidden[i] = event_to_dict(mine)
            else:
                d = event_to_dict(mine)
            out.append(d)
        return out


_PERSONAL = (Dealt, Drew, ShufflePenalty)
"""The events :func:`event_for` may change for some recipient."""


def _public_view(game: Game) -> dict[str, Any]:
    """The part of every seat's view that is the same for all seats."""
    playing = game.phase == Phase.PLAY
    sizes = [len(h) for h in game.hands]
    unannounced = list(game.unannounced)
    upcoming, paid = penalty_figures(game.pressure)
    return {
        "players": game.players,
        "rules": game.rules.changed(),
        "phase": game.phase,
        "hand_number": game.hand_number,
        "hands_in_game": game.rules.hands,
        "hand_size": hand_size(game.hand_number),
        "dealer": game.dealer,
        "direction": game.direction,
        "turn": game.turn,
        "to_act": game.to_act,
        "hand_sizes": sizes,
        "top": game.discard[-1] if game.discard else None,
        "suit": game.suit,
        "count": game.count,
        "again": game.again,
        "jacks": game.jacks,
        "king_cards": game.king_cards,
        "pending": game.pending,
        "deciding_drawn": game.drawn is not None,
        "stock_size": len(game.stock),
        "discard_size": len(game.discard),
        "scores": list(game.scores),
        "pressure": list(game.pressure),
        "next_penalty": upcoming,
        "penalties_paid": paid,
        "lost_turns": list(game.lost_turns),
        "unannounced": unannounced,
        "one_card": [s for s, k in enumerate(sizes) if k == 1 and s not in unannounced],
        "result": (None if game.result is None or playing else event_to_dict(game.result)),
    }


def _seat_view(public: dict[str, Any], game: Game, seat: int | None) -> dict[str, Any]:
    """``public`` plus what only ``seat`` may see: its hand, its drawn card, its legal actions."""
    return {**public, **_personal_view(game, seat)}


def _personal_view(game: Game, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` may see: its hand, its drawn card, its legal actions
    (for a spectator, none of them)."""
    if seat is None:
        return {"seat": None, "hand": None, "drawn": None, "legal": []}
    return {
        "seat": seat,
        "hand": list(game.hands[seat]),
        "drawn": game.drawn if seat == game.turn else None,
        "legal": [action_to_dict(a) for a in game.legal_actions(seat)],  # none unless in play
    }
