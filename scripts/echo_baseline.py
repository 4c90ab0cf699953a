#!/usr/bin/env python3
"""The ceiling of this stack: a bare asyncio server echoing length-prefixed msgpack frames.

The server (its own process, like ``craits-server``) reads each frame with
``asyncio.start_server`` streams — a 4-byte big-endian length, then the
msgpack body — decodes it, encodes it again and writes it back. Nothing else:
no schema, no game, no timers. It reads frames by hand, not with
:class:`craits.protocol.wire.FrameReader` (which the real server and its
clients use), on purpose: it is the bare ceiling every figure in
``docs/performance.md`` was measured against, and stays so. The driver opens as many
connections as the load test would (4 per table), each in a closed loop
(send a frame, wait for its echo, send the next), alternating a message the
size of an ``act`` and one the size of an ``update`` (both built with the real
encoder from a real game), and prints frames per second through the server
(received + sent).

Run: ``python scripts/echo_baseline.py --connections 40 --duration 10``.
``scripts/loadtest.py --compare-echo`` runs :func:`measure` in the same run
as the real server's test and prints the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import time
from typing import Any

import msgpack  # type: ignore[import-untyped]  # msgpack ships no type information
from craits.protocol import encode
from craits.protocol.wire import HEADER
from craits.server.engine import Game, Rules, action_from_dict, event_dict_for, view


def sample_messages() -> tuple[dict[str, Any], dict[str, Any]]:
    """A real ``act`` and the ``update`` it causes (seat 0's copy), four players."""
    game, _ = Game.start(4, Rules(), random.Random(7))
    seat = game.to_act
    assert seat is not None
    choice = next(a for a in view(game, seat)["legal"] if "seat" in a)
    action = {k: v for k, v in choice.items() if k != "seat"}
    act = {"type": "act", "id": time.time_ns() // 1000, "action": action, "seq": 12}
    events = game.apply(action_from_dict(action, seat))
    update = {
        "type": "update",
        "table": "load-0001",
        "seq": 13,
        "events": [event_dict_for(e, 0) for e in events],
        "view": view(game, 0),
        "deadline_ms": None,
    }
    return act, update


# ------------------------------------------------------------------ server


async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            (n,) = HEADER.unpack(await reader.readexactly(4))
            message = msgpack.unpackb(await reader.readexactly(n), raw=False)
            writer.write(encode(message))
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def serve(host: str, port: int) -> None:
    """Echo frames on ``host:port`` until killed; prints ``echo listening on HOST:PORT``."""
    server = await asyncio.start_server(_echo, host, port, limit=64 * 1024 + 16, backlog=1024)
    print(f"echo listening on {host}:{server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


# ------------------------------------------------------------------ driver


class _Pinger(asyncio.Protocol):
    """One closed-loop connection: send a frame, wait for its echo, send the next."""

    def __init__(self, frames: list[bytes], counter: list[int]) -> None:
        self.frames = frames
        self.counter = counter
        self.i = 0
        self.buf = bytearray()
        self.transport: asyncio.Transport | None = None
        self.stopped = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def start(self) -> None:
        assert self.transport is not None
        self.transport.write(self.frames[0])

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        pos = 0
        while len(buf) - pos >= 4:
            (n,) = HEADER.unpack_from(buf, pos)
            if len(buf) - pos - 4 < n:
                break
            msgpack.unpackb(buf[pos + 4 : pos + 4 + n], raw=False)  # a client decodes too
            pos += 4 + n
            self.counter[0] += 2  # one frame into the server, one out
            if not self.stopped and self.transport is not None:
                self.i = (self.i + 1) % len(self.frames)
                self.transport.write(self.frames[self.i])
        del buf[:pos]


async def start_server_process(host: str = "127.0.0.1") -> tuple[asyncio.subprocess.Process, int]:
    """Start ``echo_baseline.py --serve`` on a free port; returns the process and port."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        os.path.abspath(__file__),
        "--serve",
        "--host",
        host,
        "--port",
        "0",
        stdout=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
    if not line.startswith("echo listening on"):
        proc.kill()
        raise RuntimeError(f"the echo server did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1])


async def measure(
    connections: int, duration: float, warmup: float = 1.0, host: str = "127.0.0.1"
) -> dict[str, Any]:
    """Run the echo server and ``connections`` closed-loop clients; frames per second.

    Returns:
        ``frames_per_s`` (frames through the server: in + out), ``echoes_per_s``,
        ``act_bytes``, ``update_bytes``, ``connections``, ``seconds``,
        ``server_cpu`` (share of one core).
    """
    act, update = sample_messages()
    frames = [encode(act), encode(update)]
    proc, port = await start_server_process(host)
    loop = asyncio.get_running_loop()
    counter = [0]
    clients: list[_Pinger] = []
    try:
        sem = asyncio.Semaphore(100)

        async def one() -> None:
            async with sem:
                _, p = await loop.create_connection(lambda: _Pinger(frames, counter), host, port)
            clients.append(p)

        await asyncio.gather(*(one() for _ in range(connections)))
        for p in clients:
            p.start()
        await asyncio.sleep(warmup)
        c0, t0, cpu0 = counter[0], time.perf_counter(), _cpu(proc.pid)
        await asyncio.sleep(duration)
        c1, t1, cpu1 = counter[0], time.perf_counter(), _cpu(proc.pid)
    finally:
        for p in clients:
            p.stopped = True
            if p.transport is not None:
                p.transport.close()
        proc.kill()
        await proc.wait()
    seconds = t1 - t0
    return {
        "connections": connections,
        "seconds": seconds,
        "frames_per_s": (c1 - c0) / seconds,
        "echoes_per_s": (c1 - c0) / 2 / seconds,
        "act_bytes": len(frames[0]),
        "update_bytes": len(frames[1]),
        "server_cpu": (cpu1 - cpu0) / seconds,
    }


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used, from ``/proc/PID/stat``."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    """Parse arguments; serve, or measure and print."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--connections", type=int, default=40, help="connections (default 40)")
    p.add_argument("--duration", type=float, default=10.0, help="seconds measured (default 10)")
    p.add_argument("--warmup", type=float, default=1.0, help="seconds before measuring")
    p.add_argument("--host", default="127.0.0.1", help="loopback address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--serve", action="store_true", help="only run the echo server")
    args = p.parse_args()
    if args.serve:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(serve(args.host, args.port))
        return
    r = asyncio.run(measure(args.connections, args.duration, args.warmup, args.host))
    print(
        f"echo baseline: {r['connections']} connections, frames of {r['act_bytes']} and "
        f"{r['update_bytes']} bytes, {r['seconds']:.1f} s"
    )
    print(
        f"  {r['frames_per_s']:,.0f} frames/s through the server "
        f"({r['echoes_per_s']:,.0f} echoes/s)"
    )
    print(f"  echo server CPU: {100 * r['server_cpu']:.0f}% of one core")


if __name__ == "__main__":
    main()
