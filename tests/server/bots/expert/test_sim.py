"""The expert's fast simulator against the engine (RULES.md R1–R12): the same rules.

Random positions from the engine, under every rules option (each on or off by
a coin, ``cancelling_three_scores`` 3 or 0), for 2–8 players, are loaded into
the simulator and played move by move in both: after every move the two
states are equal field for field (hands in order, stock, discard pile, suit,
count, turn, direction, lost turns, announcements, jacks, king cards, pending
suit, drawn card, totals, pressure, this hand's penalties, the phase, and at
the end of the hand each seat's points and the next dealer), and every seat's
legal actions are the same, in the same order. Deals are compared too (the
turned-up card's function, R3), and positions whose stock was moved under the
discard pile, so that shuffle penalties and R10's end of a hand come up often.
The reshuffles draw from two ``random.Random`` seeded alike, which give the
same order to lists of the same length.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from craits.protocol.vocab import RULE_OPTIONS
from craits.server.bots.expert.card_codes import CODE, SUIT_CODE, codes
from craits.server.bots.expert.sim import (
    ANNOUNCE,
    DRAW,
    IDIOT,
    NAME_SUIT,
    PASS,
    Sim,
    SimRules,
    play_code,
)
from craits.server.engine import (
    Action,
    Announce,
    CallIdiot,
    Draw,
    Game,
    HandEnded,
    NameSuit,
    Pass,
    Play,
    Rules,
    full_deck,
    score_cards,
)
from craits.server.engine.game import hand_size


def random_rules(rng: random.Random) -> Rules:
    """Every option of the vocabulary by a coin (a numeric one: one of its values)."""
    values: dict[str, Any] = {}
    for o in RULE_OPTIONS:
        values[o.name] = rng.choice(sorted(o.values)) if o.values else rng.random() < 0.5
    return Rules.from_dict(values)


def encode(action: Action) -> int:
    """The simulator's integer for an engine action."""
    if type(action) is Play:
        suit = action.suit if action.suit is not None else action.card[1]
        return play_code(CODE[action.card], SUIT_CODE[suit], action.announce)
    if type(action) is Draw:
        return DRAW
    if type(action) is Pass:
        return PASS
    if type(action) is NameSuit:
        return NAME_SUIT + SUIT_CODE[action.suit]
    if type(action) is Announce:
        return ANNOUNCE
    assert type(action) is CallIdiot
    return IDIOT + action.target


def engine_state(game: Game) -> tuple[Any, ...]:
    """Every field of ``game`` the simulator keeps, cards as integers."""
    result: tuple[Any, ...] = ()
    if game.phase != "play":
        assert isinstance(game.result, HandEnded)
        result = (
            [r.points for r in game.result.results],
            game.result.next_dealer,
        )
    return (
        [codes(h) for h in game.hands],
        codes(game.stock),
        codes(game.discard),
        SUIT_CODE[game.suit],
        game.count,
        game.again,
        game.direction,
        game.turn,
        game.lost_turns,
        game.unannounced,
        game.jacks,
        game.king_cards,
        -1 if game.pending is None else game.pending,
        -1 if game.drawn is None else CODE[game.drawn],
        {"play": 0, "hand_over": 1, "game_over": 2}[game.phase],
        game.scores,
        game.pressure,
        game.hand_penalties,
        result,
    )


def sim_state(sim: Sim) -> tuple[Any, ...]:
    """The same fields of ``sim``."""
    result: tuple[Any, ...] = () if sim.phase == 0 else (sim.points, sim.next_dealer)
    return (
        sim.hands,
        sim.stock,
        sim.discard,
        sim.suit,
        sim.count,
        sim.again,
        sim.direction,
        sim.turn,
        sim.lost_turns,
        sim.unannounced,
        sim.jacks,
        sim.king_cards,
        sim.pending,
        sim.drawn,
        sim.phase,
        sim.scores,
        sim.pressure,
        sim.hand_penalties,
        result,
    )


def assert_same(game: Game, sim: Sim, where: str) -> None:
    """Equal states, and every seat's legal actions equal in order."""
    assert sim_state(sim) == engine_state(game), where
    for seat in range(game.players):
        assert sim.legal(seat) == [encode(a) for a in game.legal_actions(seat)], (where, seat)


