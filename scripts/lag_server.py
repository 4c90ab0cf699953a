#!/usr/bin/env python3
"""``craits-server`` with a probe of its event loop's stalls (for ``scripts/expert_load.py``).

Runs :func:`craits.server.ops.cli.main` with the same arguments, on an event loop
that also wakes a probe every 2 ms: how late each wake-up comes is how long
the loop was held — by work on the loop, or by the machine giving the process
no core. So every callback the loop runs is also timed in CPU time
(``time.thread_time`` around ``asyncio.Handle._run``): the longest is the
longest stall of the loop's own making, whatever the machine's load. Once a
second the probe appends a line to the file named by ``CRAITS_LAG_FILE``: the
time (``time.time()``), the longest lateness in that second (ms), the wake-ups
counted, and the longest callback's CPU time (ms).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from craits.server.ops import cli

TICK = 0.002


class _ProbedPolicy(asyncio.DefaultEventLoopPolicy):
    """Every new event loop starts the probe."""

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        loop = super().new_event_loop()
        path = os.environ.get("CRAITS_LAG_FILE")
        if path:
            loop.call_soon(_start, loop, path)
        return loop


def _start(loop: asyncio.AbstractEventLoop, path: str) -> None:
    out = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 - open while the loop runs
    state = {"worst": 0.0, "ticks": 0, "second": int(time.time()), "cpu": 0.0}
    run = asyncio.Handle._run

    def timed_run(handle: asyncio.Handle) -> None:
        start = time.thread_time()
        run(handle)
        state["cpu"] = max(state["cpu"], time.thread_time() - start)

    asyncio.Handle._run = timed_run  # type: ignore[method-assign]

    def tick(expected: float) -> None:
        now = loop.time()
        state["worst"] = max(state["worst"], now - expected)
        state["ticks"] += 1
        second = int(time.time())
        if second != state["second"]:
            worst, ticks, busy = 1000 * state["worst"], state["ticks"], 1000 * state["cpu"]
            out.write(f"{time.time():.3f} {worst:.3f} {ticks} {busy:.3f}\n")
            state.update(worst=0.0, ticks=0, second=second, cpu=0.0)
        loop.call_at(now + TICK, tick, now + TICK)

    loop.call_at(loop.time() + TICK, tick, loop.time() + TICK)


if __name__ == "__main__":
    asyncio.set_event_loop_policy(_ProbedPolicy())
    sys.argv[0] = "craits-server"
    sys.exit(cli.main())
