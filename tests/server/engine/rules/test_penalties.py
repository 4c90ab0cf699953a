"""R10 (shuffle penalties) and R12 (drawing card by card from a short stock)."""

from __future__ import annotations

import pytest
from craits.server.engine import Draw, Play, event_to_dict, view
from craits.server.engine.events import CountChanged, Drew, HandEnded, ShufflePenalty

from tests.support.engine import all_cards, deck_from, game_at


@pytest.mark.parametrize(("pressure", "penalty"), [(0, 5), (1, 10), (2, 20), (3, 40), (6, 320)])
def test_R10_penalty_doubles_per_player(pressure: int, penalty: int) -> None:
    """R10: the first shuffle costs 5, each later one double that player's previous one."""
    game = game_at(
        players=3,
        turn=1,
        hands=[["KH"], ["5C", "6C"], ["QD"]],
        stock=[],
        discard=["AS", "9D", "3S", "JH"],
        scores=[0, 12, 0],
        pressure=[4, pressure, 0],
    )
    events = game.apply(Draw(1))
    assert events[0] == ShufflePenalty(1, penalty, 3, events[0].order)
    assert sorted(events[0].order or ()) == ["3S", "9D", "AS"]
    assert isinstance(events[1], Drew) and events[1].seat == 1 and events[1].n == 1
    assert game.scores == [0, 12 + penalty, 0]  # added to the total at once
    assert game.pressure == [4, pressure + 1, 0]
    assert game.discard == ["JH"] and len(game.stock) == 2
    assert game.turn == 2 and game.phase == "play"
    assert view(game, None)["next_penalty"] == [80, 2 * penalty, 5]


def test_R10_each_players_penalties_run_on_through_the_game() -> None:
    """R10: pressure is kept from hand to hand, and keeps doubling."""
    game = game_at(
        players=2,
        hand_number=3,
        turn=0,
        hands=[["KH"], ["5C", "6C"]],
        stock=["4C"],
        discard=["QH"],
        scores=[20, 35],
        pressure=[2, 3],
    )
    game.apply(Play(0, "KH"))
    assert game.phase == "hand_over"
    game.next_hand(deck_from(["AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "KD"], 2))
    assert game.pressure == [2, 3]
    assert game.scores == [20, 35 + 60]  # 5C + 6C, no penalty


def test_R12_count_draw_reshuffles_card_by_card() -> None:
    """R12, R10: a count larger than the stock reshuffles mid-draw; the drawer pays."""
    game = game_at(
        players=2,
        turn=1,
        hands=[["KH", "QH"], ["5C", "6C"]],
        stock=["JC"],
        discard=["9D", "AD", "3S", "2S", "2H"],
        count=4,
    )
    events = game.apply(Draw(1))
    assert events[0] == CountChanged(0)
    penalty = events[1]
    assert isinstance(penalty, ShufflePenalty)
    assert (penalty.seat, penalty.penalty, penalty.stock_size) == (1, 5, 4)
    drew = events[2]
    assert isinstance(drew, Drew) and drew.n == 4 and drew.reason == "count"
    assert drew.cards is not None and drew.cards[0] == "JC"
    assert sorted(game.hands[1]) == sorted(["5C", "6C", *drew.cards])
    assert len(game.stock) == 1 and game.discard == ["2H"]
    assert game.scores == [0, 5] and game.pressure == [0, 1]
    assert game.turn == 0 and game.count == 0
    assert sum(all_cards(game).values()) == 10


def test_R10_nothing_to_draw_ends_the_hand_at_once() -> None:
    """R10, R8: nothing under the top card: the drawer pays and the hand ends; a seat
    with no cards (here, out into the count, R6) has gone out."""
    game = game_at(
        players=3,
        turn=2,
        hands=[["KH", "5S"], [], ["QD", "7C"]],
        stock=[],
        discard=["2C"],
        count=2,
        scores=[0, 0, 3],
        pressure=[0, 0, 1],
    )
    events = game.apply(Draw(2))
    assert events[0] == CountChanged(0)
    assert events[1] == ShufflePenalty(2, 10, 0, ())
    end = events[-1]
    assert isinstance(end, HandEnded)
    assert game.phase == "hand_over"
    assert [r.went_out for r in end.results] == [False, True, False]
    assert [r.points for r in end.results] == [40, 0, 30]
    assert list(end.scores) == [40, 0, 3 + 10 + 30]
    assert end.pressure == (0, 0, 2)


def test_R10_short_stock_partial_draw_is_kept() -> None:
    """R10, R12: cards drawn before the stock ran dry stay drawn when the hand ends."""
    game = game_at(
        players=2,
        turn=0,
        hands=[["KH"], ["5C"]],
        stock=["9S"],
        discard=["2D"],
        count=2,
    )
    events = game.apply(Draw(0))
    assert game.phase == "hand_over"
    assert sorted(game.hands[0]) == ["9S", "KH"]
    assert Drew(0, 1, ("9S",), "count") in events
    assert ShufflePenalty(0, 5, 0, ()) in events
    assert game.scores == [5 + 30 + 10, 30]


def test_R10_hand_ended_carries_the_hands_penalties() -> None:
    """R10: the end of a hand says what each seat paid in shuffle penalties during it,
    on the wire too; penalties of earlier hands are not in it."""
    game = game_at(
        players=2,
        turn=0,
        hands=[["KH", "QH"], ["5H", "6H"]],
        stock=[],
        discard=["4D", "AS", "3C"],
        scores=[100, 7],
        pressure=[1, 2],
    )
    game.apply(Draw(0))  # reshuffles 4D, AS: seat 0 pays 10
    game.apply(Draw(1))  # the last card of the stock: no penalty
    events = game.apply(Draw(0))  # nothing under 3C: seat 0 pays 20, the hand ends
    end = events[-1]
    assert isinstance(end, HandEnded)
    assert end.penalties == (30, 0)
    assert end.pressure == (3, 2)
    assert event_to_dict(end)["penalties"] == [30, 0]
    points = [r.points for r in end.results]
    assert list(end.scores) == [100 + 30 + points[0], 7 + points[1]]


def test_R10_a_hand_without_shuffles_has_no_penalties() -> None:
    """R10: penalties paid in earlier hands (pressure) are not this hand's."""
    game = game_at(
        players=2,
        turn=0,
        hands=[["KH"], ["5C", "6C"]],
        stock=["4C"],
        discard=["QH"],
        pressure=[2, 3],
    )
    (*_, end) = game.apply(Play(0, "KH"))
    assert isinstance(end, HandEnded)
    assert end.penalties == (0, 0)
    assert event_to_dict(end)["penalties"] == [0, 0]


@pytest.mark.parametrize(("pressure", "paid"), [(0, 0), (1, 5), (2, 15), (3, 35), (6, 315)])
def test_R10_view_says_the_penalties_paid_this_game(pressure: int, paid: int) -> None:
    """R10: the view gives each seat's shuffle-penalty points paid so far this game
    (5 + 10 + 20 + …), for every seat and spectator alike."""
    game = game_at(
        players=3,
        turn=1,
        hands=[["KH"], ["5C", "6C"], ["QD"]],
        stock=[],
        discard=["AS", "9D", "3S", "JH"],
        pressure=[4, pressure, 0],
    )
    assert view(game, None)["penalties_paid"] == [75, paid, 0]
    game.apply(Draw(1))  # reshuffles: seat 1 pays its next penalty
    after = [75, paid + (5 << pressure), 0]
    for seat in (None, 0, 1, 2):
        assert view(game, seat)["penalties_paid"] == after
