"""The one-line reasons of :mod:`craits.client.present.feedback`, from the view and the
table info the server sent (no Textual): each situation a key cannot act in."""

from __future__ import annotations

from craits.client.present.card_style import CardStyle
from craits.client.present.feedback import key_refusal, no_such_card
from craits.client.present.sheet import score_sheet
from craits.protocol.types import ScoreSheetRow
from rich.console import Console

from tests.client.views import model, seat, table_info

STYLE = CardStyle()
ASCII = CardStyle(ascii=True)


def why(action: str, m: object, card: str | None = None, style: CardStyle = STYLE) -> str:
    return key_refusal(action, m, style, online=True, card=card)  # type: ignore[arg-type]


def play(card: str, **legal: object) -> dict[str, object]:
    return {"seat": 1, "play": card, **legal}


def test_a_card_that_matches_neither_the_suit_nor_the_rank() -> None:
    m = model(hand=["7H", "3C", "8D"], legal=[play("7H"), *(play("8D", suit=s) for s in "SHDC")])
    assert why("play", m, "3C") == "3♣ matches neither ♥ nor K: you can play 7♥, 8♦."
    assert why("play", m, "3C", ASCII) == "3C matches neither H nor K: you can play 7H, 8D."
    nothing = model(hand=["3C"], legal=[{"seat": 1, "draw": True}])
    assert why("play", nothing, "3C") == (
        "3♣ matches neither ♥ nor K; nothing in your hand can be played: d draws."
    )
    named = model(hand=["3C", "4H"], top="8S", suit="D", legal=[])
    assert why("play", named, "4H") == "4♥ matches neither ♦ nor 8."


def test_the_count_and_a_drawn_card() -> None:
    m = model(hand=["3C", "AS"], count=4, legal=[play("AS")])
    assert why("play", m, "3C") == (
        "3♣ does not follow the count of 4: only an ace or a two, or d draws."
    )
    drawn = model(hand=["3C", "KS"], drawn="KS", legal=[play("KS"), {"seat": 1, "pass": True}])
    assert why("play", drawn, "3C") == (
        "Only the card you just drew (K♠) may be played now, or p keeps it."
    )
    assert why("draw", drawn) == "You have drawn already: Enter plays the card drawn, p keeps it."


def test_not_your_turn_names_who_is_to_play() -> None:
    m = model(to_act=0, turn=0)
    assert why("play", m, "7H") == "7♥ cannot be played now. Waiting for Ben to play."
    assert why("draw", m) == "Waiting for Ben to play."
    away = model(to_act=0, info=table_info(players=[seat(0, "Ben", away=True), seat(1, "Ana")]))
    assert why("draw", away) == "Waiting for Ben to play (away: the server plays for them)."
    gone = model(to_act=0, info=table_info(players=[seat(0, "Ben", connected=False), seat(1, "A")]))
    assert why("draw", gone) == "Waiting for Ben to play (offline: the turn timer plays for them)."
    held = model(to_act=0, info=table_info(on_hold=True))
    assert why("draw", held) == "The game waits for a player to come back (Ben is to play)."
    over = model(phase="hand_over")
    assert why("draw", over) == "The hand is over: the next one is being dealt."
    assert key_refusal("draw", over, STYLE, online=False, card=None).startswith("Not connected")


def test_draw_pass_idiot_and_one_card() -> None:
    m = model(hand=["7H", "3C"], legal=[play("7H")])
    assert why("draw", m) == "You cannot draw while you can play: 7♥."
    assert why("pass", m) == (
        "This table's rules do not let you keep a drawn card (play drawn card is off)."
    )
    keeps = model(rules={"play_drawn_card": True}, legal=[play("7H")])
    assert why("pass", keeps) == "p keeps a card you just drew: you have not drawn one this turn."
    assert why("idiot", m) == (
        'Nobody to call idiot on: nobody holds one card without saying "one card".'
    )
    said = model(one_card=[0], hand_sizes=[1, 2])
    assert why("idiot", said) == 'Nobody to call idiot on: Ben said "one card" in time.'
    owe = model(unannounced=[1], hand=["7H"])
    assert why("idiot", owe) == 'Nobody to call idiot on, but you owe "one card" yourself: press o.'
    assert why("announce", m) == (
        'o says "one card" with a play that leaves you one card: no such play now.'
    )
    watcher = model(None, hand=None)
    assert why("draw", watcher) == "You are watching: spectators hold no cards."
    assert why("move", model(hand=[])) == "No cards in your hand."


def test_the_score_sheet_lists_every_hand_with_penalties_and_totals() -> None:
    rows = [
        ScoreSheetRow(hand_number=1, points=[0, 37], penalties=[0, 0], scores=[0, 37]),
        ScoreSheetRow(hand_number=2, points=[12, 0], penalties=[5, 0], scores=[17, 37]),
    ]
    m = model(scores=[27, 37], hand_number=3)
    m.sheet = rows
    console = Console(width=80, file=None, record=True, color_system=None)
    with console.capture() as out:
        console.print(score_sheet(m, STYLE, 80))
    text = out.get()
    assert "Score sheet — 2 of 15 hands played" in text
    assert "Ben" in text and "Ana (you)" in text
    lines = text.splitlines()
    hand2 = next(line for line in lines if line.strip().startswith("2 "))
    assert "12 (+5) → 17" in hand2 and "0 → 37" in hand2
    now = next(line for line in lines if line.strip().startswith("3…"))
    assert "(+10) 27" in now  # a penalty paid in the hand in play, already in the total


def test_a_digit_past_the_hand() -> None:
    assert no_such_card(model(hand=["7H", "3C"]), 6) == (
        "No card 7: you hold 2 (keys 1-2, or Home/End)."
    )


def test_a_sheet_of_eight_seats_fits_80_columns_stacked() -> None:
    names = ["Anastasia", "Bartholomew", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    info = table_info(seats=8, players=[seat(i, n) for i, n in enumerate(names)])
    m = model(0, info=info, players=8, scores=[445] * 8, hand_sizes=[1] * 8)
    m.sheet = [
        ScoreSheetRow(hand_number=h, points=[110] * 8, penalties=[20] * 8, scores=[h * 130] * 8)
        for h in range(1, 4)
    ]
    console = Console(width=78, file=None, color_system=None)
    with console.capture() as out:
        console.print(score_sheet(m, ASCII, 78))
    lines = out.get().splitlines()
    assert all(len(line.rstrip()) <= 78 for line in lines)
    assert any(line.split()[:2] == ["1", "110+20"] for line in lines if line.split())
    assert sum("390" in line for line in lines) == 1  # hand 3's totals, on their line
    assert out.get().isascii()
