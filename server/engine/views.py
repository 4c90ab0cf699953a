"""What each seat, and a spectator, may know: the one place hidden cards are filtered.

:func:`view` gives a seat (or a spectator, ``seat=None``) its view of the game;
:func:`event_for` gives it its copy of an event. The server sends nothing
about a game except what these two return. A seat sees its own hand and the
drawn cards it drew; everyone sees the discard pile's top card, counts of
cards, and every hand once a hand is over (R9). Nobody ever sees the stock.
"""

from __future__ import annotations

from typing import Any

from .actions import action_to_dict
from .events import Dealt, Drew, Event, ShufflePenalty, event_to_dict
from .game import Game, hand_size


def event_for(event: Event, seat: int | None) -> Event:
    """The copy of ``event`` that ``seat`` may see (``None``: a spectator).

    A deal shows a seat its own cards only; a draw shows the cards to the drawer
    only; a reshuffled stock's order is shown to nobody. Other events are public.
    """
    kind = type(event)
    if kind is Drew:
        if event.seat != seat and event.cards is not None:
            return event._replace(cards=None)
        return event
    if kind is Dealt:
        return event._replace(
            hands=tuple(h if s == seat else None for s, h in enumerate(event.hands))
        )
    if kind is ShufflePenalty:
        return event._replace(order=None) if event.order is not None else event
    return event


def event_dict_for(event: Event, seat: int | None) -> dict[str, Any]:
    """:func:`event_for`, as plain data for the wire (see :func:`events.event_to_dict`)."""
    return event_to_dict(event_for(event, seat))


def view(game: Game, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` may know of ``game``, as plain data (``None``: a spectator).

    Keys: ``seat``, ``players``, ``rules`` (options changed from the defaults),
    ``phase``, ``hand_number``, ``hands_in_game``, ``hand_size``, ``dealer``,
    ``direction``, ``turn``, ``to_act``, ``hand`` (own cards, or None for a
    spectator), ``hand_sizes``, ``top``, ``suit``, ``count``, ``again``,
    ``jacks``, ``king_cards``, ``pending``, ``drawn`` (own drawn card, else
    None), ``deciding_drawn`` (the seat to act is deciding on a drawn card),
    ``stock_size``, ``discard_size``, ``scores``, ``pressure``,
    ``next_penalty``, ``lost_turns``, ``unannounced``, ``one_card`` (seats
    holding one card that announced or owe nothing), ``legal`` (this seat's
    legal actions in dict form; empty for spectators), and ``result`` (the
    revealed hands and scoring, once a hand is over).
    """
    playing = game.phase == "play"
    sizes = [len(h) for h in game.hands]
    own = None if seat is None else list(game.hands[seat])
    unannounced = list(game.unannounced)
    return {
        "seat": seat,
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
        "hand": own,
        "hand_sizes": sizes,
        "top": game.discard[-1] if game.discard else None,
        "suit": game.suit,
        "count": game.count,
        "again": game.again,
        "jacks": game.jacks,
        "king_cards": game.king_cards,
        "pending": game.pending,
        "drawn": game.drawn if seat is not None and seat == game.turn else None,
        "deciding_drawn": game.drawn is not None,
        "stock_size": len(game.stock),
        "discard_size": len(game.discard),
        "scores": list(game.scores),
        "pressure": list(game.pressure),
        "next_penalty": [5 << p for p in game.pressure],
        "lost_turns": list(game.lost_turns),
        "unannounced": unannounced,
        "one_card": [s for s, k in enumerate(sizes) if k == 1 and s not in unannounced],
        "legal": (
            [action_to_dict(a) for a in game.legal_actions(seat)]
            if playing and seat is not None
            else []
        ),
        "result": (None if game.result is None or playing else event_to_dict(game.result)),
    }
