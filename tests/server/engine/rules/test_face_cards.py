"""R11 (option face_cards): jack rows, the queen of spades, king runs; and R4 play_drawn_card."""

from __future__ import annotations

from typing import Any

import pytest
from craits.server.engine import Draw, Pass, Play
from craits.server.engine import errors as E
from craits.server.engine.events import Drew, PlayAgain, Skipped

from tests.support.engine import assert_refused, game_at

FACE = {"face_cards": True}
STOCK = [f"{r}{s}" for s in "DC" for r in "23456789T"]  # 18 cards, none in the hands below


# ------------------------------------------------------------------ jacks


def test_R11_jack_row_draws_two_more_per_jack() -> None:
    """R11: J: next draws 2 and loses the turn; on a jack 4; a third jack 6; a fourth 8."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["JH", "JS", "KH"], ["JD", "KS", "QH"], ["JC", "KC", "QC"]],
        stock=STOCK,
        discard=["9H"],
    )
    sizes = []
    for seat, card, victim in [(0, "JH", 1), (2, "JC", 0), (1, "JD", 2), (0, "JS", 1)]:
        events = game.apply(Play(seat, card))
        assert Skipped(victim, "jack") in events
        (drew,) = [e for e in events if isinstance(e, Drew)]
        assert drew.seat == victim and drew.reason == "jack"
        sizes.append(drew.n)
        assert game.turn == (victim + 1) % 3
    assert sizes == [2, 4, 6, 8]
    assert game.jacks == 4


def test_R11_a_card_other_than_a_jack_ends_the_row() -> None:
    """R11: the row counts jacks played one directly on another."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["8C", "KH"], ["JD", "KS"], ["QC", "KC"]],
        stock=STOCK,
        discard=["JH", "JC"],
        jacks=2,
    )
    game.apply(Play(0, "8C", "D"))
    assert game.jacks == 0
    events = game.apply(Play(1, "JD"))
    assert Drew(2, 2, tuple(STOCK[:2]), "jack") in events
    assert game.jacks == 1 and game.turn == 0


def test_R11_jack_inside_a_king_run_counts_towards_the_row() -> None:
    """R11: jacks played without their function inside a king's run still count."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["KH", "JH", "JS", "JD", "5S"], ["AC"], ["AD"]],
        stock=STOCK,
        discard=["4H"],
    )
    game.apply(Play(0, "KH"))
    game.apply(Play(0, "JH"))  # 1st card of the run: no function, but the row starts
    game.apply(Play(0, "JS"))  # 2nd: no function
    assert game.jacks == 2 and game.hands[1] == ["AC"] and game.turn == 0
    events = game.apply(Play(0, "JD"))  # the third card has its function: a row of 3
    assert Drew(1, 6, tuple(STOCK[:6]), "jack") in events
    assert game.turn == 2 and game.king_cards == 0


def test_R11_jack_with_two_players_plays_again() -> None:
    """R11: with two players the jack's victim loses the turn, so the jack's player goes on."""
    game = game_at(
        FACE,
        players=2,
        turn=0,
        hands=[["JH", "KH"], ["AC"]],
        stock=STOCK,
        discard=["4H"],
    )
    game.apply(Play(0, "JH"))
    assert game.turn == 0 and len(game.hands[1]) == 3


@pytest.mark.parametrize(
    ("card", "rules", "drawn", "turn"),
    [
        ("QS", FACE, 5, 2),
        ("QH", FACE, 0, 1),
        ("QS", {}, 0, 1),
        ("JS", {}, 0, 1),
        ("KS", {}, 0, 1),
    ],
)
def test_R11_queen_of_spades_and_plain_faces(
    card: str, rules: dict[str, Any], drawn: int, turn: int
) -> None:
    """R11: Q♠: the next draws five and loses the turn; other queens, and every face card
    without face_cards (R5), have no function."""
    game = game_at(
        rules,
        players=3,
        turn=0,
        hands=[[card, "KH"], ["AC"], ["AH"]],
        stock=STOCK,
        discard=[card[0] + "D"],
    )
    game.apply(Play(0, card))
    assert len(game.hands[1]) == 1 + drawn
    assert game.turn == turn
    assert game.king_cards == 0 and game.jacks == 0


# ------------------------------------------------------------------ kings


def test_R11_king_as_third_card_starts_three_more() -> None:
    """R11: if the third card after a king is a king, three more follow."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["KH", "5H", "5C", "KC", "QC", "QD", "7D", "AS"], ["AC"], ["AD"]],
        stock=STOCK,
        discard=["4H"],
    )
    assert game.apply(Play(0, "KH"))[-1] == PlayAgain(0, 3)
    game.apply(Play(0, "5H"))  # 1st: no function (a 5 would make the others draw)
    game.apply(Play(0, "5C"))  # 2nd: no function
    assert [len(h) for h in game.hands[1:]] == [1, 1]
    events = game.apply(Play(0, "KC"))  # 3rd: a king, with its function
    assert PlayAgain(0, 3) in events
    assert game.king_cards == 3 and game.turn == 0
    game.apply(Play(0, "QC"))
    game.apply(Play(0, "QD"))
    events = game.apply(Play(0, "7D", announce=True))  # 3rd: the 7 hits the next (3 players)
    assert Drew(1, 1, (STOCK[0],), "seven") in events
    assert game.king_cards == 0 and game.turn == 1


