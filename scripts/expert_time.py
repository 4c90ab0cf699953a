#!/usr/bin/env python3
"""How long the expert takes to decide: CPU and wall time per turn decision.

Plays games of one expert against basic bots (``--players`` 2, 4 and 8 by
default) through the engine, and times every turn decision of the expert as
the server's worker runs it (:func:`craits.server.bots.expert.worker.decide_index`:
the search at the shipped budget, cut short past its CPU cap). CPU time is the
thread's (``time.thread_time``): what the decision costs one core whatever else
the machine runs; wall time is what it took here. Prints p50, p95 and max of
both, the share of decisions with a choice to search, and the load average.

    python scripts/expert_time.py --games 3
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from craits.server.bots import basic_policy
from craits.server.bots.expert.search import DEFAULT_BUDGET
from craits.server.bots.expert.worker import decide_index
from craits.server.engine import Game, Rules, action_from_dict, events_for, view
from craits.server.engine.events import Dealt, Event


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def time_games(players: int, games: int, seed: int, budget: int) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of each turn decision of the expert (seat 0)."""
    rng = random.Random(seed)
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(games):
        game, first = Game.start(players, Rules(), random.Random(rng.getrandbits(32)))
        hand: list[Event] = list(first)
        while True:
            while game.phase == "play":
                actor = game.to_act
                assert actor is not None
                v = view(game, actor)
                if actor == 0:
                    c0, w0 = time.thread_time(), time.perf_counter()
                    index = decide_index(v, events_for(hand, 0), rng.getrandbits(64), budget)
                    cpu.append(time.thread_time() - c0)
                    wall.append(time.perf_counter() - w0)
                    assert index is not None
                    choice = v["legal"][index]
                else:
                    choice = basic_policy(v)
                assert choice is not None
                for e in game.apply(action_from_dict(choice, actor)):
                    if type(e) is Dealt:
                        hand = []
                    hand.append(e)
            if game.phase == "game_over":
                break
            for e in game.next_hand():
                if type(e) is Dealt:
                    hand = []
                hand.append(e)
    return cpu, wall


def main() -> None:
    """Parse the arguments, time the decisions, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per table size")
    parser.add_argument("--players", default="2,4,8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    for n in (int(p) for p in args.players.split(",")):
        cpu, wall = time_games(n, args.games, args.seed, args.budget)
        searched = [c for c in cpu if c > 0.002]
        print(
            f"{n} players: {len(cpu)} decisions ({len(searched)} searched); "
            f"CPU p50 {1000 * statistics.median(cpu):.1f} ms, p95 {1000 * _pct(cpu, 0.95):.1f}, "
            f"max {1000 * max(cpu):.1f}; wall p50 {1000 * statistics.median(wall):.1f}, "
            f"p95 {1000 * _pct(wall, 0.95):.1f}, max {1000 * max(wall):.1f}"
        )
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
