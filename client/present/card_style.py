"""How cards and suits look on screen: rank, suit symbol and colour (never colour alone).

Card codes are the vocabulary's (:mod:`craits.protocol.vocab`, RULES.md R1): a
rank of ``A 2 3 4 5 6 7 8 9 T J Q K`` then a suit of ``S H D C``. This module
only draws them; it knows nothing of which card may be played.
"""

from __future__ import annotations

import locale
import os
import sys

from craits.protocol.vocab import RED_SUITS, SUIT_SYMBOLS, SUITS
from craits.protocol.words import CLOCKWISE, COUNTER_CLOCKWISE
from rich.text import Text

SUIT_LETTERS = {s: s for s in SUITS}
"""The suit letters shown with ``--ascii``: the codes themselves."""
RED_STYLE = "bold red"
"""Style of a red card's text. Black cards keep the terminal's own colour (light or dark)."""


def unicode_suits_ok(encoding: str | None = None) -> bool:
    """Whether the terminal can show ♠♥♦♣: its encoding encodes them, and the
    locale is not plain C/POSIX."""
    enc = encoding or getattr(sys.stdout, "encoding", None) or locale.getpreferredencoding(False)
    try:
        "".join(SUIT_SYMBOLS.values()).encode(enc or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = os.environ.get(var)
        if value:
            return value.upper() not in ("C", "POSIX")
    return True


class CardStyle:
    """Draws cards and suits, with symbols or (``ascii``) letters; with
    ``underline_red`` (no colour: NO_COLOR) red cards are underlined, so red and
    black still differ in style as well as in their suit's symbol."""

    def __init__(self, ascii: bool = False, underline_red: bool = False):
        self.ascii = ascii
        self.symbols = SUIT_LETTERS if ascii else SUIT_SYMBOLS
        self.underline_red = underline_red
        self.red = RED_STYLE + (" underline" if underline_red else "")
        """The style of a red card's text."""

    def suit(self, suit: str) -> str:
        """The symbol (or letter) of a suit code."""
        return self.symbols.get(suit, "?")

    @staticmethod
    def rank(rank: str) -> str:
        """A rank as players read it: ``T`` is 10."""
        return "10" if rank == "T" else rank

    def label(self, card: str) -> str:
        """A card as plain text: ``7♥``, ``10♠`` (``7H``, ``10S`` with ``ascii``)."""
        if len(card) != 2:
            return "??"
        return self.rank(card[0]) + self.suit(card[1])

    def card(self, card: str, style: str = "") -> Text:
        """A card as styled text: red suits in red (the symbol says the suit too)."""
        colour = self.red if is_red(card) else "bold"
        return Text(self.label(card), style=f"{colour} {style}".strip())

    def suit_text(self, suit: str) -> Text:
        """A suit symbol as styled text, with its name for clarity."""
        colour = self.red if suit in RED_SUITS else "bold"
        return Text(self.suit(suit), style=colour)

    def cards(self, cards: list[str], sep: str = " ") -> Text:
        """Several cards, separated by ``sep``."""
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append(sep)
            out.append_text(self.card(c))
        return out

    @property
    def turn_marker(self) -> str:
        """The marker of the seat whose turn it is."""
        return ">" if self.ascii else "▶"

    def direction(self, direction: int) -> str:
        """The direction of play in words, with an arrow unless ``ascii``."""
        if direction >= 0:
            return str(CLOCKWISE) if self.ascii else f"↻ {CLOCKWISE}"
        return str(COUNTER_CLOCKWISE) if self.ascii else f"↺ {COUNTER_CLOCKWISE}"


def is_red(card: str) -> bool:
    """Whether ``card`` (a card code) is of a red suit."""
    return card[-1:] in RED_SUITS
