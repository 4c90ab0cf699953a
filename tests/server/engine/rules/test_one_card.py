"""R7 ("one card" and idiot, options idiot_card and one_card_deal) and R12 lost turns."""

from __future__ import annotations

import random
from typing import Any

import pytest
from craits.server.engine import Announce, CallIdiot, Draw, Game, Play, Rules
from craits.server.engine import errors as E
from craits.server.engine.events import Announced, Drew, IdiotCalled, Played, Skipped

from tests.support.engine import assert_refused, deck_from, game_at

# Seat 0 can play down to one card on 7H; the stock holds the penalty cards.
DOWN_TO_ONE: dict[str, Any] = {
    "players": 3,
    "turn": 0,
    "hands": [["7C", "KH"], ["KC", "5C", "QS"], ["QC", "JC", "TH"]],
    "stock": ["AD", "3D", "9H", "4S"],
    "discard": ["7H"],
}


def test_R7_play_down_to_one_opens_the_idiot_window() -> None:
    """R7: playing down to one card without announcing lets any other seat call idiot."""
    game = game_at(**DOWN_TO_ONE)
    game.apply(Play(0, "KH"))
    assert game.unannounced == [0]
    assert CallIdiot(1, 0) in game.legal_actions(1)
    assert CallIdiot(2, 0) in game.legal_actions(2)
    assert Announce(0) in game.legal_actions(0)
    assert Play(1, "KC") in game.legal_actions(1)


def test_R7_announce_with_the_play() -> None:
    """R7: announcing with the play closes the window at once."""
    game = game_at(**DOWN_TO_ONE)
    events = game.apply(Play(0, "KH", announce=True))
    assert events[0] == Played(0, "KH", "H", True)
    assert game.unannounced == []
    assert_refused(game, CallIdiot(1, 0), E.NothingToCallIdiotOn)


def test_R7_announce_after_the_play() -> None:
    """R7: announcing before the next game action is in time; then no idiot call."""
    game = game_at(**DOWN_TO_ONE)
    game.apply(Play(0, "KH"))
    assert game.apply(Announce(0)) == [Announced(0)]
    assert game.unannounced == []
    assert_refused(game, CallIdiot(2, 0), E.NothingToCallIdiotOn)
    assert_refused(game, Announce(0), E.NothingToAnnounce)


def test_R7_announcement_not_leaving_one_card_is_ignored() -> None:
    """R7: an announcement with a play that does not leave one card is ignored."""
    game = game_at(**{**DOWN_TO_ONE, "hands": [["7C", "KH", "2S"], ["KC"], ["QC"]]})
    events = game.apply(Play(0, "KH", announce=True))
    assert events[0] == Played(0, "KH", "H", False)
    assert game.unannounced == []


def test_R7_idiot_call_draws_two_and_costs_the_next_turn() -> None:
    """R7, R12: called idiot: draw two, and the lost turn is used up when play reaches the seat."""
    game = game_at(**DOWN_TO_ONE)
    game.apply(Play(0, "KH"))
    events = game.apply(CallIdiot(2, 0))
    assert events == [IdiotCalled(2, 0), Drew(0, 2, ("AD", "3D"), "idiot")]
    assert game.hands[0] == ["7C", "AD", "3D"]
    assert game.lost_turns == [1, 0, 0]
    assert game.unannounced == []
    assert game.turn == 1  # the call is no game action: the turn does not move
    game.apply(Play(1, "KC"))
    events = game.apply(Play(2, "QC"))
    assert Skipped(0, "lost_turn") in events
    assert game.lost_turns == [0, 0, 0]
    assert game.turn == 1


def test_R7_idiot_card_option_one_card_no_lost_turn() -> None:
    """R7 idiot_card: the caller's target draws one card at once and loses no turn."""
    game = game_at({"idiot_card": True}, **DOWN_TO_ONE)
    game.apply(Play(0, "KH"))
    events = game.apply(CallIdiot(1, 0))
    assert events == [IdiotCalled(1, 0), Drew(0, 1, ("AD",), "idiot")]
    assert game.lost_turns == [0, 0, 0]
    game.apply(Play(1, "KC"))
    game.apply(Play(2, "QC"))
    assert game.turn == 0


def test_R7_window_closes_at_the_next_game_action() -> None:
    """R7: the next play, or a draw on one's own turn, closes the window."""
    game = game_at(**DOWN_TO_ONE)
    game.apply(Play(0, "KH"))
    game.apply(Play(1, "KC"))
    assert game.unannounced == []
    assert_refused(game, CallIdiot(2, 0), E.NothingToCallIdiotOn)
    assert_refused(game, Announce(0), E.NothingToAnnounce)

    game = game_at(**{**DOWN_TO_ONE, "hands": [["7C", "KH"], ["2D", "5D"], ["QC"]]})
    game.apply(Play(0, "KH"))
    game.apply(Draw(1))
    assert game.unannounced == []


def test_R7_called_on_own_turn_finishes_it_and_loses_the_next() -> None:
    """R7: called after one's own 6, the seat finishes the turn; the lost turn is the next one."""
    game = game_at(
        players=3,
        turn=0,
        hands=[["6H", "7H"], ["KH", "QH", "JH"], ["TH", "9C", "4H"]],
        stock=["AS", "AC", "2D", "5S"],
        discard=["5H"],
    )
    game.apply(Play(0, "6H"))
    assert game.again and game.unannounced == [0]
    game.apply(CallIdiot(1, 0))
    assert game.turn == 0 and game.again
    assert game.lost_turns == [1, 0, 0]
    game.apply(Play(0, "7H"))  # three players: the next seat draws one, then plays
    assert game.hands[1][-1] == "2D" and game.turn == 1
    game.apply(Play(1, "KH"))
    events = game.apply(Play(2, "TH"))  # the 10 reverses: play would pass to seat 1
    assert game.direction == -1 and game.turn == 1
    assert game.lost_turns == [1, 0, 0]
    events = game.apply(Play(1, "QH"))  # on to seat 0, whose lost turn is used up
    assert Skipped(0, "lost_turn") in events
    assert game.turn == 2 and game.lost_turns == [0, 0, 0]


