#!/usr/bin/env python3
"""The journal's cost and the server's latency, this tree beside another
(issue 25's goals), measured side by side in one window of the machine's load.

Each *case* is a run of ``scripts/loadtest.py``; each round runs every case
for this tree and for git ref ``--against`` in turn (the server imports the
ref's ``craits``, exported with ``git archive``; the bots are this tree's in
both), so that the machine's load, which drifts, weighs on both alike. It
prints every run, then the medians per case and tree, and the goals:

- ``echo``: 10 tables, no think time, ``--durability full``, against the bare
  echo server in the same run (``--compare-echo``): the server's frames per
  second ÷ echo's (goal ≥ 45%), and CPU per move, every process of the server
  counted (its journal's writer too);
- ``nojournal``: the same with ``--no-journal``: full's CPU per move ÷ this
  (goal ≤ 1.15), paired round by round;
- ``normal``: the same with ``--durability normal`` (for the record);
- ``t1000``: 1,000 tables × 4 at 200 ms think, ``full``: the moves asked that
  were made (goal ≥ 95%) and p99 (goal ≤ 25 ms);
- ``workers``: the same on ``--workers 2`` (goal p99 ≤ 10 ms);
- ``t250busy``: 250 tables × 4 at 200 ms, ``full``, a busy loop taking 25% of
  a core beside the server (goal p99 ≤ 5 ms); ``t250``: the same without it.

Examples::

    python scripts/journal_bench.py --against main --rounds 3
    python scripts/journal_bench.py --only echo,nojournal --rounds 5 --duration 15
    python scripts/journal_bench.py --against none --only t1000,workers   # this tree only

On a shared machine compare the two trees' columns of one run; the absolute
figures of the issue's goals need a quiet machine (``--wait-quiet``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent

ASKED_PER_TABLE = 1.0 / 0.2
"""Moves a table of 4 at 200 ms think asks per second: one move at a time."""

CASES: dict[str, list[str]] = {
    "echo": ["--tables", "10", "--think-ms", "0", "--compare-echo"],
    "nojournal": ["--tables", "10", "--think-ms", "0", "--compare-echo", "--no-journal"],
    "normal": [
        *("--tables", "10", "--think-ms", "0", "--compare-echo"),
        "--server-arg=--durability=normal",
    ],
    "t1000": ["--tables", "1000", "--think-ms", "200"],
    "workers": ["--tables", "1000", "--think-ms", "200", "--workers", "2"],
    "t250": ["--tables", "250", "--think-ms", "200"],
    "t250busy": ["--tables", "250", "--think-ms", "200", "--busy", "0.25"],
}
"""Each case's arguments to loadtest.py (``--durability full`` is the default)."""


def export_tree(ref: str, into: Path) -> Path:
    """Git ref ``ref``'s client, server and protocol under ``into``; returns the
    folder to put on ``PYTHONPATH`` for them to be the ``craits`` imported.

    Raises:
        subprocess.CalledProcessError: ``ref`` is not a commit of this repository.
    """
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "client", "server", "protocol"],
        check=True,
        capture_output=True,
    ).stdout
    tree = into / "tree"
    tree.mkdir()
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    ns = into / "ns" / "craits"
    ns.mkdir(parents=True)
    for name in ("client", "server", "protocol"):
        (ns / name).symlink_to(tree / name)
    return ns.parent


