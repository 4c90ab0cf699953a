"""R1–R3: decks, the cut for the first dealer, the deal, and the flow of a whole game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from craits.server.engine import Event, Game, Play, Rules, cut_dealer, full_deck, hand_size
from craits.server.engine.events import Cut, Dealt, HandEnded, TurnedUp

from tests.support.engine import all_cards, deck_from, game_at, snapshot


class RiggedShuffle:
    """A shuffle source that puts the given cards on top, one list per shuffle, in turn.

    Once the lists run out, shuffles leave the deck in canonical order.
    """

    def __init__(self, *tops: Sequence[str]) -> None:
        self.tops = list(tops)

    def shuffle(self, x: list[Any], /) -> None:
        """Move the next list of cards to the top of ``x``, in that order."""
        if not self.tops:
            return
        top = list(self.tops.pop(0))
        for card in top:
            x.remove(card)
        x[:0] = top


# ------------------------------------------------------------------------ R1


@pytest.mark.parametrize(
    ("players", "strip", "size"),
    [
        (2, False, 52),
        (5, False, 52),
        (6, False, 104),
        (8, False, 104),
        (2, True, 44),
        (3, True, 44),
    ],
)
def test_R1_deck_sizes(players: int, strip: bool, size: int) -> None:
    """R1: one deck for 2–5 players, two for 6–8; strip_kings_queens with 2 or 3 players."""
    deck = full_deck(players, strip)
    assert len(deck) == size
    assert not strip or not any(c[0] in "KQ" for c in deck)


def test_R1_strip_only_with_two_or_three_players() -> None:
    """R1: strip_kings_queens leaves a four-player deck whole."""
    assert len(full_deck(4, True)) == 52


@pytest.mark.parametrize("players", [0, 1, 9, True])
def test_R1_player_count_out_of_range(players: Any) -> None:
    """R1: Craits is for 2 to 8 players."""
    with pytest.raises(ValueError, match="2 to 8"):
        Game(players)


# ------------------------------------------------------------------ R2 cut


def test_R2_cut_lowest_deals() -> None:
    """R2: the lowest cut deals; 2 is lowest, the ace highest, suits do not count."""
    assert cut_dealer([["AS", "KS", "2H"]], 3) == 2
    assert cut_dealer([["AS", "KD"]], 2) == 1
    assert cut_dealer([["QC", "JH", "TS", "9D"]], 4) == 3


def test_R2_cut_ties_cut_again() -> None:
    """R2: players tied for lowest cut again; the rest are out of it."""
    assert cut_dealer([["5H", "2C", "2D", "KS"], ["9S", "3H"]], 4) == 2
    assert cut_dealer([["7H", "7C", "7S"], ["4C", "4D", "AS"], ["TS", "6C"]], 3) == 1
    assert cut_dealer([["5H", "5D"]], 2) is None


def test_R2_cut_round_of_the_wrong_size() -> None:
    """R2: each round has one card per seat still in."""
    with pytest.raises(ValueError, match="needs 2 cards"):
        cut_dealer([["5H", "2C", "2D"], ["9S"]], 3)


def test_R2_start_recuts_ties_and_the_low_cut_deals() -> None:
    """R2, R3: Game.start cuts (again on a tie), then the low cut deals hand 1 (8 cards)."""
    rng = RiggedShuffle(["5H", "2C", "2D", "KS"], ["9S", "3H"])
    game, events = Game.start(4, Rules(), rng)
    cut = events[0]
    assert isinstance(cut, Cut)
    assert cut.rounds == (
        ((0, "5H"), (1, "2C"), (2, "2D"), (3, "KS")),
        ((1, "9S"), (2, "3H")),
    )
    assert cut.dealer == 2 == game.dealer
    assert isinstance(events[1], Dealt) and events[1].dealer == 2
    assert game.hand_number == 1
    dealt = events[1].hands
    assert [len(h) for h in dealt if h is not None] == [8, 8, 8, 8]
    # Canonical order deals AS to the dealer's left (seat 3), 2S to seat 0, …, 4S to the dealer.
    assert [h[0] for h in dealt if h is not None] == ["2S", "3S", "4S", "AS"]


def test_R2_start_with_a_seeded_source_is_deterministic() -> None:
    """R2: the engine's only randomness is its shuffle source."""
    a, ea = Game.start(5, Rules(), random.Random(42))
    b, eb = Game.start(5, Rules(), random.Random(42))
    assert ea == eb and a.to_position() == b.to_position()


# ----------------------------------------------------------------- R2/R3 deal


def test_R2_hand_sizes() -> None:
    """R2: 8, 7 … 1, 2 … 8 cards in hands 1–15."""
    assert [hand_size(k) for k in range(1, 16)] == [8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8]
    for bad in (0, 16):
        with pytest.raises(ValueError, match="1 to 15"):
            hand_size(bad)


