#!/usr/bin/env python3
"""The test suite's wall time, run after run, quiet or under a parallel CPU load.

Runs the README's test command (``.venv-test/bin/pytest``, the options of
``pyproject.toml``: every core, ``-n auto``) ``--runs`` times in a row, with
``--load`` busy loops (``python3 -c 'while 1: pass'``, one process each) running
beside it the whole time, and prints for each run its wall time, pytest's summary
line and the machine's load average (1 minute) before and after; then how many
runs failed. Extra arguments after ``--`` go to pytest (``-- -m unit`` times the
unit tier alone, ``-- tests/server`` one folder).

    scripts/suite_timing.py                    # one run, as the machine is
    scripts/suite_timing.py --runs 3 --load 2  # docs/development.md's steadiness check
    scripts/suite_timing.py -- -m unit         # the unit tier

The machine's other work counts too: give its load average with any figure.
Exit status: 0 when every run passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PYTEST = REPO / ".venv-test" / "bin" / "pytest"
SUMMARY = re.compile(r"^=*\s*(\d+ (passed|failed|error).*?)\s*=*$")


def load_average() -> float:
    """The machine's load average over the last minute."""
    return os.getloadavg()[0]


def busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    """``count`` processes that each spin one core until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(count)]


def one_run(extra: list[str], log: Path | None) -> tuple[float, bool, str]:
    """One run of the suite: (wall seconds, whether it passed, its summary line and
    the tests that failed); its whole output is written to ``log`` if given."""
    started = time.monotonic()
    done = subprocess.run(
        [str(PYTEST), "-p", "no:cacheprovider", "-rfEs", *extra],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - started
    if log is not None:
        log.write_text(done.stdout + done.stderr)
    lines = [line for line in done.stdout.splitlines() if SUMMARY.match(line)]
    summary = SUMMARY.match(lines[-1]).group(1) if lines else done.stdout[-300:]  # type: ignore[union-attr]
    if done.returncode != 0:
        failed = [line for line in done.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
        summary += "".join(f"\n    {line}" for line in failed)
    return wall, done.returncode == 0, summary


def main() -> int:
    """Run the suite as asked; print the figures (see the module's text)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs in a row (1)")
    parser.add_argument("--load", type=int, default=0, help="busy loops beside it (0)")
    parser.add_argument("--logs", type=Path, help="a folder: each run's output in run-N.log")
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    args = parser.parse_args()
    loops = busy_loops(args.load)
    failures = 0
    try:
        print(f"{os.cpu_count()} cores, {args.load} busy loops beside the suite", flush=True)
        for n in range(1, args.runs + 1):
            before = load_average()
            log = None
            if args.logs is not None:
                args.logs.mkdir(parents=True, exist_ok=True)
                log = args.logs / f"run-{n}.log"
            wall, passed, summary = one_run(args.pytest_args, log)
            failures += not passed
            print(
                f"run {n}: {wall:.0f} s, load average {before:.1f} before, "
                f"{load_average():.1f} after: {summary}",
                flush=True,
            )
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    print(f"{failures} of {args.runs} runs failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
