"""The server's move for a seat whose turn timed out (protocol §11.4): :func:`timeout_action`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from craits.protocol.types import LegalAction, LegalNameSuit, LegalPlay, View

from ..engine.cards import POINTS
from .card_sense import is_wild, pick, rest_after, suit_to_name
from .view import ActionDict, as_dict, draw_or_pass, own_hand, plays, seat_view, suit_namings

__all__ = ["timeout_action", "timeout_move"]


def _own_suit(v: View, names: Sequence[LegalNameSuit]) -> LegalNameSuit:
    """The naming of a turned-up 8 or 9's own suit (R3), else the first offered."""
    top = v.get("top")
    own = top[1] if top else None
    return next((a for a in names if a["name_suit"] == own), names[0])


def _shed_most(v: View, legal_plays: Sequence[LegalPlay]) -> LegalPlay:
    """The play of the card to shed first: non-wild before wild (R5), then the most
    points (R9), then the first offered; a wild names the suit the rest holds most
    of (R5), and a play leaving one card announces it (R7)."""
    cards = list(dict.fromkeys(a["play"] for a in legal_plays))
    # max() keeps the first on ties.
    card = max(cards, key=lambda c: (not is_wild(c), POINTS[c[0]]))
    rest = rest_after(own_hand(v), card)
    return pick(legal_plays, card, suit_to_name(card, rest), len(rest) == 1)


def timeout_move(v: View) -> LegalAction:
    """The move the server makes for the seat whose turn timed out.

    The policy, deterministic, from the seat's view ``v`` only (protocol §8):

    - a pending suit for a turned-up 8 or 9 (R3): the card's own suit;
    - during the count (R6): follow it if it can, with a 2 before an ace;
    - otherwise play a legal card if there is one (it must, R4): non-wild
      before wild (R5), the highest points first (R9), the first in
      ``v["legal"]`` order on a tie; an 8 or 9 names the suit it holds most
      of among its remaining non-wild cards (a 9: of its two suits; ties keep
      the card's own suit);
    - a play that leaves one card always announces "one card" (R7);
    - a drawn card that may be played (option ``play_drawn_card``, R4) is
      played, as any legal card;
    - with nothing to play: draw (R4, R6), or pass.

    It never calls idiot, and makes no separate announcement: the turn's game
    action closes any window it had left open (R7).

    Returns:
        One of the entries of ``v["legal"]``: a ``name_suit``, ``play``,
        ``draw`` or ``pass`` action.

    Raises:
        ValueError: the seat has no turn action (it is not to act, or no hand
            is being played).
    """
    legal = v["legal"]
    names = suit_namings(legal)
    if names:
        return _own_suit(v, names)
    legal_plays = plays(legal)
    if legal_plays:
        return _shed_most(v, legal_plays)
    action = draw_or_pass(legal)
    if action is None:
        raise ValueError(f"seat {v.get('seat')} has no turn action to time out")
    return action


def timeout_action(view: Mapping[str, Any]) -> ActionDict:
    """:func:`timeout_move` on plain data: ``view`` a seat's view as the engine gives it
    (:func:`craits.server.engine.view`); returns one of the dicts of ``view["legal"]``.

    Raises:
        ValueError: the seat has no turn action (it is not to act, or no hand
            is being played).
    """
    return as_dict(timeout_move(seat_view(view)))
