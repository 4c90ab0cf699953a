"""Cards, suits, ranks and decks (RULES.md R1): the engine's facts about them.

The codes themselves are the vocabulary's (:mod:`craits.protocol.vocab`): a
card is a ``str`` of two characters, its rank (``A 2 3 4 5 6 7 8 9 T J Q K``)
then its suit (``S H D C``), e.g. ``"TD"`` is the ten of diamonds. With two
decks (R1) identical cards are equal strings; a hand is a list, so both copies
can be held. This module adds what only the rules need: points, colour
partners, the cut order, the ranks with a rule of their own, and the decks.
"""

from __future__ import annotations

from collections.abc import Iterable

from craits.protocol.vocab import (
    CARD_SET,
    CARDS,
    RANK_NAMES,
    RANKS,
    RED_SUITS,
    SUIT_NAMES,
    SUITS,
    is_card,
    is_suit,
)

__all__ = [
    "CARDS",
    "CARD_SET",
    "COLOUR_PARTNER",
    "COUNT_RANKS",
    "CUT_ORDER",
    "POINTS",
    "QUEEN_OF_SPADES",
    "RANKS",
    "RANK_NAMES",
    "STRIPPED_RANKS",
    "SUITS",
    "SUIT_NAMES",
    "SUIT_NAMING_RANKS",
    "card_name",
    "complete_deck",
    "decks_for",
    "full_deck",
    "is_card",
    "is_suit",
    "suits_named_by",
]

COLOUR_PARTNER: dict[str, str] = {
    s: next(t for t in SUITS if t != s and (t in RED_SUITS) == (s in RED_SUITS)) for s in SUITS
}
"""The other suit of the same colour (R5, the 9): black S/C, red H/D."""

SUIT_NAMING_RANKS = "89"
"""Ranks that match any card and name the suit in force (R4, R5): the 8 and the 9."""

COUNT_RANKS = "A2"
"""Ranks that may be played during the count (R6): aces and twos."""

QUEEN_OF_SPADES = "QS"
"""The one queen with a function (R11): the next player draws five."""

STRIPPED_RANKS = "KQ"
"""Ranks removed with the option ``strip_kings_queens`` (R1)."""

POINTS = {
    "A": 1,
    "2": 20,
    "3": 3,
    "4": 15,
    "5": 30,
    "6": 30,
    "7": 20,
    "8": 50,
    "9": 30,
    "T": 25,
    "J": 10,
    "Q": 10,
    "K": 10,
}
"""Points of each rank left in a hand at the end of a hand (R9)."""

CUT_ORDER = {r: i for i, r in enumerate("23456789TJQKA")}
"""Rank order for the cut (R2): 2 lowest, ace highest; suits do not count."""

if set(POINTS) != set(RANKS) or set(CUT_ORDER) != set(RANKS) or not is_card(QUEEN_OF_SPADES):
    raise RuntimeError("POINTS and CUT_ORDER must give every rank of the vocabulary")


def suits_named_by(card: str) -> str:
    """The suits that playing (or turning up) ``card`` may name, as one string (R3, R5, R12).

    An 8 names any suit; a 9 its own or its colour partner (own first); any
    other card names none (its own suit is in force): ``""``.
    """
    rank = card[0]
    if rank == "8":
        return SUITS
    if rank == "9":
        return card[1] + COLOUR_PARTNER[card[1]]
    return ""


def decks_for(players: int) -> int:
    """Number of 52-card decks used by ``players`` seats (R1): 1 for 2–5, 2 for 6–8.

    Raises:
        ValueError: ``players`` is not 2–8.
    """
    if not 2 <= players <= 8:
        raise ValueError(f"Craits is for 2 to 8 players, not {players}")
    return 1 if players <= 5 else 2


def full_deck(players: int, strip_kings_queens: bool = False) -> list[str]:
    """The cards used by ``players`` seats, in canonical order (R1).

    Two decks for 6–8 players (deck one's order, then deck two's). With the
    option ``strip_kings_queens`` and 2 or 3 players, no kings or queens.

    Raises:
        ValueError: ``players`` is not 2–8.
    """
    deck = list(CARDS) * decks_for(players)
    if strip_kings_queens and players <= 3:
        deck = [c for c in deck if c[0] not in STRIPPED_RANKS]
    return deck


def complete_deck(top: Iterable[str], players: int, strip_kings_queens: bool = False) -> list[str]:
    """A whole deck order from its top cards (the vector ``deal`` format).

    ``top`` lists the first cards, top first; the rest of :func:`full_deck`
    follows in canonical order, each listed card taking the first copy of it
    still left.

    Raises:
        ValueError: a listed card is not in the deck, or is listed more often
            than the deck holds it.
    """
    rest = full_deck(players, strip_kings_queens)
    order = []
    for card in top:
        try:
            rest.remove(card)
        except ValueError:
            raise ValueError(f"card {card!r} is not (or no longer) in the deck") from None
        order.append(card)
    order.extend(rest)
    return order


def card_name(card: str) -> str:
    """A card in words, e.g. ``"10 of diamonds"``."""
    return f"{RANK_NAMES.get(card[0], card[0])} of {SUIT_NAMES[card[1]]}"
