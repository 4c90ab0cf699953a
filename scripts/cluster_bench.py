#!/usr/bin/env python3
"""Figures of the cluster (issue 15, docs/cluster.md, docs/performance.md),
each comparison measured side by side in one run.

1. Server CPU per move, cluster node against single server: a single server
   (no ``--cluster``) and a cluster node (one of two, with a Redis) run AT
   THE SAME TIME, each under the same fixed load (``--cpu-tables`` tables of
   4 bots thinking ``--think-ms``), measured over the same ``--windows``
   windows: each one's CPU (user + system, /proc) per move, and the ratio.
   With it, the other node's and the Redis's CPU and Redis commands per move.
2. Saturated moves per second with 1 and 2 cluster nodes (what
   ``--workers 1``/``2`` runs), ``--tables`` tables of 4 bots thinking 0 ms
   split between the nodes, ``--rounds`` rounds interleaved (1, 2, 1, 2…).
   The bots run in ``--bot-procs`` processes of this script on the same
   machine: on a small machine they limit the figure.
3. Lobby update latency across 3 nodes: a client on node C creates a table,
   sits down and leaves (which closes it), ``--lobby-rounds`` times; a lobby
   watcher on node A times each ``table_info``/``table_closed`` from the
   request sent on C (p50/p99, ms), with the nodes' and Redis's CPU and the
   Redis commands per change; then ``--lobby-tables`` tables created on C give
   the bytes a table takes in Redis and in another node's copy of the lobby.

Every node is a real ``craits-server`` process with its journal in a
temporary directory (default durability), the Redis a real ``redis-server``
(keeping nothing on disk), all on loopback ports.

    python scripts/cluster_bench.py            # about 3 minutes
    python scripts/cluster_bench.py --json     # the figures as JSON too
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from craits.protocol.client import Connection
from craits.server.bots.network.bot import BotClient, BotStats

SERVER = [sys.executable, "-m", "craits.server"]
FAST = ["--turn-timeout", "0", "--hand-pause", "0", "--rate", "1000000", "--burst", "1000000"]
FAST += ["--max-empty-tables", "10000", "--max-empty-tables-per-address", "10000"]
FAST += ["--log-level", "warning", "--empty-table-grace", "600"]


def free_port() -> int:
    """A TCP port free on the loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_cpu(pid: int) -> float:
    """CPU seconds used so far by process ``pid``'s live threads, to the
    nanosecond (``/proc/PID/task/*/schedstat``: the clock ticks of
    ``/proc/PID/stat`` are 10 ms, too coarse for a 10-second window at a few
    percent of a core)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


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
        self.redis_port: int | None = None

    async def start(self) -> None:
        """Start them all; return once each accepts connections (and the nodes see each other)."""
        extra: list[str] = []
        if self.cluster:
            redis_port = self.redis_port = free_port()
            program = shutil.which("redis-server") or "redis-server"
            self.redis = await asyncio.create_subprocess_exec(
                program,
                *("--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no"),
                stdout=asyncio.subprocess.DEVNULL,
            )
            await wait_port(redis_port, self.redis)
            extra = ["--cluster", f"redis://127.0.0.1:{redis_port}"]  # heartbeat 1 s
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
            await asyncio.sleep(2.5)  # a few heartbeats: every node knows the others

    def cpu(self) -> float:
        """CPU seconds the nodes used so far (not the Redis)."""
        return sum(proc_cpu(p.pid) for p in self.procs)

    async def redis_info(self, section: str, field: str) -> int:
        """A figure of Redis's ``INFO section`` (0 without a Redis)."""
        if self.redis_port is None:
            return 0
        from redis.asyncio import Redis

        r = Redis(port=self.redis_port)
        try:
            return int((await r.info(section))[field])
        finally:
            await r.aclose()

    async def commands(self) -> int:
        """Commands the Redis has processed so far."""
        return await self.redis_info("stats", "total_commands_processed")

    async def key_bytes(self, key: str) -> int:
        """Bytes Redis holds for ``key`` (``MEMORY USAGE``, every element counted)."""
        from redis.asyncio import Redis

        r = Redis(port=self.redis_port)
        try:
            return int(await r.memory_usage(key, samples=0) or 0)
        finally:
            await r.aclose()

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


