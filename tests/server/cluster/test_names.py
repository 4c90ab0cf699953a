"""Table names are unique in the whole cluster (docs/cluster.md, "Table
names"): claimed atomically in a real redis-server by the node that creates
the table, let go when it closes, kept while a dead node's tables wait for it,
and reconciled by a rule when Redis comes back after tables were created
without it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from craits.server.app import Server

from tests.support.cluster import RedisProcess, address, node_config, start_nodes, until
from tests.support.processes import free_port
from tests.support.server import Player

Open = Callable[..., Any]
TRIES = 40
"""Names two nodes race for in the concurrency test."""


@pytest.fixture
async def two(redis: RedisProcess) -> AsyncIterator[list[Server]]:
    """Two nodes whose players may leave many tables empty at once."""
    config = replace(node_config(redis.url), max_empty_tables=1000)
    servers = await start_nodes([replace(config, max_empty_tables_per_address=1000)] * 2)
    yield servers
    for s in servers:
        await s.stop()


async def owners(redis: RedisProcess) -> dict[str, str]:
    """The claims in Redis: table name → node address."""
    from redis.asyncio import Redis

    client = Redis.from_url(redis.url, decode_responses=True)
    try:
        return dict(await client.hgetall("craits:names"))
    finally:
        await client.aclose()


async def claimed(redis: RedisProcess, name: str, node: str | None) -> None:
    """Wait until Redis says ``name`` is claimed by ``node`` (None: by nobody).

    Raises:
        AssertionError: it did not within 10 s.
    """
    for _ in range(500):
        if (await owners(redis)).get(name) == node:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{name!r} is not claimed by {node}: {await owners(redis)}")


async def _created_or_error(player: Player) -> dict[str, Any]:
    """The answer to a ``create_table``: ``table_created`` or an ``error``."""
    while True:
        message = await player.recv()
        if message["type"] in ("table_created", "error"):
            return message


async def test_two_nodes_creating_one_name_at_once_one_wins_every_time(
    two: list[Server], redis: RedisProcess, open_player: Open
) -> None:
    a, b = two
    ana = await open_player(a.port, "Ana")
    ben = await open_player(b.port, "Ben")
    for i in range(TRIES):
        create = {"type": "create_table", "name": f"race-{i}", "seats": 2, "placed": True}
        await asyncio.gather(ana.send(create), ben.send(create))
    wins = {a.port: 0, b.port: 0}
    for i in range(TRIES):
        replies = [await _created_or_error(ana), await _created_or_error(ben)]
        kinds = sorted(r["type"] for r in replies)
        assert kinds == ["error", "table_created"], (i, replies)
        assert [r["code"] for r in replies if r["type"] == "error"] == ["table_exists"]
        held = [s for s in two if f"race-{i}" in s.tables]
        assert len(held) == 1, i
        wins[held[0].port] += 1
    claims = await owners(redis)
    for i in range(TRIES):
        holder = a if f"race-{i}" in a.tables else b
        assert claims[f"race-{i}"] == address(holder)


async def test_a_name_is_free_again_once_its_table_closes(
    nodes: list[Server], redis: RedisProcess, open_player: Open
) -> None:
    a, b, c = nodes
    ana = await open_player(a.port, "Ana")
    await ana.send({"type": "create_table", "name": "brief", "seats": 2, "placed": True})
    await ana.expect("table_created")
    assert (await owners(redis))["brief"] == address(a)
    # a request sent right behind the create waits for it: its reply comes second
    await ana.send({"type": "join", "table": "brief", "name": "Ana"})
    await ana.expect("joined")
    await ana.send({"type": "leave"})  # nobody left: the table closes
    await ana.expect("left")
    await claimed(redis, "brief", None)
    assert b.cluster is not None and b.cluster.lobby.node_of("brief") is None
    ben = await open_player(c.port, "Ben")
    await ben.send({"type": "create_table", "name": "brief", "seats": 2, "placed": True})
    await ben.expect("table_created")
    assert (await owners(redis))["brief"] == address(c)


async def test_names_made_while_redis_was_down_are_reconciled_when_it_returns(
    nodes: list[Server], redis: RedisProcess, open_player: Open
) -> None:
    a, b, c = nodes
    ana = await open_player(a.port, "Ana")
    ben = await open_player(b.port, "Ben")
    await redis.stop()
    await until(lambda: not any(s.cluster and s.cluster.connected for s in nodes))
    # Redis is out of reach: each node creates tables of its own, names checked locally
    for p in (ana, ben):
        await p.send({"type": "create_table", "name": "twin", "seats": 2})
        assert (await _created_or_error(p))["type"] == "table_created"
    await ana.send({"type": "create_table", "name": "solo", "seats": 2})
    await ana.expect("table_created")

    await redis.start()  # empty: the first node to reach it claims the name
    await until(lambda: all(s.cluster and s.cluster.connected for s in nodes), 15)
    claims = await owners(redis)
    assert claims["solo"] == address(a)
    winner, loser = (a, b) if claims["twin"] == address(a) else (b, a)
    assert claims["twin"] == address(winner)
    assert winner.cluster is not None and loser.cluster is not None
    assert "twin" in loser.cluster.names.unclaimed and "twin" not in winner.cluster.names.unclaimed
    await until(lambda: c.cluster is not None and c.cluster.lobby.node_of("twin") is not None)
    assert c.cluster is not None and c.cluster.lobby.node_of("twin") == address(winner)
    # the loser's table goes on there, listed by its own node only (once)
    eve = await open_player(loser.port, "Eve")
    await eve.send({"type": "list_tables"})
    listed = [t["name"] for t in (await eve.expect("tables"))["tables"]]
    assert listed.count("twin") == 1 and "twin" in loser.tables

    # the winner's table closes: the name is the loser's at its next heartbeat
    first = ana if winner is a else ben
    await first.send({"type": "join", "table": "twin", "name": first.name})
    await first.expect("joined")
    await first.send({"type": "leave"})
    await first.expect("left")
    await claimed(redis, "twin", address(loser))
    await until(lambda: c.cluster is not None and c.cluster.lobby.node_of("twin") == address(loser))
    assert "twin" not in loser.cluster.names.unclaimed


async def test_a_stopped_nodes_names_stay_claimed_and_are_its_own_again_on_restart(
    redis: RedisProcess, open_player: Open, tmp_path: Path
) -> None:
    from redis.asyncio import Redis

    port = free_port()
    a_config = node_config(redis.url, tmp_path / "a", port)
    a, b = await start_nodes([a_config, node_config(redis.url)])
    try:
        ana = await open_player(a.port, "Ana")
        await ana.send({"type": "create_table", "name": "kept", "seats": 2, "placed": True})
        await ana.expect("table_created")
        await ana.send({"type": "join", "table": "kept", "name": "Ana"})
        await ana.expect("joined")
        await claimed(redis, "kept", address(a))
        await a.stop()
        await until(lambda: b.cluster is not None and b.cluster.lobby.is_down(f"127.0.0.1:{port}"))
        # while it is down its name stays taken: its table waits for it
        ben = await open_player(b.port, "Ben")
        await ben.send({"type": "create_table", "name": "kept", "seats": 2, "placed": True})
        assert (await ben.expect("error"))["code"] == "table_exists"
        assert (await owners(redis))["kept"] == f"127.0.0.1:{port}"
        # a claim it made and never used (it died between the claim and the table)
        client = Redis.from_url(redis.url)
        try:
            await client.hset("craits:names", "ghost", f"127.0.0.1:{port}")
            await client.sadd(f"craits:claims:127.0.0.1:{port}", "ghost")
        finally:
            await client.aclose()

        a = Server(a_config)  # started again on its data directory
        await a.start()
        await until(lambda: a.cluster is not None and a.cluster.ready.is_set())
        claims = await owners(redis)
        assert claims["kept"] == address(a) and "ghost" not in claims
        await ben.send({"type": "create_table", "name": "ghost", "seats": 2, "placed": True})
        await ben.expect("table_created")
    finally:
        await a.stop()
        await b.stop()
