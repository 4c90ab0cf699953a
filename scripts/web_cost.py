#!/usr/bin/env python3
"""What one browser visitor of ``craits-web`` costs: memory and CPU, and how many
visitors one machine serves.

Starts a game server (a ``practice`` table with a bot) and ``craits-web`` on free
loopback ports, then opens ``--visitors`` visitors the way a browser does (the
page, the name form, the cookie, the terminal's websocket) with aiohttp — no
browser, so only the server side is measured. For each visitor's client process
it reads, from ``/proc``: resident memory (RSS), proportional memory (PSS: shared
pages split among the processes that share them), and CPU time — to start and
draw the table (visitors sit in pairs at tables ``t0``, ``t1``… by link, so each
game starts and shows the table screen), idle for ``--idle`` seconds, and busy
for ``--idle`` seconds (10 key presses a second moving the hand's cursor).

    .venv/bin/python scripts/web_cost.py --visitors 8 --idle 10

``--no-prefork`` measures craits-web starting each client as a new process
instead of forking it from its pre-forked client. ``--env KEY=VALUE`` (repeatable)
sets a variable in ``craits-web``'s environment,
which its client processes inherit (e.g. ``MALLOC_ARENA_MAX=2``), to compare.
The figures go in docs/performance.md ("The web client's cost").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    """A TCP port free on the loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 20.0) -> None:
    """Return once ``port`` accepts connections (or raise OSError)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def children(pid: int) -> list[int]:
    """The direct children of ``pid``."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        out += [int(c) for c in text]
    return out


def clients(web_pid: int) -> tuple[list[int], int | None]:
    """The visitors' client processes of ``craits-web`` (its children, or the
    children of its pre-forked client), and the pre-forked client's pid."""
    found, zygote = [], None
    for pid in children(web_pid):
        if b"craits.client.web.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes():
            zygote = pid
            found += children(pid)
        else:
            found.append(pid)
    return found, zygote


