#!/usr/bin/env python3
"""How long ``craits-server`` takes from launch until it accepts a connection.

Usage: ``python scripts/bench_startup.py [--runs 10]``. Starts the server as a
subprocess (no journal, then with a fresh journal) on a free loopback port,
polls until the port accepts, and prints the median and worst times in ms.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_start(extra: list[str]) -> float:
    """Seconds from launch to the first accepted connection."""
    port = free_port()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "craits.server", "--port", str(port), *extra],
        stderr=subprocess.DEVNULL,
    )
    try:
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                    return time.perf_counter() - t0
            except OSError:
                if time.perf_counter() - t0 > 10:
                    raise RuntimeError("the server did not start within 10 s") from None
                time.sleep(0.005)
    finally:
        proc.terminate()
        proc.wait(5)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    for label, extra in (("no journal", ["--no-journal"]), ("journal", None)):
        times = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as d:
                times.append(one_start(extra or ["--data-dir", d]))
        print(
            f"{label}: median {statistics.median(times) * 1000:.0f} ms, "
            f"worst {max(times) * 1000:.0f} ms over {args.runs} starts"
        )


if __name__ == "__main__":
    main()