def test_R11_king_early_in_a_run_has_no_function() -> None:
    """R11: a king as the first or second card after a king starts no new run."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["KH", "KS", "KD", "9D", "AS"], ["AC"], ["AD"]],
        stock=STOCK,
        discard=["4H"],
    )
    game.apply(Play(0, "KH"))
    game.apply(Play(0, "KS"))
    assert game.king_cards == 2
    game.apply(Play(0, "KD"))
    assert game.king_cards == 1
    game.apply(Play(0, "9D", "H", announce=True))
    assert game.king_cards == 0 and game.turn == 1 and game.suit == "H"


def test_R11_eight_in_a_run_names_the_suit() -> None:
    """R11: the first two cards have no function, except that an 8 or 9 names the suit."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["KH", "8H", "2S", "5C"], ["AC"], ["AD"]],
        stock=STOCK,
        discard=["4H"],
    )
    game.apply(Play(0, "KH"))
    game.apply(Play(0, "8H", "S"))
    assert game.suit == "S" and game.legal() == {"2S"}
    assert_refused(game, Play(0, "5C"), E.CardDoesNotMatch)


def test_R11_king_run_cannot_go_on_draw_and_end_the_turn() -> None:
    """R11: unable to play the next card of a run, the player draws one and the turn ends."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["KH", "2C", "3C"], ["AC"], ["AD"]],
        stock=STOCK,
        discard=["4H"],
    )
    game.apply(Play(0, "KH"))
    assert game.legal() == {"draw"}
    events = game.apply(Draw(0))
    assert events == [Drew(0, 1, (STOCK[0],), "king")]
    assert game.king_cards == 0 and game.turn == 1


def test_R8_not_out_while_a_king_obliges() -> None:
    """R8, R11: no cards left inside a run is not going out: the player must draw."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["KH", "5H"], ["AC"], ["AD"]],
        stock=STOCK,
        discard=["4H"],
    )
    game.apply(Play(0, "KH", announce=True))
    game.apply(Play(0, "5H"))
    assert game.phase == "play" and game.hands[0] == [] and game.turn == 0
    assert game.legal() == {"draw"}
    game.apply(Draw(0))
    assert game.hands[0] == [STOCK[0]] and game.turn == 1


def test_R8_out_on_the_third_card_of_a_run() -> None:
    """R8, R11: the third card ends the obligation, so a player can go out on it."""
    game = game_at(
        FACE,
        players=3,
        turn=0,
        hands=[["KH", "5H", "5C", "9C"], ["AC"], ["AD"]],
        stock=STOCK,
        discard=["4H"],
    )
    for card in ("KH", "5H", "5C"):
        game.apply(Play(0, card))
    game.apply(Play(0, "9C"))
    assert game.phase == "hand_over"
    assert game.result is not None and game.result.results[0].went_out


# -------------------------------------------------------- R4 play_drawn_card

DRAWN = {"play_drawn_card": True}