def play_both(game: Game, sim: Sim, rng: random.Random, seed: int, limit: int = 2000) -> int:
    """Play the hand in both to its end, random actions (now and then another seat's
    call); compare after every one. Returns the moves made."""
    game.rng = random.Random(seed)
    sim.rng = random.Random(seed)
    assert_same(game, sim, "start")
    moves = 0
    while game.phase == "play" and moves < limit:
        actor = game.to_act
        assert actor is not None
        seat = actor
        if game.unannounced and rng.random() < 0.5:
            seat = rng.randrange(game.players)
        legal = game.legal_actions(seat) or game.legal_actions(actor)
        if not game.legal_actions(seat):
            seat = actor
        action = rng.choice(legal)
        game.apply(action)
        sim.apply(seat, encode(action))
        moves += 1
        assert_same(game, sim, f"move {moves}: {action!r}")
    return moves


def deal_both(players: int, rules: Rules, rng: random.Random) -> tuple[Game, Sim]:
    """A hand dealt in both from the same deck order, at a random hand number and dealer."""
    game = Game(players, rules, random.Random(0))
    game.hand_number = rng.randrange(1, rules.hands + 1)
    game.dealer = rng.randrange(players)
    game.scores = [rng.randrange(0, 300) for _ in range(players)]
    game.pressure = [rng.randrange(0, 4) for _ in range(players)]
    deck = full_deck(players, rules.strip_kings_queens)
    rng.shuffle(deck)
    sim = Sim(players, SimRules(rules))
    sim.scores = list(game.scores)
    sim.pressure = list(game.pressure)
    game.deal(deck)
    sim.deal(codes(deck), game.dealer, game.hand_number)
    return game, sim


@pytest.mark.parametrize("seed", range(40))
def test_deals_and_whole_hands_match_the_engine(seed: int) -> None:
    """Deals (the turned-up card, R3) and whole hands of random play, move by move."""
    rng = random.Random(seed)
    for _ in range(6):
        players = rng.randrange(2, 9)
        rules = random_rules(rng)
        game, sim = deal_both(players, rules, rng)
        assert_same(game, sim, "deal")
        play_both(game, sim, rng, rng.getrandbits(32))


@pytest.mark.parametrize("seed", range(40))
def test_positions_mid_hand_and_short_stocks_match_the_engine(seed: int) -> None:
    """Positions reached by random play, loaded into a fresh simulator
    (:meth:`Sim.from_game`), then played on; half of them with most of the stock
    moved under the discard pile's top card, so R10 comes up."""
    rng = random.Random(1000 + seed)
    for _ in range(6):
        players = rng.randrange(2, 9)
        rules = random_rules(rng)
        game, _ = deal_both(players, rules, rng)
        for _ in range(rng.randrange(0, 40)):
            if game.phase != "play":
                break
            game.apply(rng.choice(game.legal_actions()))
        if game.phase != "play":
            continue
        if rng.random() < 0.5:
            keep = rng.randrange(0, 3)
            moved = game.stock[keep:]
            del game.stock[keep:]
            game.discard[:-1] = game.discard[:-1] + moved
        sim = Sim.from_game(game)
        play_both(game, sim, rng, rng.getrandbits(32))


def test_a_copy_plays_on_alone() -> None:
    """A copy shares no list with its original: playing one leaves the other as it was."""
    rng = random.Random(5)
    _game, sim = deal_both(4, Rules(), rng)
    before = sim_state(sim)
    twin = sim.copy()
    twin.rng = random.Random(1)
    while twin.phase == 0:
        seat = twin.to_act()
        twin.apply(seat, rng.choice(twin.legal(seat)))
    assert sim_state(sim) == before


@pytest.mark.parametrize("seed", range(5))
def test_scoring_matches_the_engine(seed: int) -> None:
    """Random hands left at the end of a hand score alike under random options (R9)."""
    from craits.server.bots.expert.sim import score_hand

    rng = random.Random(seed)
    for _ in range(400):
        rules = random_rules(rng)
        hand = [rng.choice(full_deck(2)) for _ in range(rng.randrange(1, 12))]
        if rng.random() < 0.3:
            hand += ["3S"] * rng.randrange(1, 4)
        assert score_hand(codes(hand), SimRules(rules)) == score_cards(hand, rules)[0], hand


def test_hand_sizes_cover_the_one_card_hand() -> None:
    """The deals above reach the one-card hand (R7's ``one_card_deal``) among others."""
    assert hand_size(8) == 1