def test_R3_deal_one_at_a_time_from_the_dealers_left() -> None:
    """R3: one card at a time from the dealer's left, dealer last; the next card turned up."""
    game = Game(3, Rules(), random.Random(0))
    game.dealer = 1
    game.hand_number = 11  # 4 cards each
    top = ["AS", "2S", "3S", "AH", "2H", "3H", "AD", "2D", "3D", "AC", "2C", "3C", "KH", "QD"]
    events = game.deal(deck_from(top, 3))
    assert game.hands == [
        ["2S", "2H", "2D", "2C"],
        ["3S", "3H", "3D", "3C"],
        ["AS", "AH", "AD", "AC"],
    ]
    assert game.discard == ["KH"] and game.suit == "H"
    assert game.to_position()["stock"][0] == "QD"
    assert events[1] == TurnedUp(1, "KH")
    assert game.turn == 2  # the dealer's left plays first
    assert sum(all_cards(game).values()) == 52


def test_R3_deal_refuses_a_deck_too_small() -> None:
    """R3: there must be cards for every hand and one to turn up."""
    game = Game(2)
    with pytest.raises(ValueError, match="too small"):
        game.deal(["AS"] * 16)


@pytest.mark.parametrize(
    ("turned", "rules", "turn", "expect"),
    [
        ("KS", {"face_cards": True}, 0, {"king_cards": 3}),
        ("KS", {}, 1, {"king_cards": 0}),
        ("JS", {"face_cards": True}, 2, {"jacks": 1, "sizes": [2, 4, 2]}),
        ("QS", {"face_cards": True}, 2, {"sizes": [2, 7, 2]}),
        ("QH", {"face_cards": True}, 1, {"sizes": [2, 2, 2]}),
    ],
)
def test_R3_turned_up_face_cards(
    turned: str, rules: dict[str, Any], turn: int, expect: dict[str, Any]
) -> None:
    """R3, R11: a turned-up J, Q♠ or K has its face-card function, from the dealer's seat."""
    game = Game(3, Rules.from_dict(rules), random.Random(0))
    game.hand_number = 7  # 2 cards each
    game.deal(deck_from(["AH", "AD", "AC", "2H", "2D", "2C", turned], 3))
    pos = game.to_position()
    assert pos["turn"] == turn
    for key, want in expect.items():
        got = [len(h) for h in pos["hands"]] if key == "sizes" else pos[key]
        assert got == want, key


