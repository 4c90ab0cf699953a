#!/usr/bin/env python3
"""Expert bots at a busy server: the event loop's longest stall, and the load test's p99.

Starts a server (``scripts/lag_server.py``: ``craits-server`` with a probe of
its event loop's stalls) without a journal and with the load test's limits
lifted, then, alternating ``--rounds`` times:

1. ``scripts/loadtest.py`` against it (``--tables`` tables of four network bots,
   ``--think-ms``), without experts;
2. the same with experts playing: ``--expert-tables`` tables, each one
   network player (the creator, playing the basic bot's moves, so that the game
   runs: a table moves only while a person plays) and three ``expert`` bots
   seated by ``add_bot``: 3 × ``--expert-tables`` experts, their searches in the
   server's worker process.

Printed for each load test: its round trip p50/p95/p99 and moves per second,
the longest the loop was held (the probe's worst lateness: work on the loop,
or no core for the process) and its longest callback in CPU time (a stall of
the loop's own making); then the p99 with experts against the p99 without,
and the experts' moves per second. Only the load test's measured seconds count
(after its bots' setup and its 3 s warm-up).

    python scripts/expert_load.py --expert-tables 17 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from craits.protocol.client import Connection
from craits.server.bots import choose_basic

SCRIPTS = Path(__file__).resolve().parent


class Driver:
    """The one person at an expert table: creates it, seats three experts, plays basic.

    While :attr:`active` is clear it is away (its connection closed): the table is
    on hold and its experts do not play; set again, it resumes its seat."""

    def __init__(self, port: int, name: str) -> None:
        self.port = port
        self.name = name
        self.expert_moves = 0
        self.seq = 0
        self.next_id = 0
        self.token: str | None = None
        self.active = asyncio.Event()
        self.active.set()

    async def run(self, stop: asyncio.Event, ready: asyncio.Event) -> None:
        while not stop.is_set():
            await self.active.wait()
            conn = await Connection.open("127.0.0.1", self.port, name=self.name)
            try:
                if self.token is None:
                    await conn.send({"type": "create_table", "name": self.name, "seats": 4})
                    await conn.send({"type": "join", "table": self.name, "name": self.name})
                    for _ in range(3):
                        await conn.send({"type": "add_bot", "level": "expert"})
                else:
                    await conn.send({"type": "resume", "token": self.token})
                ready.set()
                while not stop.is_set() and self.active.is_set():
                    try:
                        async with asyncio.timeout(0.5):
                            msg = await conn.recv()
                    except TimeoutError:
                        continue
                    await self._take(conn, msg)
            finally:
                await conn.close()

    async def _take(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "joined":
            self.token = msg["token"]
        if kind not in ("update", "state") or msg.get("view") is None:
            return
        self.seq = msg.get("seq", self.seq)
        v = msg["view"]
        seat = v.get("seat")
        if kind == "update":
            self.expert_moves += sum(
                1
                for e in msg.get("events") or []
                if e.get("event") in ("played", "drew") and e.get("seat") != seat
            )
        if v["phase"] == "game_over":
            await conn.send({"type": "new_game"})
            return
        choice = choose_basic(v)
        if choice is None or v["phase"] != "play":
            return
        self.next_id += 1
        action = {k: val for k, val in choice.items() if k != "seat"}
        act: dict[str, Any] = {"type": "act", "id": self.next_id, "action": action}
        if v["to_act"] == seat:
            act["seq"] = self.seq
        await conn.send(act)


def start_server(lag_file: str) -> tuple[subprocess.Popen[str], int]:
    """The probed server on a free port, limits lifted as the load test lifts them; the
    pause before a bot's move is the server's default (0.6 s), as at any table."""
    cmd = [
        sys.executable,
        str(SCRIPTS / "lag_server.py"),
        "--host", "127.0.0.1", "--port", "0", "--turn-timeout", "0", "--hand-pause", "0",
        "--rate", "1000000", "--burst", "1000000", "--max-connections", "20000",
        "--max-tables", "5000", "--max-empty-tables-per-address", "5000",
        "--max-connections-per-address", "0", "--log-level", "warning", "--no-journal",
    ]  # fmt: skip
    env = {**os.environ, "CRAITS_LAG_FILE": lag_file}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr is not None
    for line in proc.stderr:
        if "listening on" in line:
            return proc, int(line.split("listening on", 1)[1].split()[0].rsplit(":", 1)[1])
    raise SystemExit("the server did not start")


def loadtest(port: int, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    """One load test against the server; its figures."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = Path(f.name)
    cmd = [
        sys.executable, str(SCRIPTS / "loadtest.py"), "--port", str(port), "--server-pid",
        str(pid), "--tables", str(args.tables), "--think-ms", str(args.think_ms),
        "--duration", str(args.duration), "--idle", "0", "--json", str(out),
    ]  # fmt: skip
    start = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    figures: dict[str, Any] = json.loads(out.read_text())
    out.unlink()
    # the measured seconds: after the bots' setup and the load test's warm-up (3 s)
    begin = start + float(figures.get("setup_s") or 0.0) + 3.0
    figures["window"] = (begin, begin + float(figures["seconds"]))
    return figures


