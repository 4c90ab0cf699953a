"""Real ``craits-server`` processes for tests: start one on a free port, open
players to it, stop it."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from craits.protocol.client import Connection

from tests.support.server import Player

SERVER = [sys.executable, "-m", "craits.server.ops.cli"]
"""The ``craits-server`` command, as this interpreter runs it."""


def free_port() -> int:
    """A TCP port free on the loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start_server(port: int, data: Path, *extra: str) -> asyncio.subprocess.Process:
    """``python -m craits.server.ops.cli`` with its journal in ``data``, no turn
    timeout, a 10 ms pause between hands and the rate limit lifted (test
    players act at machine speed, far above a person's 100/s) and ``extra``
    arguments; returns once it accepts connections.

    Raises:
        OSError: it did not accept a connection within 15 s, or it exited.
    """
    proc = await asyncio.create_subprocess_exec(
        *SERVER,
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--turn-timeout",
        "0",
        "--hand-pause",
        "0.01",
        "--rate",
        "100000",
        "--burst",
        "100000",
        "--analyse-finished",  # no background analyses here
        "0",
        *extra,
        stderr=asyncio.subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while True:
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return proc
        except OSError:
            if time.monotonic() > deadline or proc.returncode is not None:
                raise
            await asyncio.sleep(0.05)


async def open_player(port: int, name: str) -> Player:
    """A player connected (after ``hello``) to the server on ``port``."""
    return Player(await Connection.open("127.0.0.1", port, name=name), name)


async def stop_server(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM, then SIGKILL if it has not exited within 5 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), 5)
    except TimeoutError:
        proc.kill()
        await proc.wait()


def run_export(data: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``craits-server export --data-dir DATA --out OUT EXTRA…`` as a user runs it."""
    return subprocess.run(
        [*SERVER, "export", "--data-dir", str(data), "--out", str(out), *extra],
        capture_output=True,
        text=True,
    )
