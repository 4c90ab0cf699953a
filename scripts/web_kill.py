#!/usr/bin/env python3
"""How fast ``craits-server --web`` lets go of everything when it is killed with
SIGKILL: the seconds until its web port is free, until every process it started
(craits-web, the pre-forked client, the visitors' clients) has ended, and
whether the same command then starts again on the same ports.

Each trial starts ``craits-server --web`` (journal in a temporary directory),
opens ``--visitors`` visitors' client processes through the page the way a
browser does (the page, the name form, the terminal's websocket), kills the
server with SIGKILL, and watches the port and the processes from ``/proc``.

    .venv/bin/python scripts/web_kill.py --trials 5 --visitors 2

The figures go in docs/performance.md ("The web client's cost").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

CEILING = 30.0
"""Seconds waited at most for the port, the processes, a start."""


def free_port() -> int:
    """A TCP port free on the loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    """Whether something accepts connections on the loopback's ``port``."""
    try:
        socket.create_connection(("127.0.0.1", port), 0.5).close()
    except OSError:
        return False
    return True


def descendants(pid: int) -> set[int]:
    """Every process under ``pid``, from /proc."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = {int(c) for c in (task / "children").read_text().split()}
            except FileNotFoundError:
                continue
            todo += children - found
            found |= children
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` runs (not gone, not a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait(check: object, what: str) -> float:
    """Seconds until ``check()`` holds (at most :data:`CEILING`).

    Raises:
        TimeoutError: it did not.
    """
    start = time.monotonic()
    while not check():  # type: ignore[operator]
        if time.monotonic() - start > CEILING:
            raise TimeoutError(what)
        time.sleep(0.01)
    return time.monotonic() - start


async def open_visitor(url: str, name: str) -> aiohttp.ClientSession:
    """A visitor whose client process runs: the page, the name, the websocket."""
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with session.get(url + "/") as r:
        await r.text()
    async with session.post(url + "/name", data={"name": name}) as r:
        page = await r.text()
    found = re.search(r'data-session-websocket-url="([^"]+)"', page)
    assert found, page[:300]
    ws = await session.ws_connect(found[1] + "?width=100&height=30")
    await ws.receive(timeout=CEILING)  # the client has written: it runs
    return session


def start(
    command: list[str], game_port: int, web_port: int
) -> tuple[subprocess.Popen[bytes], float]:
    """Run ``command``; with the seconds until both ports listen."""
    began = time.monotonic()
    proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    wait(lambda: listening(game_port) and listening(web_port), "the server started")
    return proc, time.monotonic() - began


async def trial(visitors: int) -> tuple[float, float, float, int]:
    """One kill: (port free, processes gone, start again) in seconds, processes killed."""
    game_port, web_port = free_port(), free_port()
    with tempfile.TemporaryDirectory() as data:
        command = [
            *(sys.executable, "-m", "craits.server", f"--port={game_port}"),
            *(f"--web={web_port}", f"--data-dir={data}"),
        ]
        proc, _ = start(command, game_port, web_port)
        sessions = [
            await open_visitor(f"http://127.0.0.1:{web_port}", f"v{i}") for i in range(visitors)
        ]
        processes = descendants(proc.pid)
        proc.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        wait(lambda: not listening(web_port), "the web port freed")
        freed = time.monotonic() - killed
        wait(lambda: not any(running(p) for p in processes), "the processes ended")
        ended = time.monotonic() - killed
        proc.wait()
        for session in sessions:
            await session.close()
        again, restart = start(command, game_port, web_port)
        again.send_signal(signal.SIGTERM)
        again.wait(CEILING)
        return freed, ended, restart, len(processes)


def main() -> None:
    """Parse the command line, run the trials, print the figures."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=5, help="kills (default 5)")
    p.add_argument("--visitors", type=int, default=2, help="client processes open (default 2)")
    args = p.parse_args()
    results = []
    for i in range(args.trials):
        freed, ended, restart, n = asyncio.run(trial(args.visitors))
        results.append((freed, ended, restart))
        print(
            f"trial {i + 1}: {n} processes of the server; after SIGKILL the web port was free "
            f"in {freed:.3f} s, every process gone in {ended:.3f} s; the same command "
            f"served both ports again in {restart:.2f} s",
            flush=True,
        )
    for i, what in enumerate(("web port free", "every process gone", "started again")):
        values = [r[i] for r in results]
        print(f"{what}: median {statistics.median(values):.3f} s, max {max(values):.3f} s")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
