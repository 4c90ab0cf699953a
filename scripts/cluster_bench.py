#!/usr/bin/env python3
"""Figures of the cluster (issue 15, docs/cluster.md), measured side by side in one run.

1. Saturated moves per second and server CPU per move: a single server (no
   ``--cluster``), one cluster node, and two cluster nodes (the tables split
   between them), each with ``--tables`` tables of 4 bots that think 0 ms.
   The bots run in ``--bot-procs`` processes of this script (each bot a
   :class:`craits.server.bots.client.BotClient` connected straight to the
   node holding its table); they share the machine with the nodes, so on a
   small machine they limit the figure: the report gives the machine's
   cores and the CPU the nodes used.
2. Lobby update latency across 3 nodes: a client on node C creates a table,
   sits down and leaves (which closes it), ``--lobby-rounds`` times; a lobby
   watcher on node A times each ``table_info``/``table_closed`` from the
   request sent on C (p50/p99, milliseconds).

Every node is a real ``craits-server`` process with its journal in a
temporary directory, and the Redis a real ``redis-server`` (keeping nothing
on disk), all on loopback ports.

    python scripts/cluster_bench.py --tables 10 --duration 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from craits.protocol.client import Connection
from craits.server.bots.client import BotClient, BotStats

SERVER = [sys.executable, "-m", "craits.server.cli"]
FAST = ["--turn-timeout", "0", "--hand-pause", "0", "--rate", "1000000", "--burst", "1000000"]
FAST += ["--max-empty-tables", "10000", "--max-empty-tables-per-address", "10000"]
FAST += ["--log-level", "warning"]


def free_port() -> int:
    """A TCP port free on the loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid``."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def wait_port(port: int, proc: asyncio.subprocess.Process) -> None:
    """Return once ``port`` accepts connections.

    Raises:
        OSError: the process exited or 20 s went by.
    """
    deadline = time.monotonic() + 20
    while True:
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            if time.monotonic() > deadline or proc.returncode is not None:
                raise
            await asyncio.sleep(0.05)