def run_case(case: str, path: Path | None, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    """One loadtest.py run of ``case`` (the server from ``path``, None: this tree)."""
    command = [
        sys.executable,
        str(SCRIPTS / "loadtest.py"),
        *CASES[case],
        *("--duration", str(args.duration), "--idle", "0", "--json", str(out)),
        *(["--wait-quiet", str(args.wait_quiet)] if args.wait_quiet else []),
        *(["--server-path", str(path)] if path is not None else []),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0 or not out.exists():
        return {"failed": (done.stderr or done.stdout).strip().splitlines()[-3:]}
    result: dict[str, Any] = json.loads(out.read_text())
    out.unlink()
    return result


def line(case: str, tree: str, r: dict[str, Any]) -> str:
    """One run, for people."""
    if "failed" in r:
        return f"{case:9} {tree:10} failed: {' | '.join(r['failed'])}"
    q = r["rtt_ms"]
    echo = f"  {100 * r['ratio_to_echo']:.0f}% of echo" if "ratio_to_echo" in r else ""
    asked = (
        f"  {100 * r['moves_per_s'] / (r['tables'] * ASKED_PER_TABLE):.0f}% of asked"
        if r["think_ms"] == 200
        else ""
    )
    return (
        f"{case:9} {tree:10} {r['moves_per_s']:7,.0f} moves/s{asked}  p50 {q['p50']:.2f}"
        f"  p99 {q['p99']:.2f} ms  {r['all_us_per_move'] or 0:.0f} us/move"
        f" ({r['processes']} processes){echo}  other {100 * r['other_cpu']:.0f}%"
        f"  errors {r['errors']}"
    )


def medians(runs: list[dict[str, Any]]) -> dict[str, float]:
    """The medians of a case's figures over its runs."""
    good = [r for r in runs if "failed" not in r]
    if not good:
        return {}
    out = {
        "moves_per_s": statistics.median(r["moves_per_s"] for r in good),
        "p99": statistics.median(r["rtt_ms"]["p99"] for r in good),
        "us_per_move": statistics.median(r["all_us_per_move"] or 0 for r in good),
    }
    if all("ratio_to_echo" in r for r in good):
        out["echo"] = statistics.median(r["ratio_to_echo"] for r in good)
    return out


def summary(results: dict[tuple[str, str], list[dict[str, Any]]], trees: list[str]) -> None:
    """Print the medians, and the goals' figures per tree."""
    print("\nmedians:")
    for (case, tree), runs in results.items():
        m = medians(runs)
        if m:
            echo = f", {100 * m['echo']:.1f}% of echo" if "echo" in m else ""
            print(
                f"  {case:9} {tree:10} {m['moves_per_s']:7,.0f} moves/s, p99 {m['p99']:.2f} ms, "
                f"{m['us_per_move']:.0f} us/move{echo}"
            )
    print("\ngoals:")
    for tree in trees:
        full, none = results.get(("echo", tree), []), results.get(("nojournal", tree), [])
        pairs = [
            a["all_us_per_move"] / b["all_us_per_move"]
            for a, b in zip(full, none, strict=False)
            if "failed" not in a and "failed" not in b
        ]
        if pairs:
            ratios = ", ".join(f"{p:.2f}" for p in pairs)
            print(
                f"  {tree}: CPU per move, full / no journal: median "
                f"{statistics.median(pairs):.2f} ({ratios}); goal <= 1.15"
            )
        m = medians(full)
        if "echo" in m:
            print(f"  {tree}: full, share of echo: {100 * m['echo']:.1f}%; goal >= 45%")
        for case, goal in (("t1000", 25.0), ("workers", 10.0), ("t250", 5.0), ("t250busy", 5.0)):
            m = medians(results.get((case, tree), []))
            if m:
                tables = int(CASES[case][1])
                made = m["moves_per_s"] / (tables * ASKED_PER_TABLE)
                print(
                    f"  {tree}: {case}: {100 * made:.1f}% of the moves asked, "
                    f"p99 {m['p99']:.2f} ms; goal p99 <= {goal:g} ms"
                )


def main() -> None:
    """Parse the command line, run the rounds, print."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--against", default="main", help="git ref to compare with ('none': skip)")
    p.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    p.add_argument("--only", default=",".join(CASES), help="cases, comma-separated")
    p.add_argument("--duration", type=float, default=20.0, help="seconds measured per run")
    p.add_argument("--wait-quiet", type=float, default=0, help="loadtest.py's --wait-quiet")
    p.add_argument("--json", type=Path, help="also write every run's figures to this file")
    args = p.parse_args()
    cases = [c for c in args.only.split(",") if c]
    unknown = set(cases) - set(CASES)
    if unknown:
        sys.exit(f"journal_bench: unknown cases {sorted(unknown)}; known: {', '.join(CASES)}")
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="craits-bench-") as d:
        trees: dict[str, Path | None] = {"this tree": None}
        if args.against != "none":
            trees = {args.against: export_tree(args.against, Path(d)), "this tree": None}
        for round_ in range(args.rounds):
            for case in cases:
                for name, path in trees.items():
                    r = run_case(case, path, args, Path(d) / "run.json")
                    results.setdefault((case, name), []).append(r)
                    print(f"round {round_ + 1}: {line(case, name, r)}", flush=True)
    summary(results, list(trees))
    if args.json:
        args.json.write_text(
            json.dumps({f"{c}/{t}": runs for (c, t), runs in results.items()}, indent=1)
        )


if __name__ == "__main__":
    main()
