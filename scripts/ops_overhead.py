#!/usr/bin/env python3
"""What the operator's kit adds to each frame a server handles, in ns.

Per read a connection binds itself for the log lines (one ``ContextVar`` set
and reset) and per frame its table (another); an ``act`` increments the
actions counter: a no-op without ``--metrics-port``, a ``prometheus_client``
``Counter.inc`` with it. Each is timed alone with :mod:`timeit` (best of 5),
to set beside the server's CPU per move (``scripts/loadtest.py``: ~300 us).

    python scripts/ops_overhead.py
"""

from __future__ import annotations

import timeit

from craits.server.ops import logs, metrics


def main() -> None:
    """Print the cost of each added step, ns per call."""
    number = 200_000

    class Subject:
        peer = "127.0.0.1:1"
        table = None

    subject = Subject()

    def bind() -> None:
        token = logs.CONNECTION.set(subject)  # type: ignore[arg-type]
        logs.CONNECTION.reset(token)

    def bind_table() -> None:
        token = logs.TABLE.set("t")
        logs.TABLE.reset(token)

    def count() -> None:
        metrics.actions.inc()

    def best(fn: object) -> float:
        times = timeit.repeat(fn, number=number, repeat=5)  # type: ignore[arg-type]
        return min(times) / number * 1e9

    print(f"bind the connection (per read):   {best(bind):6.0f} ns")
    print(f"bind the table (per frame):       {best(bind_table):6.0f} ns")
    print(f"actions counter, metrics off:     {best(count):6.0f} ns")
    try:
        from prometheus_client import CollectorRegistry, Counter
    except ImportError:
        print("actions counter, metrics on:      (prometheus_client not installed)")
        return
    metrics.actions = Counter("x", "x", registry=CollectorRegistry())
    print(f"actions counter, metrics on:      {best(count):6.0f} ns")


if __name__ == "__main__":
    main()