class Nodes:
    """A Redis (when ``cluster``) and ``n`` craits-server processes."""

    def __init__(self, n: int, cluster: bool, data: Path) -> None:
        self.n, self.cluster, self.data = n, cluster, data
        self.ports = [free_port() for _ in range(n)]
        self.procs: list[asyncio.subprocess.Process] = []
        self.redis: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start them all; return once each accepts connections (and the nodes see each other)."""
        extra: list[str] = []
        if self.cluster:
            redis_port = free_port()
            program = shutil.which("redis-server") or "redis-server"
            self.redis = await asyncio.create_subprocess_exec(
                program,
                *("--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no"),
                stdout=asyncio.subprocess.DEVNULL,
            )
            await wait_port(redis_port, self.redis)
            extra = ["--cluster", f"redis://127.0.0.1:{redis_port}", "--cluster-heartbeat", "0.5"]
        for i, port in enumerate(self.ports):
            data = self.data / f"node-{i}"
            proc = await asyncio.create_subprocess_exec(
                *SERVER,
                *("--port", str(port), "--data-dir", str(data), *FAST, *extra),
                stderr=asyncio.subprocess.DEVNULL,
            )
            self.procs.append(proc)
        for port, proc in zip(self.ports, self.procs, strict=True):
            await wait_port(port, proc)
        if self.cluster:
            await asyncio.sleep(2.0)  # a few heartbeats: every node knows the others

    def cpu(self) -> float:
        """CPU seconds the nodes used so far (not the Redis)."""
        return sum(proc_cpu(p.pid) for p in self.procs)

    def redis_cpu(self) -> float:
        """CPU seconds the Redis used so far."""
        return proc_cpu(self.redis.pid) if self.redis is not None else 0.0

    async def stop(self) -> None:
        """Stop the nodes (SIGTERM), then the Redis."""
        for p in self.procs:
            p.terminate()
        for p in self.procs:
            await p.wait()
        if self.redis is not None:
            self.redis.kill()
            await self.redis.wait()


# ------------------------------------------------------------------ bots


async def seat(make: Any, port: int) -> tuple[BotClient, int]:
    """Connect the bot ``make()`` to ``port`` until it is seated, following a
    cluster's redirects as ``craits-bot`` does (a new bot each time); returns
    it and the port of the node it sits at.

    Raises:
        RuntimeError: it was not seated.
    """
    loop = asyncio.get_running_loop()
    for hop in range(3):
        bot = make()
        bot.placed = hop > 0
        await loop.create_connection(lambda b=bot: b, "127.0.0.1", port)  # type: ignore[misc]
        await asyncio.wait({bot.joined, bot.done}, return_when=asyncio.FIRST_COMPLETED)
        if bot.joined.done() and not bot.joined.cancelled() and not bot.joined.exception():
            return bot, port
        if bot.redirect is None:
            why = bot.done.exception() if bot.done.done() else "no answer"
            raise RuntimeError(f"a bot was not seated: {why}")
        port = int(bot.redirect.rsplit(":", 1)[1])
    raise RuntimeError("a bot was redirected more than twice")


async def seat_bots(ports: list[int], tables: list[int], stats: BotStats) -> list[BotClient]:
    """Seat 4 bots at each table ``i`` of ``tables``, asked of the node
    ``ports[i % len]`` (placement may put it on another)."""
    bots: list[BotClient] = []
    prefix = f"B{os.getpid()}"

    async def table(i: int) -> None:
        name = f"{prefix}-{i}"
        rng = random.Random(i)

        def maker(k: int) -> Any:
            seed = rng.getrandbits(64)
            return lambda: BotClient(
                name, f"bot{k}", think=0, create=4 if k == 0 else None, games=0,
                rng=random.Random(seed), stats=stats,
            )  # fmt: skip

        first, port = await seat(maker(0), ports[i % len(ports)])
        others = await asyncio.gather(*(seat(maker(k), port) for k in range(1, 4)))
        bots.extend([first, *(b for b, _ in others)])

    await asyncio.gather(*(table(i) for i in tables))
    return bots


async def bots_main(ports: list[int], tables: list[int], duration: float) -> None:
    """A bot process: seat the bots, say ``ready``, wait for ``go`` on stdin,
    count the moves for ``duration`` seconds, print them as JSON."""
    stats = BotStats(recording=False)
    bots = await seat_bots(ports, tables, stats)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)
    stats.moves = 0
    stats.recording = True
    await asyncio.sleep(duration)
    stats.recording = False
    print(json.dumps({"moves": stats.moves, "errors": sum(stats.errors.values())}), flush=True)
    for b in bots:
        b.close()


async def saturated(args: argparse.Namespace, n: int, cluster: bool, data: Path) -> dict[str, Any]:
    """One setting of figure 1: moves/s and node CPU per move."""
    nodes = Nodes(n, cluster, data)
    await nodes.start()
    try:
        share = [list(range(k, args.tables, args.bot_procs)) for k in range(args.bot_procs)]
        ports = ",".join(map(str, nodes.ports))
        procs = [
            await asyncio.create_subprocess_exec(
                sys.executable, __file__, "_bots", ports, ",".join(map(str, mine)),
                str(args.duration),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )
            for mine in share if mine
        ]  # fmt: skip
        for p in procs:
            assert p.stdout is not None
            line = await asyncio.wait_for(p.stdout.readline(), 120)
            assert line.strip() == b"ready", line
        await asyncio.sleep(args.warmup)
        cpu0, redis0, t0 = nodes.cpu(), nodes.redis_cpu(), time.monotonic()
        for p in procs:
            assert p.stdin is not None
            p.stdin.write(b"go\n")
            await p.stdin.drain()
        results = []
        for p in procs:
            assert p.stdout is not None
            results.append(json.loads(await p.stdout.readline()))
            await p.wait()
        seconds = time.monotonic() - t0
        cpu, redis_cpu = nodes.cpu() - cpu0, nodes.redis_cpu() - redis0
    finally:
        await nodes.stop()
    moves = sum(r["moves"] for r in results)
    return {
        "nodes": n,
        "cluster": cluster,
        "moves_per_s": moves / args.duration,
        "node_cpu_share": cpu / seconds,
        "cpu_us_per_move": 1e6 * cpu / moves if moves else None,
        "redis_cpu_share": redis_cpu / seconds,
        "errors": sum(r["errors"] for r in results),
    }


# ----------------------------------------------------------------- lobby


async def lobby_latency(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """Figure 2: milliseconds from a change requested on node C to the
    ``table_info``/``table_closed`` a watcher on node A receives."""
    nodes = Nodes(3, True, data)
    await nodes.start()
    try:
        eve = await Connection.open("127.0.0.1", nodes.ports[0], name="Eve")
        ana = await Connection.open("127.0.0.1", nodes.ports[2], name="Ana")
        await eve.send({"type": "list_tables", "watch": True})
        await eve.recv()
        samples: list[float] = []

        async def seen(kind: str, name: str, since: float) -> None:
            while True:
                m = await eve.recv()
                table = m.get("table")
                named = table.get("name") if isinstance(table, dict) else m.get("name")
                if m["type"] == kind and named == name:
                    samples.append(1000 * (time.perf_counter() - since))
                    return

        async def step(request: dict[str, Any], answer: str, kind: str, name: str) -> None:
            t = time.perf_counter()
            await ana.send(request)
            watcher = asyncio.create_task(seen(kind, name, t))
            while (await ana.recv())["type"] != answer:
                pass
            await asyncio.wait_for(watcher, 10)

        for i in range(args.lobby_rounds):
            name = f"lat-{i}"
            await step({"type": "create_table", "name": name, "seats": 2}, "table_created",
                       "table_info", name)  # fmt: skip
            await step({"type": "join", "table": name, "name": "Ana"}, "state", "table_info", name)
            await step({"type": "leave"}, "left", "table_closed", name)
        await eve.close()
        await ana.close()
    finally:
        await nodes.stop()
    samples.sort()
    return {
        "samples": len(samples),
        "p50_ms": samples[len(samples) // 2],
        "p99_ms": samples[min(len(samples) - 1, int(len(samples) * 0.99))],
        "max_ms": samples[-1],
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure, one after the other."""
    with tempfile.TemporaryDirectory(prefix="craits-cluster-bench-") as tmp:
        data = Path(tmp)
        settings = [(1, False), (1, True), (2, True)]
        runs = [await saturated(args, n, c, data / f"run-{n}-{c}") for n, c in settings]
        lobby = await lobby_latency(args, data / "lobby")
    return {
        "cores": os.cpu_count(),
        "load_average": os.getloadavg(),
        "tables": args.tables,
        "bot_procs": args.bot_procs,
        "duration_s": args.duration,
        "saturated": runs,
        "lobby": lobby,
    }


