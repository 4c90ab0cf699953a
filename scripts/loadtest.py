#!/usr/bin/env python3
"""Load test: T tables x 4 network bots over real TCP against a Craits server.

By default it starts a server subprocess (``python -m craits.server``) on
a free loopback port, with no turn timeout, no pause between hands, the
per-connection rate limit and the per-address limits of tables nobody sits
at and of connections lifted (``--rate``/``--burst``,
``--max-empty-tables-per-address``, ``--max-connections-per-address 0``),
logging at ``warning`` and the journal in a temporary directory (``--no-journal`` to run
without one); or it targets a running server with ``--host``/``--port``
(``--server-pid`` then lets it read that server's CPU and memory; start that
server with the same limits lifted, or it refuses the 65th connection from
this one address, ``too_many_connections``, and the 11th table made at once).

All bots run in this one process, on one asyncio loop: each bot is a
:class:`craits.server.bots.network.bot.BotClient` (a ``Protocol``, no task per
connection), deciding from its own view with ``craits.server.bots``. Per table
one bot creates the table and joins, three more join; the game starts when
the fourth sits down. Bots wait ``--think-ms`` before each decision.

Printed: moves per second (actions answered ``ok``), frames per second
through the server, the move round trip (``act`` sent -> the bot's own
``update`` received) at p50/p95/p99/max, the server's CPU (from
``/proc/PID/stat``, utime + stime over the measured window) and peak RSS
(``VmHWM``), this process's CPU, the number of errors (error replies other
than lost races, and dropped connections), and, on a separate fresh server,
the server RSS per idle connection (``--idle N`` connections after ``hello``).
``--compare-echo`` also runs ``scripts/echo_baseline.py`` with the same number
of connections and prints the ratio of frames per second.

Examples::

    python scripts/loadtest.py --tables 250 --think-ms 200 --duration 60
    python scripts/loadtest.py --tables 1000 --think-ms 200 --duration 60
    python scripts/loadtest.py --tables 10 --think-ms 0 --duration 20 --compare-echo
    python scripts/loadtest.py --tables 20 --think-ms 0 --games 1 --short-game
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import signal
import socket
import sys
import tempfile
import time
from asyncio import FIRST_COMPLETED
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from craits.protocol import MAX_SERVER_FRAME, VERSION, decode, encode
from craits.protocol.redirect import MAX_REDIRECTS
from craits.protocol.vocab import ClientMessage, ServerMessage
from craits.protocol.wire import FrameReader
from craits.server.bots.network.bot import BotClient, BotStats
from craits.server.errors import BotError

SCRIPTS = Path(__file__).resolve().parent
CONNECT_CONCURRENCY = 64
"""Connections being opened at once (the server's listen backlog is 100)."""


# ------------------------------------------------------------------ /proc


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid``."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """Process ``pid`` and every process under it (its children, theirs...):
    the server and its journal's writer; a ``--workers`` group's supervisor,
    workers, their writers and its Redis."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, []))
    return found


OTHER_PIDS: list[int] = []
"""More processes whose trees count as the server's (``--server-pid`` given
more than once: the other nodes of a cluster, its Redis)."""


def tree_cpu(pid: int) -> dict[int, float]:
    """CPU seconds used so far by ``pid`` and each process under it (and by
    :data:`OTHER_PIDS` and theirs), by pid (a process that ended is left out:
    read before and after a window, only the processes alive at both ends
    count)."""
    out: dict[int, float] = {}
    for p in {q for root in (pid, *OTHER_PIDS) for q in descendants(root)}:
        try:
            out[p] = proc_cpu(p)
        except OSError:
            continue
    return out


def machine_cpu() -> tuple[float, float, float]:
    """CPU seconds of the whole machine so far, from ``/proc/stat``: (busy,
    total, stolen). Stolen is the time a virtual machine's CPUs wanted to run
    but the hypervisor ran something else (counted in busy too)."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    hz = os.sysconf("SC_CLK_TCK")
    idle = ticks[3] + ticks[4]  # idle + iowait
    steal = ticks[7] if len(ticks) > 7 else 0
    return (sum(ticks) - idle) / hz, sum(ticks) / hz, steal / hz


async def wait_quiet(limit: float, busy_below: float = 0.25, needed: float = 3.0) -> float:
    """Wait (up to ``limit`` seconds) until the machine has been nearly idle for ``needed``
    seconds in a row (under ``busy_below`` of one core busy); returns the seconds waited."""
    t0 = time.perf_counter()
    quiet_since: float | None = None
    last = machine_cpu()
    while time.perf_counter() - t0 < limit:
        await asyncio.sleep(0.5)
        now = machine_cpu()
        busy = (now[0] - last[0]) / 0.5
        last = now
        if busy < busy_below:
            quiet_since = quiet_since or time.perf_counter()
            if time.perf_counter() - quiet_since >= needed:
                break
        else:
            quiet_since = None
    return time.perf_counter() - t0


def proc_mem(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` (peak RSS) of process ``pid``, in KiB."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


def free_port() -> int:
    """A TCP port free on the loopback address now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_fd_limit(needed: int) -> int:
    """Raise this process's open-file limit to the hard limit; returns the new soft limit.

    Raises:
        SystemExit: the hard limit is below ``needed``.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, needed)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if target < needed:
        sys.exit(f"loadtest: {needed} files needed, the hard limit is {hard} (ulimit -Hn)")
    return target


# ----------------------------------------------------------------- server


class ServerProcess:
    """``python -m craits.server`` on a free loopback port, stopped at the end."""

    def __init__(self, args: argparse.Namespace, connections: int, tables: int) -> None:
        self.args = args
        self.connections = connections
        self.tables = tables
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0
        self.stderr: list[str] = []
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._drain: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int:
        """The server's process id."""
        assert self.proc is not None
        return self.proc.pid

    async def start(self) -> None:
        """Start the server and wait until it listens.

        Raises:
            SystemExit: it did not start.
        """
        a = self.args
        cmd = [sys.executable]
        if a.profile:
            cmd += ["-m", "cProfile", "-o", str(a.profile)]
        cmd += [str(a.server_wrapper)] if a.server_wrapper else ["-m", "craits.server"]
        workers = a.workers
        cmd += [
            "--host",
            "127.0.0.1",
            "--port",
            str(free_port()) if workers else "0",
            *(["--workers", str(workers)] if workers else []),
            "--turn-timeout",
            "0",
            "--hand-pause",
            "0",
            "--rate",
            "1000000",
            "--burst",
            "1000000",
            "--max-connections",
            str(self.connections + 100),
            "--max-tables",
            str(self.tables + 100),
            # every bot connects from 127.0.0.1, up to 64 tables made at once
            # before their creators sit down: lift the per-address limit
            "--max-empty-tables-per-address",
            str(self.tables + 100),
            # ... and 4 connections per table, from that one address
            "--max-connections-per-address",
            "0",
            "--log-level",
            a.log_level,
        ]
        if a.journal:
            self._tmp = tempfile.TemporaryDirectory(prefix="craits-load-")
            cmd += ["--data-dir", self._tmp.name]
        else:
            cmd += ["--no-journal"]
        cmd += a.server_arg
        env = None
        if a.server_path is not None:  # another checkout's craits, for the server only
            env = {**os.environ, "PYTHONPATH": str(a.server_path)}
        self.proc = await asyncio.create_subprocess_exec(
            *cmd, stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, env=env
        )
        assert self.proc.stderr is not None
        listening = 0
        try:
            async with asyncio.timeout(60):
                while listening < max(1, workers):  # each worker says so
                    line = (await self.proc.stderr.readline()).decode(errors="replace")
                    if not line:
                        raise EOFError
                    self.stderr.append(line.rstrip())
                    if "listening on" in line and "craits-server" in line:
                        addr = line.split("listening on", 1)[1].split()[0]
                        self.port = int(addr.rsplit(":", 1)[1])
                        listening += 1
        except (TimeoutError, EOFError):
            await self.stop()
            sys.exit("loadtest: the server did not start:\n" + "\n".join(self.stderr[-20:]))
        self._drain = asyncio.create_task(self._read_stderr())

    async def _read_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        while line := await self.proc.stderr.readline():
            self.stderr.append(line.decode(errors="replace").rstrip())
            del self.stderr[:-200]

    async def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and remove its data directory."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._drain is not None:
            self._drain.cancel()
        if self._tmp is not None:
            self._tmp.cleanup()


# ------------------------------------------------------------------- bots


async def open_tables(
    host: str, port: int, args: argparse.Namespace, stats: BotStats
) -> tuple[list[BotClient], list[str]]:
    """Seat 4 bots at each of ``args.tables`` new tables; returns the bots and
    failures. A cluster's node (``--workers``, ``--cluster``) may send a bot to
    the node that holds (or is to hold) its table: the bot is made anew there,
    as ``craits-bot`` does (protocol §7.4)."""
    loop = asyncio.get_running_loop()
    sem = asyncio.Semaphore(CONNECT_CONCURRENCY)
    bots: list[BotClient] = []
    failures: list[str] = []
    rules: dict[str, bool | int] | None = {"short_game": True} if args.short_game else None
    prefix = f"L{os.getpid() % 10000}-{random.Random().randrange(1000):03d}"

    async def seat(
        make: Callable[[], BotClient], seated: list[BotClient], address: tuple[str, int]
    ) -> tuple[str, int]:
        """Seat ``make()`` at ``address`` or where it is sent; returns where it sat."""
        for hop in range(MAX_REDIRECTS + 1):
            bot = make()
            bot.placed = hop > 0
            async with sem:
                await loop.create_connection(lambda b=bot: b.link, *address)  # type: ignore[misc]
                async with asyncio.timeout(30):
                    await asyncio.wait({bot.joined, bot.done}, return_when=FIRST_COMPLETED)
            if bot.joined.done() and not bot.joined.cancelled() and not bot.joined.exception():
                seated.append(bot)
                return address
            if bot.redirect is None:
                bot.close()
                raise BotError(str(bot.done.exception() if bot.done.done() else "not seated"))
            redirected = bot.redirect.rsplit(":", 1)
            address = (redirected[0].strip("[]"), int(redirected[1]))
        raise BotError(f"redirected more than {MAX_REDIRECTS} times")

    async def table(i: int) -> None:
        name = f"{prefix}-{i}"
        rng = random.Random(args.seed * 100_003 + i)

        def maker(k: int) -> Callable[[], BotClient]:
            seed = rng.getrandbits(64)
            return lambda: BotClient(
                name,
                f"bot{k}",
                level=args.level,
                think=args.think_ms / 1000,
                jitter=args.jitter,
                create=4 if k == 0 else None,
                rules=rules,
                games=args.games or 0,
                rng=random.Random(seed),
                stats=stats,
            )

        makers = [maker(k) for k in range(4)]
        seated: list[BotClient] = []
        try:
            # the others go where the creator sat: a node that holds the table
            # (another node may not have heard of it yet)
            at = await seat(makers[0], seated, (host, port))
            await asyncio.gather(*(seat(m, seated, at) for m in makers[1:]))
        except (OSError, BotError, TimeoutError) as exc:
            failures.append(f"table {name}: {exc or type(exc).__name__}")
            for b in seated:
                b.close()
            return
        bots.extend(seated)

    await asyncio.gather(*(table(i) for i in range(args.tables)))
    return bots, failures


class _Idle(asyncio.Protocol):
    """An idle client: says hello, answers pings, does nothing else."""

    def __init__(self, welcomed: asyncio.Future[None]) -> None:
        self.welcomed = welcomed
        self.reader = FrameReader(MAX_SERVER_FRAME)
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(encode({"type": ClientMessage.HELLO, "version": VERSION, "name": "idle"}))

    def data_received(self, data: bytes) -> None:
        for body in self.reader.feed(data):
            kind = decode(body, MAX_SERVER_FRAME, depth=16).get("type")
            if kind == ServerMessage.WELCOME and not self.welcomed.done():
                self.welcomed.set_result(None)
            elif kind == ServerMessage.PING and self.transport is not None:
                self.transport.write(encode({"type": ClientMessage.PONG}))


async def idle_rss(host: str, port: int, pid: int, n: int) -> dict[str, float]:
    """Open ``n`` idle connections (after ``hello``): the server's RSS growth per connection."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(0.5)
    before = proc_mem(pid)["VmRSS"]
    sem = asyncio.Semaphore(CONNECT_CONCURRENCY)
    clients: list[_Idle] = []

    async def one() -> None:
        async with sem:
            fut: asyncio.Future[None] = loop.create_future()
            _, c = await loop.create_connection(lambda: _Idle(fut), host, port)
            clients.append(c)
            await asyncio.wait_for(fut, 30)

    try:
        await asyncio.gather(*(one() for _ in range(n)))
        await asyncio.sleep(1.0)
        after = proc_mem(pid)["VmRSS"]
    finally:
        for c in clients:
            if c.transport is not None:
                c.transport.close()
    return {
        "connections": n,
        "rss_before_kib": before,
        "rss_after_kib": after,
        "kib_per_connection": (after - before) / n,
    }


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of an ascending list (nearest rank)."""
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, round(q * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


# ------------------------------------------------------------------- main


@dataclass
class Reading:
    """The counters read at one end of the measured window."""

    t: float
    """:func:`time.perf_counter`."""
    server_cpu: float
    """The server's process's CPU seconds (0 without its pid)."""
    tree: dict[int, float]
    """CPU seconds of the server's process and every process under it, by pid."""
    own_cpu: float
    """This process's CPU seconds."""
    machine: tuple[float, float, float]
    """:func:`machine_cpu`."""
    frames: int
    """Frames through the server so far (in + out)."""

    @classmethod
    def now(cls, pid: int | None, stats: BotStats) -> Reading:
        """The counters now."""
        tree = tree_cpu(pid) if pid else {}
        return cls(
            time.perf_counter(),
            tree.get(pid, 0.0) if pid else 0.0,
            tree,
            time.process_time(),
            machine_cpu(),
            stats.frames_in + stats.frames_out,
        )


async def measure_window(
    args: argparse.Namespace, bots: list[BotClient], stats: BotStats, pid: int | None
) -> tuple[Reading, Reading, int, dict[str, Any]]:
    """Play the measured window: ``--games`` whole games (from now until every
    bot is done), or ``--duration`` seconds after ``--warmup``. Returns the
    readings at both ends, the index of the window's first round trip in
    ``stats.rtts``, and what the window adds to the result (``timed_out``)."""
    extra: dict[str, Any] = {}
    if args.games:
        start = Reading.now(pid, stats)
        rtt0 = 0
        stats.moves = 0
        stats.rtts.clear()
        try:
            async with asyncio.timeout(args.max_seconds):
                await asyncio.gather(*(b.done for b in bots), return_exceptions=True)
        except TimeoutError:
            extra["timed_out"] = sum(1 for b in bots if not b.done.done())
    else:
        await asyncio.sleep(args.warmup)
        stats.recording = True
        rtt0 = len(stats.rtts)
        start = Reading.now(pid, stats)
        await asyncio.sleep(args.duration)
    stats.recording = False
    return start, Reading.now(pid, stats), rtt0, extra


def figures(
    a: Reading, b: Reading, rtts: list[float], stats: BotStats, pid: int | None
) -> dict[str, Any]:
    """The figures of a window from its readings ``a`` and ``b`` and its sorted round trips."""
    seconds = b.t - a.t
    server = b.server_cpu - a.server_cpu
    both = [p for p in b.tree if p in a.tree]
    tree = sum(b.tree[p] - a.tree[p] for p in both)
    own = b.own_cpu - a.own_cpu
    busy, stolen = b.machine[0] - a.machine[0], b.machine[2] - a.machine[2]
    moves = stats.moves
    return {
        "seconds": seconds,
        "moves": moves,
        "moves_per_s": moves / seconds,
        "frames_per_s": (b.frames - a.frames) / seconds,
        "games_finished": stats.games // 4,
        "rtt_ms": {
            "n": len(rtts),
            "p50": 1000 * percentile(rtts, 0.50),
            "p95": 1000 * percentile(rtts, 0.95),
            "p99": 1000 * percentile(rtts, 0.99),
            "max": 1000 * (rtts[-1] if rtts else float("nan")),
        },
        "server_cpu": server / seconds if pid else None,
        "server_us_per_move": 1e6 * server / moves if pid and moves else None,
        "processes": len(both),
        "all_cpu": tree / seconds if pid else None,
        "all_us_per_move": 1e6 * tree / moves if pid and moves else None,
        "client_us_per_move": 1e6 * own / moves if moves else None,
        "client_cpu": own / seconds,
        "machine_cpu": busy / seconds,
        "other_cpu": max(0.0, (busy - stolen - tree - own) / seconds),
        "stolen_cpu": stolen / seconds,
        "server_mem_kib": proc_mem(pid) if pid else None,
        "error_replies": dict(stats.errors),
        "lost_races": dict(stats.races),
        "dropped": stats.dropped,
    }


def failed_bots(bots: list[BotClient]) -> Counter[str]:
    """The bots that ended with an error, by error."""
    failed: Counter[str] = Counter()
    for b in bots:
        if b.done.done() and not b.done.cancelled() and b.done.exception() is not None:
            failed[str(b.done.exception())] += 1
    return failed


async def play(
    args: argparse.Namespace, host: str, port: int, pid: int | None, result: dict[str, Any]
) -> None:
    """Seat the tables, play the measured window, and add its figures to ``result``."""
    stats = BotStats(recording=bool(args.games))
    bots: list[BotClient] = []
    try:
        t_setup = time.perf_counter()
        bots, failures = await open_tables(host, port, args, stats)
        result["setup_s"] = time.perf_counter() - t_setup
        result["setup_failures"] = failures
        gc.collect()
        gc.freeze()  # the bots' long-lived objects: keep the collector off them
        start, end, rtt0, extra = await measure_window(args, bots, stats, pid)
        result.update(extra)
        result.update(figures(start, end, sorted(stats.rtts[rtt0:]), stats, pid))
        result["bots_failed"] = dict(failed_bots(bots))
        result["errors"] = (
            sum(stats.errors.values()) + stats.dropped + len(failures) + result.get("timed_out", 0)
        )
    finally:
        for b in bots:
            b.close()
        await asyncio.sleep(0.5)


async def idle_figures(args: argparse.Namespace, host: str, pid: int | None) -> dict[str, Any]:
    """RSS per idle connection: on a fresh server (or the running one, ``--port``)."""
    if args.port is not None:
        return await idle_rss(host, args.port, pid, args.idle) if pid else {}
    fresh = ServerProcess(args, args.idle, 10)
    await fresh.start()
    try:
        return await idle_rss("127.0.0.1", fresh.port, fresh.pid, args.idle)
    finally:
        await fresh.stop()


def echo_figures(runs: list[dict[str, Any]], connections: int) -> dict[str, Any]:
    """The echo baseline's figures over its runs (before and after the test)."""
    return {
        "connections": connections,
        "seconds": sum(r["seconds"] for r in runs),
        "frames_per_s": sum(r["frames_per_s"] for r in runs) / len(runs),
        "server_cpu": sum(r["server_cpu"] for r in runs) / len(runs),
        "runs": runs,
    }


async def start_server(args: argparse.Namespace, connections: int) -> ServerProcess:
    """Start the server to test, with room for ``connections`` and ``args.tables`` tables."""
    server = ServerProcess(args, connections, args.tables)
    await server.start()
    return server


def setting(args: argparse.Namespace, connections: int, journal: bool | None) -> dict[str, Any]:
    """What the run measures (the head of its figures); ``journal`` None: a running server."""
    return {
        "tables": args.tables,
        "connections": connections,
        "think_ms": args.think_ms,
        "jitter": args.jitter,
        "level": args.level,
        "short_game": args.short_game,
        "journal": journal,
        "workers": args.workers,
        "busy": args.busy,
        "nproc": os.cpu_count(),
        "python": sys.version.split()[0],
    }


async def stop_server(server: ServerProcess, result: dict[str, Any], tail: int) -> None:
    """Stop the server; its last ``tail`` warnings go into ``result``."""
    await server.stop()
    warnings = [line for line in server.stderr if "WARNING" in line or "ERROR" in line]
    result["server_log_tail"] = warnings[-tail:]


async def after_play(
    args: argparse.Namespace,
    host: str,
    pid: int | None,
    result: dict[str, Any],
    echo_runs: list[dict[str, Any]],
) -> None:
    """The measurements after the test: RSS per idle connection, the echo baseline's second run."""
    if args.idle > 0:
        idle = await idle_figures(args, host, pid)
        if idle:
            result["idle"] = idle
    if args.compare_echo:
        seconds = result["seconds"] / 2
        echo_runs.append(await echo(result["connections"], args, result_seconds=seconds))
        result["echo"] = echo_figures(echo_runs, result["connections"])
        result["ratio_to_echo"] = result["frames_per_s"] / result["echo"]["frames_per_s"]


BUSY_LOOP = """
import sys, time
on = float(sys.argv[1]) * 0.01
while True:
    t = time.perf_counter()
    while time.perf_counter() - t < on:
        pass
    time.sleep(0.01 - on)
"""
"""A process busy ``SHARE`` of each 10 ms (its argument), for ever."""


async def start_busy(share: float) -> asyncio.subprocess.Process:
    """A busy loop taking ``share`` of one core (``--busy``), beside the server."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", BUSY_LOOP, str(min(max(share, 0.0), 1.0))
    )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Run the load test as ``args`` say; returns the figures."""
    task = asyncio.current_task()
    if task is not None:
        # SIGTERM unwinds like Ctrl-C: the server subprocess is stopped on the way out.
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    connections = args.tables * 4
    raise_fd_limit(connections + max(args.idle, 0) + 256)
    if args.wait_quiet:
        waited = await wait_quiet(args.wait_quiet)
        print(f"(waited {waited:.0f} s for a quiet machine)", file=sys.stderr)
    server = await start_server(args, connections) if args.port is None else None
    pid: int | None = None
    if server is not None:
        host, port, pid = "127.0.0.1", server.port, server.pid
    else:
        host, port = args.host, args.port
        if args.server_pid:
            pid, OTHER_PIDS[:] = args.server_pid[0], args.server_pid[1:]
    result = setting(args, connections, bool(args.journal) if server else None)
    echo_runs: list[dict[str, Any]] = []
    if args.compare_echo:
        # The echo runs just before and just after the real test, so that other
        # programs' load, if it drifts, weighs on both sides alike.
        echo_runs.append(await echo(connections, args, result_seconds=args.duration / 2))
    busy = await start_busy(args.busy) if args.busy > 0 else None
    try:
        await play(args, host, port, pid, result)
    finally:
        if busy is not None:
            busy.kill()
            await busy.wait()
        if server is not None:
            await stop_server(server, result, args.log_tail)
    await after_play(args, host, pid, result, echo_runs)
    return result


async def echo(connections: int, args: argparse.Namespace, result_seconds: float) -> dict[str, Any]:
    """One run of ``scripts/echo_baseline.py``'s measurement with ``connections`` connections."""
    sys.path.insert(0, str(SCRIPTS))
    import echo_baseline

    seconds = args.echo_duration / 2 if args.echo_duration else result_seconds
    return await echo_baseline.measure(connections, seconds)


def report(r: dict[str, Any]) -> None:
    """Print the figures of :func:`run` for people."""
    journal = {True: "journal on", False: "no journal", None: "running server"}[r["journal"]]
    print(
        f"load test: {r['tables']} tables x 4 bots = {r['connections']} connections, "
        f"think {r['think_ms']} ms (x{1 - r['jitter']:g}..{1 + r['jitter']:g}), "
        f"level {r['level']}"
        f"{', short games' if r['short_game'] else ''}, {journal}; "
        f"{r['nproc']} CPUs, Python {r['python']}"
    )
    print(f"  seated in {r['setup_s']:.1f} s; measured {r['seconds']:.1f} s")
    print(
        f"  moves/s: {r['moves_per_s']:,.0f} ({r['moves']:,} moves); "
        f"frames/s through the server: {r['frames_per_s']:,.0f}; "
        f"games finished: {r['games_finished']}"
    )
    report_cpu(r)
    report_errors(r)
    report_extras(r)


def report_cpu(r: dict[str, Any]) -> None:
    """Print the round trips and where the CPU went."""
    q = r["rtt_ms"]
    print(
        f"  round trip (act -> own update), ms: p50 {q['p50']:.2f}  p95 {q['p95']:.2f}  "
        f"p99 {q['p99']:.2f}  max {q['max']:.1f}  (n={q['n']:,})"
    )
    if r["server_cpu"] is not None:
        mem = r["server_mem_kib"]
        print(
            f"  server CPU, all {r['processes']} processes: {100 * r['all_cpu']:.0f}% of one "
            f"core ({r['all_us_per_move'] or 0:.0f} us per move); the serving process "
            f"{100 * r['server_cpu']:.0f}% ({r['server_us_per_move'] or 0:.0f} us per move); "
            f"RSS {mem['VmRSS'] / 1024:.1f} MiB, peak (VmHWM) {mem['VmHWM'] / 1024:.1f} MiB"
        )
    print(
        f"  load generator CPU (this process): {100 * r['client_cpu']:.0f}% of one core "
        f"({r['client_us_per_move'] or 0:.0f} us per move); "
        f"whole machine busy {100 * r['machine_cpu']:.0f}% of one core, of which "
        f"{100 * r['other_cpu']:.0f}% other processes and "
        f"{100 * r['stolen_cpu']:.1f}% stolen by the hypervisor"
    )


def report_errors(r: dict[str, Any]) -> None:
    """Print the errors, the failures behind them, and the server's warnings."""
    print(
        f"  errors: {r['errors']} (error replies {r['error_replies'] or 0}, "
        f"dropped connections {r['dropped']}, setup failures {len(r['setup_failures'])}"
        f"{', unfinished bots ' + str(r['timed_out']) if r.get('timed_out') else ''}); "
        f"lost races (re-decided): {r['lost_races'] or 0}"
    )
    for line in r["setup_failures"][:5]:
        print(f"    {line}")
    for reason, k in list(r["bots_failed"].items())[:5]:
        print(f"    {k} bots: {reason}")
    for line in r.get("server_log_tail", []):
        print(f"    server: {line}")


def report_extras(r: dict[str, Any]) -> None:
    """Print the RSS per idle connection and the echo baseline, if measured."""
    if "idle" in r:
        i = r["idle"]
        print(
            f"  idle connections: {i['connections']:,} -> server RSS "
            f"{i['rss_before_kib'] / 1024:.1f} -> {i['rss_after_kib'] / 1024:.1f} MiB, "
            f"{i['kib_per_connection']:.1f} KiB per connection"
        )
    if "echo" in r:
        e = r["echo"]
        runs = " and ".join(f"{x['frames_per_s']:,.0f}" for x in e["runs"])
        print(
            f"  echo baseline ({e['connections']} connections, {e['seconds']:.1f} s, before "
            f"and after: {runs}): {e['frames_per_s']:,.0f} frames/s "
            f"(echo server CPU {100 * e['server_cpu']:.0f}%); "
            f"this server: {r['frames_per_s']:,.0f} frames/s = "
            f"{100 * r['ratio_to_echo']:.0f}% of the echo baseline"
        )


def build_parser() -> argparse.ArgumentParser:
    """The command line of the load test."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tables", type=int, default=10, help="tables of 4 bots (default 10)")
    p.add_argument("--think-ms", type=int, default=0, help="bots' mean think time (default 0)")
    p.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        help="think times drawn uniformly in think x [1-J, 1+J] (default 0.5; 0: all "
        "equal, which lines the tables up into waves)",
    )
    how = p.add_mutually_exclusive_group()
    how.add_argument("--games", type=int, help="games each table plays to the end")
    how.add_argument("--duration", type=float, default=30.0, help="seconds measured (default 30)")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    p.add_argument("--max-seconds", type=float, default=900.0, help="bound on --games runs")
    p.add_argument("--short-game", action="store_true", help="8 hands instead of 15 (R2)")
    p.add_argument("--level", default="basic", choices=["basic", "random"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--wait-quiet",
        type=float,
        default=0,
        metavar="SECONDS",
        help="first wait up to SECONDS for the machine to be idle (other programs' load "
        "skews the figures; it is printed as 'other processes')",
    )
    p.add_argument("--host", default="127.0.0.1", help="a running server's address (loopback)")
    p.add_argument("--port", type=int, help="a running server's port (default: start one)")
    p.add_argument(
        "--server-pid",
        type=int,
        action="append",
        help="that server's pid, for CPU and memory (its child processes count too); give it "
        "once per process of a cluster started apart (each node, Redis) to sum them all",
    )
    p.add_argument(
        "--no-journal",
        dest="journal",
        action="store_false",
        help="start the server without its journal (default: journal in a temp dir)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar="N",
        help="start the server as a group of N workers (craits-server --workers N, a "
        "cluster with its own Redis); the bots follow its redirects, and the CPU is "
        "summed over every process of the group",
    )
    p.add_argument(
        "--server-path",
        type=Path,
        help="a folder put on the server's PYTHONPATH (holding another checkout's craits "
        "package: scripts/journal_bench.py measures two side by side); the bots stay this one's",
    )
    p.add_argument(
        "--busy",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="run a busy loop taking SHARE of one core beside the server while measuring "
        "(0.25: 2.5 ms of every 10 ms)",
    )
    p.add_argument("--log-level", default="warning", help="the server's log level")
    p.add_argument(
        "--server-arg", action="append", default=[], help="one more argument for the server"
    )
    p.add_argument("--idle", type=int, default=1000, help="idle connections for RSS/conn (0: skip)")
    p.add_argument("--compare-echo", action="store_true", help="also run the echo baseline")
    p.add_argument(
        "--echo-duration",
        type=float,
        help="seconds of echo, half before and half after (default: as long as the test)",
    )
    p.add_argument(
        "--profile", type=Path, help="run the server under cProfile, stats written to this file"
    )
    p.add_argument(
        "--server-wrapper",
        type=Path,
        help="diagnosis: a Python file run instead of -m craits.server, same arguments",
    )
    p.add_argument(
        "--log-tail", type=int, default=10, help="server warnings shown at the end (default 10)"
    )
    p.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    return p


def main() -> None:
    """Parse arguments, run, print."""
    args = build_parser().parse_args()
    if args.host not in ("127.0.0.1", "localhost", "::1") and not args.host.startswith("127."):
        sys.exit("loadtest: loopback addresses only")
    if args.tables < 1:
        sys.exit("loadtest: --tables must be at least 1")
    if args.games is not None and args.games < 1:
        sys.exit("loadtest: --games must be at least 1")
    result = asyncio.run(run(args))
    report(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
