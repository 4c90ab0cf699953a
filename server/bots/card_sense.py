"""What the bots know of cards: wilds, suits held, follow-ups, and picking a legal variant.

Cards are the two-character codes of R1 (``"TD"``: rank ``T``, suit ``D``).
These helpers are shared by the basic policy and the server's timeout move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from craits.protocol.types import LegalPlay
from craits.protocol.vocab import SUITS

from ..engine.cards import COLOUR_PARTNER, POINTS

__all__ = [
    "COUNT_RANKS",
    "WILD_RANKS",
    "best_suit",
    "follow_ups",
    "is_wild",
    "pick",
    "rest_after",
    "suit_to_name",
]

WILD_RANKS = "89"
"""The wild ranks (R5): an 8 names any suit, a 9 its own or its colour partner."""
COUNT_RANKS = "A2"
"""The ranks that follow the count (R6)."""


def is_wild(card: str) -> bool:
    """Whether ``card`` is an 8 or a 9 (R5)."""
    return card[0] in WILD_RANKS


def _suit_counts(cards: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Per suit: (number of non-wild cards held, their points) (R5, R9)."""
    out = {s: [0, 0] for s in SUITS}
    for c in cards:
        if c[0] not in WILD_RANKS:
            out[c[1]][0] += 1
            out[c[1]][1] += POINTS[c[0]]
    return {s: (k, p) for s, (k, p) in out.items()}


def best_suit(cards: Sequence[str], allowed: Sequence[str], default: str) -> str:
    """The suit of ``allowed`` that ``cards`` hold most of (non-wild cards).

    Ties go to the suit holding more points (shed them sooner, R9), then to
    ``default`` if it is among the best, then to the order of ``allowed``.
    """
    counts = _suit_counts(cards)
    best = max(counts[s] for s in allowed)
    tied = [s for s in allowed if counts[s] == best]
    return default if default in tied else tied[0]


def suit_to_name(card: str, rest: Sequence[str]) -> str | None:
    """The suit to name with ``card``, keeping ``rest``: for a wild, the suit ``rest``
    holds most of among those it may name (an 8: any, a 9: its own or its colour
    partner; R5, R12), ties keeping the card's own; None for any other card."""
    rank, suit = card[0], card[1]
    if rank == "8":
        return best_suit(rest, SUITS, suit)
    if rank == "9":
        return best_suit(rest, (suit, COLOUR_PARTNER[suit]), suit)
    return None


def pick(legal: Sequence[LegalPlay], card: str, suit: str | None, announce: bool) -> LegalPlay:
    """The legal play of ``card`` naming ``suit``, announcing if ``announce`` (R5, R7).

    Falls back on the closest legal variant (another suit or announce flag).

    Raises:
        IndexError: ``legal`` holds no play of ``card``.
    """
    same = [a for a in legal if a["play"] == card]
    for a in same:
        if a.get("suit") == suit and bool(a.get("announce")) == announce:
            return a
    for a in same:
        if a.get("suit") == suit:
            return a
    for a in same:
        if bool(a.get("announce")) == announce:
            return a
    return same[0]


def rest_after(hand: Sequence[str], card: str) -> list[str]:
    """The cards left in ``hand`` once ``card`` is played (a drawn card not yet in
    the hand leaves it whole)."""
    rest = list(hand)
    if card in rest:
        rest.remove(card)
    return rest


def follow_ups(cards: Iterable[str], suit: str, rank: str) -> int:
    """How many of ``cards`` (wilds left out) could be played on ``rank`` in ``suit`` (R4)."""
    return sum(1 for c in cards if c[0] not in WILD_RANKS and (c[1] == suit or c[0] == rank))
