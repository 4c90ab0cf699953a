#!/usr/bin/env python3
"""Random self-play through the rules engine and the expert's simulator, beside
OpenSpiel's ``crazy_eights`` and RLCard's UNO in the same run: actions per second.

Each run plays whole games (15 hands, or 8 with ``short_game``); at every step
the seat to act picks uniformly among its legal actions (``legal[int(random() *
len(legal))]``, the same draw for every game measured). Measured, in turn and
alternating over ``--repeat`` rounds (the fastest round of each is reported,
as the machine's other work slows some rounds down):

- ``engine``: :class:`craits.server.engine.Game` (``--views``: every action is
  also shown to every seat and a spectator, as a table does);
- ``sim``: the expert's simulator, :class:`craits.server.bots.expert.sim.Sim`
  (the same rules, held to the engine by ``tests/server/bots/expert/test_sim.py``);
- ``openspiel``: ``pyspiel.load_game("crazy_eights")`` (C++, through its Python
  binding; default parameters: 5 players), if installed;
- ``rlcard``: ``rlcard.make("uno")`` (2 players), if installed.

Times are the process's CPU time (``time.process_time``), not the wall clock's:
on a shared machine a run that waits for a core then costs no more than one
that has it. An action is a decision of a player: the engine's and the simulator's every
applied action; OpenSpiel's player actions (its chance nodes, which deal and
draw cards, are timed but not counted); RLCard's steps. Then the expert's
rollouts: whole hands from a fresh deal, every seat on the basic bot's policy,
for 2, 4 and 8 players (hands of every size in turn).

OpenSpiel and RLCard are not dependencies of Craits; to compare, install them
beside it: ``pip install open_spiel rlcard`` in the environment running this
script (they have wheels for CPython 3.11 on Linux). Run on one core:
``python scripts/bench_engine.py --games 300 --repeat 5``.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

from craits.protocol.vocab import Phase
from craits.server.bots.expert.rollout import rollout
from craits.server.bots.expert.sim import PLAY, Sim, SimRules
from craits.server.engine import Game, Moment, Rules


def play_game(players: int, rules: Rules, rng: random.Random, views: bool = False) -> int:
    """Play one whole random game through the engine; return the number of actions applied.

    With ``views``, each action's events and the view after it are built for
    every seat and a spectator.
    """
    game, _ = Game.start(players, rules, rng)
    actions = 0
    pick = rng.random
    audience: list[int | None] = [*range(players), None]
    playing, over = Phase.PLAY, Phase.GAME_OVER
    while True:
        while game.phase == playing:
            legal = game.legal_actions()
            events = game.apply(legal[int(pick() * len(legal))])
            actions += 1
            if views:
                moment = Moment(game, events)
                for seat in audience:
                    moment.view(seat)
                    moment.events(seat)
        if game.phase == over:
            return actions
        game.next_hand()


def play_sim_game(players: int, rules: Rules, rng: random.Random) -> int:
    """Play one whole random game through the simulator; return the actions applied."""
    sim = Sim(players, SimRules(rules), rng)
    dealer = rng.randrange(players)
    actions = 0
    pick = rng.random
    for hand in range(1, rules.hands + 1):
        sim.deal(sim.new_deck(), dealer, hand)
        while sim.phase == PLAY:
            seat = sim.turn if sim.pending < 0 else sim.pending
            legal = sim.legal(seat)
            sim.apply(seat, legal[int(pick() * len(legal))])
            actions += 1
        dealer = sim.next_dealer
    return actions


def _rules(rng: random.Random, options: bool) -> Rules:
    """The rule book's rules, or (``options``) each on/off option by a coin."""
    if not options:
        return Rules()
    return Rules.from_dict(
        {
            k: rng.random() < 0.5
            for k, v in Rules().to_dict().items()
            if isinstance(v, bool) and k != "short_game"
        }
    )


def run(
    games: int, players: int, seed: int, options: bool, views: bool, sim: bool = False
) -> tuple[int, float]:
    """Play ``games`` games from ``seed``; return the actions applied and the seconds taken."""
    rng = random.Random(seed)
    total = 0
    t0 = time.process_time()
    for i in range(games):
        rules = _rules(rng, options)
        n = players or 2 + i % 7
        total += play_sim_game(n, rules, rng) if sim else play_game(n, rules, rng, views)
    return total, time.process_time() - t0


def run_openspiel(games: int, seed: int) -> tuple[int, float]:
    """Random games of OpenSpiel's crazy_eights: (player actions, seconds)."""
    import pyspiel  # type: ignore[import-not-found]  # optional: see the module's text

    game = pyspiel.load_game("crazy_eights")
    rng = random.Random(seed)
    total = 0
    t0 = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                total += 1
    return total, time.process_time() - t0


def run_rlcard(games: int, seed: int) -> tuple[int, float]:
    """Random games of RLCard's UNO: (steps, seconds)."""
    import rlcard  # type: ignore[import-not-found]  # optional: see the module's text

    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    total = 0
    t0 = time.process_time()
    for _ in range(games):
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[int(rng.random() * len(legal))])
            total += 1
    return total, time.process_time() - t0


def rollouts_per_second(players: int, seconds: float, seed: int) -> float:
    """Whole-hand rollouts (basic policy at every seat) from fresh deals, per second."""
    rng = random.Random(seed)
    sim0 = Sim(players, SimRules(Rules()), rng)
    done = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for hand in range(1, 16):
            sim = sim0.copy()
            sim.deal(sim.new_deck(), done % players, hand)
            rollout(sim)
            done += 1
    return done / (time.process_time() - t0)


def main() -> None:
    """Parse arguments, run every benchmark in turn, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games to play (default 300)")
    parser.add_argument("--players", type=int, default=0, help="players per game (0: 2-8 mixed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", action="store_true", help="random rules options per game")
    parser.add_argument("--views", action="store_true", help="build every seat's view too")
    parser.add_argument("--repeat", type=int, default=1, help="rounds; the fastest is reported")
    parser.add_argument("--foreign-games", type=int, default=1000, help="OpenSpiel, RLCard games")
    parser.add_argument("--rollout-seconds", type=float, default=3.0)
    args = parser.parse_args()
    benches: dict[str, Callable[[], tuple[int, float]]] = {
        "engine": lambda: run(args.games, args.players, args.seed, args.options, args.views),
        "sim": lambda: run(args.games, args.players, args.seed, args.options, False, sim=True),
    }
    for name, fn in (("openspiel", run_openspiel), ("rlcard", run_rlcard)):
        try:
            fn(1, args.seed)
        except ImportError:
            print(f"{name}: not installed (pip install open_spiel rlcard), left out")
            continue
        benches[name] = lambda fn=fn: fn(args.foreign_games, args.seed)
    best: dict[str, tuple[int, float]] = {}
    for _ in range(max(1, args.repeat)):
        for name, bench in benches.items():
            actions, dt = bench()
            if name not in best or dt < best[name][1]:
                best[name] = (actions, dt)
    rates = {name: a / dt for name, (a, dt) in best.items()}
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    for name, (actions, dt) in best.items():
        line = f"{name:9s} {rates[name]:>11,.0f} actions/s ({actions} actions in {dt:.2f} s)"
        if "openspiel" in rates and name != "openspiel":
            line += f", {rates[name] / rates['openspiel']:.0%} of OpenSpiel's"
        print(line)
    for players in (2, 4, 8):
        rate = rollouts_per_second(players, args.rollout_seconds, args.seed)
        print(f"rollouts, {players} players: {rate:,.0f} whole hands/s")
    out: dict[str, Any] = {"rates": rates}
    del out


if __name__ == "__main__":
    main()
