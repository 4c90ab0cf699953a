"""The expert's rollout policy is the basic bot, exactly (RULES.md R3–R11, R7 calls).

:func:`craits.server.bots.expert.rollout.basic_action` computes on the fast
simulator what :func:`craits.server.bots.basic_policy` decides from a seat's
view; the search takes it as its rollout policy and its prior. On random
positions under random rules options, for every seat (to act or not), both
choose the same action.
"""

from __future__ import annotations

import random

import pytest
from craits.server.bots.basic import basic_policy
from craits.server.bots.expert.rollout import NO_ACTION, basic_action, rollout
from craits.server.bots.expert.sim import PLAY, Sim, SimRules
from craits.server.engine import Rules, action_from_dict, view

from .test_sim import deal_both, encode, random_rules


@pytest.mark.parametrize("seed", range(12))
def test_basic_action_is_the_basic_policy(seed: int) -> None:
    """Every seat's choice at every step of random hands: the same action."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(8):
        players = rng.randrange(2, 9)
        game, _ = deal_both(players, random_rules(rng), rng)
        steps = 0
        while game.phase == "play" and steps < 200:
            steps += 1
            sim = Sim.from_game(game)
            for seat in range(players):
                chosen = basic_policy(view(game, seat))
                want = NO_ACTION if chosen is None else encode(action_from_dict(chosen, seat))
                assert basic_action(sim, seat) == want, (seat, chosen, game.to_position())
                checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 1000


@pytest.mark.parametrize("players", [2, 4, 8])
def test_a_rollout_ends_the_hand(players: int) -> None:
    """Rollouts from fresh deals end their hands, every card accounted for (R1, R8)."""
    rng = random.Random(players)
    for hand_number in range(1, 16):
        sim = Sim(players, SimRules(Rules()), rng)
        sim.deal(sim.new_deck(), rng.randrange(players), hand_number)
        total = sum(map(len, sim.hands)) + len(sim.stock) + len(sim.discard)
        rollout(sim)
        assert sim.phase != PLAY
        assert sum(map(len, sim.hands)) + len(sim.stock) + len(sim.discard) == total
