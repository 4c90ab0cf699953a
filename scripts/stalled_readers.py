#!/usr/bin/env python3
"""Stalled readers: what N spectators that stop reading pin on the server, and how soon they go.

Starts a server subprocess (``python -m craits.server`` of the Python that
runs this script, so a second checkout's interpreter measures that checkout)
on a free loopback port without a journal, seats network bots at one table
(``craits.server.bots.network.bot.BotClient``, playing game after game with
``--think-ms`` between decisions), and opens ``--spectators`` raw connections
that say ``hello``, ``spectate`` the table, read its ``state`` and then never
read again (their receive buffer is left as the kernel sets it), while they
still send a ``ping`` every ``--ping`` seconds, so that the heartbeat (which
drops a connection silent for two intervals) does not end them first.

Every ``--every`` seconds, for ``--seconds`` seconds, it reads with ``ss``
the server's sockets of those spectators (their state; ``Send-Q``; the kernel
memory queued for sending, ``skmem`` ``w``), ``/proc/net/sockstat`` (TCP
memory of the whole machine, both ends of every loopback connection) and the
server's RSS. A spectator counts as dropped once the server's socket for it
has left ``ESTAB``; one that stays in ``FIN-WAIT``/``LAST-ACK`` as an orphan
still holds its kernel memory, and is counted in ``orphan_kib``.

Printed (and with ``--json``, as JSON): the update rate a spectator is sent
(bytes per second, from the one spectator that keeps reading), the time until
each stalled spectator was dropped (min, median, max; or how many were never
dropped), and the peaks of the server's kernel send memory for the stalled
spectators (total, and the largest single socket), of sockstat's TCP memory
and of the server's RSS.

Examples::

    python scripts/stalled_readers.py --spectators 100 --think-ms 20 --seconds 60
    /tmp/other-checkout/.venv/bin/python scripts/stalled_readers.py --spectators 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from craits.protocol import MAX_SERVER_FRAME, VERSION, decode, encode
from craits.protocol.wire import FrameReader
from craits.server.bots.network.bot import BotClient

PAGE = os.sysconf("SC_PAGE_SIZE")
_SS_LINE = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\S+):(\d+)\s+(\S+):(\d+)")
_SKMEM = re.compile(r"skmem:\(([^)]*)\)")


def sockstat_tcp_kib() -> int:
    """The machine's TCP socket memory (``/proc/net/sockstat``, ``TCP: … mem``), KiB."""
    with open("/proc/net/sockstat") as f:
        for line in f:
            if line.startswith("TCP:"):
                parts = line.split()
                return int(parts[parts.index("mem") + 1]) * PAGE // 1024
    return 0


def rss_kib(pid: int) -> int:
    """``VmRSS`` of process ``pid``, KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class SockRow:
    """One of the server's sockets as ``ss -tmna`` shows it."""

    state: str
    send_q: int
    peer_port: int
    queued: int
    """``skmem`` ``w``: bytes the kernel holds queued for sending."""


def server_sockets(port: int) -> dict[int, SockRow]:
    """The server's sockets on ``port`` by the peer's port (``ss -tmna``)."""
    out = subprocess.run(
        ["ss", "-tmnaH", f"sport = :{port}"], capture_output=True, text=True, check=True
    ).stdout
    rows: dict[int, SockRow] = {}
    last: SockRow | None = None
    for line in out.splitlines():
        m = _SS_LINE.match(line.strip())
        if m:
            last = SockRow(m[1], int(m[3]), int(m[7]), 0)
            rows[last.peer_port] = last
            continue
        s = _SKMEM.search(line)
        if s and last is not None:
            fields = dict(
                (item.rstrip("0123456789"), int(item.lstrip("rtbfwold") or 0))
                for item in s[1].split(",")
            )
            last.queued = fields.get("w", 0)
    return rows


