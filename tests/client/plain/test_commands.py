"""What the player types to the plain client: cards, suits and commands, in English
and in the player's language."""

from __future__ import annotations

import pytest
from craits.client.plain.commands import card_of, command_of, suit_of
from craits.client.plain.output import speakable
from craits.protocol.i18n import set_language


@pytest.mark.parametrize(
    ("typed", "card"),
    [("8h", "8H"), ("10S", "TS"), ("ts", "TS"), ("q♠", "QS"), ("A♦", "AD"), (" jc ", "JC")],
)
def test_a_typed_card(typed: str, card: str) -> None:
    assert card_of(typed) == card


@pytest.mark.parametrize("typed", ["", "8", "1h", "11h", "8x", "zz", "10"])
def test_not_a_card(typed: str) -> None:
    assert card_of(typed) is None


def test_suits_in_english_letters_symbols_and_the_player_s_language() -> None:
    assert [suit_of(s) for s in ("h", "♣", "Spades", "diamonds")] == ["H", "C", "S", "D"]
    set_language("de")
    assert [suit_of(s) for s in ("Herz", "kreuz", "PIK", "Karo", "hearts")] == list("HCSDH")
    set_language("el")
    assert [suit_of(s) for s in ("κούπα", "σπαθί", "μπαστούνι", "καρό")] == list("HCSD")
    assert suit_of("Farbe") is None


def test_commands_in_english_and_in_the_player_s_language() -> None:
    assert [command_of(w) for w in ("draw", "DRAW", "score", "exit", "?")] == [
        "draw",
        "draw",
        "scores",
        "quit",
        "help",
    ]
    set_language("de")
    assert [command_of(w) for w in ("ziehen", "Spielen", "beenden", "draw")] == [
        "draw",
        "play",
        "quit",
        "draw",
    ]
    set_language("el")
    assert [command_of(w) for w in ("τράβα", "παίξε", "έξοδος")] == ["draw", "play", "quit"]
    assert command_of("nonsense") is None


def test_network_text_loses_its_control_characters() -> None:
    assert speakable("hi\x1b[2Jthere\x07\tnow") == "hi [2Jthere  now"
