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

Two things do wait on Redis, off the hot path of a move: a ``create_table``
waits for the claim of its table's name (:mod:`~craits.server.cluster.names`),
made by the same task; and lobby changes go out at most once per
:data:`LOBBY_INTERVAL` per table, the last state winning, both to Redis and
from the other nodes to this node's lobby watchers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from craits.protocol.types import ErrorMsg, TableClosedMsg, TableInfo, TableInfoMsg
from craits.protocol.vocab import ErrorCode, ServerMessage

from .aio import stop_if_cancelled
from .lobby_copy import Changes, LobbyCopy
from .names import NameClaims

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
LOBBY_INTERVAL = 0.05
"""Seconds: the least time between two writes of this node's lobby changes to
Redis, and between two pushes of the other nodes' changes to its watchers
(the changes of a table meanwhile are coalesced: its last state goes out)."""
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
        self.lobby = LobbyCopy()
        """The other live nodes' tables and loads (empty while Redis is out of reach)."""
        self.connected = False
        """Whether Redis answers (this node's lobby lists the cluster's tables)."""
        self.draining = False
        """Whether the node is stopping: it takes no new tables (docs/cluster.md)."""
        self.started = time.time()
        self.pending: dict[str, bool] = {}
        """Table name → True (changed) or False (closed), not yet written."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()
        """Set once Redis answered and the other nodes' tables were read."""
        self.listeners: list[asyncio.Server] = []
        """Listeners of the node besides its server's (a worker's shared port)."""
        self.names = NameClaims(address)
        """This node's claims of its tables' names (unique in the cluster)."""
        self.published = 0
        """Lobby changes of this node's tables written to Redis so far (a count, for tests)."""
        self.fan_out = FanOut(host)
        """The other nodes' changes on their way to this node's lobby watchers."""

    # ------------------------------------------------------------- the server's calls

    def start(self) -> None:
        """Start the background task (Redis may be down: it keeps trying)."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop the task and, if Redis answers within a second, take this
        node's key out (its tables stay in Redis, for its restart)."""
        for listener in self.listeners:
            listener.close()
        self.fan_out.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.names.fail_all()  # a create_table still waiting is answered (local only)
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
        self.pending[name] = True
        self._wake.set()

    def table_closed(self, name: str) -> None:
        """The table called ``name`` closed: take it out (and let go of its name) soon."""
        self.pending[name] = False
        self._wake.set()

    def claim(self, name: str) -> asyncio.Future[str | None]:
        """Claim the name of a table about to be created (docs/cluster.md): the
        future gives the address of the node that holds the name (this one's
        if the claim was made), or None if Redis could not be asked."""
        future = self.names.ask(name)
        self._wake.set()
        return future

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
        self.names.fail_all()
        self._tell(self.lobby.clear())
        self.fan_out.push()  # before the notice
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
                # redis-py types PubSub.aclose from 6.x on, not in 5.x: one call for both
                close = cast(Callable[[], Awaitable[None]], pubsub.aclose)
                await close()
            with contextlib.suppress(Exception):
                await redis.aclose()

    async def _announce(self, redis: Redis) -> None:
        """Write this node's key and its tables whole, and say hello."""
        self.pending.clear()
        await redis.sadd(NODES, self.address)  # a member before it claims: its claims stand
        await self.names.reconcile(redis, self.host.local_names())
        infos = {n: i for n in self._claimed() if (i := self.host.local_info(n))}
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

    def _claimed(self) -> list[str]:
        """This node's tables whose names it holds (the others are listed here only)."""
        return [n for n in self.host.local_names() if n not in self.names.unclaimed]

    async def _write(self, redis: Redis) -> None:
        """Claim names as asked, write the queued changes (at most once per
        :data:`LOBBY_INTERVAL`), and beat every heartbeat."""
        loop = asyncio.get_running_loop()
        next_beat = loop.time() + self.heartbeat
        next_flush = loop.time()
        while True:
            stop_if_cancelled()
            due = min(next_beat, next_flush) if self.pending else next_beat
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, due - loop.time())):
                    await self._wake.wait()
            self._wake.clear()
            await self.names.answer_waiting(redis)
            if self.pending and loop.time() >= next_flush:
                await self._flush(redis)
                next_flush = loop.time() + LOBBY_INTERVAL
            if loop.time() >= next_beat:
                for name in await self.names.retry(redis, self.host.local_names()):
                    self.pending[name] = True  # its name is free again: listed everywhere
                pipe = redis.pipeline(transaction=False)
                self._beat_into(pipe)
                await pipe.execute()
                await self._look(redis)
                next_beat = loop.time() + self.heartbeat

    async def _flush(self, redis: Redis) -> None:
        """Write and publish the queued changes, one pipeline."""
        if not self.pending:
            return
        pending, self.pending = self.pending, {}
        pipe = redis.pipeline(transaction=False)
        key = tables_key(self.address)
        gone: list[str] = []
        for name in pending:
            if name in self.names.unclaimed:
                continue  # another node's name: this table is listed here only
            info = self.host.local_info(name)
            if info is not None:
                pipe.hset(key, name, _dump(info))
                pipe.publish(CHANNEL, _dump({"node": self.address, "kind": "info", "table": info}))
            else:
                pipe.hdel(key, name)
                pipe.publish(CHANNEL, _dump({"node": self.address, "kind": "closed", "name": name}))
                if name not in self.names.in_flight:  # not being created again here
                    gone.append(name)
        self.names.release_into(pipe, gone)  # after the hdel: no node lists it, then free
        self.published += len(pending)
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
        """Tell the lobby's watchers of ``changes`` (soon: :class:`FanOut`)."""
        self.fan_out.tell(changes)


class FanOut:
    """The other nodes' lobby changes on their way to this node's lobby
    watchers: at most one push per :data:`LOBBY_INTERVAL`, with each table's
    last state (a busy table does not flood the watchers; its last state
    always goes out)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.outgoing: dict[str, TableInfo | None] = {}
        """Table name → its last info (None: closed), not yet told."""
        self._timer: asyncio.TimerHandle | None = None
        self._pushed = 0.0

    def tell(self, changes: Changes) -> None:
        """Tell the watchers of ``changes`` at the next push."""
        for name in changes.closed:
            self.outgoing[name] = None
        for info in changes.infos:
            self.outgoing[info["name"]] = info
        if self.outgoing and self._timer is None:
            loop = asyncio.get_running_loop()
            delay = max(0.0, self._pushed + LOBBY_INTERVAL - loop.time())
            self._timer = loop.call_later(delay, self.push)

    def cancel(self) -> None:
        """Push nothing more."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def push(self) -> None:
        """Tell the watchers what was kept, now (of a table by the same name
        on this node the server itself tells them)."""
        self.cancel()
        self._pushed = asyncio.get_running_loop().time()
        outgoing, self.outgoing = self.outgoing, {}
        for name, info in outgoing.items():
            if self.host.local_info(name) is not None:
                continue
            if info is None:
                closed: TableClosedMsg = {"type": ServerMessage.TABLE_CLOSED, "name": name}
                self.host.tell_lobby(closed)
            else:
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
