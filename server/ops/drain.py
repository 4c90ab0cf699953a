"""Draining a cluster node: it takes no new tables, lets its games end, then
stops (docs/cluster.md, "Operations").

A drain starts with a stop signal (SIGTERM, SIGINT, SIGHUP) to a node run with
``--drain-timeout``, or with ``craits-server drain``
(:func:`craits.server.ops.commands.drain_main`),
which asks through the cluster's Redis, so no port is opened for it: the
command sets the key ``craits:drain:ADDR`` (its value: the seconds to wait)
and each node takes its own key out (``GETDEL``) at every heartbeat
(:class:`Drain`). A supervisor of ``--workers`` watches the key of its shared
address (``HOST:PORT``) and drains all its workers. A second signal while a
node drains stops it at once (the journal is closed cleanly all the same).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..cluster.aio import stop_if_cancelled
from ..cluster.registry import NODES, PREFIX, node_key

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from ..app import Server

log = logging.getLogger("craits.server.cluster")

COMMAND_TIMEOUT = 1800.0
"""Seconds a node drained by the command waits for its games when neither the
command (``--timeout``) nor the node (``--drain-timeout``) says: half an hour,
about one game of 15 hands."""
CONFIRM = 10.0
"""Seconds ``craits-server drain`` waits for the node to take its request."""


def drain_key(address: str) -> str:
    """The key a drain request for the node (or ``--workers`` supervisor) at
    ``address`` is set at."""
    return f"{PREFIX}drain:{address}"


def client(url: str, timeout: float = 2.0) -> Redis:
    """A Redis client for ``url`` with ``timeout`` seconds to connect and for each answer."""
    from redis.asyncio import Redis

    return Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)


def _seconds(raw: bytes | str) -> float | None:
    """The seconds a drain request asks to wait (None: the node's own)."""
    try:
        value = json.loads(raw)
        seconds = value.get("timeout") if isinstance(value, dict) else None
        return float(seconds) if isinstance(seconds, int | float) and seconds >= 0 else None
    except ValueError:
        return None


async def watch(
    url: str, address: str, every: float, asked: Callable[[float | None], None]
) -> None:
    """Look for a drain request for ``address`` every ``every`` seconds (taking
    it out as it is read) until one comes: call ``asked`` with its timeout (None:
    the node's own) and return. Redis out of reach: try again at the next look."""
    from redis.exceptions import RedisError

    redis = client(url, max(1.0, 2 * every))
    try:
        while True:
            try:
                raw = await redis.getdel(drain_key(address))
            except (RedisError, OSError) as exc:
                stop_if_cancelled()
                log.debug("drain: cannot look for a request (%s)", exc)
                raw = None
            stop_if_cancelled()  # redis-py may have swallowed it (aio.py)
            if raw is not None:
                asked(_seconds(raw))
                return
            await asyncio.sleep(every)
    finally:
        with contextlib.suppress(Exception):
            await redis.aclose()


class Drain:
    """A server's stop, with a drain first when it is a cluster node.

    ``stop`` is the event the stop signals set. :meth:`watch` also sets it when
    ``craits-server drain`` asks; :meth:`wait` then, for a cluster node with a
    timeout (the command's, or ``--drain-timeout``), has it take no new tables
    and waits until none of its tables has a game running, the timeout is over,
    or ``stop`` is set again (a second signal).
    """

    def __init__(self, server: Server, stop: asyncio.Event) -> None:
        self.server = server
        self.stop = stop
        self.timeout = server.config.drain_timeout
        """Seconds the drain waits at most (0: the node stops at once)."""
        self._task: asyncio.Task[None] | None = None

    def watch(self) -> None:
        """Watch for ``craits-server drain`` (a cluster node only)."""
        node = self.server.cluster
        if node is not None:
            self._task = asyncio.create_task(
                watch(node.url, node.address, node.heartbeat, self._asked)
            )

    def _asked(self, timeout: float | None) -> None:
        if timeout is None:
            timeout = self.timeout if self.timeout > 0 else COMMAND_TIMEOUT
        self.timeout = timeout
        log.info("drain: asked by craits-server drain")
        self.stop.set()

    async def wait(self) -> None:
        """The stop came (``stop`` is set): drain first (see the class), or return at once."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        node = self.server.cluster
        if node is None or self.timeout <= 0:
            return
        node.draining = True
        self.stop.clear()
        server = self.server
        log.info(
            "draining: no new tables or games; waiting up to %gs for the games to end", self.timeout
        )
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.timeout
        while any(t.status.playing for t in server.tables.values()) and loop.time() < give_up:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(min(0.5, max(0.0, give_up - loop.time()))):
                    await self.stop.wait()
            if self.stop.is_set():
                log.info("draining: stopping at once, as told again")
                return
        log.info("drained" if loop.time() < give_up else "drain: timed out; stopping")


# ------------------------------------------------------------- the command


async def request_drain(
    url: str, address: str, timeout: float | None, confirm: float = CONFIRM
) -> bool:
    """Ask the node at ``address`` to drain; whether it took the request within
    ``confirm`` seconds (if not, the request is taken back).

    Raises:
        redis.exceptions.RedisError, OSError: Redis is out of reach.
    """
    redis = client(url)
    key = drain_key(address)
    try:
        await redis.set(key, json.dumps({"timeout": timeout}), ex=max(1, round(confirm) + 5))
        loop = asyncio.get_running_loop()
        give_up = loop.time() + confirm
        while loop.time() < give_up:
            if not await redis.exists(key):
                return True
            await asyncio.sleep(0.1)
        return not await redis.delete(key)  # taken just now: the key is gone all the same
    finally:
        await redis.aclose()


async def node_states(url: str) -> list[dict[str, Any]]:
    """Every node the cluster has seen: its heartbeat's state (``address``,
    ``tables``, ``connections``, ``draining``), or ``{"address", "down": True}``.

    Raises:
        redis.exceptions.RedisError, OSError: Redis is out of reach.
    """
    redis = client(url)
    try:
        found = await redis.smembers(NODES)
        members = sorted(m.decode() if isinstance(m, bytes) else str(m) for m in found)
        raws = await redis.mget([node_key(a) for a in members]) if members else []
    finally:
        await redis.aclose()
    states: list[dict[str, Any]] = []
    for address, raw in zip(members, raws, strict=True):
        state = json.loads(raw) if raw is not None else None
        states.append(state if isinstance(state, dict) else {"address": address, "down": True})
    return states


async def wait_gone(url: str, address: str, every: float = 0.5) -> None:
    """Return once the node at ``address`` has no heartbeat key (it stopped).

    Raises:
        redis.exceptions.RedisError, OSError: Redis is out of reach.
    """
    redis = client(url)
    try:
        while await redis.exists(node_key(address)):
            await asyncio.sleep(every)
    finally:
        await redis.aclose()
