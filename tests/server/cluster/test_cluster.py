"""Three nodes and one real redis-server behave, for a player, like one server
(docs/cluster.md, protocol §7.4): one lobby, any node as the entry point,
redirects to the node that holds a table, resume tokens that find their node,
and a lobby that heals after Redis comes back."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from craits.protocol.client import Connection
from craits.protocol.redirect import request
from craits.protocol.types import RedirectMsg
from craits.server.app import Server

from tests.protocol.shapes import problems
from tests.support.cluster import RedisProcess, address, until
from tests.support.server import Player, play_until, settle

Open = Callable[..., Any]


async def follow(open_player: Open, player: Player, message: dict[str, Any]) -> Player:
    """Send ``message``, following redirects as a client does
    (:func:`craits.protocol.redirect.request`); returns the player on the
    connection that answered, the answer last in its ``received``."""
    opened: dict[int, Player] = {}

    async def opener(host: str, port: int) -> Connection:
        assert host == "127.0.0.1"
        landed = await open_player(port, player.name)
        opened[id(landed.conn)] = landed
        return landed.conn

    conn, reply = await request(player.conn, message, opener)
    landed = player if conn is player.conn else opened[id(conn)]
    landed.received.append(reply)
    if reply["type"] == "joined":
        landed.token, landed.seat = reply["token"], reply["seat"]
    return landed


async def a_game_on(node: Server, open_player: Open, name: str) -> list[Player]:
    """Ana and Ben, connected to ``node``, sit at its new two-seat table ``name``;
    the game starts."""
    ana = await open_player(node.port, "Ana")
    ben = await open_player(node.port, "Ben")
    await ana.send({"type": "create_table", "name": name, "seats": 2})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": name, "name": p.name})
        await p.expect("joined")
    await settle([ana, ben], 1)
    return [ana, ben]


async def test_a_player_lists_on_one_node_and_plays_at_a_table_held_by_another(
    nodes: list[Server], open_player: Open
) -> None:
    a, _, c = nodes
    ana = await open_player(c.port, "Ana")
    await ana.send({"type": "create_table", "name": "evening", "seats": 2})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "evening", "name": "Ana"})
    await ana.expect("joined")

    def seated() -> bool:
        return a.cluster is not None and any(t["players"] for t in a.cluster.lobby.tables())

    await until(seated)  # C's word of Ana's seat reached A

    ben = await open_player(a.port, "Ben")
    await ben.send({"type": "list_tables", "watch": True})
    listed = await ben.expect("tables")
    assert [t["name"] for t in listed["tables"]] == ["evening"]
    assert listed["total"] == 1
    assert listed["tables"][0]["players"][0]["name"] == "Ana"  # C's own info, as C lists it

    await ben.send({"type": "join", "table": "evening", "name": "Ben"})
    redirect = await ben.expect("redirect")
    assert not problems(redirect, RedirectMsg), problems(redirect, RedirectMsg)
    assert redirect == {"type": "redirect", "address": address(c), "table": "evening"}
    ben = await follow(open_player, ben, {"type": "join", "table": "evening", "name": "Ben"})
    assert ben.received[-1]["type"] == "joined"
    await settle([ana, ben], 1)

    def ten_moves() -> bool:
        return ana.seq >= 10

    assert await play_until([ana, ben], ten_moves, random.Random(5)) > 0
    assert c.tables["evening"].status.playing and "evening" not in a.tables


async def test_a_spectator_is_redirected(nodes: list[Server], open_player: Open) -> None:
    _, b, c = nodes
    await a_game_on(c, open_player, "watched")
    await until(lambda: b.cluster is not None and b.cluster.lobby.node_of("watched") is not None)
    eve = await open_player(b.port, "Eve")
    eve = await follow(open_player, eve, {"type": "spectate", "table": "watched"})
    state = eve.received[-1]
    assert state["type"] == "state" and state["seat"] is None
    assert state["table"]["name"] == "watched"
    assert eve.conn.writer.get_extra_info("peername")[1] == c.port


async def test_a_resume_that_lands_on_the_wrong_node_is_sent_to_the_right_one(
    nodes: list[Server], open_player: Open
) -> None:
    a, _, c = nodes
    _ana, ben = await a_game_on(c, open_player, "night")
    await until(lambda: a.cluster is not None and a.cluster.lobby.node_of("night") is not None)
    assert ben.token is not None
    await ben.close()
    back = await open_player(a.port, "Ben")
    back = await follow(open_player, back, {"type": "resume", "token": ben.token})
    assert back.received[-1] == {"type": "resumed", "table": "night", "seat": ben.seat}
    # a token that names no table of the cluster is refused as on one server
    stranger = await open_player(a.port, "Zed")
    await stranger.send({"type": "resume", "token": "x" * 32 + ".AAAAAAAAAAA"})
    assert (await stranger.expect("error"))["code"] == "bad_token"


async def test_a_new_table_goes_to_the_least_loaded_node(
    nodes: list[Server], open_player: Open
) -> None:
    a, b, c = nodes
    crowd = [await open_player(a.port, f"p{i}") for i in range(5)]
    await open_player(c.port, "x")  # C has one connection, B none: B is the lightest
    await until(
        lambda: a.cluster is not None and a.cluster.lobby.loads() == {address(b): 0, address(c): 1}
    )
    ana = crowd[0]
    await ana.send({"type": "create_table", "name": "placed", "seats": 2})
    redirect = await ana.expect("redirect")
    assert redirect["address"] == address(b) and "placed" not in a.tables
    ana = await follow(open_player, ana, {"type": "create_table", "name": "placed", "seats": 2})
    assert ana.received[-1]["type"] == "table_created" and "placed" in b.tables
    # the name is the cluster's: another node refuses it
    await until(lambda: a.cluster is not None and a.cluster.lobby.node_of("placed") is not None)
    await crowd[1].send({"type": "create_table", "name": "placed", "seats": 2})
    assert (await crowd[1].expect("error"))["code"] == "table_exists"
    # a create_table already redirected once is created where it lands, loads or not
    await crowd[1].send({"type": "create_table", "name": "here", "seats": 2, "placed": True})
    assert (await crowd[1].expect("table_created"))["table"]["name"] == "here"
    assert "here" in a.tables


async def test_a_lobby_watcher_sees_every_nodes_tables_come_and_go(
    nodes: list[Server], open_player: Open
) -> None:
    a, b, _ = nodes
    eve = await open_player(a.port, "Eve")
    await eve.send({"type": "list_tables", "watch": True})
    assert (await eve.expect("tables"))["tables"] == []
    ana = await open_player(b.port, "Ana")
    await ana.send({"type": "create_table", "name": "brief", "seats": 3})
    await ana.expect("table_created")
    info = await eve.expect("table_info")
    assert info["table"]["name"] == "brief"
    await ana.send({"type": "join", "table": "brief", "name": "Ana"})
    seated = await eve.expect("table_info", where=lambda m: bool(m["table"]["players"]))
    assert seated["table"]["players"][0]["name"] == "Ana"
    await ana.send({"type": "leave"})
    assert (await eve.expect("table_closed"))["name"] == "brief"


async def test_redis_stopped_and_started_mid_game(
    nodes: list[Server], redis: RedisProcess, open_player: Open
) -> None:
    a, _, c = nodes
    players = await a_game_on(c, open_player, "storm")
    eve = await open_player(a.port, "Eve")
    await until(lambda: a.cluster is not None and a.cluster.lobby.node_of("storm") is not None)
    await eve.send({"type": "list_tables", "watch": True})
    assert [t["name"] for t in (await eve.expect("tables"))["tables"]] == ["storm"]

    await redis.stop()
    assert (await eve.expect("table_closed"))["name"] == "storm"
    notice = await eve.expect("error")
    assert notice["code"] == "cluster_unavailable"
    start = players[0].seq
    # the game goes on: nothing of a move needs Redis
    assert await play_until(players, lambda: players[0].seq >= start + 6, random.Random(2)) > 0
    await eve.send({"type": "list_tables", "watch": True})
    assert (await eve.expect("tables"))["tables"] == []  # this node's own tables only

    await redis.start()  # empty, on the same port: the nodes write everything again
    healed = await eve.expect("table_info", timeout=15)
    assert healed["table"]["name"] == "storm"
    assert healed["table"]["state"] == "playing"
    await until(lambda: all(s.cluster and s.cluster.connected for s in nodes), 15)


async def test_garbage_in_redis_is_skipped_and_the_lobby_goes_on(
    nodes: list[Server], redis: RedisProcess, open_player: Open
) -> None:
    from redis.asyncio import Redis

    a, _, c = nodes
    client = Redis.from_url(redis.url)
    try:
        # a node that writes nonsense: a bad heartbeat, tables that are not tables
        await client.sadd("craits:nodes", "bogus:1")
        await client.set("craits:node:bogus:1", "not json", px=60_000)
        await client.hset("craits:tables:bogus:1", mapping={"x": "{", "y": "[1]", "z": '{"a":1}'})
        await client.publish("craits:lobby", "not json")
        await client.publish("craits:lobby", '{"node": "bogus:1", "kind": "info", "table": 5}')
        await client.publish("craits:lobby", '{"node": "bogus:1", "kind": "hello"}')
        await client.publish("craits:lobby", '{"kind": "closed"}')
        await a_game_on(c, open_player, "sane")

        def listed() -> bool:
            return a.cluster is not None and a.cluster.lobby.node_of("sane") == address(c)

        await until(listed)
        await until(lambda: a.cluster is not None and "bogus:1" in a.cluster.lobby.nodes)
        assert a.cluster is not None and a.cluster.connected
        assert a.cluster.lobby.nodes["bogus:1"].tables == {}  # its nonsense was skipped
        eve = await open_player(a.port, "Eve")
        await eve.send({"type": "list_tables"})
        assert [t["name"] for t in (await eve.expect("tables"))["tables"]] == ["sane"]
    finally:
        await client.aclose()
