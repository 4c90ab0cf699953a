"""Cards, suits, ranks and decks (RULES.md R1), as two-character codes.

A card is a ``str`` of two characters: its rank (``A 2 3 4 5 6 7 8 9 T J Q K``)
then its suit (``S H D C``), e.g. ``"TD"`` is the ten of diamonds. With two
decks (R1) identical cards are equal strings; a hand is a list, so both copies
can be held.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
"""Ranks in deck order (R1)."""
SUITS = "SHDC"
"""Suits in deck order: spades, hearts, diamonds, clubs (R1)."""

CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""One 52-card deck in the canonical order ``AS 2S … KS AH … KC``."""
CARD_SET = frozenset(CARDS)

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {
    "A": "ace",
    "T": "10",
    "J": "jack",
    "Q": "queen",
    "K": "king",
}

COLOUR_PARTNER = {"S": "C", "C": "S", "H": "D", "D": "H"}
"""The other suit of the same colour (R5, the 9): black S/C, red H/D."""

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


def is_card(code: object) -> bool:
    """Return whether ``code`` is a valid two-character card code (R1)."""
    return isinstance(code, str) and code in CARD_SET


def is_suit(code: object) -> bool:
    """Return whether ``code`` is one of ``"S" "H" "D" "C"``."""
    return isinstance(code, str) and len(code) == 1 and code in SUITS


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
        deck = [c for c in deck if c[0] not in "KQ"]
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
