#!/usr/bin/env python3
"""The points each level loses per decision, as the post-game analysis measures them:
the distributions the marks' thresholds are chosen from (``docs/bots.md``).

Plays ``--games`` games of bots (``--levels``, one level per seat, the line-up
rotated a seat each game so that every level sits everywhere), analyses each at
the shipped budget, and prints per level: decisions, average points lost, the
quantiles of the points lost, and the share of decisions losing at least 1, 2,
3, 5, 8, 12, 20 and 30 points by a clear margin (more than ``z`` standard
errors, as a mark needs); then the same per kind of decision over all levels.
Last, per level, the share of decisions marked at the shipped thresholds for the
margins ``z`` of 2, 3 and 4 standard errors. ``--out FILE`` keeps every decision's
``(level, kind, lost, se)`` as JSON; ``--load FILE`` prints the tables from such a
file instead of playing.

    python scripts/analysis_marks.py --games 8 --out /tmp/losses.json
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict

from craits.server.bots.expert.analysis import BUDGET, THRESHOLDS, analyse
from craits.server.bots.recorded import bot_record

STEPS = (1, 2, 3, 5, 8, 12, 20, 30)


def _q(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def _line(name: str, rows: list[tuple[float, float | None]], z: float) -> str:
    lost = [r[0] for r in rows]
    clear = [r[0] for r in rows if r[1] is not None and r[0] > z * r[1]]
    shares = " ".join(f"{100 * sum(1 for x in clear if x >= s) / len(rows):5.1f}" for s in STEPS)
    quant = " ".join(f"{_q(lost, q):5.1f}" for q in (0.5, 0.75, 0.9, 0.95, 0.99))
    return f"{name:12} {len(rows):6} {sum(lost) / len(rows):6.2f}  {quant}   {shares}"


def _marks(rows: list[tuple[str, str, float, float | None]], levels: list[str]) -> None:
    """Per level, the share of decisions marked (any mark / mistake or worse / blunder)
    at the shipped thresholds, for a few margins ``z`` beside the shipped one."""
    t = THRESHOLDS
    print(
        f"\nmarked (%: any / mistake or worse / blunder) at {t.inaccuracy:g} / {t.mistake:g} / "
        f"{t.blunder:g} points lost, by the margin z (shipped: {t.z:g})"
    )
    for z in sorted({2.0, 3.0, 4.0, t.z}):
        line = f"z = {z:g}:"
        for level in levels:
            mine = [r for r in rows if r[0] == level]
            clear = [r[2] for r in mine if r[3] is not None and r[2] > z * r[3]]
            shares = [
                100 * sum(1 for x in clear if x >= limit) / max(1, len(mine))
                for limit in (t.inaccuracy, t.mistake, t.blunder)
            ]
            line += f"  {level} {shares[0]:.1f} / {shares[1]:.1f} / {shares[2]:.1f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--levels", default="expert,basic,easy,random")
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument("--out")
    parser.add_argument("--load")
    args = parser.parse_args()
    levels = args.levels.split(",")
    n = len(levels)
    rows: list[tuple[str, str, float, float | None]] = []
    start = time.perf_counter()
    if args.load:
        with open(args.load) as f:
            rows = [(r[0], r[1], r[2], r[3]) for r in json.load(f)]
    for g in range(0 if args.load else args.games):
        lineup = [levels[(s - g) % n] for s in range(n)]
        record = bot_record(lineup, args.seed + g)
        result = analyse(record, seed=g, budget=args.budget)
        for e in result["decisions"]:
            rows.append((lineup[e["seat"]], e["kind"], e["lost"], e["se"]))
        print(
            f"game {g + 1}/{args.games}: {len(result['decisions'])} decisions, "
            f"{time.perf_counter() - start:.0f} s, load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f)
    z = THRESHOLDS.z
    head = "decisions  mean   p50   p75   p90   p95   p99   share (%) clearly losing >= " + (
        " ".join(f"{s:5}" for s in STEPS)
    )
    print(f"\nby level       {head}")
    for level in levels:
        mine = [(r[2], r[3]) for r in rows if r[0] == level]
        if mine:
            print(_line(level, mine, z))
    print(f"\nby kind        {head}")
    kinds: dict[str, list[tuple[float, float | None]]] = defaultdict(list)
    for r in rows:
        kinds[r[1]].append((r[2], r[3]))
    for kind, mine in sorted(kinds.items()):
        print(_line(kind, mine, z))
    _marks(rows, levels)


if __name__ == "__main__":
    main()
