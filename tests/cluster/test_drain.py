"""A cluster node told to stop with a drain timeout (docs/cluster.md): it takes
no new tables (they go to the other nodes), and waits for its running game to
end before it stops; a second signal ends the wait."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from craits.server.app import Server
from craits.server.cluster.drain import Drain

from tests.cluster.conftest import address, until
from tests.cluster.test_cluster import a_game_on


async def test_a_draining_node_sends_new_tables_elsewhere_and_waits_for_its_game(
    nodes: list[Server], open_player: Callable[..., Any]
) -> None:
    a, b, c = nodes
    ana, _ben = await a_game_on(c, open_player, "last")
    c.config.drain_timeout = 60.0
    stop = asyncio.Event()
    stop.set()  # the signal that started it
    draining = asyncio.create_task(Drain(c, stop).wait())
    await until(
        lambda: a.cluster is not None and b.cluster is not None
        and address(c) not in a.cluster.lobby.loads()
        and address(c) not in b.cluster.lobby.loads()
    )  # fmt: skip

    eve = await open_player(c.port, "Eve")
    await eve.send({"type": "create_table", "name": "next", "seats": 2})
    redirect = await eve.expect("redirect")
    assert redirect["address"] in (address(a), address(b)) and "next" not in c.tables
    # even a request already placed once does not stay on a node that is stopping
    await eve.send({"type": "create_table", "name": "next", "seats": 2, "placed": True})
    assert (await eve.expect("redirect"))["address"] in (address(a), address(b))

    await asyncio.sleep(0.3)
    assert not draining.done()  # the game at "last" is still running
    await ana.send({"type": "close_table", "end_game": True})  # its game ends
    await asyncio.wait_for(draining, 10)
    assert "last" not in c.tables or not c.tables["last"].playing


async def test_a_second_signal_ends_the_wait(
    nodes: list[Server], open_player: Callable[..., Any]
) -> None:
    _, _, c = nodes
    await a_game_on(c, open_player, "long")
    c.config.drain_timeout = 60.0
    stop = asyncio.Event()
    draining = asyncio.create_task(Drain(c, stop).wait())
    await asyncio.sleep(0.1)
    assert not draining.done()
    stop.set()
    await asyncio.wait_for(draining, 5)
    assert c.tables["long"].playing  # it stops with the game running, as told
