#!/usr/bin/env python3
"""What the parts of the expert's search buy: common random numbers, and the margin.

Plays games of one expert against basic bots and, at each of the expert's
decisions with several choices, judges them at the shipped budget
(:meth:`craits.server.bots.expert.Search.judge`). Every candidate meets the
same sampled worlds and the same reshuffles, so the difference between two
candidates is measured world by world. For the best candidate against the
basic bot's move it prints the variance of that paired difference beside the
variance the same difference would have with each candidate on worlds of its
own (the sum of the two candidates' variances): their ratio is how many times
more worlds an unpaired search would need for the same precision. Also: how
often the search leaves the basic bot's move, and the worlds per decision.

The margin: wherever the search's best candidate is not the basic bot's move,
a second search of four times the budget, on other worlds, judges the two
again. Grouped by how many standard errors the first search's gain was, the
mean gain the second search finds says whether leaving the basic bot's move
on a small margin gains anything (the expert leaves it only past 1.5).

    python scripts/expert_search.py --games 2 --players 4
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
from typing import Any

from craits.server.bots import basic_policy
from craits.server.bots.expert import Search
from craits.server.engine import Game, Rules, action_from_dict, events_for, view
from craits.server.engine.events import Dealt, Event


def _bucket(z: float) -> str:
    """The group of a first search's gain of ``z`` standard errors."""
    if z < 0.5:
        return "z<0.5"
    if z < 1:
        return "0.5-1"
    if z < 1.5:
        return "1-1.5"
    return "1.5-3" if z < 3 else "z>=3"


class Figures:
    """What the decisions judged showed."""

    def __init__(self) -> None:
        self.search = Search()
        self.deep = Search(self.search.budget * 4, min_worlds=48)
        self.gains: dict[str, list[float]] = {
            k: [] for k in ("z<0.5", "0.5-1", "1-1.5", "1.5-3", "z>=3")
        }
        self.ratios: list[float] = []
        self.worlds: list[int] = []
        self.left = 0
        self.judged = 0

    def decide(self, v: dict[str, Any], events: list[dict[str, Any]], rng: random.Random) -> Any:
        """The expert's choice at ``v``, noting what its judgement shows."""
        j = self.search.judge(v, events, rng.getrandbits(64))
        if not j.values or j.prior is None:
            return j.chosen
        self.judged += 1
        self.left += j.chosen is not j.prior
        self.worlds.append(j.worlds)
        p = j.candidates.index(j.prior)
        best = j.ranked[0]
        b = j.candidates.index(best.action)
        if b == p:
            return j.chosen
        diff = [x - y for x, y in zip(j.values[b], j.values[p], strict=True)]
        paired = statistics.variance(diff)
        if paired > 0:
            apart = statistics.variance(j.values[b]) + statistics.variance(j.values[p])
            self.ratios.append(apart / paired)
        gain = sum(j.values[p]) / j.worlds - best.mean
        z = gain / best.se if best.se > 0 else 0.0
        again = self.deep.judge(v, events, rng.getrandbits(64))
        means = {id(x.action): x.mean for x in again.ranked}
        self.gains[_bucket(z)].append(means[id(j.prior)] - means[id(best.action)])
        return j.chosen

    def print(self, players: int) -> None:
        """Print the figures."""
        print(f"{players} players, {self.judged} decisions judged, load {os.getloadavg()[0]:.2f}")
        print(f"  worlds per decision: median {statistics.median(self.worlds):.0f}")
        share = self.left / max(1, self.judged)
        print(f"  the search left the basic bot's move in {self.left} ({share:.1%})")
        r = self.ratios
        q = statistics.quantiles(r, n=4) if len(r) > 1 else [0.0, 0.0, 0.0]
        print(
            f"  variance unpaired / paired, best against basic's move: median "
            f"{statistics.median(r):.2f} (quartiles {q[0]:.2f}, {q[2]:.2f}; {len(r)} decisions)"
        )
        print("  the best candidate over the basic bot's move, judged again at 4x the budget:")
        for name, xs in self.gains.items():
            if len(xs) > 1:
                m = statistics.fmean(xs)
                se = statistics.stdev(xs) / len(xs) ** 0.5
                print(
                    f"    first gain {name:6s} s.e.: {len(xs):4d}, gain {m:+.2f} ± {1.96 * se:.2f}"
                )


def _apply(game: Game, events: list[Event], hand: list[Event]) -> list[Event]:
    """The hand's events after ``events`` (a deal starts them over)."""
    for e in events:
        if type(e) is Dealt:
            hand = []
        hand.append(e)
    return hand


def main() -> None:
    """Parse the arguments, judge the decisions, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    figures = Figures()
    for _ in range(args.games):
        game, first = Game.start(args.players, Rules(), random.Random(rng.getrandbits(32)))
        hand = _apply(game, first, [])
        while game.phase != "game_over":
            if game.phase == "hand_over":
                hand = _apply(game, game.next_hand(), hand)
                continue
            actor = game.to_act
            assert actor is not None
            v = view(game, actor)
            choice = figures.decide(v, events_for(hand, 0), rng) if actor == 0 else None
            if choice is None:
                choice = basic_policy(v)
            assert choice is not None
            hand = _apply(game, game.apply(action_from_dict(choice, actor)), hand)
    figures.print(args.players)


if __name__ == "__main__":
    main()