def report(r: dict[str, Any]) -> None:
    """Print the figures for people."""
    print(f"machine: {r['cores']} cores, load average {r['load_average'][0]:.1f} at the end")
    print(f"{r['tables']} tables x 4 bots (think 0), bots in {r['bot_procs']} processes")
    for s in r["saturated"]:
        kind = f"{s['nodes']} cluster node(s)" if s["cluster"] else "single server"
        per = f"{s['cpu_us_per_move']:.0f}" if s["cpu_us_per_move"] else "-"
        print(
            f"  {kind:22} {s['moves_per_s']:8.0f} moves/s   nodes' CPU "
            f"{100 * s['node_cpu_share']:4.0f}% of a core, {per} us/move   "
            f"Redis {100 * s['redis_cpu_share']:.1f}%   errors {s['errors']}"
        )
    single, one, two = r["saturated"]
    if single["cpu_us_per_move"] and one["cpu_us_per_move"]:
        print(f"  CPU per move, cluster node / single: "
              f"{one['cpu_us_per_move'] / single['cpu_us_per_move']:.2f}")  # fmt: skip
    if one["moves_per_s"]:
        print(f"  moves/s, 2 nodes / 1 node: {two['moves_per_s'] / one['moves_per_s']:.2f}")
    lo = r["lobby"]
    print(
        f"lobby update latency across 3 nodes ({lo['samples']} changes): "
        f"p50 {lo['p50_ms']:.1f} ms, p99 {lo['p99_ms']:.1f} ms, max {lo['max_ms']:.1f} ms"
    )


def main() -> None:
    """Run the figures (or, as ``_bots``, one bot process of figure 1)."""
    if sys.argv[1:2] == ["_bots"]:
        ports = [int(p) for p in sys.argv[2].split(",")]
        tables = [int(t) for t in sys.argv[3].split(",")]
        asyncio.run(bots_main(ports, tables, float(sys.argv[4])))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=10, help="tables of 4 bots (default 10)")
    p.add_argument("--bot-procs", type=int, default=2, help="bot processes (default 2)")
    p.add_argument("--duration", type=float, default=10.0, help="seconds measured (default 10)")
    p.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
    p.add_argument("--lobby-rounds", type=int, default=100, help="lobby changes x3 (default 100)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = p.parse_args()
    result = asyncio.run(run(args))
    report(result)
    if args.json:
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
