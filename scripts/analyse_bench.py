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
analyses are equal, and prints the decisions, the times, decisions per second, the
ratio and the load.

Then the hint's latency at the live budget
(:data:`~craits.server.bots.expert.search.DEFAULT_BUDGET`):
``--hints`` decisions of those games (every kind; the turns with a choice, the
calls), each hinted from the seat's view and events then, alternating: in this
process (:func:`~craits.server.bots.expert.hint.hint`, wall and CPU time) and
through one worker of the pool (:meth:`~craits.server.bots.expert.worker.ExpertPool.hint`,
as the server would ask it: wall time from the request to the answer, the CPU cap
included). Prints p50, p95 and the longest of each.

    python scripts/analyse_bench.py --games 3 --hints 200
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any

from craits.server.bots.expert.analysis import BUDGET, analyse
from craits.server.bots.expert.hint import hint
from craits.server.bots.expert.moments import Moment, moments
from craits.server.bots.expert.search import DEFAULT_BUDGET
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


def _quantiles(xs: list[float]) -> str:
    xs = sorted(xs)
    p50 = xs[len(xs) // 2]
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"p50 {1000 * p50:.0f} ms, p95 {1000 * p95:.0f} ms, max {1000 * xs[-1]:.0f} ms"


def _hints(found: list[Moment], count: int, budget: int) -> None:
    """The hint's latency over ``count`` decisions spread over ``found``."""
    step = max(1, len(found) // count)
    chosen = found[::step][:count]
    pool = ExpertPool(workers=1, budget=budget, nice=0)

    async def pooled(m: Moment, seed: int) -> float:
        start = time.perf_counter()
        await pool.hint(m.view, m.events, seed)
        return time.perf_counter() - start

    asyncio.run(pooled(chosen[0], 0))  # the worker started
    walls: list[float] = []
    cpus: list[float] = []
    pools: list[float] = []
    try:
        for i, m in enumerate(chosen):
            if i % 2:
                pools.append(asyncio.run(pooled(m, i)))
            wall, cpu = time.perf_counter(), time.process_time()
            hint(m.view, m.events, i, budget)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            if not i % 2:
                pools.append(asyncio.run(pooled(m, i)))
    finally:
        pool.close()
    kinds = statistics.multimode(m.kind for m in chosen)
    print(
        f"hints at budget {budget}, {len(chosen)} decisions (most of kind {kinds[0]}), "
        f"load {os.getloadavg()[0]:.1f}:\n"
        f"  in process, wall: {_quantiles(walls)}\n"
        f"  in process, CPU:  {_quantiles(cpus)}\n"
        f"  through a worker, wall: {_quantiles(pools)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--levels", default="basic,easy,basic,easy")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--budget", type=int, default=BUDGET)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hints", type=int, default=200)
    parser.add_argument("--hint-budget", type=int, default=DEFAULT_BUDGET)
    args = parser.parse_args()
    levels = args.levels.split(",")
    pool = ExpertPool(workers=args.workers, nice=0)
    asyncio.run(pool.analyse(bot_record(["basic", "basic"], 0), 1, 100))  # workers started
    rows = []
    found: list[Moment] = []
    try:
        for g in range(args.games):
            record = bot_record(levels, args.seed + g)
            found += moments(record)
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
                f"({n / cpu:.1f} decisions a CPU second); {args.workers} workers "
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
        f"{args.workers} workers {statistics.median(r[3] for r in rows):.1f} s wall; "
        f"{sum(r[0] for r in rows) / sum(r[2] for r in rows):.1f} decisions a CPU second"
    )
    if args.hints:
        _hints(found, args.hints, args.hint_budget)


if __name__ == "__main__":
    main()