def test_R2_every_hand_starts_clean() -> None:
    """R2: a new hand starts clockwise with no lost turns, count, jack or king obligations."""
    game = game_at(
        players=3,
        hand_number=4,
        dealer=1,
        direction=-1,
        turn=0,
        hands=[["KH"], ["5C", "2C"], ["9D", "JD"]],
        stock=["4C"],
        discard=["QH"],
        lost_turns=[0, 2, 1],
    )
    game.apply(Play(0, "KH"))
    assert game.phase == "hand_over"
    top = ["AS", "AH", "AD", "AC", "3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "KD"]
    game.next_hand(deck_from(top, 3))
    pos = game.to_position()
    assert pos["hand_number"] == 5 and pos["dealer"] == 2
    assert pos["direction"] == 1 and pos["lost_turns"] == [0, 0, 0]
    assert pos["count"] == 0 and pos["jacks"] == 0 and pos["king_cards"] == 0
    assert pos["unannounced"] == [] and pos["again"] is False and pos["drawn"] is None
    assert pos["hands"][0] == ["AS", "AC", "3D", "4H"]  # the new dealer's left is dealt first
    assert [len(h) for h in pos["hands"]] == [4, 4, 4]
    assert game.result is None


# ------------------------------------------------------------ R2 whole game


def _end_hand(
    hand_number: int,
    dealer: int = 0,
    direction: int = 1,
    scores: list[int] | None = None,
    options: dict[str, Any] | None = None,
    players: int = 3,
) -> HandEnded:
    """End a hand at once: the seat to play goes out on KH, the others hold one 5 each (R8)."""
    hands = [["5C"] for _ in range(players)]
    hands[0] = ["KH"]
    game = game_at(
        options,
        players=players,
        hand_number=hand_number,
        dealer=dealer,
        direction=direction,
        turn=0,
        hands=hands,
        stock=["4C"],
        discard=["QH"],
        scores=scores or [0] * players,
    )
    game.apply(Play(0, "KH"))
    assert game.result is not None
    assert game.phase == ("game_over" if game.result.game_over else "hand_over")
    return game.result


@pytest.mark.parametrize(
    ("dealer", "direction", "follows", "players", "next_dealer"),
    [
        (0, 1, False, 3, 1),
        (2, 1, False, 3, 0),
        (2, -1, False, 3, 0),
        (2, -1, True, 3, 1),
        (0, -1, True, 3, 2),
        (0, 1, True, 3, 1),
        (7, 1, False, 8, 0),
        (0, -1, True, 8, 7),
    ],
)
def test_R2_deal_passes_on(
    dealer: int, direction: int, follows: bool, players: int, next_dealer: int
) -> None:
    """R2: the deal passes left; with dealer_follows_direction, in the direction of play."""
    result = _end_hand(
        3, dealer, direction, options={"dealer_follows_direction": follows}, players=players
    )
    assert result.next_dealer == next_dealer


@pytest.mark.parametrize(
    ("hand_number", "short", "over"),
    [
        (1, False, False),
        (8, False, False),
        (14, False, False),
        (15, False, True),
        (7, True, False),
        (8, True, True),
    ],
)
def test_R2_last_hand(hand_number: int, short: bool, over: bool) -> None:
    """R2: a game is 15 hands; with short_game, hands 1–8."""
    result = _end_hand(hand_number, options={"short_game": short})
    assert result.game_over is over
    assert bool(result.winners) is over


@pytest.mark.parametrize(
    ("scores", "totals", "winners"),
    [
        ([100, 0, 70], (100, 30, 100), (1,)),
        ([30, 10, 0], (30, 40, 30), (0, 2)),
        ([30, 0, 0], (30, 30, 30), (0, 1, 2)),
        ([-5, -40, -35], (-5, -10, -5), (1,)),
    ],
)
def test_R2_winners_lowest_total_ties_share(
    scores: list[int], totals: tuple[int, ...], winners: tuple[int, ...]
) -> None:
    """R2: the lowest total after the last hand wins; equal lowest totals share the win."""
    result = _end_hand(15, scores=scores)  # seat 0 out (0), the others 30 each
    assert result.scores == totals
    assert result.winners == winners


def test_R2_no_winners_before_the_last_hand() -> None:
    """R2: winners are only named when the game is over."""
    assert _end_hand(14, scores=[30, 0, 0]).winners == ()


@pytest.mark.parametrize(
    ("players", "options", "hands"),
    [(2, {}, 15), (5, {"short_game": True}, 8), (7, {"dealer_follows_direction": True}, 15)],
)
def test_R2_whole_game_flow(players: int, options: dict[str, Any], hands: int) -> None:
    """R2: a whole random game deals hands 1…15 (or 8), the deal passing on each time."""
    rng = random.Random(players)
    rules = Rules.from_dict(options)
    game, _ = Game.start(players, rules, rng)
    played = 0
    events: list[Event] = []
    while True:
        if events:
            _check_deal(game, events)
        while game.phase == "play":
            game.apply(rng.choice(game.legal_actions()))
        played += 1
        result = _check_hand_end(game, rules, played)
        if game.phase == "game_over":
            break
        events = game.next_hand()
        assert game.dealer == result.next_dealer
    assert played == hands
    assert result.game_over
    assert result.winners == tuple(s for s, v in enumerate(game.scores) if v == min(game.scores))


def _check_deal(game: Game, events: list[Event]) -> None:
    """R2: the hand just dealt is the game's next, of its size."""
    dealt = next(e for e in events if isinstance(e, Dealt))
    assert dealt.hand_number == game.hand_number
    assert dealt.hand_size == hand_size(game.hand_number)
    assert all(len(h) == dealt.hand_size for h in dealt.hands if h is not None)


def _check_hand_end(game: Game, rules: Rules, played: int) -> HandEnded:
    """R2: the hand over is the ``played``-th, and the deal passes on; returns its result."""
    result = game.result
    assert result is not None and result.hand_number == game.hand_number == played
    step = game.direction if rules.dealer_follows_direction else 1
    assert result.next_dealer == (game.dealer + step) % game.players
    return result


def test_R2_next_hand_with_a_deck_too_small_changes_nothing() -> None:
    """R2, R3: a refused deal leaves the game as it was; the deal then passes on only once."""
    game = game_at(
        players=2,
        dealer=1,
        turn=0,
        hands=[["KH"], ["5C", "2C"]],
        stock=["4C"],
        discard=["QH"],
    )
    game.apply(Play(0, "KH"))
    before = snapshot(game)
    with pytest.raises(ValueError, match="too small"):
        game.next_hand(["AS", "2S", "3S"])
    assert snapshot(game) == before
    events = game.next_hand()
    assert game.hand_number == 2 and game.dealer == 0
    dealt = events[0]
    assert isinstance(dealt, Dealt) and dealt.dealer == 0 and dealt.hand_size == 7