async def seat(make: Any, port: int, keep: bool = False) -> tuple[BotClient, int]:
    """Connect the bot ``make()`` to ``port`` until it is seated, following a
    cluster's redirects as ``craits-bot`` does (a new bot each time); returns
    it and the port of the node it sits at.

    Raises:
        RuntimeError: it was not seated.
    """
    loop = asyncio.get_running_loop()
    for hop in range(3):
        bot = make()
        bot.placed = keep or hop > 0  # keep: stay on the node asked (no placement)
        await loop.create_connection(lambda b=bot: b.link, "127.0.0.1", port)  # type: ignore[misc]
        await asyncio.wait({bot.joined, bot.done}, return_when=asyncio.FIRST_COMPLETED)
        if bot.joined.done() and not bot.joined.cancelled() and not bot.joined.exception():
            return bot, port
        if bot.redirect is None:
            why = bot.done.exception() if bot.done.done() else "no answer"
            raise RuntimeError(f"a bot was not seated: {why}")
        port = int(bot.redirect.rsplit(":", 1)[1])
    raise RuntimeError("a bot was redirected more than twice")


async def seat_bots(
    ports: list[int], tables: list[int], stats: BotStats, think: float = 0.0, keep: bool = False
) -> list[BotClient]:
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
                name, f"bot{k}", think=think, create=4 if k == 0 else None, games=0,
                rng=random.Random(seed), stats=stats,
            )  # fmt: skip

        first, port = await seat(maker(0), ports[i % len(ports)], keep)
        others = await asyncio.gather(*(seat(maker(k), port) for k in range(1, 4)))
        bots.extend([first, *(b for b, _ in others)])

    await asyncio.gather(*(table(i) for i in tables))
    return bots


async def bots_main(ports: list[int], tables: list[int], think: float, keep: bool) -> None:
    """A bot process: seat the bots (thinking ``think`` seconds), say ``ready``,
    then for each line on stdin print the moves so far as JSON (``stop``: close)."""
    stats = BotStats(recording=True)
    bots = await seat_bots(ports, tables, stats, think, keep)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        print(json.dumps({"moves": stats.moves, "errors": sum(stats.errors.values())}), flush=True)
        stats.rtts.clear()
        if line.strip() in ("stop", ""):
            break
    for b in bots:
        b.close()


class Bots:
    """Bot processes of this script playing ``tables`` tables of 4 at ``ports``."""

    def __init__(self, ports: list[int], tables: int, procs: int, think: float, keep: str) -> None:
        """``keep``: "keep" (each table stays on the node asked) or "place" (placement decides)."""
        self.args = (ports, tables, procs, think, keep)
        self.procs: list[asyncio.subprocess.Process] = []

    async def start(self) -> None:
        """Start them; return once every bot is seated."""
        ports, tables, procs, think, keep = self.args
        share = [list(range(k, tables, procs)) for k in range(procs)]
        for mine in share:
            if not mine:
                continue
            self.procs.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    __file__,
                    "_bots",
                    ",".join(map(str, ports)),
                    ",".join(map(str, mine)),
                    str(think),
                    keep,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                )
            )
        for p in self.procs:
            assert p.stdout is not None
            line = await asyncio.wait_for(p.stdout.readline(), 120)
            assert line.strip() == b"ready", line

    async def moves(self, word: bytes = b"n") -> tuple[int, int]:
        """The moves (and errors) so far, over every bot process."""
        for p in self.procs:
            assert p.stdin is not None
            p.stdin.write(word + b"\n")
            await p.stdin.drain()
        total = errors = 0
        for p in self.procs:
            assert p.stdout is not None
            got = json.loads(await p.stdout.readline())
            total, errors = total + got["moves"], errors + got["errors"]
        return total, errors

    async def stop(self) -> None:
        """Close the bots and wait for their processes."""
        with contextlib.suppress(Exception):
            await self.moves(b"stop")
        for p in self.procs:
            with contextlib.suppress(ProcessLookupError):
                p.kill()
            await p.wait()


def median(values: list[float]) -> float:
    """The median of ``values``."""
    return statistics.median(values) if values else float("nan")


# ------------------------------------------------- figure 1: CPU per move, side by side


