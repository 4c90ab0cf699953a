"""How people say the vocabulary's codes: suits, ranks and cards in words, and the
game's terms, in the language of the moment (:mod:`craits.protocol.i18n`).

The codes are the vocabulary's (:mod:`craits.protocol.vocab`, RULES.md R1): ranks
``A 2 … 9 T J Q K``, suits ``S H D C``. Card faces keep their indices in every
language (:func:`card_index`: ``A``, ``10``, ``J``); their names are words (the
German and Greek from ``GLOSSARY.md``, as card players say them: Bube, not the
rule page's "Wagenheber"; βαλές, ντάμα, ρήγας, άσσος).

A card's name (:func:`card_name`) is one translated pattern, ``{rank} of {suit}``,
so each language builds it its own way: "seven of hearts", "Herz-Sieben",
"εφτά κούπα". It has no article, so a sentence puts the one it needs ("You
played the {card}."); in Greek the rank is in the case a card takes after a
verb ("έπαιξε ρήγα κούπα").
"""

from __future__ import annotations

from collections.abc import Sequence

from .i18n import LazyString, _, _l, language, lazy_pgettext, ngettext, pgettext
from .vocab import SUITS

SUIT_NAMES: dict[str, LazyString] = {
    # TRANSLATORS: a suit's name, alone ("named spades") and in a card's name
    "S": lazy_pgettext("suit", "spades"),
    "H": lazy_pgettext("suit", "hearts"),
    "D": lazy_pgettext("suit", "diamonds"),
    "C": lazy_pgettext("suit", "clubs"),
}
"""Each suit code's name."""

RANK_NAMES: dict[str, LazyString] = {
    # TRANSLATORS: a rank's name alone, as in "the sevens" or "a seven was played"
    "A": lazy_pgettext("rank", "ace"),
    "2": lazy_pgettext("rank", "two"),
    "3": lazy_pgettext("rank", "three"),
    "4": lazy_pgettext("rank", "four"),
    "5": lazy_pgettext("rank", "five"),
    "6": lazy_pgettext("rank", "six"),
    "7": lazy_pgettext("rank", "seven"),
    "8": lazy_pgettext("rank", "eight"),
    "9": lazy_pgettext("rank", "nine"),
    "T": lazy_pgettext("rank", "ten"),
    "J": lazy_pgettext("rank", "jack"),
    "Q": lazy_pgettext("rank", "queen"),
    "K": lazy_pgettext("rank", "king"),
}
"""Each rank code's name, alone."""

RANK_IN_CARD: dict[str, LazyString] = {
    # TRANSLATORS: a rank's name inside a card's name ("{rank} of {suit}"), in the
    # form a card takes as the object of a verb ("played the seven of hearts")
    "A": lazy_pgettext("rank in a card", "ace"),
    "2": lazy_pgettext("rank in a card", "two"),
    "3": lazy_pgettext("rank in a card", "three"),
    "4": lazy_pgettext("rank in a card", "four"),
    "5": lazy_pgettext("rank in a card", "five"),
    "6": lazy_pgettext("rank in a card", "six"),
    "7": lazy_pgettext("rank in a card", "seven"),
    "8": lazy_pgettext("rank in a card", "eight"),
    "9": lazy_pgettext("rank in a card", "nine"),
    "T": lazy_pgettext("rank in a card", "ten"),
    "J": lazy_pgettext("rank in a card", "jack"),
    "Q": lazy_pgettext("rank in a card", "queen"),
    "K": lazy_pgettext("rank in a card", "king"),
}
"""Each rank code's name in a card's name."""

TERMS: dict[str, LazyString] = {
    "player": lazy_pgettext("term", "player"),
    "table": lazy_pgettext("term", "table"),
    "game": lazy_pgettext("term", "game"),
    "hand": lazy_pgettext("term", "hand"),
    "short game": lazy_pgettext("term", "short game"),
    "deck": lazy_pgettext("term", "deck"),
    "deal": lazy_pgettext("term", "deal"),
    "dealer": lazy_pgettext("term", "dealer"),
    "stock": lazy_pgettext("term", "stock"),
    "discard pile": lazy_pgettext("term", "discard pile"),
    "turned-up card": lazy_pgettext("term", "turned-up card"),
    "turn": lazy_pgettext("term", "turn"),
    "suit": lazy_pgettext("term", "suit"),
    "rank": lazy_pgettext("term", "rank"),
    "wild card": lazy_pgettext("term", "wild card"),
    "reverse": lazy_pgettext("term", "reverse"),
    "skip": lazy_pgettext("term", "skip"),
    "the count": lazy_pgettext("term", "the count"),
    "one card": lazy_pgettext("term", "one card"),
    "idiot": lazy_pgettext("term", "idiot"),
    "going out": lazy_pgettext("term", "going out"),
    "points": lazy_pgettext("term", "points"),
    "total": lazy_pgettext("term", "total"),
    "shuffle penalty": lazy_pgettext("term", "shuffle penalty"),
    "face cards": lazy_pgettext("term", "face cards"),
    "king's run": lazy_pgettext("term", "king's run"),
    "spectator": lazy_pgettext("term", "spectator"),
    "lobby": lazy_pgettext("term", "lobby"),
    "seat": lazy_pgettext("term", "seat"),
}
"""The game's terms (RULES.md, ``GLOSSARY.md``), by their English name: labels and
headings (a sentence that uses a term says it in its own message)."""

CLOCKWISE = _l("clockwise")
"""The direction of play 1 (protocol §1)."""
COUNTER_CLOCKWISE = _l("counter-clockwise")
"""The direction of play -1."""


def card_index(card: str) -> str:
    """A card's index as printed on its face, in every language: ``A``, ``10``,
    ``J`` (the rank code, ``T`` written ``10``); ``?`` for a bad code."""
    rank = card[:1]
    return "10" if rank == "T" else rank if rank in RANK_NAMES else "?"


def suit_name(suit: str) -> str:
    """A suit code's name (``H`` → "hearts", "Herz", "κούπα"); ``?`` if unknown."""
    name = SUIT_NAMES.get(suit)
    return "?" if name is None else str(name)


def rank_name(rank: str) -> str:
    """A rank code's name alone (``7`` → "seven", "Sieben", "εφτάρι"); ``?`` if unknown."""
    name = RANK_NAMES.get(rank)
    return "?" if name is None else str(name)


def card_name(card: str) -> str:
    """A card code in words, without an article (``7H`` → "seven of hearts",
    "Herz-Sieben", "εφτά κούπα"); an unknown code is named "an unknown card"."""
    if len(card) != 2 or card[0] not in RANK_IN_CARD or card[1] not in SUITS:
        return _("an unknown card")
    # TRANSLATORS: a card's name; {rank} and {suit} are their names (German: "{suit}-{rank}")
    pattern = pgettext("card", "{rank} of {suit}")
    return pattern.format(rank=RANK_IN_CARD[card[0]], suit=SUIT_NAMES[card[1]])


def count_cards(n: int) -> str:
    """``n`` cards, the noun agreeing ("1 card", "2 Karten", "3 φύλλα")."""
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def count_points(n: int) -> str:
    """``n`` points, the noun agreeing ("1 point", "2 Punkte", "3 πόντοι")."""
    return ngettext("{n} point", "{n} points", n).format(n=n)


def word_list(items: Sequence[str]) -> str:
    """``items`` as one list in the current language ("A, B and C", "A, B und C",
    "A, B και C"); empty for none. Babel knows each language's way (the
    pseudo-language uses English's)."""
    from babel.lists import format_list

    lang = language()
    return format_list(list(items), locale=lang if lang in ("en", "de", "el") else "en")
