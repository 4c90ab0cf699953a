"""Private tables (protocol §11.9) in a cluster of three nodes on a real
redis-server (docs/cluster.md, "Private tables"): listed as private by every
node, joined and watched with the code through any node (the code is checked
by the node that holds the table, and only there), the creator's role and
powers kept across redirects, and one budget of wrong codes per table's node
whichever node a guesser comes through."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

import pytest
from craits.server.app import Server

from tests.server.cluster.test_cluster import follow
from tests.support.cluster import RedisProcess, address, node_config, start_nodes, until
from tests.support.server import Player

Open = Callable[..., Any]
TRIES, PER_ADDRESS = 3, 5
"""The nodes' budget of wrong codes: per connection, per address."""


@pytest.fixture
async def three(redis: RedisProcess) -> AsyncIterator[list[Server]]:
    """Nodes A, B, C with a small budget of wrong invite codes."""
    config = replace(
        node_config(redis.url),
        invite_tries=TRIES,
        invite_tries_per_address=PER_ADDRESS,
        invite_refill=600.0,
    )
    servers = await start_nodes([config] * 3)
    yield servers
    for s in servers:
        await s.stop()


async def private_table_on_c(three: list[Server], open_player: Open) -> tuple[Player, str]:
    """Ana, entering by A, creates the private table ``den``: the cluster places
    it on C (A and B are busier); she sits there. Returns her (on C) and the code."""
    a, b, c = three
    for node, n in ((a, 4), (b, 4)):
        for i in range(n):
            await open_player(node.port, f"x{i}")
    want = {address(b): 4, address(c): 0}
    await until(lambda: a.cluster is not None and a.cluster.lobby.loads() == want)
    ana = await open_player(a.port, "Ana")
    create = {"type": "create_table", "name": "den", "seats": 3, "private": True}
    ana = await follow(open_player, ana, create)
    created = ana.received[-1]
    assert created["type"] == "table_created" and "den" in c.tables
    assert ana.conn.writer.get_extra_info("peername")[1] == c.port
    await ana.send({"type": "join", "table": "den", "name": "Ana"})
    await ana.expect("joined")
    invite = await ana.expect("invite")  # the creator, on the node it was sent to
    assert invite == {"type": "invite", "table": "den", "code": created["code"]}
    await until(lambda: all(n.cluster and n.cluster.lobby.node_of("den") for n in (a, b)))
    return ana, str(created["code"])


async def test_a_private_table_is_private_everywhere_and_joined_with_its_code_through_any_node(
    three: list[Server], open_player: Open
) -> None:
    a, b, c = three
    ana, code = await private_table_on_c(three, open_player)
    here = c.tables["den"].lobby_info()
    for node in (a, b):  # every node's lobby lists it as C lists it: private, no names
        await until(lambda n=node: n.cluster is not None and n.cluster.lobby.tables() == [here])
        eve = await open_player(node.port, "Eve")
        await eve.send({"type": "list_tables"})
        (listed,) = (await eve.expect("tables"))["tables"]
        assert listed["private"] is True and listed["players"] == [] and listed["creator"] is None
        assert listed == here
        assert "code" not in str(listed) and code not in str(listed)

    # without the code, through A: sent to C, refused there
    zed = await open_player(a.port, "Zed")
    zed = await follow(open_player, zed, {"type": "join", "table": "den", "name": "Zed"})
    assert zed.received[-1]["code"] == "bad_invite_code"
    # with it (as a link gives it, any case and dashes), through B: seated on C
    ben = await open_player(b.port, "Ben")
    typed = code.lower()[:8] + "-" + code.lower()[8:]
    ben = await follow(
        open_player, ben, {"type": "join", "table": "den", "name": "Ben", "code": typed}
    )
    assert ben.received[-1]["type"] == "joined"
    assert ben.conn.writer.get_extra_info("peername")[1] == c.port
    eve = await open_player(a.port, "Eve")
    eve = await follow(open_player, eve, {"type": "spectate", "table": "den", "code": code})
    assert eve.received[-1]["type"] == "state" and eve.received[-1]["seat"] is None
    assert "invite" not in [m["type"] for m in ben.received + eve.received]  # the creator's only

    # the creator's powers, on the node the table was placed on
    await ana.send({"type": "lock", "locked": True})
    await ana.expect("table_info", where=lambda m: m["table"]["locked"])
    late = await open_player(b.port, "Late")
    late = await follow(
        open_player, late, {"type": "join", "table": "den", "name": "Late", "code": code}
    )
    assert late.received[-1]["code"] == "table_locked"
    await ana.send({"type": "kick", "seat": 1})
    assert (await ben.expect("error"))["code"] == "kicked"


async def test_the_creator_resuming_through_another_node_is_the_creator_again(
    three: list[Server], open_player: Open
) -> None:
    _, b, c = three
    ana, code = await private_table_on_c(three, open_player)
    for _ in range(2):  # the table fills with bots: a game runs, the seat stays hers
        await ana.send({"type": "add_bot"})
    await ana.expect("update")
    token = ana.token
    assert token is not None
    await ana.close()
    await until(lambda: not c.tables["den"].info()["players"][0]["connected"])
    back = await open_player(b.port, "Ana")
    back = await follow(open_player, back, {"type": "resume", "token": token})
    assert back.received[-1] == {"type": "resumed", "table": "den", "seat": 0}
    assert (await back.expect("invite"))["code"] == code  # the creator again, on C
    await back.send({"type": "mute", "watchers": True})
    assert await back.expect("table_info", where=lambda m: m["table"]["watchers_muted"])


async def test_wrong_codes_spend_one_budget_whichever_node_they_come_through(
    three: list[Server], open_player: Open
) -> None:
    a, b, c = three
    _, code = await private_table_on_c(three, open_player)
    answers = []
    for i in range(PER_ADDRESS + 3):  # one connection per try, entering by A, B, C in turn
        entry = three[i % 3]
        guesser = await open_player(entry.port, f"g{i}")
        message = {"type": "join", "table": "den", "name": f"g{i}", "code": "A" * 16}
        if i == PER_ADDRESS + 2:
            message["code"] = code  # even the right code: the address has no try left
        guesser = await follow(open_player, guesser, message)
        answers.append(guesser.received[-1]["code"])
        await guesser.close()
    assert answers == ["bad_invite_code"] * PER_ADDRESS + ["too_many_attempts"] * 3
    # only C, which holds the table, counted them: A and B only sent them there
    assert a.wrong_codes._addresses == {} and b.wrong_codes._addresses == {}
    assert list(c.wrong_codes._addresses) == ["127.0.0.1"]