async def cpu_side_by_side(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """A single server and a cluster node (of two, with a Redis), running at
    the same time under the same fixed load (``--cpu-tables`` tables of 4 bots
    thinking ``--think-ms``), measured over the same windows: node CPU per move."""
    single = Nodes(1, False, data / "single")
    cluster = Nodes(2, True, data / "cluster")
    await single.start()
    await cluster.start()
    think = args.think_ms / 1000
    bots = [
        Bots(single.ports, args.cpu_tables, 1, think, "keep"),
        Bots(cluster.ports[:1], args.cpu_tables, 1, think, "keep"),  # all on the first node
    ]
    windows: list[dict[str, Any]] = []
    try:
        await asyncio.gather(*(b.start() for b in bots))
        await asyncio.sleep(args.warmup)
        procs = [single.procs[0], cluster.procs[0]]
        for _ in range(args.windows):
            cpu0 = [proc_cpu(p.pid) for p in procs]
            other0, redis0, cmd0 = (
                proc_cpu(cluster.procs[1].pid),
                cluster.redis_cpu(),
                await cluster.commands(),
            )
            moves0 = [(await b.moves())[0] for b in bots]
            t0 = time.monotonic()
            await asyncio.sleep(args.duration)
            moves1 = [(await b.moves())[0] for b in bots]
            seconds = time.monotonic() - t0
            cpu = [proc_cpu(p.pid) - c for p, c in zip(procs, cpu0, strict=True)]
            moves = [b - a for a, b in zip(moves0, moves1, strict=True)]
            windows.append(
                {
                    "seconds": seconds,
                    "moves_per_s": [m / seconds for m in moves],
                    "cpu_us_per_move": [
                        1e6 * c / m if m else None for c, m in zip(cpu, moves, strict=True)
                    ],
                    "idle_node_cpu_share": (proc_cpu(cluster.procs[1].pid) - other0) / seconds,
                    "redis_cpu_share": (cluster.redis_cpu() - redis0) / seconds,
                    "redis_commands_per_move": ((await cluster.commands()) - cmd0) / moves[1]
                    if moves[1]
                    else None,
                }
            )
    finally:
        for b in bots:
            await b.stop()
        await single.stop()
        await cluster.stop()
    ratios = [
        w["cpu_us_per_move"][1] / w["cpu_us_per_move"][0]
        for w in windows
        if w["cpu_us_per_move"][0] and w["cpu_us_per_move"][1]
    ]
    # the same, less the node's fixed cost of being in a cluster (heartbeats,
    # looks at the other nodes), as the other node (no tables) spends it
    marginal = [
        (w["cpu_us_per_move"][1] - 1e6 * w["idle_node_cpu_share"] / w["moves_per_s"][1])
        / w["cpu_us_per_move"][0]
        for w in windows
        if w["cpu_us_per_move"][0] and w["cpu_us_per_move"][1]
    ]
    return {
        "windows": windows,
        "ratios": ratios,
        "median_ratio": median(ratios),
        "marginal_ratios": marginal,
        "median_marginal_ratio": median(marginal),
    }


# ------------------------------------------------- figure 2: saturated, interleaved


async def saturated_round(args: argparse.Namespace, n: int, data: Path) -> dict[str, Any]:
    """``n`` cluster nodes (what ``--workers n`` runs), ``--tables`` tables of 4
    bots thinking 0 ms split between them: moves/s and node CPU per move."""
    nodes = Nodes(n, True, data)
    await nodes.start()
    bots = Bots(nodes.ports, args.tables, args.bot_procs, 0.0, "place")
    try:
        await bots.start()
        await asyncio.sleep(args.warmup)
        cpu0, redis0 = nodes.cpu(), nodes.redis_cpu()
        moves0, errors0 = await bots.moves()
        t0 = time.monotonic()
        await asyncio.sleep(args.duration)
        moves1, errors1 = await bots.moves()
        seconds = time.monotonic() - t0
        cpu, redis_cpu = nodes.cpu() - cpu0, nodes.redis_cpu() - redis0
    finally:
        await bots.stop()
        await nodes.stop()
    moves = moves1 - moves0
    return {
        "nodes": n,
        "moves_per_s": moves / seconds,
        "node_cpu_share": cpu / seconds,
        "cpu_us_per_move": 1e6 * cpu / moves if moves else None,
        "redis_cpu_share": redis_cpu / seconds,
        "errors": errors1 - errors0,
    }


async def saturated(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """1 node, 2 nodes, 1 node, 2 nodes…: ``--rounds`` of each, interleaved."""
    rounds: list[dict[str, Any]] = []
    for r in range(args.rounds):
        one = await saturated_round(args, 1, data / f"sat-{r}-1")
        two = await saturated_round(args, 2, data / f"sat-{r}-2")
        rounds.append({"one": one, "two": two, "ratio": two["moves_per_s"] / one["moves_per_s"]})
    return {"rounds": rounds, "median_ratio": median([r["ratio"] for r in rounds])}


# ----------------------------------------------------------------- figure 3: lobby


async def lobby_latency(args: argparse.Namespace, data: Path) -> dict[str, Any]:
    """Milliseconds from a change requested on node C to the
    ``table_info``/``table_closed`` a watcher on node A receives; with the
    nodes' CPU and Redis commands per lobby change, and (``--lobby-tables``
    tables created at once on C) the memory a table takes in Redis and in
    another node's copy of the lobby."""
    nodes = Nodes(3, True, data)
    await nodes.start()
    try:
        eve = await Connection.open("127.0.0.1", nodes.ports[0], name="Eve")
        ana = await Connection.open("127.0.0.1", nodes.ports[2], name="Ana")
        await eve.send({"type": "list_tables", "watch": True})
        await eve.recv()
        samples: list[float] = []
        watchers = [
            await Connection.open("127.0.0.1", nodes.ports[0], name=f"W{i}")
            for i in range(args.lobby_watchers)
        ]
        for w in watchers:
            await w.send({"type": "list_tables", "watch": True})
            await w.recv()

        async def drain_frames(w: Connection) -> None:
            with contextlib.suppress(Exception):
                while True:
                    await w.recv()

        readers = [asyncio.create_task(drain_frames(w)) for w in watchers]
        # each node's CPU at rest (heartbeats), to take out of the cost per change
        idle0, t_idle = [proc_cpu(p.pid) for p in nodes.procs], time.monotonic()
        await asyncio.sleep(args.duration / 2)
        idle = [
            (proc_cpu(p.pid) - c) / (time.monotonic() - t_idle)
            for p, c in zip(nodes.procs, idle0, strict=True)
        ]

        async def seen(kind: str, name: str, since: float) -> None:
            while True:
                m = await eve.recv()
                table = m.get("table")
                named = table.get("name") if isinstance(table, dict) else m.get("name")
                if m["type"] == kind and named == name:
                    samples.append(1000 * (time.perf_counter() - since))
                    return

        async def step(request: dict[str, Any], answer: str, kind: str, name: str) -> None:
            if args.lobby_gap > 0:  # apart: each change alone in its coalescing window
                await asyncio.sleep(args.lobby_gap)
            t = time.perf_counter()
            await ana.send(request)
            watcher = asyncio.create_task(seen(kind, name, t))
            while (await ana.recv())["type"] != answer:
                pass
            await asyncio.wait_for(watcher, 10)

        cpu0, redis0, cmd0 = nodes.cpu(), nodes.redis_cpu(), await nodes.commands()
        each0 = [proc_cpu(p.pid) for p in nodes.procs]
        t0 = time.monotonic()
        for i in range(args.lobby_rounds):
            name = f"lat-{i}"
            await step(
                {"type": "create_table", "name": name, "seats": 2},
                "table_created",
                "table_info",
                name,
            )
            await step({"type": "join", "table": name, "name": "Ana"}, "state", "table_info", name)
            await step({"type": "leave"}, "left", "table_closed", name)
        seconds = time.monotonic() - t0
        changes = len(samples)
        each = [
            1e6 * (proc_cpu(p.pid) - c - rest * seconds) / changes
            for p, c, rest in zip(nodes.procs, each0, idle, strict=True)
        ]
        for r in readers:
            r.cancel()
        for w in watchers:
            await w.close()
        cost = {
            "changes_per_s": changes / seconds,
            "idle_cpu_share": idle,
            "watchers_on_a": 1 + len(watchers),
            "a_b_c_cpu_us_per_change": each,
            "per_watcher_us_per_change": (each[0] - each[1]) / (1 + len(watchers)),
            "nodes_cpu_us_per_change": 1e6 * (nodes.cpu() - cpu0) / changes,
            "redis_cpu_us_per_change": 1e6 * (nodes.redis_cpu() - redis0) / changes,
            "redis_commands_per_change": ((await nodes.commands()) - cmd0) / changes,
        }
        await eve.close()
        memory = await lobby_memory(args, nodes)
        await ana.close()
    finally:
        await nodes.stop()
    samples.sort()
    return {
        "samples": len(samples),
        "p50_ms": samples[len(samples) // 2],
        "p99_ms": samples[min(len(samples) - 1, int(len(samples) * 0.99))],
        "max_ms": samples[-1],
        **cost,
        **memory,
    }


async def lobby_memory(args: argparse.Namespace, nodes: Nodes) -> dict[str, Any]:
    """Create ``--lobby-tables`` tables on node C: Redis's memory and node A's
    resident memory (its copy of the lobby) per table."""
    n = args.lobby_tables
    host = await Connection.open("127.0.0.1", nodes.ports[2], name="Host")
    rss0 = rss(nodes.procs[0].pid)
    for start in range(0, n, 50):  # in batches: answers read before more are asked
        batch = range(start, min(n, start + 50))
        for i in batch:
            await host.send({"type": "create_table", "name": f"mem-{i:05}", "seats": 4})
        created = 0
        while created < len(batch):
            answer = await host.recv()
            if answer["type"] == "error":
                raise RuntimeError(f"create_table refused: {answer}")
            created += answer["type"] == "table_created"
    check = await Connection.open("127.0.0.1", nodes.ports[0], name="Count")
    deadline = time.monotonic() + 60
    while True:  # node A lists them all
        await check.send({"type": "list_tables"})
        listed = await check.recv()
        if len(listed.get("tables", [])) >= n or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)
    out = {
        "memory_tables": n,
        "redis_bytes_per_table": await nodes.key_bytes(f"craits:tables:127.0.0.1:{nodes.ports[2]}")
        / n,
        "node_rss_bytes_per_remote_table": (rss(nodes.procs[0].pid) - rss0) / n,
    }
    await check.close()
    await host.close()
    return out


def rss(pid: int) -> int:
    """The resident memory of process ``pid``, bytes."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def say(what: str) -> None:
    """Progress, on stderr."""
    print(f"[{time.strftime('%H:%M:%S')}] {what}", file=sys.stderr, flush=True)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """The figures ``--only`` names (default all), one after the other (each
    comparison within itself side by side); each printed as JSON on stderr as
    soon as it is measured."""
    load = [os.getloadavg()[0]]
    parts = {
        "cpu": ("1. CPU per move, single server and cluster node side by side", cpu_side_by_side),
        "saturated": ("2. saturated, 1 and 2 nodes interleaved", saturated),
        "lobby": ("3. lobby latency and cost across 3 nodes", lobby_latency),
    }
    got: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="craits-cluster-bench-") as tmp:
        for key, (what, measure) in parts.items():
            if key not in args.only:
                continue
            say(what)
            got[key] = await measure(args, Path(tmp) / key)
            say(json.dumps(got[key]))
            load.append(os.getloadavg()[0])
    return {
        "cores": os.cpu_count(),
        "load_average_1min": load,
        "args": vars(args),
        **got,
    }


def report(r: dict[str, Any]) -> None:
    """Print the figures for people."""
    loads = ", ".join(f"{x:.1f}" for x in r["load_average_1min"])
    print(f"machine: {r['cores']} cores; 1-min load average at start and after each part: {loads}")
    if "cpu" in r:
        report_cpu(r)
    if "saturated" in r:
        report_saturated(r)
    if "lobby" in r:
        report_lobby(r)


def report_cpu(r: dict[str, Any]) -> None:
    """Figure 1, for people."""
    a = r["args"]
    print(
        f"1. CPU per move, side by side: {a['cpu_tables']} tables x 4 bots thinking "
        f"{a['think_ms']:g} ms on each of a single server and a cluster node"
    )
    for i, w in enumerate(r["cpu"]["windows"]):
        s, c = w["cpu_us_per_move"]
        ms, mc = w["moves_per_s"]
        print(
            f"   window {i + 1}: single {s:.0f} us/move ({ms:.0f} moves/s), cluster node "
            f"{c:.0f} us/move ({mc:.0f} moves/s), ratio {c / s:.3f}; other node "
            f"{100 * w['idle_node_cpu_share']:.1f}%, Redis {100 * w['redis_cpu_share']:.1f}% "
            f"of a core, {w['redis_commands_per_move']:.3f} Redis commands/move"
        )
    print(f"   median ratio cluster/single: {r['cpu']['median_ratio']:.3f}")
    print(
        "   without the node's fixed cost of heartbeats (the other node's CPU at rest): "
        f"median {r['cpu']['median_marginal_ratio']:.3f}"
    )


def report_saturated(r: dict[str, Any]) -> None:
    """Figure 2, for people."""
    a = r["args"]
    print(
        f"2. saturated, {a['tables']} tables x 4 bots thinking 0 ms, bots in "
        f"{a['bot_procs']} processes on the same machine; rounds interleaved"
    )
    for i, rd in enumerate(r["saturated"]["rounds"]):
        one, two = rd["one"], rd["two"]
        print(
            f"   round {i + 1}: 1 node {one['moves_per_s']:.0f} moves/s "
            f"({100 * one['node_cpu_share']:.0f}% of a core, "
            f"{one['cpu_us_per_move']:.0f} us/move), "
            f"2 nodes {two['moves_per_s']:.0f} moves/s ({100 * two['node_cpu_share']:.0f}%, "
            f"{two['cpu_us_per_move']:.0f} us/move): ratio {rd['ratio']:.2f}; errors "
            f"{one['errors'] + two['errors']}"
        )
    print(f"   median ratio 2 nodes / 1 node: {r['saturated']['median_ratio']:.2f}")


def report_lobby(r: dict[str, Any]) -> None:
    """Figure 3, for people."""
    lo = r["lobby"]
    a, b, c = lo["a_b_c_cpu_us_per_change"]
    print(
        f"   per lobby change, heartbeats taken out: node C (asked) {c:.0f} us, node B "
        f"(follows) {b:.0f} us, node A (follows, {lo['watchers_on_a']} watchers) {a:.0f} us: "
        f"{lo['per_watcher_us_per_change']:.1f} us per watcher; at rest "
        + ", ".join(f"{100 * x:.2f}%" for x in lo["idle_cpu_share"])
        + " of a core (A, B, C)"
    )
    print(
        f"3. lobby update latency across 3 nodes ({lo['samples']} changes): p50 "
        f"{lo['p50_ms']:.1f} ms, p99 {lo['p99_ms']:.1f} ms, max {lo['max_ms']:.1f} ms"
    )
    print(
        f"   per lobby change: nodes' CPU {lo['nodes_cpu_us_per_change']:.0f} us (3 nodes, "
        f"with the request and one watcher), Redis {lo['redis_cpu_us_per_change']:.0f} us, "
        f"{lo['redis_commands_per_change']:.1f} Redis commands"
    )
    print(
        f"   {lo['memory_tables']} tables: {lo['redis_bytes_per_table']:.0f} bytes each in "
        f"Redis, {lo['node_rss_bytes_per_remote_table']:.0f} bytes each in another node's "
        "copy of the lobby"
    )


def main() -> None:
    """Run the figures (or, as ``_bots``, one bot process of figure 1)."""
    if sys.argv[1:2] == ["_bots"]:
        ports = [int(p) for p in sys.argv[2].split(",")]
        tables = [int(t) for t in sys.argv[3].split(",")]
        asyncio.run(bots_main(ports, tables, float(sys.argv[4]), sys.argv[5] == "keep"))
        return
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--tables", type=int, default=10, help="saturated: tables of 4 bots (default 10)"
    )
    p.add_argument("--bot-procs", type=int, default=2, help="saturated: bot processes (default 2)")
    p.add_argument("--rounds", type=int, default=3, help="saturated: rounds of 1 and 2 nodes")
    p.add_argument("--cpu-tables", type=int, default=12, help="CPU: tables on each (default 12)")
    p.add_argument("--think-ms", type=float, default=40.0, help="CPU: bots' think (default 40)")
    p.add_argument("--windows", type=int, default=3, help="CPU: windows measured (default 3)")
    p.add_argument("--duration", type=float, default=10.0, help="seconds a window (default 10)")
    p.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
    p.add_argument("--lobby-rounds", type=int, default=100, help="lobby changes x3 (default 100)")
    p.add_argument(
        "--lobby-gap",
        type=float,
        default=0.0,
        help="seconds between lobby changes (default 0: back to back, so each waits for "
        "the 50 ms window the nodes coalesce lobby changes in; 0.1: each change alone)",
    )
    p.add_argument("--lobby-tables", type=int, default=1000, help="tables for the memory")
    p.add_argument("--lobby-watchers", type=int, default=20, help="more lobby watchers on A")
    p.add_argument(
        "--only",
        default="cpu,saturated,lobby",
        help="the figures to measure, of cpu,saturated,lobby (default all)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = p.parse_args()
    result = asyncio.run(run(args))
    report(result)
    if args.json:
        print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
