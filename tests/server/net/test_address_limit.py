"""The limit of connections per address (protocol §4.7, issue 11's leftover).

Before: one address could open the server's whole connection cap (5000), and
from each connection create and join a table. Real servers on loopback ports,
real sockets; connections come from distinct loopback addresses (127.0.0.2,
127.0.0.3…: all of 127/8 is the loopback) where a test needs them.
"""

from __future__ import annotations

import asyncio

import pytest
from craits.server.app import Server
from craits.server.net.address_limit import (
    DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
    ConnectionsPerAddress,
)
from craits.server.ops.cli import main
from craits.server.ops.options import build_parser, config_from

from tests.server.net.test_abuse import create, raw_from
from tests.support.net import HOST, Net, Raw, net  # noqa: F401 - net is a fixture


async def connect_from(net: Net, srv: Server, source: str) -> Raw:  # noqa: F811
    """A raw connection from loopback address ``source``, before any hello."""
    reader, writer = await asyncio.open_connection(HOST, srv.port, local_addr=(source, 0))
    raw = Raw(reader, writer)
    net.raws.append(raw)
    return raw


async def held_becomes(srv: Server, address: str, count: int) -> None:
    """Wait (at most 2 s) until ``address`` holds ``count`` connections."""
    async with asyncio.timeout(2.0):
        while srv.per_address.held(address) != count:
            await asyncio.sleep(0.01)


async def test_one_address_past_its_limit_is_refused_and_nothing_else_is_affected(
    net: Net,  # noqa: F811
) -> None:
    srv = await net.server(max_connections_per_address=3)
    # a player from 127.0.0.2 at a table of its own, and two more connections
    # from there, one of them never greeted: it counts all the same
    ana = await raw_from(net, srv, "127.0.0.2", "Ana")
    assert (await create(ana, "a"))["type"] == "table_created"
    await ana.send({"type": "join", "table": "a", "name": "Ana"})
    await ana.expect("joined")
    greeted = await raw_from(net, srv, "127.0.0.2", "Ben")
    silent = await connect_from(net, srv, "127.0.0.2")
    await held_becomes(srv, "127.0.0.2", 3)

    for _ in range(3):
        extra = await connect_from(net, srv, "127.0.0.2")
        got = await extra.until_closed()
        assert [(m["type"], m["code"]) for m in got] == [("error", "too_many_connections")]
        assert got[0]["message"] == (
            "too many connections from your address (at most 3 at once); close one and try again"
        )
    assert srv.per_address.held("127.0.0.2") == 3
    assert len(srv.clients) == 3

    # another address is let in, and the first address's connections go on
    other = await raw_from(net, srv, "127.0.0.3", "Cy")
    await other.send({"type": "list_tables"})
    assert [t["name"] for t in (await other.expect("tables"))["tables"]] == ["a"]
    for n, conn in enumerate((ana, greeted)):
        await conn.send({"type": "ping", "nonce": n})
        assert (await conn.expect("pong"))["nonce"] == n
    await silent.send({"type": "hello", "version": 1, "name": "Late"})
    assert (await silent.expect("welcome"))["limits"]["max_connections_per_address"] == 3

    # one closes: one more is let in, and no more than that
    await greeted.close()
    await held_becomes(srv, "127.0.0.2", 2)
    again = await raw_from(net, srv, "127.0.0.2", "Dee")
    await again.send({"type": "ping", "nonce": 9})
    assert (await again.expect("pong"))["nonce"] == 9
    refused = await connect_from(net, srv, "127.0.0.2")
    assert await refused.error_then_close() == ["too_many_connections"]
    assert srv.per_address.held("127.0.0.2") == 3
    assert srv.per_address.held("127.0.0.3") == 1


async def test_the_server_cap_is_looked_at_first(net: Net) -> None:  # noqa: F811
    srv = await net.server(max_connections=2, max_connections_per_address=2)
    first = [await connect_from(net, srv, "127.0.0.4") for _ in range(2)]
    await held_becomes(srv, "127.0.0.4", 2)
    extra = await connect_from(net, srv, "127.0.0.4")
    assert await extra.error_then_close() == ["server_full"]
    await first[0].close()
    await held_becomes(srv, "127.0.0.4", 1)
    late = await raw_from(net, srv, "127.0.0.4")  # greeted: its welcome came
    await late.send({"type": "ping", "nonce": 4})
    assert (await late.expect("pong"))["nonce"] == 4


async def test_no_limit_at_zero(net: Net) -> None:  # noqa: F811
    """Past the default (64) from one address, as a load test does."""
    srv = await net.server(max_connections_per_address=0)
    conns = [await connect_from(net, srv, "127.0.0.5") for _ in range(70)]
    for conn in conns[-2:]:
        assert (await conn.hello())["limits"]["max_connections_per_address"] == 0
    await held_becomes(srv, "127.0.0.5", 70)


def test_the_counts() -> None:
    counts = ConnectionsPerAddress(2)
    assert counts.admit("a") and counts.admit("a") and not counts.admit("a")
    assert counts.admit("b") and counts.held("a") == 2 and counts.held("b") == 1
    counts.release("a")
    assert counts.held("a") == 1 and counts.admit("a") and not counts.admit("a")
    counts.release("b")
    assert counts.held("b") == 0
    unlimited = ConnectionsPerAddress(0)
    assert all(unlimited.admit("a") for _ in range(1000))
    with pytest.raises(ValueError):
        ConnectionsPerAddress(-1)


def test_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    assert config_from(parser.parse_args([])).max_connections_per_address == 64
    assert DEFAULT_MAX_CONNECTIONS_PER_ADDRESS == 64
    args = parser.parse_args(["--max-connections-per-address", "0"])
    assert config_from(args).max_connections_per_address == 0
    assert main(["--max-connections-per-address", "-1"]) == 2
    assert "--max-connections-per-address must be >= 0" in capsys.readouterr().err
