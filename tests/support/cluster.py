"""A real ``redis-server`` on a free loopback port, and cluster nodes on it.

Skipped, with the reason printed (``-rs``), where ``redis-server`` (Debian's
``redis-server`` package, installed by ``.ci/run``) or the ``redis`` package
(``craits[cluster]``) is absent.
"""

from __future__ import annotations

import asyncio
import importlib.util
import shutil
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig

from tests.support.processes import free_port
from tests.support.server import Player

REDIS_SERVER = shutil.which("redis-server")
HEARTBEAT = 0.25
"""The nodes' heartbeat in these tests (seconds): a node is down after four."""


class RedisProcess:
    """A throwaway redis-server: no snapshots, no append-only file."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        """Start it; returns once it accepts connections.

        Raises:
            OSError: it did not within 10 s.
        """
        assert REDIS_SERVER is not None
        self.proc = await asyncio.create_subprocess_exec(
            REDIS_SERVER,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                r, w = await asyncio.open_connection("127.0.0.1", self.port)
                w.write(b"PING\r\n")
                await w.drain()
                line = await asyncio.wait_for(r.readline(), 1)
                w.close()
                if line.startswith(b"+PONG"):
                    return
            except (OSError, TimeoutError):
                pass
            if time.monotonic() > deadline or self.proc.returncode is not None:
                raise OSError("redis-server did not start")
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        """Kill it (its data is gone: it keeps none)."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        self.proc = None


@pytest.fixture
async def redis() -> AsyncIterator[RedisProcess]:
    """A real redis-server on a free port, killed after the test."""
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    if importlib.util.find_spec("redis") is None:
        pytest.skip("the redis package is not installed (pip install 'craits[cluster]')")
    proc = RedisProcess(free_port())
    await proc.start()
    yield proc
    await proc.stop()


def node_config(url: str, data: Path | None = None, port: int = 0) -> ServerConfig:
    """A node's settings: the test server's fast ones, in the cluster at ``url``."""
    return ServerConfig(
        host="127.0.0.1",
        port=port,
        analyse_finished=0,  # no background analyses (their own tests turn them on)
        heartbeat=5.0,
        turn_timeout=0.0,
        hand_pause=0.01,
        bot_delay=0.0,
        away_delay=0.0,
        rate=100_000.0,
        burst=100_000.0,
        data_dir=data,
        cluster=url,
        cluster_heartbeat=HEARTBEAT,
    )


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``check()`` holds.

    Raises:
        AssertionError: it did not within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


def address(server: Server) -> str:
    """The node's advertised address."""
    return f"127.0.0.1:{server.port}"


async def start_nodes(configs: list[ServerConfig]) -> list[Server]:
    """Start a node with each config; returns once each sees all the others."""
    servers = [Server(config) for config in configs]
    for s in servers:
        await s.start()
    others = len(servers) - 1
    await until(lambda: all(s.cluster and len(s.cluster.lobby.nodes) == others for s in servers))
    return servers


@pytest.fixture
async def nodes(redis: RedisProcess) -> AsyncIterator[list[Server]]:
    """Three nodes, A, B and C, in one cluster, each seeing the two others."""
    servers = await start_nodes([node_config(redis.url) for _ in range(3)])
    yield servers
    for s in servers:
        await s.stop()


@pytest.fixture
async def open_player() -> AsyncIterator[Callable[..., Any]]:
    """Open named players to a port; all closed after the test."""
    opened: list[Player] = []

    async def _open(port: int, name: str) -> Player:
        player = Player(await Connection.open("127.0.0.1", port, name=name), name)
        opened.append(player)
        return player

    yield _open
    for p in opened:
        await p.close()
