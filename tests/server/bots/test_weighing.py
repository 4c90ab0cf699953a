"""The basic bot's play score, term by term (craits.server.bots.weighing), the levels
taken from the vocabulary, and self-play pinned to its figures: same seed, same game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, BotLevel
from craits.server.bots import LEVELS, POLICIES, basic_policy, choose, play_game, random_policy
from craits.server.bots.weighing import (
    Situation,
    continuity_term,
    five_term,
    going_out_value,
    harm_term,
    keep_value,
    last_card_term,
    play_score,
    queen_of_spades_term,
    seven_term,
    ten_term,
    two_term,
)
from craits.server.engine import Rules


def _situation(**changes: Any) -> Situation:
    """Seat 0 of four, clockwise, everyone holding five cards, a full stock."""
    base: dict[str, Any] = {
        "players": 4,
        "seat": 0,
        "direction": 1,
        "hand_sizes": [5, 5, 5, 5],
        "count": 0,
        "face_cards": False,
        "seven_hits_next": False,
        "jacks": 0,
        "stock_size": 30,
        "next_penalty": [5, 10, 20, 40],
    }
    base.update(changes)
    return Situation(**base)


# ---------------------------------------------------------------------- levels


def test_levels_are_the_vocabularys_bot_levels() -> None:
    assert tuple(LEVELS) == tuple(BotLevel)
    assert set(POLICIES) == set(BotLevel)
    assert DEFAULT_BOT_LEVEL in LEVELS
    assert POLICIES[BotLevel.BASIC] is basic_policy
    assert POLICIES[BotLevel.RANDOM] is random_policy


def test_choose_takes_a_level_as_a_plain_string() -> None:
    """A seat's level arrives as a string (the journal, the wire): it picks the policy."""
    view = {"seat": 0, "phase": "play", "to_act": 1, "legal": []}
    assert choose("basic", view, random.Random(1)) is None
    with pytest.raises(
        ValueError, match="unknown bot level 'grandmaster'; known: random, easy, basic, expert"
    ):
        choose("grandmaster", view, random.Random(1))


# ----------------------------------------------------------------- the terms


def test_situation_counts_seats_in_the_direction_of_play() -> None:
    t = _situation(direction=-1)
    assert [t.seat_at(i) for i in (1, 2, -1)] == [3, 2, 1]


def test_a_victim_pays_half_its_shuffle_penalty_only_if_it_empties_the_stock() -> None:
    """R10: the seat that must draw from an empty stock pays; the bot counts half of it."""
    t = _situation(stock_size=2)
    assert t.pays(1, 0, 2) == 0.0  # two cards drawn from two: the stock lasts
    assert t.pays(1, 0, 3) == 5.0  # the third card finds it empty: half of 10
    assert t.pays(3, 2, 1) == 20.0  # two drawn before it: its one card finds it empty
    assert t.pays(3, 3, 1) == 0.0  # already emptied by an earlier victim


def test_keep_value_sheds_points_but_keeps_threes_and_aces() -> None:
    """R9 points; threes cancel cards at scoring (R9), aces follow the count (R6)."""
    assert keep_value("8S") == 50.0
    assert keep_value("TD") == 25.0
    assert keep_value("3H") == -15.0
    assert keep_value("AC") == -3.0


def test_going_out_is_best_except_on_a_six_or_a_face_cards_king() -> None:
    """R8; a 6 makes its player play again (R5), a king play on (R11)."""
    assert going_out_value("TS", face_cards=False) == 1000.0
    assert going_out_value("6S", face_cards=False) == -500.0
    assert going_out_value("KS", face_cards=False) == 1000.0
    assert going_out_value("KS", face_cards=True) == -500.0


def test_a_two_is_worth_more_against_a_next_player_close_to_going_out() -> None:
    """R6: the count starts; an ace or a 2 kept can follow it."""
    quiet = _situation()
    assert two_term(quiet, "2S", "S", ["KH"]) == 15 - 5
    assert two_term(quiet, "2S", "S", ["AH"]) == 15 + 8
    close = _situation(hand_sizes=[5, 2, 5, 5])
    assert two_term(close, "2S", "S", ["AH"]) == 15 + 10 + 8
    # the count's two cards would empty the stock: a quarter of the next player's 10
    assert two_term(_situation(stock_size=1), "2S", "S", ["AH"]) == 15 + 8 + 2.5


