"""Cards and the game's terms in words, in each language, as card players say them
(GLOSSARY.md): faces keep their indices, names and plurals are translated."""

from __future__ import annotations

import pytest
from craits.protocol import words
from craits.protocol.i18n import PSEUDO, pgettext, set_language
from craits.protocol.vocab import RANKS, SUITS


@pytest.mark.parametrize(
    ("lang", "seven_of_hearts", "jack_of_clubs", "queen_of_spades", "ten_of_diamonds"),
    [
        ("en", "seven of hearts", "jack of clubs", "queen of spades", "ten of diamonds"),
        ("de", "Herz-Sieben", "Kreuz-Bube", "Pik-Dame", "Karo-Zehn"),
        ("el", "εφτά κούπα", "βαλέ σπαθί", "ντάμα μπαστούνι", "δέκα καρό"),
    ],
)
def test_cards_are_named_as_players_say_them(
    lang: str, seven_of_hearts: str, jack_of_clubs: str, queen_of_spades: str, ten_of_diamonds: str
) -> None:
    set_language(lang)
    assert words.card_name("7H") == seven_of_hearts
    assert words.card_name("JC") == jack_of_clubs
    assert words.card_name("QS") == queen_of_spades
    assert words.card_name("TD") == ten_of_diamonds


@pytest.mark.parametrize(
    ("lang", "one", "two", "points"),
    [
        ("en", "1 card", "2 cards", "5 points"),
        ("de", "1 Karte", "2 Karten", "5 Punkte"),
        ("el", "1 φύλλο", "2 φύλλα", "5 πόντοι"),
    ],
)
def test_counts_agree_with_their_noun(lang: str, one: str, two: str, points: str) -> None:
    set_language(lang)
    assert (words.count_cards(1), words.count_cards(2), words.count_points(5)) == (one, two, points)


def test_the_rule_pages_machine_words_are_not_used() -> None:
    set_language("de")
    assert words.rank_name("J") == "Bube"  # the page: "Wagenheber", a car jack
    assert words.rank_name("Q") == "Dame"  # the page: "Königin"
    assert words.suit_name("H") == "Herz"  # never "Anzug"
    assert str(words.TERMS["shuffle penalty"]) == "Mischstrafe"  # the page: "Mischdruck"
    assert str(words.TERMS["dealer"]) == "Geber"  # the page: "Händler", a merchant
    set_language("el")
    assert [words.rank_name(r) for r in "JQKA"] == ["βαλές", "ντάμα", "ρήγας", "άσσος"]
    assert str(words.TERMS["the count"]) == "το μέτρημα"  # the page: "στρόφαλος", a crank


@pytest.mark.parametrize("lang", ["en", "de", "el", PSEUDO])
def test_every_card_has_a_name_and_its_face_keeps_its_index(lang: str) -> None:
    set_language(lang)
    names = {words.card_name(r + s) for r in RANKS for s in SUITS}
    assert len(names) == 52 and "?" not in "".join(names)
    assert [words.card_index(r + "H") for r in "AKQJT9"] == ["A", "K", "Q", "J", "10", "9"]


def test_lists_follow_the_language() -> None:
    set_language("de")
    assert words.word_list(["Ana", "Ben", "Cleo"]) == "Ana, Ben und Cleo"
    set_language("el")
    assert words.word_list(["Ana", "Ben"]) == "Ana και Ben"
    assert pgettext("suit", "clubs") == "σπαθί"
