"""Lobby changes are coalesced on their way through the cluster (docs/cluster.md,
"Lobby fan-out"): a table that changes many times between two writes is
written to Redis once, each node pushes each other node's table to its
watchers at most once per interval, and the last state always arrives.
Everything here is counted, nothing timed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from craits.protocol.types import ErrorMsg, TableClosedMsg, TableInfo, TableInfoMsg
from craits.server.app import Server
from craits.server.cluster.lobby_copy import Changes
from craits.server.cluster.registry import LOBBY_INTERVAL, FanOut

from tests.server.cluster.test_parts import info
from tests.support.cluster import until
from tests.support.server import Player

Open = Callable[..., Any]


class Watchers:
    """A host whose lobby watchers are a list of the messages told."""

    def __init__(self) -> None:
        self.told: list[Any] = []
        self.local: set[str] = set()

    def local_info(self, name: str) -> TableInfo | None:
        return info(name) if name in self.local else None

    def tell_lobby(self, message: TableInfoMsg | TableClosedMsg | ErrorMsg) -> None:
        self.told.append(message)


async def test_the_fan_out_pushes_each_tables_last_state_once() -> None:
    host = Watchers()
    fan = FanOut(host)  # type: ignore[arg-type]  # the two calls FanOut makes
    host.local = {"mine"}
    for n in range(100):  # one pass of the loop: a burst
        fan.tell(Changes(infos=[info("busy", spectators=n)]))
        fan.tell(Changes(infos=[info("brief")]))
        fan.tell(Changes(closed=["brief"]))  # gone at the end: its close goes out
        fan.tell(Changes(closed=["back"]))
        fan.tell(Changes(infos=[info("back", state="playing")]))  # back at the end
        fan.tell(Changes(infos=[info("mine")]))  # this node's own: the server tells of it
    await until(lambda: bool(host.told))
    await asyncio.sleep(0.2)  # (nothing more may come: counted below)
    assert sorted(host.told, key=str) == sorted(
        [
            {"type": "table_info", "table": info("busy", spectators=99)},
            {"type": "table_closed", "name": "brief"},
            {"type": "table_info", "table": info("back", state="playing")},
        ],
        key=str,
    )
    fan.tell(Changes(infos=[info("busy", spectators=100)]))  # a later change: pushed too
    await until(lambda: len(host.told) == 4)
    assert host.told[-1]["table"]["spectators"] == 100


async def test_a_burst_of_changes_is_written_once_and_its_last_state_reaches_every_node(
    nodes: list[Server], open_player: Open
) -> None:
    a, b, c = nodes
    ana = await open_player(c.port, "Ana")
    await ana.send({"type": "create_table", "name": "busy", "seats": 3})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "busy", "name": "Ana"})
    await ana.expect("joined")
    watchers: list[Player] = []
    for node in (a, b):
        eve = await open_player(node.port, "Eve")
        await eve.send({"type": "list_tables", "watch": True})
        await eve.expect("tables")
        watchers.append(eve)
    assert c.cluster is not None
    await until(lambda: all(s.cluster and s.cluster.lobby.node_of("busy") for s in (a, b)))

    table = c.tables["busy"]
    before = c.cluster.published
    for _ in range(200):  # 200 changes in one pass of the loop
        c.table_changed(table)
    await until(lambda: c.cluster is not None and c.cluster.published > before)
    await asyncio.sleep(0.3)  # several intervals: anything more would be written by now
    assert c.cluster.published == before + 1

    # changes a few ms apart: written at most once per interval (a count bound)
    loop = asyncio.get_running_loop()
    before, start = c.cluster.published, loop.time()
    for _ in range(40):
        c.table_changed(table)
        await asyncio.sleep(0.005)
    await until(lambda: c.cluster is not None and not c.cluster.pending)
    span = loop.time() - start
    assert c.cluster.published - before <= span / LOBBY_INTERVAL + 1

    # a real burst: a spectator comes and goes 30 times, and stays the last time
    zed = await open_player(c.port, "Zed")
    for _ in range(30):
        await zed.send({"type": "spectate", "table": "busy"})
        await zed.send({"type": "leave"})
    await zed.send({"type": "spectate", "table": "busy"})
    await zed.expect("state", where=lambda m: m["table"]["spectators"] == 1 and _last(zed))
    final = table.lobby_info()
    assert final["spectators"] == 1
    for eve in watchers:
        await eve.expect("table_info", where=lambda m: m["table"] == final)
    for node in (a, b):
        assert node.cluster is not None
        assert [t for t in node.cluster.lobby.tables() if t["name"] == "busy"] == [final]


def _last(player: Player) -> bool:
    """Whether ``player`` had every answer to its 61 requests (30 spectate +
    leave pairs and the last spectate)."""
    return sum(m["type"] in ("left",) for m in player.received) == 30


async def test_requests_sent_right_after_a_create_table_are_answered_after_it(
    nodes: list[Server], open_player: Open
) -> None:
    a = nodes[0]
    ana = await open_player(a.port, "Ana")
    for n in range(5):  # no wait between: the join and ping wait for the claim
        await ana.send({"type": "create_table", "name": f"t{n}", "seats": 2, "placed": True})
        await ana.send({"type": "join", "table": f"t{n}", "name": "Ana"})
        await ana.send({"type": "leave"})
    await ana.send({"type": "ping", "nonce": 7})
    await ana.expect("pong")
    kinds = [m["type"] for m in ana.received if m["type"] in ("table_created", "joined", "left")]
    assert kinds == ["table_created", "joined", "left"] * 5
    assert not [m for m in ana.received if m["type"] == "error"]