def test_a_seven_hits_the_player_after_next_unless_few_or_seven_hits_next() -> None:
    """R5: with 4+ players the player after next draws; with 2-3, or the option, the next."""
    t = _situation(hand_sizes=[5, 1, 5, 5])
    assert seven_term(t, "7S", "S", ["KH"]) == 10  # seat 2 is hit, not seat 1
    assert (
        seven_term(_situation(hand_sizes=[5, 1, 5, 5], seven_hits_next=True), "7S", "S", []) == 25
    )
    three = _situation(players=3, hand_sizes=[5, 1, 5], next_penalty=[5, 10, 20])
    assert seven_term(three, "7S", "S", []) == 25


def test_a_five_weighs_every_victim_in_turn_order() -> None:
    """R5: three victims, 8 points each; R10: the second victim's card empties the stock."""
    t = _situation(stock_size=1)
    assert five_term(t, "5S", "S", ["KH"]) == 24 + 20 / 2
    assert five_term(_situation(hand_sizes=[5, 5, 5, 2]), "5S", "S", []) == 24 + 10


def test_a_ten_reverses_away_from_a_next_player_close_to_going_out() -> None:
    """R5: worth it when the next holds few cards and the previous more."""
    assert ten_term(_situation(hand_sizes=[5, 2, 5, 5]), "TS", "S", []) == 15
    assert ten_term(_situation(hand_sizes=[5, 2, 5, 2]), "TS", "S", []) == 0
    assert ten_term(_situation(players=2, hand_sizes=[5, 2]), "TS", "S", []) == 0


def test_face_cards_act_only_with_the_option() -> None:
    """R11: J, Q♠ and K have functions only with ``face_cards``; other queens never."""
    assert harm_term(_situation(), "QS", "S", ["KH"]) == 0.0
    face = _situation(face_cards=True)
    assert harm_term(face, "QS", "S", ["KH"]) == 40
    assert queen_of_spades_term(face, "QH", "H", ["KH"]) == 0
    assert harm_term(face, "JS", "S", ["KH"]) == 20
    assert harm_term(face, "KS", "S", ["KH", "QS"]) == 10  # two cards to play on with
    assert harm_term(face, "KS", "S", ["KH"]) == -25


def test_continuity_and_the_last_card_kept() -> None:
    """R4: cards kept that can follow; R5: a wild kept; R7-R8: the last card."""
    assert continuity_term(["KS", "4S", "TD"], "S", "T") == 4 * 3
    assert continuity_term(["KH"], "S", "T") == -6
    assert continuity_term(["8H"], "S", "T") == 0
    assert last_card_term(["8H"], "S", "T") == 20
    assert last_card_term(["KS"], "S", "T") == 12
    assert last_card_term(["6S"], "S", "T") == 12 - 10
    assert last_card_term(["KS", "QS"], "S", "T") == 0


def test_play_score_adds_the_terms() -> None:
    t = _situation()
    rest = ["KS", "3H"]
    assert play_score(t, "TS", "S", rest) == (
        keep_value("TS") + ten_term(t, "TS", "S", rest) + continuity_term(rest, "S", "T")
    )
    assert play_score(_situation(count=2), "2S", "S", rest) == keep_value("2S")  # R6
    assert play_score(t, "6S", "S", []) == -500.0  # R5, R8


# ------------------------------------------------------------------ self-play


def test_self_play_is_pinned_to_its_seed() -> None:
    """Same seed, same games: the figures of scripts/selfplay.py stay comparable."""
    rng = random.Random(10)
    games = [
        (["basic", "random", "random", "random"], None),
        (["basic", "basic"], Rules(face_cards=True, play_drawn_card=True)),
        (
            ["random", "basic", "basic"],
            Rules(seven_hits_next=True, idiot_card=True, short_game=True),
        ),
    ]
    figures = []
    for levels, rules in games:
        r = play_game(levels, rng, rules)
        figures.append((r.scores, r.winners, r.hands, r.actions, r.turn_actions, r.idiot_calls))
    assert figures == [
        ([355, 1047, 555, 855], (0,), 15, 1017, 988, [24, 1, 1, 0]),
        ([517, 509], (1,), 15, 359, 359, [0, 0]),
        ([444, 433, 185], (2,), 8, 315, 307, [0, 3, 3]),
    ]
