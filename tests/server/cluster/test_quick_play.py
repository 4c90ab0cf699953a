"""Quick play in a cluster (protocol §7.4, §11.13, issue 27), three nodes on
a real redis-server: a player on one node is sent to the table that starts
soonest on another, and sits there after following the redirect; with none
anywhere, the node it asked opens one under a name free in the cluster."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from craits.server.app import Server

from tests.server.cluster.test_cluster import follow
from tests.support.cluster import address, until

Open = Callable[..., Any]
WAIT = 20.0


async def test_a_player_is_sent_to_the_table_that_starts_soonest_on_another_node(
    nodes: list[Server], open_player: Open
) -> None:
    a, b, c = nodes
    for node in nodes:
        node.config.quick_play_bots_after = 600.0
    ana = await open_player(c.port, "Ana")
    await ana.send({"type": "create_table", "name": "evening", "seats": 2})
    await ana.expect("table_created", WAIT)
    await ana.send({"type": "join", "table": "evening", "name": "Ana"})
    await ana.expect("joined", WAIT)
    cy = await open_player(b.port, "Cy")
    await cy.send({"type": "create_table", "name": "roomy", "seats": 4})
    await cy.expect("table_created", WAIT)
    await cy.send({"type": "join", "table": "roomy", "name": "Cy"})
    await cy.expect("joined", WAIT)

    def listed() -> bool:
        assert a.cluster is not None
        seated = {t["name"]: len(t["players"]) for t in a.cluster.lobby.tables()}
        return seated.get("evening") == 1 and seated.get("roomy") == 1

    await until(listed, WAIT)  # B's and C's word of their tables reached A
    ben = await open_player(a.port, "Ben")
    await ben.send({"type": "quick_play"})
    redirect = await ben.expect("redirect", WAIT)
    assert redirect == {"type": "redirect", "address": address(c), "table": "evening"}
    ben = await follow(open_player, ben, {"type": "quick_play"})  # sent again with its table
    joined = ben.received[-1]
    assert joined["type"] == "joined" and joined["table"] == "evening" and joined["seat"] == 1
    await ben.expect("update", WAIT)
    assert c.tables["evening"].status.playing and not a.tables


async def test_with_no_table_anywhere_the_node_asked_opens_one_named_apart(
    nodes: list[Server], open_player: Open
) -> None:
    a, b, _ = nodes
    for node in nodes:
        node.config.quick_play_bots_after = 600.0
    ana = await open_player(b.port, "Ana")
    await ana.send({"type": "create_table", "name": "quick-1", "seats": 2, "private": True})
    await ana.expect("table_created", WAIT)
    await until(lambda: a.cluster is not None and bool(a.cluster.lobby.tables()), WAIT)
    ben = await open_player(a.port, "Ben")
    await ben.send({"type": "quick_play", "seats": 3})
    joined = await ben.expect("joined", WAIT)
    assert joined["table"] == "quick-2"  # quick-1 is B's (private: not for quick play)
    state = await ben.expect("state", WAIT)
    assert state["table"]["seats"] == 3 and state["table"]["bots_in_ms"] > 0
    assert list(a.tables) == ["quick-2"]
