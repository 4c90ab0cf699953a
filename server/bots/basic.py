"""The ``basic`` level: a sensible, deterministic player (see :func:`choose_basic`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from craits.protocol.types import LegalAction, LegalNameSuit, LegalPlay, View

from ..engine.cards import POINTS
from .card_sense import best_suit, follow_ups, is_wild, pick, rest_after, suit_to_name
from .view import (
    ANNOUNCE,
    PLAY,
    ActionDict,
    as_dict,
    draw_or_pass,
    idiot_calls,
    own_hand,
    own_seat,
    passes,
    plays,
    seat_view,
    suit_namings,
    to_act,
)
from .weighing import Situation, play_score

__all__ = ["basic_policy", "choose_basic", "endgame"]


def endgame(v: View) -> bool:
    """Whether an opponent is down to one card and may go out at any moment (R8):
    then the 50 or 30 points of a wild are worth more shed than kept (R9)."""
    seat = v["seat"]
    return any(k <= 1 for s, k in enumerate(v["hand_sizes"]) if s != seat)


def _owed_announcement(legal: Sequence[LegalAction]) -> LegalAction | None:
    """A "one card" announcement the seat owes, on its own (not with a play, R7)."""
    for a in legal:
        if a.get(ANNOUNCE) is True and PLAY not in a:
            return a
    return None


def _idiot_call(legal: Sequence[LegalAction], seat: int) -> LegalAction | None:
    """A legal idiot call on another seat (R7)."""
    for a in idiot_calls(legal):
        if a["idiot"] != seat:
            return a
    return None


def _name_pending_suit(v: View, names: Sequence[LegalNameSuit]) -> LegalNameSuit:
    """Name the suit of a turned-up 8 or 9 (R3, R5): the one the hand holds most of,
    ties keeping the card's own."""
    allowed = [a["name_suit"] for a in names]
    top = v["top"]
    suit = best_suit(own_hand(v), allowed, top[1] if top else allowed[0])
    return next(a for a in names if a["name_suit"] == suit)


def _keeps_drawn_card(v: View, card: str) -> bool:
    """With a drawn card to play or pass on (``play_drawn_card``, R4): whether to keep
    it — a wild kept for later (R5) unless an opponent may go out (R8), or a 6 with
    no card to follow it (R5)."""
    if is_wild(card):
        return not endgame(v)
    rest = rest_after(own_hand(v), card)
    return card[0] == "6" and not follow_ups(rest, card[1], card[0])


def _candidates(legal_plays: Sequence[LegalPlay], keep_wilds: bool) -> list[str]:
    """The cards of ``legal_plays``, each once, in order; with ``keep_wilds``, 8s and
    9s only if nothing else is legal (R5: keep the wilds for then)."""
    cards = list(dict.fromkeys(a["play"] for a in legal_plays))
    if keep_wilds:
        plain = [c for c in cards if not is_wild(c)]
        if plain:
            return plain
    return cards


def _choose_play(v: View, legal_plays: Sequence[LegalPlay]) -> LegalPlay:
    """The basic bot's play among ``legal_plays`` (all for the seat to act): the best
    by :func:`~.scoring.play_score`, the first on a tie, announcing "one card" if
    it leaves one (R7)."""
    hand = own_hand(v)
    late = endgame(v)
    situation = Situation.of(v)
    best: tuple[float, str, str] | None = None
    for card in _candidates(legal_plays, keep_wilds=not v["count"] and not late):
        rest = rest_after(hand, card)
        suit = suit_to_name(card, rest) or card[1]
        score = play_score(situation, card, suit, rest)
        if is_wild(card) and not late:
            # Only wilds are legal: the fewer points, the better — part with the
            # 9 first and keep the 8 (which names any suit).
            score -= 2 * POINTS[card[0]]
        if best is None or score > best[0]:
            best = (score, card, suit)
    assert best is not None, "no play to choose from"
    _, card, suit = best
    rest = rest_after(hand, card)
    return pick(legal_plays, card, suit if is_wild(card) else None, len(rest) == 1)


def _turn(v: View, legal: Sequence[LegalAction]) -> LegalAction | None:
    """The basic bot's turn (R3, R4): name a pending suit, play or pass on a drawn
    card, play, else draw or pass."""
    names = suit_namings(legal)
    if names:
        return _name_pending_suit(v, names)
    legal_plays = plays(legal)
    legal_passes = passes(legal)
    if legal_plays and legal_passes and _keeps_drawn_card(v, legal_plays[0]["play"]):
        return legal_passes[0]
    if legal_plays:
        return _choose_play(v, legal_plays)
    return draw_or_pass(legal)


def basic_policy(v: View, rng: random.Random | None = None) -> LegalAction | None:
    """The ``"basic"`` policy: a sensible, deterministic player.

    ``v`` is the seat's view (protocol §8). In order of priority:

    1. announces "one card" if it owes the announcement (R7);
    2. calls idiot whenever a legal call exists, on its turn or not (R7);
    3. off its turn, does nothing more;
    4. names the pending suit of a turned-up 8 or 9 as the suit it holds most
       of (R3, R5);
    5. plays rather than draws whenever it can (the engine requires it, R4,
       R12); during the count (R6) it follows with a 2 before an ace;
    6. keeps 8s and 9s (wild, R5) for when nothing else is legal — or when an
       opponent is down to one card and may go out (R8): then it sheds them
       like any card with high points (R9) — naming the suit it holds most of
       (the 9: of its two suits);
    7. otherwise scores each legal card (:func:`~.scoring.play_score`): its
       points (R9: shed high values first; threes and aces are worth keeping),
       the harm it does (2 starts the count, 4 skips, 5 and 7 make others draw,
       more so when the victim is close to going out; R5), a 6 only with a
       follow-up, not as the last card, and how many of its remaining cards
       can follow it;
    8. always announces "one card" with a play that leaves one card (R7);
    9. with a drawn card to play or pass (option ``play_drawn_card``, R4), plays
       it unless it is a wild it keeps (as in 6.) or a 6 with no follow-up.

    ``rng`` is accepted for a common signature and not used.

    Returns:
        One of the entries of ``v["legal"]``, or None when it has nothing to do.
    """
    legal = v["legal"]
    if not legal:
        return None
    call = _owed_announcement(legal) or _idiot_call(legal, own_seat(v))
    if call is not None:
        return call
    if not to_act(v):
        return None
    return _turn(v, legal)


def choose_basic(view: Mapping[str, Any], rng: random.Random | None = None) -> ActionDict | None:
    """:func:`basic_policy` on plain data: ``view`` a seat's view as the engine gives
    it (:func:`craits.server.engine.view`); returns one of the dicts of
    ``view["legal"]`` (the same object), or None."""
    choice = basic_policy(seat_view(view))
    return None if choice is None else as_dict(choice)