def worst_stall(lag_file: str, window: tuple[float, float]) -> tuple[float, float]:
    """The probe's worst lateness and the longest callback's CPU time (ms) in the
    seconds of ``window``: how long the loop was held, and its longest own stall."""
    worst = busy = 0.0
    for line in Path(lag_file).read_text().splitlines():
        t, late, _, cpu = line.split()
        if window[0] <= float(t) <= window[1]:
            worst = max(worst, float(late))
            busy = max(busy, float(cpu))
    return worst, busy


async def main_async(args: argparse.Namespace) -> int:
    """Alternate load tests without and with the experts playing; print the figures."""
    lag_file = tempfile.mktemp(prefix="craits-lag-")
    proc, port = start_server(lag_file)
    drivers: list[Driver] = []
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    p99 = {False: [], True: []}  # type: dict[bool, list[float]]
    try:
        for i in range(args.expert_tables):
            d = Driver(port, f"x{i}")
            ready = asyncio.Event()
            drivers.append(d)
            tasks.append(asyncio.create_task(d.run(stop, ready)))
            await ready.wait()
        for r in range(args.rounds):
            for with_experts in (False, True):
                for d in drivers:
                    if with_experts:
                        d.active.set()
                    else:
                        d.active.clear()
                await asyncio.sleep(args.warmup)
                before = sum(d.expert_moves for d in drivers)
                figures = await asyncio.to_thread(loadtest, port, proc.pid, args)
                moved = sum(d.expert_moves for d in drivers) - before
                span = figures["window"][1] - figures["window"][0]
                stall, busy = worst_stall(lag_file, figures["window"])
                rtt = figures["rtt_ms"]
                p99[with_experts].append(rtt["p99"])
                print(
                    f"round {r + 1}, {'with' if with_experts else 'without'} experts: "
                    f"round trip p50 {rtt['p50']:.2f} p95 {rtt['p95']:.2f} p99 {rtt['p99']:.2f} "
                    f"max {rtt['max']:.1f} ms, {figures['moves_per_s']:.0f} moves/s, "
                    f"other CPU {figures['other_cpu']:.0%}, stolen {figures['stolen_cpu']:.1%}; "
                    f"loop held at most {stall:.1f} ms, its longest callback {busy:.2f} ms (CPU); "
                    f"experts' moves {moved / span:.1f}/s",
                    flush=True,
                )
    finally:
        stop.set()
        for d in drivers:
            d.active.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        proc.terminate()
        proc.wait(10)
    if p99[False] and p99[True]:
        a = sum(p99[False]) / len(p99[False])
        b = sum(p99[True]) / len(p99[True])
        print(f"p99 without experts {a:.2f} ms, with {b:.2f} ms: {b / a - 1:+.1%}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--expert-tables", type=int, default=17, help="tables of 3 experts")
    p.add_argument("--tables", type=int, default=250, help="the load test's tables")
    p.add_argument("--think-ms", type=int, default=200)
    p.add_argument("--duration", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--rounds", type=int, default=1)
    args = p.parse_args()
    random.seed(1)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
