#!/usr/bin/env python3
"""Bot levels against each other on duplicate deals: win rates and paired points per hand.

Each deal (a game's shuffles, drawn from its seed) is played once per seat with
the hero (the first level of ``--levels``) at that seat and the other levels
after it in order, and once with every seat at the baseline (the second
level), the control. Printed:

- the hero's share of games won (ties shared, R2), with a 95% Wilson interval;
- the paired difference in points per hand (hand points and shuffle penalties,
  R9, R10): the hero's points at a seat minus the control's at the same seat in
  the same hand (same cards dealt), mean and 95% interval (negative: the hero
  scores less, which is better);
- the hero's turn decisions (when the hero is ``expert``): how many, decisions
  per second, their CPU time (the thread's: what one core spent, whatever else
  the machine runs) and wall time at p50 / p95 / max, and its blunders by the
  rule of ``docs/bots.md``;
- the machine's load average at the start and the end.

Examples::

    python scripts/duel.py --levels expert,basic,basic,basic --deals 100 --jobs 2
    python scripts/duel.py --levels expert,basic --deals 200
    python scripts/duel.py --levels basic,easy --deals 200 --no-control

``--jobs`` plays deals in that many processes (one core each).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from craits.server.bots.duel import DealResult, play_deal, summary
from craits.server.bots.expert.search import DEFAULT_BUDGET
from craits.server.engine import Rules


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    if len(xs) < 2:
        return (xs[0] if xs else 0.0, -math.inf, math.inf)
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - 1.96 * se, m + 1.96 * se


def _one(args: tuple[int, list[str], dict[str, Any], int, bool]) -> DealResult:
    seed, levels, rules, budget, control = args
    return play_deal(seed, levels, Rules.from_dict(rules), budget, control)


def _pct(sorted_xs: list[float], q: float) -> float:
    return sorted_xs[min(len(sorted_xs) - 1, int(q * len(sorted_xs)))] if sorted_xs else 0.0


def report(deals: list[DealResult], levels: list[str], started: float) -> dict[str, Any]:
    """Print the figures of ``deals`` and return them."""
    s = summary(deals)
    n = s["games"]
    lo, hi = wilson(s["wins"], n)
    out: dict[str, Any] = {
        "levels": levels,
        "deals": len(deals),
        "games": n,
        "win_rate": s["wins"] / n if n else 0.0,
        "win_ci": [lo, hi],
        "seconds": time.time() - started,
        "load": os.getloadavg(),
    }
    print(f"{levels[0]} against {', '.join(levels[1:])}: {len(deals)} deals, {n} games")
    print(f"  games won: {s['wins']:.1f} = {out['win_rate']:.1%} (95% CI {lo:.1%} to {hi:.1%})")
    if s["diffs"]:
        m, a, b = mean_ci(s["diffs"])
        out.update(hands=len(s["diffs"]), diff=m, diff_ci=[a, b])
        print(
            f"  points per hand, {levels[0]} minus {levels[1]} at the same seat: {m:+.2f} "
            f"(95% CI {a:+.2f} to {b:+.2f}) over {len(s['diffs'])} duplicate hands"
        )
    if s["searches"]:
        times = sorted(s["times"])
        cpu = sorted(s["cpu"])
        bl = s["blunders"]
        out.update(
            decisions=s["searches"],
            decisions_per_s=s["searches"] / s["seconds"],
            p50_ms=1000 * _pct(times, 0.5),
            p95_ms=1000 * _pct(times, 0.95),
            max_ms=1000 * times[-1],
            cpu_p50_ms=1000 * _pct(cpu, 0.5),
            cpu_p95_ms=1000 * _pct(cpu, 0.95),
            cpu_max_ms=1000 * cpu[-1],
            blunders={
                "wild": bl.wild,
                "wild_played": bl.wild_played,
                "count": bl.unanswered,
                "one_card": bl.one_card,
            },
            blunder_rate=bl.total / max(1, bl.decisions),
        )
        print(
            f"  {levels[0]}'s turn decisions: {s['searches']}, {out['decisions_per_s']:.1f}/s; "
            f"CPU p50 {out['cpu_p50_ms']:.1f} ms, p95 {out['cpu_p95_ms']:.1f} ms, "
            f"max {out['cpu_max_ms']:.1f} ms; wall p50 {out['p50_ms']:.1f} ms, "
            f"p95 {out['p95_ms']:.1f} ms, max {out['max_ms']:.1f} ms"
        )
        print(
            f"  blunders: {bl.total} of {bl.decisions} = {out['blunder_rate']:.2%} "
            f"(wild {bl.wild} of {bl.wild_played} played over a plain card, "
            f"count {bl.unanswered}, one card {bl.one_card})"
        )
    print(f"  {out['seconds']:.0f} s; load average {out['load'][0]:.2f}")
    return out


def main() -> int:
    """Parse the arguments, play the deals, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="expert,basic,basic,basic", help="hero first")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--rules", default="{}", help="rules options as JSON")
    parser.add_argument("--no-control", action="store_true", help="no all-baseline game")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--every", type=int, default=10, help="print figures every N deals")
    args = parser.parse_args()
    levels = args.levels.split(",")
    rules = json.loads(args.rules)
    Rules.from_dict(rules)
    work = [
        (args.seed + i, levels, rules, args.budget, not args.no_control) for i in range(args.deals)
    ]
    started = time.time()
    print(f"started, load average {os.getloadavg()[0]:.2f}", flush=True)
    deals: list[DealResult] = []
    out: dict[str, Any] = {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for i, d in enumerate(pool.map(_one, work), 1):
            deals.append(d)
            if i % args.every == 0 or i == len(work):
                out = report(deals, levels, started)
                sys.stdout.flush()
                if args.json:
                    with open(args.json, "w", encoding="utf-8") as f:
                        json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
