"""Cards as small integers, for the fast simulator and the search (RULES.md R1, R5, R9).

A card is ``suit * 13 + rank``: suits in the vocabulary's order ``S H D C``
(0–3), ranks in ``A 2 3 4 5 6 7 8 9 T J Q K`` order (0–12). So the code of a
card is its index in :data:`craits.protocol.vocab.CARDS`. A set of cards is an
``int`` bit set (bit ``code``); with two decks (R1) a hand is still a list of
codes, duplicates allowed, in the engine's order.
"""

from __future__ import annotations

from craits.protocol.vocab import CARDS, RANKS, SUITS

from ...engine.cards import COLOUR_PARTNER, POINTS

__all__ = [
    "ACE",
    "ALL",
    "CODE",
    "COUNT_MASK",
    "EIGHT",
    "FIVE",
    "FOUR",
    "JACK",
    "KING",
    "MATCH",
    "NAME",
    "NINE",
    "PARTNER",
    "POINTS_OF",
    "QUEEN",
    "QUEEN_OF_SPADES",
    "RANK",
    "SEVEN",
    "SIX",
    "SUIT",
    "SUIT_CODE",
    "TEN",
    "THREE",
    "TWO",
    "WILD_MASK",
    "code",
    "codes",
    "mask_of",
    "name",
    "names",
]

ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(13)
"""Rank indices (R1)."""

CODE: dict[str, int] = {c: i for i, c in enumerate(CARDS)}
"""Card code → integer."""
NAME: tuple[str, ...] = CARDS
"""Integer → card code."""
SUIT_CODE: dict[str, int] = {s: i for i, s in enumerate(SUITS)}
"""Suit code (``S H D C``) → 0–3."""
RANK: tuple[int, ...] = tuple(i % 13 for i in range(52))
"""Rank index of each card."""
SUIT: tuple[int, ...] = tuple(i // 13 for i in range(52))
"""Suit index of each card."""
POINTS_OF: tuple[int, ...] = tuple(POINTS[r] for r in RANKS)
"""Points of each rank index left in a hand (R9)."""
PARTNER: tuple[int, ...] = tuple(SUIT_CODE[COLOUR_PARTNER[s]] for s in SUITS)
"""The other suit of the same colour, by suit index (R5, the 9)."""
QUEEN_OF_SPADES = CODE["QS"]
"""The queen with a function under ``face_cards`` (R11)."""

ALL = (1 << 52) - 1
"""Every card, as a bit set."""
WILD_MASK = sum(1 << i for i in range(52) if RANK[i] in (EIGHT, NINE))
"""The 8s and 9s (R5)."""
COUNT_MASK = sum(1 << i for i in range(52) if RANK[i] in (ACE, TWO))
"""The cards that follow the count (R6)."""
MATCH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << i for i in range(52) if SUIT[i] == suit or RANK[i] == rank) | WILD_MASK
        for rank in range(13)
    )
    for suit in range(4)
)
"""``MATCH[suit in force][top rank]``: the cards that may be played outside the count (R4)."""


def code(card: str) -> int:
    """The integer of a card code (``"TD"`` → 35).

    Raises:
        KeyError: not a card code.
    """
    return CODE[card]


def codes(cards: list[str] | tuple[str, ...]) -> list[int]:
    """The integers of card codes, in order."""
    return [CODE[c] for c in cards]


def name(card: int) -> str:
    """The card code of an integer (35 → ``"TD"``)."""
    return NAME[card]


def names(cards: list[int]) -> list[str]:
    """The card codes of integers, in order."""
    return [NAME[c] for c in cards]


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    """The bit set of ``cards`` (duplicates once)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m
