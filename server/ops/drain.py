"""Draining a cluster node: it takes no new tables, lets its games end, then
stops (docs/cluster.md, "Operations").

A drain starts with a stop signal (SIGTERM, SIGINT, SIGHUP) to a node run with
``--drain-timeout``, or with ``craits-server drain`` (:func:`drain_main`),
which asks through the cluster's Redis, so no port is opened for it: the
command sets the key ``craits:drain:ADDR`` (its value: the seconds to wait)
and each node takes its own key out (``GETDEL``) at every heartbeat
(:class:`Drain`). A supervisor of ``--workers`` watches the key of its shared
address (``HOST:PORT``) and drains all its workers. A second signal while a
node drains stops it at once (the journal is closed cleanly all the same).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from craits.protocol.vocab import ErrorCode

from ..cluster.aio import stop_if_cancelled
from ..cluster.registry import NODES, PREFIX, node_key
from ..errors import TableError

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from ..app import Server
    from ..net.connection import Client

log = logging.getLogger("craits.server.cluster")

COMMAND_TIMEOUT = 1800.0
"""Seconds a node drained by the command waits for its games when neither the
command (``--timeout``) nor the node (``--drain-timeout``) says: half an hour,
about one game of 15 hands."""
CONFIRM = 10.0
"""Seconds ``craits-server drain`` waits for the node to take its request."""
EXIT_NOT_TAKEN = 1
"""``craits-server drain``'s status when no node took the request, or Redis is out of reach."""
EXIT_USAGE = 2


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


def refuse_new_game(client: Client) -> None:
    """Raise if ``client``'s node is draining: it starts no new game (docs/cluster.md).

    Raises:
        TableError: ``cannot_start``.
    """
    node = client.server.cluster
    if node is not None and node.draining:
        raise TableError(ErrorCode.CANNOT_START, "this server is stopping: no new games")


# ------------------------------------------------------------- the command


def build_drain_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server drain``."""
    p = argparse.ArgumentParser(
        prog="craits-server drain",
        description="Drain a node of a cluster: it takes no new tables or games, lets "
        "its games end, then stops. Asked through the cluster's Redis (no port is opened "
        "for it); the node takes the request within a heartbeat. Exit status 0: taken; "
        f"{EXIT_NOT_TAKEN}: no node took it (or Redis is out of reach).",
    )
    p.add_argument(
        "--cluster",
        default=None,
        metavar="redis://HOST:PORT",
        help="the cluster's Redis (default: the server's own setting: CRAITS_CLUSTER or "
        "the --config file's)",
    )
    p.add_argument(
        "--node",
        action="append",
        default=None,
        metavar="HOST:PORT",
        help="the node to drain, by its advertised address; the shared address of a "
        "--workers server drains all its workers; may be repeated (default: this "
        "machine's server, from its settings)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop after this long even if games are running (default: the node's "
        f"--drain-timeout, or {COMMAND_TIMEOUT:g} when it has none)",
    )
    p.add_argument(
        "--confirm",
        type=float,
        default=CONFIRM,
        metavar="SECONDS",
        help=f"how long the node has to take the request (default {CONFIRM:g}; a node "
        "looks once a heartbeat)",
    )
    p.add_argument("--wait", action="store_true", help="return once the node has stopped")
    p.add_argument("--list", action="store_true", help="list the cluster's nodes and exit")
    p.add_argument(
        "--config", default=None, metavar="FILE", help="the server's TOML settings (for defaults)"
    )
    return p


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


def _defaults(args: argparse.Namespace) -> tuple[str | None, list[str]]:
    """The Redis and nodes the command is about: its options, else the server's settings."""
    from ..cluster.start import advertised
    from . import config as settings
    from .cli import build_parser

    server = settings.resolve(
        build_parser(), [] if args.config is None else ["--config", args.config]
    )
    values = server.values
    url = args.cluster or values.cluster
    nodes = args.node or [advertised(values.advertise, values.host, values.port)]
    return (str(url).replace("valkey://", "redis://", 1) if url else None), nodes


async def _command(args: argparse.Namespace, url: str, nodes: list[str]) -> int:
    if args.list:
        for s in await node_states(url):
            shown = "down" if s.get("down") else ("draining" if s.get("draining") else "up")
            tables, connections = s.get("tables", "-"), s.get("connections", "-")
            print(f"{s['address']}\t{shown}\ttables {tables}\tconnections {connections}")
        return 0
    status = 0
    for address in nodes:
        if await request_drain(url, address, args.timeout, args.confirm):
            print(f"craits-server drain: {address} is draining", file=sys.stderr)
        else:
            print(
                f"craits-server drain: no node at {address} took the request within "
                f"{args.confirm:g}s (is it running, in the cluster at {url}?)",
                file=sys.stderr,
            )
            status = EXIT_NOT_TAKEN
    if args.wait and status == 0:
        for address in nodes:
            await wait_gone(url, address)
            print(f"craits-server drain: {address} has stopped", file=sys.stderr)
    return status


def drain_main(argv: list[str]) -> int:
    """``craits-server drain``: ask nodes of a cluster to drain (or list them); the exit status."""
    args = build_drain_parser().parse_args(argv)
    if (args.timeout is not None and not args.timeout >= 0) or not args.confirm > 0:
        print("craits-server drain: --timeout must be >= 0, --confirm > 0", file=sys.stderr)
        return EXIT_USAGE
    try:
        url, nodes = _defaults(args)
    except Exception as exc:  # the server's settings cannot be read: said in one line
        print(f"craits-server drain: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if url is None:
        print("craits-server drain: no cluster: give --cluster redis://HOST:PORT", file=sys.stderr)
        return EXIT_USAGE
    try:
        import redis  # noqa: F401
    except ImportError:
        print(
            "craits-server drain: needs the redis package: pip install 'craits[cluster]'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from redis.exceptions import RedisError

    try:
        return asyncio.run(_command(args, url, nodes))
    except (RedisError, OSError) as exc:
        print(f"craits-server drain: cannot reach Redis at {url}: {exc}", file=sys.stderr)
        return EXIT_NOT_TAKEN
    except KeyboardInterrupt:
        return 130