def test_R4_play_drawn_card_after_a_six() -> None:
    """R4 play_drawn_card: after a 6, a player who cannot play draws one and may play it."""
    game = game_at(
        DRAWN,
        players=3,
        turn=0,
        hands=[["6H", "KC", "QC"], ["AS"], ["AD"]],
        stock=["9H", "TS"],
        discard=["5H"],
    )
    game.apply(Play(0, "6H"))
    assert game.again and game.legal() == {"draw"}
    assert game.apply(Draw(0)) == [Drew(0, 1, ("9H",), "six")]
    assert game.drawn == "9H" and game.turn == 0
    assert game.legal() == {"9H", "pass"}
    assert_refused(game, Play(0, "KC"), E.MustPlayDrawnCard)
    game.apply(Play(0, "9H", "D"))
    assert game.suit == "D" and game.drawn is None and not game.again
    assert game.turn == 1


def test_R4_play_drawn_card_pass_after_a_six() -> None:
    """R4 play_drawn_card: passing keeps the drawn card and ends the turn after a 6."""
    game = game_at(
        DRAWN,
        players=3,
        turn=0,
        hands=[["6H", "KC", "QC"], ["AS"], ["AD"]],
        stock=["9H", "TS"],
        discard=["5H"],
    )
    game.apply(Play(0, "6H"))
    game.apply(Draw(0))
    game.apply(Pass(0))
    assert game.hands[0] == ["KC", "QC", "9H"]
    assert not game.again and game.drawn is None and game.turn == 1


def test_R4_play_drawn_card_in_a_king_run() -> None:
    """R4 play_drawn_card, R11: in a king's run the drawn card, played, is the run's next card."""
    game = game_at(
        {**DRAWN, **FACE},
        players=3,
        turn=0,
        hands=[["KH", "2C"], ["AS"], ["AD"]],
        stock=["5H", "7C", "TS"],
        discard=["4H"],
    )
    game.apply(Play(0, "KH", announce=True))
    assert game.apply(Draw(0)) == [Drew(0, 1, ("5H",), "king")]
    assert game.legal() == {"5H", "pass"}
    game.apply(Play(0, "5H"))  # first card of the run: no function
    assert game.king_cards == 2 and game.turn == 0
    assert [len(h) for h in game.hands[1:]] == [1, 1]
    game.apply(Draw(0))  # 7C does not follow 5H: the turn ends, the run with it
    assert game.drawn is None and game.king_cards == 0 and game.turn == 1


def test_R4_play_drawn_card_pass_in_a_king_run() -> None:
    """R4 play_drawn_card, R11: passing on the drawn card ends the turn and the run."""
    game = game_at(
        {**DRAWN, **FACE},
        players=3,
        turn=0,
        hands=[["KH", "2C"], ["AS"], ["AD"]],
        stock=["5H", "7C", "TS"],
        discard=["4H"],
    )
    game.apply(Play(0, "KH", announce=True))
    game.apply(Draw(0))
    game.apply(Pass(0))
    assert game.king_cards == 0 and game.turn == 1 and game.hands[0] == ["2C", "5H"]


@pytest.mark.parametrize("option", [True, False])
def test_R4_drawn_card_not_playable_or_option_off(option: bool) -> None:
    """R4: an unplayable drawn card, or any drawn card without the option, ends the turn."""
    game = game_at(
        {"play_drawn_card": option},
        players=3,
        turn=0,
        hands=[["KC"], ["AS"], ["AD"]],
        stock=["7C" if option else "5H", "TS"],
        discard=["5H"],
    )
    game.apply(Draw(0))
    assert game.drawn is None and game.turn == 1


def test_R4_count_draw_is_never_offered() -> None:
    """R4, R6: the count's draw is not a single card drawn for want of a play."""
    game = game_at(
        DRAWN,
        players=3,
        turn=0,
        hands=[["KC"], ["AS"], ["AD"]],
        stock=["2H", "AH", "TS"],
        discard=["2S"],
        count=2,
    )
    game.apply(Draw(0))
    assert game.drawn is None and game.turn == 1 and game.hands[0] == ["KC", "2H", "AH"]