def test_R7_one_card_deal_everybody_owes() -> None:
    """R7 one_card_deal: in the one-card hand every player owes the announcement."""
    game = Game(4, Rules(one_card_deal=True), random.Random(0))
    game.hand_number = 8
    game.dealer = 3
    game.deal(deck_from(["KD", "4C", "7H", "JS", "KS"], 4))
    assert game.unannounced == [0, 1, 2, 3]
    assert game.turn == 0
    game.apply(CallIdiot(0, 2))
    game.apply(CallIdiot(0, 3))  # each is called on separately
    game.apply(Announce(1))
    assert game.unannounced == [0]
    assert game.lost_turns == [0, 0, 1, 1]
    game.apply(Play(0, "KD"))  # seat 0 goes out on its one card
    assert game.phase == "hand_over"
    assert game.result is not None
    assert [r.went_out for r in game.result.results] == [True, False, False, False]


def test_R7_one_card_deal_first_game_action_closes_every_window() -> None:
    """R7 one_card_deal: the first game action of the hand closes all the windows."""
    game = Game(3, Rules(one_card_deal=True), random.Random(0))
    game.hand_number = 8
    game.deal(deck_from(["KD", "4C", "7H", "JS"], 3))
    assert game.unannounced == [0, 1, 2] and game.turn == 1
    game.apply(Draw(1))  # KD does not match JS: a draw on one's own turn
    assert game.unannounced == []
    assert_refused(game, CallIdiot(1, 2), E.NothingToCallIdiotOn)


@pytest.mark.parametrize(
    ("turned", "owing"),
    [("7H", [0, 2]), ("5D", [0]), ("JS", [0, 1, 2])],
)
def test_R7_one_card_deal_turned_up_draw_owes_nothing(turned: str, owing: list[int]) -> None:
    """R7 one_card_deal: a player whom the turned-up card made draw holds two and owes nothing."""
    game = Game(3, Rules(one_card_deal=True), random.Random(0))
    game.hand_number = 8
    game.deal(deck_from(["KD", "4C", "6H", turned], 3))
    assert game.unannounced == owing


@pytest.mark.parametrize(("option", "hand_number"), [(False, 8), (True, 7), (True, 9)])
def test_R7_one_card_deal_only_in_the_one_card_hand(option: bool, hand_number: int) -> None:
    """R7: without one_card_deal, or outside the one-card hand, nobody owes at the deal."""
    game = Game(3, Rules(one_card_deal=option), random.Random(0))
    game.hand_number = hand_number
    game.deal()
    assert game.unannounced == []


# ------------------------------------------------------------------ lost turns


def test_R12_lost_turns_used_up_one_per_pass() -> None:
    """R12: a turn passing to a seat owing lost turns uses one up and passes on."""
    game = game_at(
        players=4,
        turn=0,
        hands=[["KH", "QH", "JH"], ["KS"], ["KD", "QD"], ["2C", "3C"]],
        stock=["AS"],
        discard=["5H"],
        lost_turns=[0, 2, 1, 0],
    )
    events = game.apply(Play(0, "KH"))
    assert [e for e in events if isinstance(e, Skipped)] == [
        Skipped(1, "lost_turn"),
        Skipped(2, "lost_turn"),
    ]
    assert game.turn == 3 and game.lost_turns == [0, 1, 0, 0]
    game.apply(Draw(3))
    assert game.turn == 0
    events = game.apply(Play(0, "QH"))
    assert Skipped(1, "lost_turn") in events
    assert game.turn == 2 and game.lost_turns == [0, 0, 0, 0]


def test_R12_a_four_skips_without_using_a_lost_turn() -> None:
    """R5, R12: a 4 skips the next seat by counting seats; its lost turn is not used up."""
    game = game_at(
        players=3,
        turn=0,
        hands=[["4H", "QH"], ["KS"], ["KD", "QD"]],
        stock=["AS"],
        discard=["5H"],
        lost_turns=[0, 1, 0],
    )
    events = game.apply(Play(0, "4H", announce=True))
    assert Skipped(1, "four") in events
    assert game.turn == 2 and game.lost_turns == [0, 1, 0]


def test_R12_seven_counts_seats_whatever_lost_turns() -> None:
    """R5, R7: a 7 (4+ players) hits the player after next, whether or not the next owes a turn."""
    game = game_at(
        players=4,
        turn=0,
        hands=[["7H", "QH"], ["KS"], ["KD"], ["KC"]],
        stock=["AS", "2S"],
        discard=["5H"],
        lost_turns=[0, 1, 0, 0],
    )
    game.apply(Play(0, "7H", announce=True))
    assert game.hands[2] == ["KD", "AS"]
    assert game.turn == 2 and game.lost_turns == [0, 0, 0, 0]


def test_R12_two_players_lost_turn_plays_again() -> None:
    """R12: with two players, the other seat's lost turn gives the turn straight back."""
    game = game_at(
        players=2,
        turn=0,
        hands=[["KH", "QH", "JH"], ["KS"]],
        stock=["AS"],
        discard=["5H"],
        lost_turns=[0, 1],
    )
    events = game.apply(Play(0, "KH"))
    assert Skipped(1, "lost_turn") in events
    assert game.turn == 0 and game.lost_turns == [0, 0]