class Spectator(asyncio.Protocol):
    """A spectator: hello, spectate, the ``state``; then it stops reading (``stall``)."""

    def __init__(self, table: str, stall: bool, ping: float = 0.0) -> None:
        self.table = table
        self.stall = stall
        self.ping = ping
        self._pinger: asyncio.TimerHandle | None = None
        self.reader = FrameReader(MAX_SERVER_FRAME)
        self.transport: asyncio.Transport | None = None
        self.watching: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.received = 0
        self.port = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.port = transport.get_extra_info("sockname")[1]
        transport.write(encode({"type": "hello", "version": VERSION, "name": "stalled"}))
        transport.write(encode({"type": "spectate", "table": self.table}))

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        for body in self.reader.feed(data):
            msg = decode(body, MAX_SERVER_FRAME, depth=16, check_values=False)
            if msg.get("type") == "state" and not self.watching.done():
                self.watching.set_result(None)
                if self.stall and self.transport is not None:
                    self.transport.pause_reading()  # from now on the socket is never read
                    self._send_ping()
            elif msg.get("type") == "ping" and self.transport is not None and not self.stall:
                self.transport.write(encode({"type": "pong"}))

    def _send_ping(self) -> None:
        """Say something now and then: alive for the heartbeat, though never reading."""
        if self.ping > 0 and self.transport is not None and not self.transport.is_closing():
            self.transport.write(encode({"type": "ping"}))
            loop = asyncio.get_running_loop()
            self._pinger = loop.call_later(self.ping, self._send_ping)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
        if not self.watching.done():
            self.watching.set_exception(ConnectionError("closed before the state"))


@dataclass
class Watch:
    """What was seen of the stalled spectators over the run."""

    dropped_at: dict[int, float] = field(default_factory=dict)
    peak_queued_total: int = 0
    peak_queued_one: int = 0
    peak_orphan: int = 0
    peak_sockstat: int = 0
    peak_rss: int = 0
    last_orphan: int = 0

    def sample(self, ports: set[int], rows: dict[int, SockRow], elapsed: float) -> None:
        """Note one reading of the server's sockets."""
        total = orphan = 0
        for port in ports:
            row = rows.get(port)
            if row is None or row.state != "ESTAB":
                self.dropped_at.setdefault(port, elapsed)
            if row is None:
                continue
            if row.state == "ESTAB":
                total += row.queued
                self.peak_queued_one = max(self.peak_queued_one, row.queued)
            else:
                orphan += row.queued
        self.peak_queued_total = max(self.peak_queued_total, total)
        self.peak_orphan = max(self.peak_orphan, orphan)
        self.last_orphan = orphan


