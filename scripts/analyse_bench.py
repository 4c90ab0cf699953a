#!/usr/bin/env python3
"""How long a post-game analysis takes: a 4-player, 15-hand game, on one core and
over the worker pool.

Writes ``--games`` records of bots (``--levels``, default ``basic,easy,basic,easy``:
slips, forgotten "one card", idiot calls let pass, every kind of decision) and
analyses each at the shipped budget (:data:`craits.server.bots.expert.analysis.BUDGET`)
twice, alternating: in this process (:func:`~craits.server.bots.expert.analysis.analyse`,
one core: wall and CPU time) and over an :class:`~craits.server.bots.expert.worker.ExpertPool`
of ``--workers`` processes (wall time; the workers at this script's priority, not
the server's ``nice`` 19, so that both runs meet the machine alike). Checks the two
analyses are equal, and prints the decisions, the times, the ratio and the load.

    python scripts/analyse_bench.py --games 3
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any

from craits.server.bots.expert.analysis import BUDGET, analyse
from craits.server.bots.expert.worker import ExpertPool
from craits.server.bots.recorded import bot_record


def _one_core(record: dict[str, Any], budget: int) -> tuple[dict[str, Any], float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = analyse(record, seed=1, budget=budget)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _pooled(record: dict[str, Any], budget: int, pool: ExpertPool) -> tuple[dict[str, Any], float]:
    wall = time.perf_counter()
    result = asyncio.run(pool.analyse(record, 1, budget))
    return result, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--levels", default="basic,easy,basic,easy")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    levels = args.levels.split(",")
    pool = ExpertPool(workers=args.workers, nice=0)
    asyncio.run(pool.analyse(bot_record(["basic", "basic"], 0), 1, 100))  # workers started
    rows = []
    try:
        for g in range(args.games):
            record = bot_record(levels, args.seed + g)
            if g % 2:
                pooled, pool_wall = _pooled(record, args.budget, pool)
                alone, wall, cpu = _one_core(record, args.budget)
            else:
                alone, wall, cpu = _one_core(record, args.budget)
                pooled, pool_wall = _pooled(record, args.budget, pool)
            assert alone == pooled, "the pool's analysis differs from one process's"
            n = len(alone["decisions"])
            rows.append((n, wall, cpu, pool_wall))
            print(
                f"game {g + 1}: {n} decisions; one core {wall:.1f} s wall, {cpu:.1f} s CPU "
                f"({1000 * cpu / n:.0f} ms CPU a decision); {args.workers} workers "
                f"{pool_wall:.1f} s wall (x{wall / pool_wall:.2f}); "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    finally:
        pool.close()
    print(
        f"median over {len(rows)} games of {'-'.join(levels)} ({len(levels)} players, "
        f"budget {args.budget}): {statistics.median(r[0] for r in rows):.0f} decisions, "
        f"one core {statistics.median(r[1] for r in rows):.1f} s wall / "
        f"{statistics.median(r[2] for r in rows):.1f} s CPU, "
        f"{args.workers} workers {statistics.median(r[3] for r in rows):.1f} s wall"
    )


if __name__ == "__main__":
    main()
