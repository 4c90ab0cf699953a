"""The bots (craits.server.bots): legal choices only, the basic policy's habits,
the server's timeout move, and a short self-play where basic beats random."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest
from craits.server.bots import LEVELS, choose, choose_basic, play_game, timeout_action
from craits.server.engine import Game, Rules, action_from_dict, view
from craits.server.ops.vectors import load_position


def _game(rules: dict[str, Any] | None = None, **position: Any) -> Game:
    """A four-seat hand in play (vector position format), seat 0 to act by default."""
    base: dict[str, Any] = {"players": 4, "turn": 0, "stock": ["KC", "QC", "JC", "TC", "7C"]}
    base.update(position)
    return load_position(base, Rules.from_dict(rules))


def _in_legal(action: dict[str, Any] | None, v: dict[str, Any]) -> bool:
    return action is not None and any(action is a for a in v["legal"])


# ------------------------------------------------------------------- legality


RULE_SETS = [
    {},
    {"face_cards": True, "play_drawn_card": True},
    {"one_card_deal": True, "idiot_card": True, "seven_hits_next": True, "short_game": True},
]


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("options", RULE_SETS, ids=["default", "face+drawn", "misc"])
def test_bots_only_ever_choose_a_legal_action(players: int, options: dict[str, bool]) -> None:
    """Every seat's choice, at every step of two hands, is one of its view's legal dicts."""
    rng = random.Random(players * 7 + len(options))
    rules = Rules.from_dict({"short_game": True, **options})
    game, _ = Game.start(players, rules, random.Random(rng.getrandbits(32)))
    checked = 0
    for _hand in range(2):
        while game.phase == "play":
            actor = game.to_act
            assert actor is not None
            for seat in range(players):
                v = view(game, seat)
                for level in LEVELS:
                    if level == "expert":
                        continue  # its search: tests/server/bots/expert/, at a small budget
                    a = choose(level, v, rng)
                    if seat == actor:
                        assert _in_legal(a, v), (level, a, v["legal"])
                    else:
                        assert a is None or _in_legal(a, v), (level, a, v["legal"])
                    checked += 1
                if seat == actor:
                    t = timeout_action(v)
                    assert _in_legal(t, v)
                    assert {"play", "draw", "pass", "name_suit"} & set(t)
            # Move on with a mix of the levels' choices, off-turn calls included.
            for seat in range(players):
                if seat != actor and game.unannounced:
                    a = choose("basic", view(game, seat), rng)
                    if a is not None:
                        game.apply(action_from_dict(a))
                        break
            if game.phase != "play":
                break
            level = rng.choice([lv for lv in LEVELS if lv != "expert"])
            a = choose(level, view(game, actor), rng)
            assert a is not None
            game.apply(action_from_dict(a))
        if game.phase == "game_over":
            break
        game.next_hand()
    assert checked > 100


def test_unknown_level_is_refused() -> None:
    v = view(_game(hands=[["5S"], ["KD"], ["QD"], ["JD"]], discard=["4S"]), 0)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose("grandmaster", v, random.Random(1))


def test_nothing_legal_gives_none() -> None:
    game = _game(hands=[["5S", "6S"], ["KD"], ["QD"], ["JD"]], discard=["4S"])
    v = view(game, 2)
    assert v["legal"] == []
    assert choose("basic", v, random.Random(1)) is None
    assert choose("random", v, random.Random(1)) is None


def test_timeout_action_refuses_a_seat_not_to_act() -> None:
    game = _game(hands=[["5S", "6S"], ["KD"], ["QD"], ["JD"]], discard=["4S"])
    with pytest.raises(ValueError, match="no turn action"):
        timeout_action(view(game, 1))


def test_random_bot_rarely_acts_off_turn() -> None:
    """Off its turn the random bot lets most chances go (but not all)."""
    game = _game(
        hands=[["5S", "6S"], ["KD"], ["QD", "9H"], ["JD"]], discard=["4S"], unannounced=[1]
    )
    v = view(game, 2)
    rng = random.Random(3)
    picks = [choose("random", v, rng) for _ in range(1000)]
    taken = [p for p in picks if p is not None]
    assert 20 < len(taken) < 250
    assert all(p == {"seat": 2, "idiot": 1} for p in taken)


# ---------------------------------------------------------------------- basic


def test_basic_announces_one_card_with_the_play() -> None:
    game = _game(hands=[["KS", "QD"], ["KD", "2C"], ["QC", "3C"], ["JD", "4D"]], discard=["5S"])
    a = choose_basic(view(game, 0))
    assert a == {"seat": 0, "play": "KS", "announce": True}


def test_basic_announces_an_owed_announcement_first() -> None:
    game = _game(
        hands=[["KS", "QS", "5S"], ["KD"], ["QC", "3C"], ["JD", "4D"]],
        discard=["5H"],
        unannounced=[1],
        turn=1,
    )
    assert choose_basic(view(game, 1)) == {"seat": 1, "announce": True}


@pytest.mark.parametrize("caller", [0, 2, 3])
def test_basic_calls_idiot_on_or_off_its_turn(caller: int) -> None:
    game = _game(
        hands=[["KS", "QS", "5S"], ["KD"], ["QC", "3C"], ["JD", "4D"]],
        discard=["5H"],
        unannounced=[1],
        turn=0,
    )
    assert choose_basic(view(game, caller)) == {"seat": caller, "idiot": 1}


def test_basic_keeps_wilds_sheds_points_and_names_its_suit() -> None:
    # Legal: 8D, 9C, TH, 3H. The 10 (25 points) goes before the 3; wilds are kept.
    others = [["KD", "2D"], ["QS", "2S"], ["JS", "2H"]]
    game = _game(hands=[["8D", "9C", "TH", "3H", "KC", "QC"], *others], discard=["5H"])
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "TH"}
    # Only wilds legal: the 9 goes first, naming clubs (held most, of its two suits).
    game = _game(hands=[["8H", "9S", "KC", "QC", "4H"], *others], discard=["5D"])
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "9S", "suit": "C"}


def test_basic_follows_the_count_with_a_two() -> None:
    game = _game(
        hands=[["AS", "2H", "KD"], ["KC", "2C"], ["QC", "3C"], ["JD", "4D"]],
        discard=["2D"],
        count=2,
    )
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "2H"}


def test_basic_names_the_pending_suit_it_holds_most_of() -> None:
    game = _game(
        hands=[["KC", "QC", "4H"], ["KD", "2D"], ["QS", "2S"], ["JS", "2H"]],
        discard=["8D"],
        pending={"name_suit": 0},
    )
    assert choose_basic(view(game, 0)) == {"seat": 0, "name_suit": "C"}
    assert choose_basic(view(game, 1)) is None  # nothing for the others to do


def test_basic_plays_a_six_only_with_a_follow_up() -> None:
    others = [["KD", "2D"], ["QS", "2S"], ["JS", "2H"]]
    # 6S then TS: two cards shed in one turn (R5), and out; "one card" on the way.
    game = _game(hands=[["6S", "TS"], *others], discard=["5S"])
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "6S", "announce": True}
    # No card to follow the 6S with: the 10 of hearts instead (a 6 alone means a draw).
    game = _game(hands=[["6S", "TH", "QH", "JH"], *others], discard=["6H"])
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "TH"}


def test_basic_hurts_the_next_player_close_to_going_out() -> None:
    # Seat 1 holds one card: the 4 skips it, though the 10 has more points.
    game = _game(
        hands=[["4S", "TS", "KH", "QH"], ["KD"], ["QS", "2S"], ["JS", "2H"]], discard=["5S"]
    )
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "4S"}


def test_basic_sheds_a_wild_when_an_opponent_may_go_out() -> None:
    others = [["KD", "2D"], ["QS", "2S"], ["JS", "2H"]]
    game = _game(hands=[["8C", "3S", "KH", "QH"], *others], discard=["5S"])
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "3S"}
    game.hands[3] = ["JS"]
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "8C", "suit": "H"}


def test_basic_on_a_drawn_card_keeps_a_wild_and_plays_the_rest() -> None:
    rules = {"play_drawn_card": True}
    others = [["KD", "2D"], ["QS", "2S"], ["JS", "2H"]]
    game = _game(hands=[["KD", "QD", "8C"], *others], discard=["5H"], drawn="8C", rules=rules)
    assert choose_basic(view(game, 0)) == {"seat": 0, "pass": True}
    game.hands[2] = ["QS"]  # an opponent may go out: shed the 8
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "8C", "suit": "D"}
    game = _game(hands=[["KD", "QD", "TH"], *others], discard=["5H"], drawn="TH", rules=rules)
    assert choose_basic(view(game, 0)) == {"seat": 0, "play": "TH"}


# -------------------------------------------------------------------- timeout


def test_timeout_follows_the_count() -> None:
    game = _game(
        hands=[["AS", "2H", "KD"], ["KC", "2C"], ["QC", "3C"], ["JD", "4D"]],
        discard=["2D"],
        count=2,
    )
    assert timeout_action(view(game, 0)) == {"seat": 0, "play": "2H"}
    game.hands[0] = ["AS", "KD", "QD"]
    assert timeout_action(view(game, 0)) == {"seat": 0, "play": "AS"}
    game.hands[0] = ["KD", "QD"]
    assert timeout_action(view(game, 0)) == {"seat": 0, "draw": True}


def test_timeout_plays_non_wild_first_highest_points_and_announces() -> None:
    game = _game(hands=[["8S", "JH", "TH", "KC"], ["KD", "2D"], ["QS"], ["JS"]], discard=["5H"])
    assert timeout_action(view(game, 0)) == {"seat": 0, "play": "TH"}
    game = _game(hands=[["8S", "TH"], ["KD", "2D"], ["QS"], ["JS"]], discard=["5H"])
    assert timeout_action(view(game, 0)) == {"seat": 0, "play": "TH", "announce": True}


def test_timeout_names_the_suit_it_holds_most_of() -> None:
    game = _game(hands=[["8S", "3D", "4D", "KC"], ["KD", "2D"], ["QS"], ["JS"]], discard=["5H"])
    assert timeout_action(view(game, 0)) == {"seat": 0, "play": "8S", "suit": "D"}
    # A 9 names one of its two suits: spades or clubs; clubs are held most.
    game = _game(
        hands=[["9S", "KC", "QC", "3D", "4D"], ["KD", "2D"], ["QS"], ["JS"]], discard=["5H"]
    )
    assert timeout_action(view(game, 0)) == {"seat": 0, "play": "9S", "suit": "C"}
    # Down to one card after the wild: the suit of that card, announced.
    game = _game(hands=[["8S", "4D"], ["KD", "2D"], ["QS"], ["JS"]], discard=["5H"])
    assert timeout_action(view(game, 0)) == {
        "seat": 0,
        "play": "8S",
        "suit": "D",
        "announce": True,
    }


def test_timeout_defaults_a_pending_suit_to_the_cards_own() -> None:
    game = _game(
        hands=[["KC", "QC", "4C"], ["KD", "2D"], ["QS", "2S"], ["JS", "2H"]],
        discard=["8D"],
        pending={"name_suit": 0},
    )
    assert timeout_action(view(game, 0)) == {"seat": 0, "name_suit": "D"}
    game = _game(
        hands=[["KC", "QC", "4C"], ["KD", "2D"], ["QS", "2S"], ["JS", "2H"]],
        discard=["9S"],
        pending={"name_suit": 0},
    )
    assert timeout_action(view(game, 0)) == {"seat": 0, "name_suit": "S"}


def test_timeout_plays_a_drawn_card_or_passes() -> None:
    rules = {"play_drawn_card": True}
    game = _game(
        hands=[["KD", "5S"], ["KD", "2D"], ["QS"], ["JS"]], discard=["5H"], drawn="5S", rules=rules
    )
    assert timeout_action(view(game, 0)) == {"seat": 0, "play": "5S", "announce": True}


# ------------------------------------------------------------------ self-play


def test_short_self_play_basic_beats_random() -> None:
    """20 seeded four-player games, 1 basic against 3 random: basic scores far lower."""
    rng = random.Random(2024)
    records = [play_game(["basic", "random", "random", "random"], rng) for _ in range(20)]
    basic = statistics.fmean(r.scores[0] for r in records)
    rand = statistics.fmean(r.scores[s] for r in records for s in (1, 2, 3))
    wins = sum(1 / len(r.winners) for r in records if 0 in r.winners)
    assert all(r.hands == 15 for r in records)
    assert basic < 0.75 * rand, (basic, rand)
    assert wins >= 10, wins  # far above the 5 of an even four-way split


def test_play_game_refuses_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        play_game(["basic", "clever"], random.Random(1))
