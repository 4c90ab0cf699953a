"""``craits-server --workers N``: N nodes of a cluster behind one address, to
use more cores of one machine (docs/cluster.md).

The supervisor starts a Redis of its own (``redis-server`` or
``valkey-server`` on a free loopback port, keeping nothing on disk) unless
``--cluster`` names one, then N workers: each is ``craits-server`` with the
same options, its own port (a free one, which it advertises), its own data
directory (``DATA_DIR/worker-I``), and the shared port (``--port``), which
all of them accept on (``SO_REUSEPORT``: the kernel spreads the connections).
A client that reaches the wrong worker is redirected to the right one's own
port (protocol §7.4). A worker that exits is started again after a second, on
its data directory: it takes its tables back. SIGINT or SIGTERM stops them
all, then the Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import shutil
import signal
import socket
import sys
from pathlib import Path

log = logging.getLogger("craits.server.cluster")

REDIS_PROGRAMS = ("redis-server", "valkey-server")
"""The programs a supervisor may start as its Redis, in order of preference."""
PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a child gets when its parent dies (Linux)."""
RESTART_DELAY = 1.0
"""Seconds before a worker that exited is started again."""


def _die_with_parent() -> None:
    """In a child, before it runs: on Linux, have the kernel send it SIGTERM
    when the supervisor dies (even by SIGKILL), so no worker or Redis is left."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def find_redis() -> str | None:
    """The path of ``redis-server`` or ``valkey-server``, or None."""
    for program in REDIS_PROGRAMS:
        found = shutil.which(program)
        if found:
            return found
    return None


async def start_redis(program: str) -> tuple[asyncio.subprocess.Process, str]:
    """Start ``program`` on a free loopback port, keeping nothing on disk;
    returns it and its URL once it answers.

    Raises:
        OSError: it did not answer within 10 s.
    """
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        program,
        *("--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        preexec_fn=_die_with_parent,
    )
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 10
    while loop.time() < give_up and proc.returncode is None:
        with contextlib.suppress(OSError, TimeoutError):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"PING\r\n")
            line = await asyncio.wait_for(reader.readline(), 1)
            writer.close()
            if line.startswith(b"+PONG"):
                return proc, f"redis://127.0.0.1:{port}"
        await asyncio.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    raise OSError(f"{program} did not start")


def worker_argv(argv: list[str], index: int, url: str, port: int, data: Path | None) -> list[str]:
    """A worker's command line: the supervisor's, without ``--workers``, then
    what each worker has of its own (argparse keeps an option's last value)."""
    own = [a for a in argv if not a.startswith("--workers")]
    if "--workers" in argv:  # the value after a separate "--workers"
        at = argv.index("--workers")
        own = argv[:at] + argv[at + 2 :]
    extra = ["--port", "0", "--shared-port", str(port), "--cluster", url]
    if data is not None:
        extra += ["--data-dir", str(data / f"worker-{index}")]
    return [sys.executable, "-m", "craits.server.cli", *own, *extra]


async def supervise(
    n: int,
    argv: list[str],
    port: int,
    cluster: str | None,
    data: Path | None,
    drain_timeout: float = 0.0,
) -> int:
    """Run ``n`` workers (and a Redis, unless ``cluster`` names one) until
    SIGINT or SIGTERM; returns the exit status. Each worker is given
    ``drain_timeout`` + 10 seconds to stop (it drains first, docs/cluster.md).

    Raises:
        OSError: no Redis program to start, or it did not start.
    """
    redis: asyncio.subprocess.Process | None = None
    url = cluster
    if url is None:
        program = find_redis()
        if program is None:
            raise OSError("--workers needs --cluster, or redis-server/valkey-server installed")
        redis, url = await start_redis(program)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"craits-server: {n} workers on port {port}, Redis {url}", file=sys.stderr, flush=True)
    try:
        runs = [
            asyncio.create_task(
                _keep(worker_argv(argv, i, url, port, data), stop, drain_timeout + 10)
            )
            for i in range(n)
        ]
        await stop.wait()
        await asyncio.gather(*runs)
    finally:
        if redis is not None and redis.returncode is None:
            redis.kill()
            await redis.wait()
    return 0


async def _keep(cmd: list[str], stop: asyncio.Event, grace: float) -> None:
    """Run one worker; start it again when it exits, until ``stop``; then
    SIGTERM it, and SIGKILL it if it has not exited within ``grace`` seconds."""
    while not stop.is_set():
        proc = await asyncio.create_subprocess_exec(*cmd, preexec_fn=_die_with_parent)
        stopping = asyncio.create_task(stop.wait())
        exited = asyncio.create_task(proc.wait())
        await asyncio.wait({stopping, exited}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), grace)
            except TimeoutError:
                proc.kill()
                await proc.wait()
            return
        log.warning("a worker exited (status %s); starting it again", proc.returncode)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), RESTART_DELAY)
