#!/usr/bin/env python3
"""What one browser visitor of ``craits-web`` costs: memory and CPU, and how many
visitors one machine serves.

Starts a game server (a ``practice`` table with a bot) and ``craits-web`` on free
loopback ports, then opens ``--visitors`` visitors the way a browser does (the
page, the name form, the cookie, the terminal's websocket) with aiohttp — no
browser, so only the server side is measured. For each visitor's client process
it reads, from ``/proc``: resident memory (RSS), proportional memory (PSS: shared
pages split among the processes that share them), private memory (USS: the
pages no other process shares, what each more visitor adds), and CPU time — to
start and draw the table (visitors sit in pairs at tables ``t0``, ``t1``… by
link, so each game starts and shows the table screen), idle for ``--idle``
seconds, and busy for ``--idle`` seconds ``--plays`` times over (10 key
presses a second moving the hand's cursor; the memory after each tells whether
a client grows while its visitor plays). ``--pages`` reads, as root, which of a
client's pages are still the pre-forked client's, copied from it, or its own.

    .venv/bin/python scripts/web_cost.py --visitors 8 --idle 10

``--no-prefork`` measures craits-web starting each client as a new process
instead of forking it from its pre-forked client. ``--env KEY=VALUE`` (repeatable)
sets a variable in ``craits-web``'s environment,
which its client processes inherit (e.g. ``MALLOC_ARENA_MAX=2``), to compare.
``--against REF`` measures the client, server and protocol of git ref ``REF``
(e.g. ``main``) side by side with this tree: ``--rounds`` runs of each, in turn,
and the medians of both. The figures go in docs/performance.md ("The web
client's cost").
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
from client_cpu import export_tree, namespace

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


def memory_kib(pid: int) -> tuple[int, int, int]:
    """(RSS, PSS, USS) of ``pid`` in KiB (USS: its private pages, clean and dirty)."""
    rss = int(re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())[1])  # type: ignore[index]
    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    pss, uss = (
        sum(int(m) for m in re.findall(rf"^{key}:\s+(\d+)", rollup, re.MULTILINE))
        for key in ("Pss", "Private_(?:Clean|Dirty)")
    )
    return rss, pss, uss


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


async def play(visits: list[Visit], pids: list[int], seconds: float) -> list[float]:
    """``seconds`` of 10 key presses a second from every visitor (right, left: the
    hand's cursor); the CPU each client process took, as a share of a core."""
    t0 = time.monotonic()
    cpu0 = [cpu_seconds(p) for p in pids]
    n = 0
    while time.monotonic() - t0 < seconds:
        key = "\x1b[C" if n % 2 == 0 else "\x1b[D"
        await asyncio.gather(*(v.key(key) for v in visits))
        n += 1
        await asyncio.sleep(0.1)
    return [(cpu_seconds(p) - c) / (time.monotonic() - t0) for p, c in zip(pids, cpu0, strict=True)]


PAGE = os.sysconf("SC_PAGE_SIZE")


def frames(pid: int) -> dict[int, int]:
    """The physical page behind each present page of ``pid``'s anonymous writable
    memory (heap and anonymous mappings), by address; empty without the right
    to read them (root: ``/proc/PID/pagemap`` hides them from others)."""
    found: dict[int, int] = {}
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
            parts = line.split()
            if "w" not in parts[1] or (len(parts) > 5 and parts[5] != "[heap]"):
                continue
            start, end = (int(x, 16) for x in parts[0].split("-"))
            pagemap.seek(start // PAGE * 8)
            data = pagemap.read((end - start) // PAGE * 8)
            for i in range(len(data) // 8):
                entry = int.from_bytes(data[i * 8 : i * 8 + 8], "little")
                frame = entry & ((1 << 55) - 1)
                if entry >> 63 and frame:
                    found[start + i * PAGE] = frame
    return found


def pages(zygote: int, client: int) -> str:
    """What a client's anonymous memory is, against the pre-forked client's: its
    pages still shared with it, its pages copied from it (written since the
    fork), and pages of its own."""
    theirs, ours = frames(zygote), frames(client)
    if not theirs:
        return "pages: cannot read the physical pages (run as root)"
    shared = sum(1 for a, f in ours.items() if theirs.get(a) == f)
    copied = sum(1 for a, f in ours.items() if a in theirs and theirs[a] != f)
    mib = PAGE / 2**20
    return (
        f"pages of a client: {shared * mib:.1f} MiB shared with the pre-forked client's "
        f"{len(theirs) * mib:.1f} MiB, {copied * mib:.1f} MiB copied from it, "
        f"{(len(ours) - shared - copied) * mib:.1f} MiB its own"
    )


def mean_mib(samples: list[tuple[int, int, int]], i: int) -> float:
    """The mean of field ``i`` (0 RSS, 1 PSS, 2 USS) of ``samples``, in MiB."""
    return statistics.mean(m[i] for m in samples) / 1024


async def measure(args: argparse.Namespace) -> dict[str, float]:
    """Run the measurement, print the figures; the figures by name (MiB, s, %)."""
    game_port, web_port = free_port(), free_port()
    state = tempfile.mkdtemp(prefix="craits-web-cost-")
    env = dict(os.environ)
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    game = subprocess.Popen(
        [
            *(sys.executable, "-m", "craits.server", f"--port={game_port}", "--no-journal"),
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
        stderr=subprocess.DEVNULL,
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
        busy = await play(visits, pids, args.idle)
        mem_busy = [memory_kib(p) for p in pids]
        mem_longer = mem_busy
        for phase in range(2, args.plays + 1):
            await play(visits, pids, args.idle)
            mem_longer = [memory_kib(p) for p in pids]
            print(
                f"after {phase * args.idle:g} s of play: PSS {mean_mib(mem_longer, 1):.1f} MiB, "
                f"USS {mean_mib(mem_longer, 2):.1f} MiB",
                flush=True,
            )
        if args.pages and zygote is not None:
            print(pages(zygote, pids[0]))
        figures = {
            "first_draw_s": statistics.mean(v.first_draw or 0 for v in visits),
            "start_cpu_s": statistics.mean(start_cpu),
            "start_pss": mean_mib(mem, 1),
            "start_uss": mean_mib(mem, 2),
            "rss": mean_mib(mem_busy, 0),
            "pss": mean_mib(mem_busy, 1),
            "uss": mean_mib(mem_busy, 2),
            "pss_longer": mean_mib(mem_longer, 1),
            "idle_pct": 100 * statistics.mean(idle),
            "busy_pct": 100 * statistics.mean(busy),
            "zygote_pss": memory_kib(zygote)[1] / 1024 if zygote is not None else 0.0,
        }
        report(args, figures, visits, (web_before[0], web_after[0]))
        return figures
    finally:
        for v in visits:
            await v.close()
        web.terminate()
        web.wait(15)
        game.terminate()
        game.wait(10)
        shutil.rmtree(state, ignore_errors=True)


def report(
    args: argparse.Namespace, f: dict[str, float], visits: list[Visit], web_rss: tuple[int, int]
) -> None:
    """Print the figures of one run."""
    total_mib = meminfo_kib("MemTotal") / 1024
    cores = os.cpu_count() or 1
    by_memory = int(total_mib * 0.8 / f["pss"])
    by_cpu = int(cores * 0.8 / (f["busy_pct"] / 100)) if f["busy_pct"] > 0 else 0
    print(
        f"visitors: {args.visitors}; {'no prefork' if args.no_prefork else 'prefork'}; "
        f"env: {' '.join(args.env) or '(none)'}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"first draw (page + name + websocket + first screen): mean {f['first_draw_s']:.2f} s, "
        f"max {max(v.first_draw or 0 for v in visits):.2f} s"
    )
    print(
        f"client process at start: PSS {f['start_pss']:.1f} MiB, USS {f['start_uss']:.1f} MiB; "
        f"CPU to start {f['start_cpu_s']:.2f} s"
    )
    print(
        f"client process after use: RSS {f['rss']:.1f} MiB, PSS {f['pss']:.1f} MiB, "
        f"USS {f['uss']:.1f} MiB; PSS {f['pss_longer']:.1f} MiB after all the play"
    )
    print(
        f"CPU per visitor: idle {f['idle_pct']:.2f} %, "
        f"busy (10 keys/s) {f['busy_pct']:.1f} % of a core"
    )
    if f["zygote_pss"]:
        print(f"the pre-forked client (once): PSS {f['zygote_pss']:.1f} MiB")
    print(
        f"craits-web itself: RSS {web_rss[0] / 1024:.1f} MiB before, "
        f"{web_rss[1] / 1024:.1f} MiB with {args.visitors} visitors"
    )
    print(
        f"this machine ({cores} cores, {total_mib / 1024:.1f} GiB): about {by_memory} "
        f"visitors by memory (80% of RAM / PSS), {by_cpu} busy at once by CPU "
        f"(80% of the cores)"
    )
    print("figures " + json.dumps(f), flush=True)


COMPARED = [
    ("pss", "PSS after use, MiB"),
    ("pss_longer", "PSS after all the play, MiB"),
    ("uss", "USS (private) after use, MiB"),
    ("start_pss", "PSS at the first screen, MiB"),
    ("start_cpu_s", "CPU to start, s"),
    ("busy_pct", "CPU busy, % of a core"),
    ("zygote_pss", "the pre-forked client, PSS MiB"),
]


def compare(args: argparse.Namespace) -> None:
    """Measure this tree and ``args.against`` in turn, ``args.rounds`` times each;
    print each run's figures and the medians side by side."""
    root = Path(__file__).resolve().parent.parent
    runs: dict[str, list[dict[str, float]]] = {"this tree": [], args.against: []}
    passed = [
        *("--visitors", str(args.visitors), "--idle", str(args.idle), "--plays", str(args.plays)),
        *(["--no-prefork"] if args.no_prefork else []),
        *(["--pages"] if args.pages else []),
        *(f"--env={e}" for e in args.env),
    ]
    with tempfile.TemporaryDirectory() as d:
        paths = {
            "this tree": namespace(root, Path(d) / "ns-here"),
            args.against: export_tree(args.against, Path(d)),
        }
        for round_ in range(args.rounds):
            for name, path in paths.items():
                out = subprocess.run(
                    [sys.executable, __file__, *passed],
                    env={**os.environ, "PYTHONPATH": str(path)},
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                print(f"--- round {round_ + 1}, {name}\n{out}", flush=True)
                line = next(x for x in out.splitlines() if x.startswith("figures "))
                runs[name].append(json.loads(line.split(" ", 1)[1]))
    here, there = runs["this tree"], runs[args.against]
    print(f"medians of {args.rounds} runs each, {args.visitors} visitors:")
    print(f"| | {args.against} | this tree |\n|---|---|---|")
    for key, label in COMPARED:
        old = statistics.median(r[key] for r in there)
        new = statistics.median(r[key] for r in here)
        print(f"| {label} | {old:.2f} | {new:.2f} |")


def main() -> None:
    """Parse the command line and measure."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--visitors", type=int, default=8, help="visitors at once (default 8)")
    p.add_argument("--idle", type=float, default=10.0, help="seconds per phase (default 10)")
    p.add_argument("--env", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--no-prefork", action="store_true", help="craits-web --no-prefork")
    p.add_argument("--against", default=None, help="a git ref to measure side by side")
    p.add_argument("--rounds", type=int, default=3, help="runs of each with --against")
    p.add_argument(
        "--plays", type=int, default=2, help="busy phases of --idle seconds each (default 2)"
    )
    p.add_argument(
        "--pages",
        action="store_true",
        help="after the play, a client's pages against the pre-forked client's (root)",
    )
    args = p.parse_args()
    if args.against:
        compare(args)
    else:
        asyncio.run(measure(args))


if __name__ == "__main__":
    main()
