"""A node's link to the cluster's Redis (or Valkey): heartbeat, its tables'
public info and load out, the other nodes' in (docs/cluster.md).

:class:`ClusterNode` runs one background task. While Redis answers, it keeps
``craits:node:ADDR`` alive (a key with a TTL of four heartbeats), writes each
change of this node's tables to ``craits:tables:ADDR`` and publishes it on
``craits:lobby``, and keeps :attr:`ClusterNode.lobby`, the in-memory copy of
the other live nodes' tables, from that channel and a look at every node's
key each heartbeat. When Redis is out of reach it empties that copy (the
lobby falls back to this node's tables, with a notice to the watchers) and
tries again every heartbeat; when Redis is back it writes everything again
and reads every node's tables. Nothing a table does waits on it: changes are
queued (:meth:`ClusterNode.table_changed`) and written, coalesced, by the task.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any, Protocol, cast

from craits.protocol.types import ErrorMsg, TableClosedMsg, TableInfo, TableInfoMsg
from craits.protocol.vocab import ErrorCode, ServerMessage
from craits.server.cluster.aio import stop_if_cancelled
from craits.server.cluster.lobby import Changes, RemoteLobby

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger("craits.server.cluster")

PREFIX = "craits:"
NODES = PREFIX + "nodes"
"""The set of the addresses of every node ever seen."""
CHANNEL = PREFIX + "lobby"
"""The pub/sub channel of lobby changes."""
TTL_BEATS = 4
"""A node's key lives this many heartbeats unless renewed."""
MISSING = "the cluster needs the redis package: pip install 'craits[cluster]'"


def node_key(address: str) -> str:
    """The heartbeat key of the node at ``address``."""
    return f"{PREFIX}node:{address}"


def tables_key(address: str) -> str:
    """The hash of the tables of the node at ``address`` (name → JSON table info)."""
    return f"{PREFIX}tables:{address}"