async def start_server(extra: list[str]) -> tuple[subprocess.Popen[bytes], int]:
    """A server subprocess on a free port; returns it and its port."""
    cmd = [sys.executable, "-m", "craits.server", "--host", "127.0.0.1", "--port", "0"]
    cmd += ["--no-journal", "--turn-timeout", "0", "--hand-pause", "0"]
    cmd += ["--rate", "1000000", "--burst", "1000000", "--log-level", "warning"]
    cmd += ["--max-connections-per-address", "0", *extra]  # every reader is 127.0.0.1
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    loop = asyncio.get_running_loop()
    while True:
        line = (await loop.run_in_executor(None, proc.stderr.readline)).decode()
        if not line:
            raise SystemExit("stalled_readers: the server did not start")
        if "listening on" in line:
            port = int(line.split("listening on", 1)[1].split()[0].rsplit(":", 1)[1])
            break
    loop.run_in_executor(None, proc.stderr.read)  # keep its pipe drained
    return proc, port


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Seat the bots, stall the spectators, watch; returns the figures."""
    proc, port = await start_server(args.server_arg)
    loop = asyncio.get_running_loop()
    bots: list[BotClient] = []
    try:
        for k in range(args.seats):
            bot = BotClient(
                "busy",
                f"bot{k}",
                think=args.think_ms / 1000,
                create=args.seats if k == 0 else None,
                games=0,
                rng=random.Random(k),
            )
            await loop.create_connection(lambda b=bot: b.link, "127.0.0.1", port)  # type: ignore[misc]
            await asyncio.wait_for(bot.joined, 10)
            bots.append(bot)
        reader_ = Spectator("busy", stall=False)  # keeps reading: the rate a spectator is sent
        await loop.create_connection(lambda: reader_, "127.0.0.1", port)
        await asyncio.wait_for(reader_.watching, 10)
        stalled: list[Spectator] = []
        for _ in range(args.spectators):
            s = Spectator("busy", stall=True, ping=args.ping)
            sock = socket.socket()
            if args.rcvbuf:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, args.rcvbuf)
            sock.setblocking(False)
            await loop.sock_connect(sock, ("127.0.0.1", port))
            await loop.create_connection(lambda s=s: s, sock=sock)  # type: ignore[misc]
            await asyncio.wait_for(s.watching, 10)
            stalled.append(s)
        ports = {s.port for s in stalled}
        watch = Watch()
        rss0, mem0 = rss_kib(proc.pid), sockstat_tcp_kib()
        t0 = time.monotonic()
        got0 = reader_.received
        end = args.seconds
        while (elapsed := time.monotonic() - t0) < end:
            rows = await loop.run_in_executor(None, server_sockets, port)
            watch.sample(ports, rows, elapsed)
            watch.peak_sockstat = max(watch.peak_sockstat, sockstat_tcp_kib())
            watch.peak_rss = max(watch.peak_rss, rss_kib(proc.pid))
            if len(watch.dropped_at) == len(ports):
                end = min(end, elapsed + 5.0)  # all gone: a few more readings, for orphans
            await asyncio.sleep(args.every)
        seconds = time.monotonic() - t0
        rate = (reader_.received - got0) / seconds
    finally:
        for b in bots:
            b.close()
        proc.terminate()
        proc.wait(10)
    drops = sorted(watch.dropped_at.values())
    return {
        "spectators": args.spectators,
        "seats": args.seats,
        "think_ms": args.think_ms,
        "server_args": args.server_arg,
        "observed_s": round(seconds, 1),
        "spectator_bytes_per_s": round(rate),
        "dropped": len(drops),
        "never_dropped": args.spectators - len(drops),
        "drop_s": {
            "min": round(drops[0], 1),
            "median": round(statistics.median(drops), 1),
            "max": round(drops[-1], 1),
        }
        if drops
        else None,
        "peak_server_send_kib": {
            "stalled_total": watch.peak_queued_total // 1024,
            "largest_one": watch.peak_queued_one // 1024,
            "orphans_total": watch.peak_orphan // 1024,
            "orphans_at_the_end": watch.last_orphan // 1024,
        },
        "sockstat_tcp_kib": {"before": mem0, "peak": watch.peak_sockstat},
        "server_rss_kib": {"before": rss0, "peak": watch.peak_rss},
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--spectators", type=int, default=100, help="stalled spectators (100)")
    p.add_argument("--seats", type=int, default=4, help="bots at the busy table (4)")
    p.add_argument("--think-ms", type=float, default=20.0, help="the bots' think time (20)")
    p.add_argument("--seconds", type=float, default=60.0, help="longest watch (60)")
    p.add_argument("--every", type=float, default=0.5, help="seconds between readings (0.5)")
    p.add_argument("--ping", type=float, default=5.0, help="a stalled one's ping interval (5)")
    p.add_argument("--rcvbuf", type=int, default=0, help="the spectators' SO_RCVBUF (kernel's)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument(
        "--server-arg", action="append", default=[], help="an extra craits-server argument"
    )
    args = p.parse_args()
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=1))
        return
    d = result["drop_s"]
    peak = result["peak_server_send_kib"]
    print(
        f"{result['spectators']} stalled spectators at a table of {result['seats']} bots "
        f"(think {result['think_ms']:g} ms, a spectator is sent "
        f"{result['spectator_bytes_per_s'] / 1024:.1f} KiB/s), watched {result['observed_s']} s"
    )
    if d:
        print(
            f"  dropped: {result['dropped']} (after {d['min']} s min, {d['median']} s median, "
            f"{d['max']} s max); never dropped: {result['never_dropped']}"
        )
    else:
        print(f"  dropped: none of {result['spectators']}")
    print(
        f"  server's kernel send memory for them, peak: {peak['stalled_total']} KiB in all, "
        f"{peak['largest_one']} KiB the largest socket; orphaned after the drop: "
        f"{peak['orphans_total']} KiB at most, {peak['orphans_at_the_end']} KiB at the end"
    )
    s, r = result["sockstat_tcp_kib"], result["server_rss_kib"]
    print(f"  sockstat TCP memory: {s['before']} KiB before, {s['peak']} KiB peak")
    print(f"  server RSS: {r['before']} KiB before, {r['peak']} KiB peak")


if __name__ == "__main__":
    main()
