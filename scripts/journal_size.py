#!/usr/bin/env python3
"""How large the journal grows under load: the database and its write-ahead
log, sampled every second while ``scripts/loadtest.py`` plays.

It starts ``craits-server`` itself (as ``loadtest.py`` would: no turn timeout,
no pause between hands, the rate limit and the per-address limits lifted,
logging at ``warning``) with
its journal in a temporary data directory, runs ``loadtest.py --port P
--server-pid PID`` with the arguments after ``--``, and samples the sizes of
``craits.db`` and ``craits.db-wal`` every ``--every`` seconds. Printed at the
end: the largest log, the largest database, and the largest sum of the two
(and when each was seen); what the journal settles to: the sizes in the load's
last sample, after ``--settle`` seconds of the server idle once the load has
ended, and after the server has stopped (SIGTERM: it folds the log into the
database); then the load test's own report. Sizes are the files' lengths in
bytes (MiB = 2**20 bytes).

Example (the 10-minute run of docs/performance.md)::

    python scripts/journal_size.py -- --tables 250 --think-ms 200 --duration 600 --idle 0
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
MB = 1024 * 1024


def start_server(data: Path, durability: str, tables: int) -> tuple[subprocess.Popen[str], int]:
    """The server on a free loopback port; returns it and its port once it listens."""
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "craits.server", "--host", "127.0.0.1", "--port", "0",
            "--turn-timeout", "0", "--hand-pause", "0", "--rate", "1000000", "--burst",
            "1000000", "--max-connections", str(4 * tables + 100), "--max-tables",
            str(tables + 100), "--log-level", "warning", "--data-dir", str(data),
            "--durability", durability,
            # every bot connects from 127.0.0.1, many tables made at once before
            # their creators sit down: lift the per-address limits
            "--max-empty-tables-per-address", str(tables + 100),
            "--max-connections-per-address", "0",
        ],
        stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("craits-server listening on"):
            port = int(line.split("listening on", 1)[1].split()[0].rsplit(":", 1)[1])
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return proc, port
    sys.exit("journal_size: the server did not start")


def size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--durability", choices=["full", "normal"], default="full")
    p.add_argument("--every", type=float, default=1.0, help="seconds between samples")
    p.add_argument(
        "--settle", type=float, default=10.0, help="seconds of idle server after the load"
    )
    p.add_argument("loadtest", nargs=argparse.REMAINDER, help="-- then loadtest.py's arguments")
    args = p.parse_args()
    rest = [a for a in args.loadtest if a != "--"]
    tables = int(rest[rest.index("--tables") + 1]) if "--tables" in rest else 10
    with tempfile.TemporaryDirectory(prefix="craits-size-") as tmp:
        data = Path(tmp)
        db, wal = data / "craits.db", data / "craits.db-wal"
        server, port = start_server(data, args.durability, tables)
        load = subprocess.Popen(
            [
                sys.executable, str(SCRIPTS / "loadtest.py"), "--port", str(port),
                "--server-pid", str(server.pid), *rest,
            ],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        start = time.monotonic()
        top = {"wal": (0, 0.0), "db": (0, 0.0), "sum": (0, 0.0)}
        samples = 0
        w = d = 0
        try:
            while load.poll() is None:
                now = time.monotonic() - start
                w, d = size(wal), size(db)
                for key, value in (("wal", w), ("db", d), ("sum", w + d)):
                    if value > top[key][0]:
                        top[key] = (value, now)
                samples += 1
                time.sleep(args.every)
            report = load.stdout.read() if load.stdout else ""
            settled = {"end of the load": (w, d)}
            time.sleep(args.settle)
            settled[f"{args.settle:g} s idle after it"] = (size(wal), size(db))
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(server.pid, signal.SIGTERM)
            server.wait(30)
        settled["after the server stopped"] = (size(wal), size(db))
    print(f"journal sizes, {samples} samples every {args.every:g} s, durability {args.durability}:")
    for key, label in (("wal", "write-ahead log"), ("db", "database"), ("sum", "both")):
        value, at = top[key]
        print(f"  largest {label}: {value / MB:.1f} MiB ({value} bytes) at {at:.0f} s")
    for when, (w, d) in settled.items():
        print(
            f"  {when}: write-ahead log {w / MB:.1f} MiB, database {d / MB:.1f} MiB, "
            f"both {(w + d) / MB:.1f} MiB"
        )
    print(report)


if __name__ == "__main__":
    main()