def _dump(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Host(Protocol):
    """What the node needs of its server."""

    def local_names(self) -> list[str]:
        """The names of this node's tables."""

    def local_info(self, name: str) -> TableInfo | None:
        """This node's table ``name``'s public info (protocol §10), as its
        lobby lists it; None if it has no such table."""

    def local_load(self) -> int:
        """This node's load: its connections."""

    def tell_lobby(self, message: TableInfoMsg | TableClosedMsg | ErrorMsg) -> None:
        """Send ``message`` to every lobby watcher not at a table (protocol §7.2)."""


class ClusterNode:
    """This node's part in a cluster: see the module's docstring.

    Args:
        host: the server.
        url: Redis's URL, ``redis://HOST:PORT[/DB]``.
        address: this node's advertised ``HOST:PORT`` (its name in Redis too).
        heartbeat: seconds between heartbeats (the key lives four).

    Raises:
        RuntimeError: the ``redis`` package is not installed (``craits[cluster]``).
    """

    def __init__(self, host: Host, url: str, address: str, heartbeat: float = 1.0) -> None:
        try:
            import redis.asyncio  # noqa: F401  (an optional extra: said plainly when absent)
        except ImportError:
            raise RuntimeError(MISSING) from None
        self.host = host
        self.url = url
        self.address = address
        self.heartbeat = heartbeat
        self.lobby = RemoteLobby()
        """The other live nodes' tables and loads (empty while Redis is out of reach)."""
        self.connected = False
        """Whether Redis answers (this node's lobby lists the cluster's tables)."""
        self.draining = False
        """Whether the node is stopping: it takes no new tables (docs/cluster.md)."""
        self.started = time.time()
        self._pending: dict[str, bool] = {}
        """Table name → True (changed) or False (closed), not yet written."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        """Set once Redis answered and the other nodes' tables were read."""
        self.listeners: list[asyncio.Server] = []
        """Listeners of the node besides its server's (a worker's shared port)."""

    # ------------------------------------------------------------- the server's calls

    def start(self) -> None:
        """Start the background task (Redis may be down: it keeps trying)."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop the task and, if Redis answers within a second, take this
        node's key out (its tables stay in Redis, for its restart)."""
        for listener in self.listeners:
            listener.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self.connected:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(1.0):
                    redis = self._client()
                    try:
                        await redis.delete(node_key(self.address))
                    finally:
                        await redis.aclose()
        self.connected = False

    def table_changed(self, name: str) -> None:
        """The table called ``name`` was created or changed: write it soon."""
        self._pending[name] = True
        self._wake.set()

    def table_closed(self, name: str) -> None:
        """The table called ``name`` closed: take it out soon."""
        self._pending[name] = False
        self._wake.set()

    # ------------------------------------------------------------------ the task

    def _client(self) -> Redis:
        from redis.asyncio import Redis

        timeout = max(1.0, 2 * self.heartbeat)
        return Redis.from_url(self.url, socket_timeout=timeout, socket_connect_timeout=timeout)

    async def _run(self) -> None:
        """Connect, serve, and on any failure fall back and try again each heartbeat."""
        from redis.exceptions import RedisError

        while True:
            stop_if_cancelled()  # redis-py may swallow a cancellation (aio.py)
            try:
                await self._session()
            except (RedisError, OSError, ValueError) as exc:
                if self.connected:
                    log.warning("cluster: lost Redis (%s); the lobby lists this node only", exc)
                else:
                    log.info("cluster: Redis out of reach (%s); trying again", exc)
            except Exception:  # a bug of ours: said, and the node tries again, never stops
                log.exception("cluster: unexpected failure; connecting again")
            self._lost()
            stop_if_cancelled()
            await asyncio.sleep(self.heartbeat)

    def _lost(self) -> None:
        was = self.connected
        self.connected = False
        self.ready.clear()
        self._tell(self.lobby.clear())
        if was:
            notice: ErrorMsg = {
                "type": ServerMessage.ERROR,
                "code": ErrorCode.CLUSTER_UNAVAILABLE,
                "message": "the cluster's lobby cannot be reached: only this server's tables "
                "are listed until it can",
            }
            self.host.tell_lobby(notice)

    async def _session(self) -> None:
        """One connection to Redis: subscribe, announce, read the others, then
        serve until it fails."""
        redis = self._client()
        pubsub = redis.pubsub()
        try:
            await pubsub.subscribe(CHANNEL)
            await self._announce(redis)
            self.connected = True
            await self._look(redis)
            self.ready.set()
            log.info("cluster: %s joined, %d other nodes", self.address, len(self.lobby.nodes))
            reader = asyncio.create_task(self._read(redis, pubsub))
            writer = asyncio.create_task(self._write(redis))
            try:
                done, _ = await asyncio.wait({reader, writer}, return_when="FIRST_EXCEPTION")
                for task in done:
                    task.result()  # raises what ended it
            finally:
                for task in (reader, writer):
                    task.cancel()
                await asyncio.gather(reader, writer, return_exceptions=True)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]
            with contextlib.suppress(Exception):
                await redis.aclose()

    async def _announce(self, redis: Redis) -> None:
        """Write this node's key and its tables whole, and say hello."""
        self._pending.clear()
        infos = {n: i for n in self.host.local_names() if (i := self.host.local_info(n))}
        pipe = redis.pipeline(transaction=True)
        pipe.delete(tables_key(self.address))
        if infos:
            pipe.hset(tables_key(self.address), mapping={n: _dump(i) for n, i in infos.items()})
        self._beat_into(pipe)
        pipe.sadd(NODES, self.address)
        pipe.publish(CHANNEL, _dump({"node": self.address, "kind": "hello"}))
        await pipe.execute()

    def _beat_into(self, pipe: Any) -> None:
        load = self.host.local_load()
        state = {"address": self.address, "load": load, "connections": load}
        state["tables"] = len(self.host.local_names())
        state["started"] = int(self.started)
        state["draining"] = self.draining
        ttl = max(1, round(TTL_BEATS * self.heartbeat * 1000))
        pipe.set(node_key(self.address), _dump(state), px=ttl)

    async def _write(self, redis: Redis) -> None:
        """Write the queued changes as they come, and beat every heartbeat."""
        loop = asyncio.get_running_loop()
        next_beat = loop.time() + self.heartbeat
        while True:
            stop_if_cancelled()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, next_beat - loop.time())):
                    await self._wake.wait()
            self._wake.clear()
            await self._flush(redis)
            if loop.time() >= next_beat:
                pipe = redis.pipeline(transaction=False)
                self._beat_into(pipe)
                await pipe.execute()
                await self._look(redis)
                next_beat = loop.time() + self.heartbeat

    async def _flush(self, redis: Redis) -> None:
        """Write and publish the queued changes, one pipeline."""
        if not self._pending:
            return
        pending, self._pending = self._pending, {}
        pipe = redis.pipeline(transaction=False)
        key = tables_key(self.address)
        for name, changed in pending.items():
            info = self.host.local_info(name) if changed else None
            if info is not None:
                pipe.hset(key, name, _dump(info))
                pipe.publish(CHANNEL, _dump({"node": self.address, "kind": "info", "table": info}))
            else:
                pipe.hdel(key, name)
                pipe.publish(CHANNEL, _dump({"node": self.address, "kind": "closed", "name": name}))
        await pipe.execute()

    async def _look(self, redis: Redis) -> None:
        """Look at every node's key: the ones gone are down, the new ones are
        read whole, the others' loads noted."""
        found = await redis.smembers(NODES)
        members = sorted(m.decode() if isinstance(m, bytes) else str(m) for m in found)
        others = [a for a in members if a != self.address]
        states = await redis.mget([node_key(a) for a in others]) if others else []
        changes = Changes()
        for address in set(self.lobby.nodes) - set(others):
            changes = _merge(changes, self.lobby.drop(address))
        for address, state in zip(others, states, strict=True):
            if state is None:
                if address not in self.lobby.nodes:  # down since before we came: read once
                    changes = _merge(changes, await self._read_node(redis, address))
                changes = _merge(changes, self.lobby.mark_down(address))
                continue
            load, draining = _load(state)
            if address in self.lobby.nodes and not self.lobby.is_down(address):
                self.lobby.set_load(address, load, draining)
            else:
                changes = _merge(changes, await self._read_node(redis, address, load))
        self._tell(changes)

    async def _read_node(self, redis: Redis, address: str, load: int | None = None) -> Changes:
        """Read the node at ``address``'s tables whole."""
        raw = await redis.hgetall(tables_key(address))
        infos = [i for v in raw.values() if (i := _table_info(v)) is not None]
        return self.lobby.replace(address, infos, load)

    async def _read(self, redis: Redis, pubsub: PubSub) -> None:
        """Apply the other nodes' lobby changes as they are published."""
        while True:
            message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            stop_if_cancelled()
            if message is None or message.get("type") != "message":
                continue
            try:
                body = json.loads(message["data"])
                node = str(body["node"])
                if node == self.address:
                    continue
                kind = body["kind"]
                info = _table_info(_dump(body["table"])) if kind == "info" else None
                if info is not None:
                    changes = self.lobby.put(node, info)
                elif kind == "closed":
                    changes = self.lobby.remove(node, str(body["name"]))
                elif kind == "hello":
                    changes = await self._read_node(redis, node)
                else:
                    continue
            except (ValueError, KeyError, TypeError) as exc:
                log.warning("cluster: skipped a lobby message (%s)", exc)
                continue
            self._tell(changes)

    def _tell(self, changes: Changes) -> None:
        """Tell the lobby's watchers of ``changes``."""
        for name in changes.closed:
            closed: TableClosedMsg = {"type": ServerMessage.TABLE_CLOSED, "name": name}
            self.host.tell_lobby(closed)
        for info in changes.infos:
            message: TableInfoMsg = {"type": ServerMessage.TABLE_INFO, "table": info}
            self.host.tell_lobby(message)


def _table_info(raw: str | bytes) -> TableInfo | None:
    """A table info read from Redis, or None (logged) if it is not one: a map with a name."""
    try:
        info = json.loads(raw)
    except ValueError:
        info = None
    if not isinstance(info, dict) or not isinstance(info.get("name"), str):
        log.warning("cluster: skipped a table that is not a table info in Redis")
        return None
    return cast(TableInfo, info)  # written by a node as a TableInfo


def _load(raw: str | bytes) -> tuple[int, bool]:
    """A node's load and whether it is draining, from its heartbeat key
    (0 and False if unreadable)."""
    try:
        state = json.loads(raw)
        if isinstance(state, dict):
            return int(state.get("load", 0)), state.get("draining") is True
    except (ValueError, TypeError):
        pass
    return 0, False


def _merge(a: Changes, b: Changes) -> Changes:
    return Changes(infos=a.infos + b.infos, closed=a.closed + b.closed)