def memory_kib(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of ``pid`` in KiB."""
    rss = int(re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())[1])  # type: ignore[index]
    pss = int(re.search(r"Pss:\s+(\d+)", Path(f"/proc/{pid}/smaps_rollup").read_text())[1])  # type: ignore[index]
    return rss, pss


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Visit:
    """One visitor: a cookie jar, a name, and the terminal's websocket."""

    def __init__(self, url: str, name: str):
        self.url = url
        self.name = name
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.received = 0
        self.first_draw: float | None = None

    async def open(self, table: str) -> None:
        """The page, the name form, the page again, and the websocket; returns when
        the lobby has been drawn (the first 2 KiB of screen output)."""
        started = time.monotonic()
        async with self.session.get(self.url + "/") as r:
            await r.text()
        form = {"name": self.name, "table": table}
        async with self.session.post(self.url + "/name", data=form) as r:
            page = await r.text()
        ws_url = re.search(r'data-session-websocket-url="([^"]+)"', page)
        assert ws_url, page[:500]
        self.ws = await self.session.ws_connect(ws_url[1] + "?width=120&height=40")
        while self.received < 2048:
            msg = await self.ws.receive(timeout=30)
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.received += len(msg.data)
            elif msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                raise RuntimeError(f"{self.name}: the websocket closed")
        self.first_draw = time.monotonic() - started
        asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                self.received += len(msg.data)

    async def key(self, data: str) -> None:
        """Send keys as the page does (``["stdin", data]``)."""
        assert self.ws is not None
        await self.ws.send_json(["stdin", data])

    async def close(self) -> None:
        """Close the websocket and the HTTP session."""
        if self.ws is not None:
            await self.ws.close()
        await self.session.close()


async def create_tables(port: int, count: int) -> None:
    """Open tables ``t0`` … of 2 seats on the game server (by the protocol)."""
    from craits.protocol.client import Connection
    from craits.protocol.vocab import ClientMessage, ServerMessage

    conn = await Connection.open("127.0.0.1", port, "host")
    try:
        for i in range(count):
            await conn.send({"type": ClientMessage.CREATE_TABLE, "name": f"t{i}", "seats": 2})
            while (await conn.recv_message())["type"] != ServerMessage.TABLE_CREATED:
                pass
    finally:
        await conn.close()


def meminfo_kib(key: str) -> int:
    """A line of /proc/meminfo, in KiB."""
    return int(re.search(rf"{key}:\s+(\d+)", Path("/proc/meminfo").read_text())[1])  # type: ignore[index]


async def measure(args: argparse.Namespace) -> None:
    """Run the measurement and print the figures."""
    game_port, web_port = free_port(), free_port()
    state = tempfile.mkdtemp(prefix="craits-web-cost-")
    env = dict(os.environ)
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    game = subprocess.Popen(
        [
            *(sys.executable, "-m", "craits.server.ops.cli", f"--port={game_port}", "--no-journal"),
            *("--turn-timeout=0", "--max-empty-tables=100", "--max-empty-tables-per-address=100"),
            "--trusted-relay=127.0.0.1",  # craits-web: each visitor's address (protocol §4.1)
        ],
        stderr=subprocess.DEVNULL,
    )
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "craits.client.web", f"127.0.0.1:{game_port}"),
            *(["--no-prefork"] if args.no_prefork else []),
            *(f"--port={web_port}", f"--state-dir={state}", f"--max-sessions={args.visitors + 1}"),
        ],
        stdout=subprocess.DEVNULL,
        env=env,
    )
    visits: list[Visit] = []
    try:
        wait_port(game_port)
        wait_port(web_port)
        url = f"http://127.0.0.1:{web_port}"
        web_before = memory_kib(web.pid)
        await create_tables(game_port, (args.visitors + 1) // 2)
        for i in range(args.visitors):
            visit = Visit(url, f"visitor{i}")
            await visit.open(f"t{i // 2}")
            visits.append(visit)
        await asyncio.sleep(3)  # the pairs' games have started: table screens shown
        pids, zygote = clients(web.pid)
        assert len(pids) == args.visitors, pids
        start_cpu = [cpu_seconds(p) for p in pids]
        mem = [memory_kib(p) for p in pids]
        web_after = memory_kib(web.pid)

        t0 = time.monotonic()
        cpu0 = [cpu_seconds(p) for p in pids]
        await asyncio.sleep(args.idle)
        idle = [
            (cpu_seconds(p) - c) / (time.monotonic() - t0) for p, c in zip(pids, cpu0, strict=True)
        ]

        t0 = time.monotonic()
        cpu0 = [cpu_seconds(p) for p in pids]
        n = 0
        while time.monotonic() - t0 < args.idle:
            key = "\x1b[C" if n % 2 == 0 else "\x1b[D"  # right, left: the hand's cursor
            await asyncio.gather(*(v.key(key) for v in visits))
            n += 1
            await asyncio.sleep(0.1)
        busy = [
            (cpu_seconds(p) - c) / (time.monotonic() - t0) for p, c in zip(pids, cpu0, strict=True)
        ]
        mem_busy = [memory_kib(p) for p in pids]

        rss = statistics.mean(m[0] for m in mem_busy) / 1024
        pss = statistics.mean(m[1] for m in mem_busy) / 1024
        total_mib = meminfo_kib("MemTotal") / 1024
        cores = os.cpu_count() or 1
        by_memory = int(total_mib * 0.8 / pss)
        busy_mean = statistics.mean(busy)
        by_cpu = int(cores * 0.8 / busy_mean) if busy_mean > 0 else 0
        print(
            f"visitors: {args.visitors}; {'no prefork' if args.no_prefork else 'prefork'}; "
            f"env: {' '.join(args.env) or '(none)'}"
        )
        print(
            f"first draw (page + name + websocket + first screen): "
            f"mean {statistics.mean(v.first_draw or 0 for v in visits):.2f} s, "
            f"max {max(v.first_draw or 0 for v in visits):.2f} s"
        )
        print(
            f"client process at start: RSS {statistics.mean(m[0] for m in mem) / 1024:.1f} MiB, "
            f"PSS {statistics.mean(m[1] for m in mem) / 1024:.1f} MiB; "
            f"CPU to start {statistics.mean(start_cpu):.2f} s"
        )
        print(f"client process after use: RSS {rss:.1f} MiB, PSS {pss:.1f} MiB")
        print(
            f"CPU per visitor: idle {100 * statistics.mean(idle):.2f} %, "
            f"busy (10 keys/s) {100 * busy_mean:.1f} % of a core"
        )
        if zygote is not None:
            z_rss, z_pss = memory_kib(zygote)
            print(
                f"the pre-forked client (once): RSS {z_rss / 1024:.1f} MiB, "
                f"PSS {z_pss / 1024:.1f} MiB"
            )
        print(
            f"craits-web itself: RSS {web_before[0] / 1024:.1f} MiB before, "
            f"{web_after[0] / 1024:.1f} MiB with {args.visitors} visitors"
        )
        print(
            f"this machine ({cores} cores, {total_mib / 1024:.1f} GiB): about {by_memory} "
            f"visitors by memory (80% of RAM / PSS), {by_cpu} busy at once by CPU "
            f"(80% of the cores)"
        )
    finally:
        for v in visits:
            await v.close()
        web.terminate()
        web.wait(15)
        game.terminate()
        game.wait(10)
        shutil.rmtree(state, ignore_errors=True)


def main() -> None:
    """Parse the command line and measure."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--visitors", type=int, default=8, help="visitors at once (default 8)")
    p.add_argument("--idle", type=float, default=10.0, help="seconds per phase (default 10)")
    p.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--no-prefork", action="store_true", help="craits-web --no-prefork")
    asyncio.run(measure(p.parse_args()))


if __name__ == "__main__":
    main()
