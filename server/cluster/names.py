"""Table names unique across a cluster: each is claimed in Redis by the node
that holds the table (docs/cluster.md, "Table names").

``craits:names`` (a hash: table name → the address of the node that claimed
it) says who holds each name; ``craits:claims:ADDR`` (a set) lists a node's
own claims, so that it can let go of the ones it no longer needs without
reading everyone's. A claim is made by a Lua script, so it is atomic: of two
nodes claiming one name at once, exactly one gets it. A name whose owner is
not a member of ``craits:nodes`` (a node retired for good) is free. A claim
has no time to live: a dead node's names stay claimed while its tables are
listed as unavailable, and are its own again when it restarts.

:class:`NameClaims` is used by :class:`~craits.server.cluster.registry.ClusterNode`'s
writer task, on its one Redis connection, so that a claim and the release of
the same name never cross.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from redis.asyncio import Redis

PREFIX = "craits:"
NAMES = PREFIX + "names"
"""The hash of every claimed table name → the address of its node."""
NODES = PREFIX + "nodes"

_CLAIM = """
local out = {}
for i = 2, #ARGV do
  local owner = redis.call('HGET', KEYS[1], ARGV[i])
  if (not owner) or owner == ARGV[1] or redis.call('SISMEMBER', KEYS[2], owner) == 0 then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[1])
    redis.call('SADD', KEYS[3], ARGV[i])
    owner = ARGV[1]
  end
  out[#out + 1] = owner
end
return out
"""
"""Claim names (ARGV[2:]) for the node ARGV[1]: each reply is the name's owner
(ARGV[1] where the claim was made). KEYS: names, nodes, the node's claims."""

_RELEASE = """
for i = 2, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
  end
  redis.call('SREM', KEYS[2], ARGV[i])
end
return #ARGV - 1
"""
"""Let go of names (ARGV[2:]) the node ARGV[1] claimed (not another's).
KEYS: names, the node's claims."""


def claims_key(address: str) -> str:
    """The set of the names the node at ``address`` claimed."""
    return f"{PREFIX}claims:{address}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class NameClaims:
    """This node's claims of table names.

    Args:
        address: this node's advertised ``HOST:PORT``.
    """

    def __init__(self, address: str) -> None:
        self.address = address
        self.waiting: dict[str, asyncio.Future[str | None]] = {}
        """Names asked for by ``create_table``, not yet sent to Redis → the
        answer to give: the owner's address, or None if Redis could not be asked."""
        self.in_flight: set[str] = set()
        """Names whose claim is asked for and not yet used or dropped (a second
        ``create_table`` of one is refused at once)."""
        self.unclaimed: set[str] = set()
        """This node's tables whose name another node holds (created while
        Redis was out of reach): listed here only, claimed again each heartbeat."""

    # ------------------------------------------------------------ the server's side

    def ask(self, name: str) -> asyncio.Future[str | None]:
        """Claim ``name`` soon: the future gives the owner's address (this
        node's if the claim was made) or None (Redis is out of reach)."""
        self.in_flight.add(name)
        future = self.waiting.get(name)
        if future is None:
            future = self.waiting[name] = asyncio.get_running_loop().create_future()
        return future

    def done(self, name: str) -> None:
        """The ``create_table`` that asked for ``name`` is answered."""
        self.in_flight.discard(name)

    def fail_all(self) -> None:
        """Redis is out of reach: every waiting claim is answered None."""
        waiting, self.waiting = self.waiting, {}
        for future in waiting.values():
            if not future.done():
                future.set_result(None)

    # ---------------------------------------------------------- the writer's side

    async def claim(self, redis: Redis, names: Iterable[str]) -> dict[str, str]:
        """Claim ``names`` in one round trip; returns each one's owner."""
        wanted = list(dict.fromkeys(names))
        if not wanted:
            return {}
        keys = [NAMES, NODES, claims_key(self.address)]
        owners = await redis.eval(_CLAIM, len(keys), *keys, self.address, *wanted)
        return {name: _text(o) for name, o in zip(wanted, owners, strict=True)}

    async def answer_waiting(self, redis: Redis) -> None:
        """Claim the names ``create_table`` asked for, and answer each."""
        if not self.waiting:
            return
        waiting, self.waiting = self.waiting, {}
        try:
            owners = await self.claim(redis, waiting)
        except BaseException:
            for future in waiting.values():
                if not future.done():
                    future.set_result(None)
            raise
        for name, future in waiting.items():
            if not future.done():
                future.set_result(owners[name])

    def release_into(self, pipe: Any, names: Iterable[str]) -> None:
        """Add the release of ``names`` (this node's claims) to ``pipe``."""
        names = list(names)
        if names:
            keys = [NAMES, claims_key(self.address)]
            pipe.eval(_RELEASE, len(keys), *keys, self.address, *names)

    async def reconcile(self, redis: Redis, local: Iterable[str]) -> None:
        """On (re)connecting: let go of the names this node claimed and no
        longer holds, and claim every name it holds; those another node holds
        are :attr:`unclaimed` (the first claim stands, docs/cluster.md)."""
        local = set(local)
        held = {_text(n) for n in await redis.smembers(claims_key(self.address))}
        stale = held - local - self.in_flight
        if stale:
            pipe = redis.pipeline(transaction=False)
            self.release_into(pipe, sorted(stale))
            await pipe.execute()
        owners = await self.claim(redis, sorted(local))
        self.unclaimed = {n for n, o in owners.items() if o != self.address}

    async def retry(self, redis: Redis, local: Iterable[str]) -> set[str]:
        """Claim again the :attr:`unclaimed` names still held here; returns
        the ones now claimed (to be published)."""
        self.unclaimed &= set(local)
        if not self.unclaimed:
            return set()
        owners = await self.claim(redis, sorted(self.unclaimed))
        won = {n for n, o in owners.items() if o == self.address}
        self.unclaimed -= won
        return won
