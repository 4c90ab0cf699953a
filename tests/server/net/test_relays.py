"""Forwarded addresses from trusted relays (protocol §4.1, *Forwarded addresses*;
issue 14's leftover).

Before: every visitor of ``craits-web`` connected from the web server's one
address, so past 64 visitors the next could not connect, and one visitor's wrong
invite codes spent every visitor's budget. Real servers on loopback ports, real
sockets; the relay and the others connect from distinct loopback addresses
(127.0.0.20, 127.0.0.21…: all of 127/8 is the loopback).
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import ConnectError, Connection
from craits.protocol.messages import parse_client_message
from craits.protocol.wire import ProtocolError
from craits.server.app import Server, ServerConfig
from craits.server.net.address_limit import LOOPBACK_RELAYS, TrustedRelays, relay_network
from craits.server.ops.cli import main
from craits.server.ops.options import build_parser, config_from, settings_from

from tests.server.net.test_address_limit import connect_from, held_becomes
from tests.support.net import HOST, Net, Raw, net  # noqa: F401 - net is a fixture

RELAY = "127.0.0.20"
OTHER = "127.0.0.21"


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    """The shared test settings: 127.0.0.20 is a trusted relay; 2 connections an
    address; a small budget of wrong invite codes."""
    return replace(
        config,
        trusted_relays=(RELAY,),
        max_connections_per_address=2,
        invite_tries=3,
        invite_tries_per_address=5,
        invite_refill=600.0,
    )


async def relayed(net: Net, srv: Server, visitor: str | None, name: str = "web") -> Raw:  # noqa: F811
    """A connection from the relay speaking for ``visitor`` (None: for itself),
    before its welcome is read."""
    raw = await connect_from(net, srv, RELAY)
    hello: dict[str, Any] = {"type": "hello", "version": 1, "name": name}
    if visitor is not None:
        hello["forwarded_for"] = visitor
    await raw.send(hello)
    return raw


async def welcomed(net: Net, srv: Server, visitor: str | None, name: str = "web") -> Raw:  # noqa: F811
    """As :func:`relayed`, its welcome read."""
    raw = await relayed(net, srv, visitor, name)
    await raw.expect("welcome")
    return raw


async def test_a_relays_visitors_count_as_their_own_addresses(net: Net) -> None:  # noqa: F811
    srv = await net.server()
    # more connections from the relay than one address may hold: each visitor's
    # count is its own, and the relay's own address holds none of them
    ana = [await welcomed(net, srv, "203.0.113.1", "Ana") for _ in range(2)]
    ben = [await welcomed(net, srv, "203.0.113.2", "Ben") for _ in range(2)]
    assert srv.per_address.held("203.0.113.1") == 2
    assert srv.per_address.held("203.0.113.2") == 2
    assert srv.per_address.held(RELAY) == 0
    # the logs name the visitor, and the relay's connection it came through
    peers = sorted(c.peer.rsplit(":", 1)[0] for c in srv.clients)
    assert peers == [f"203.0.113.{n} via {RELAY}" for n in (1, 1, 2, 2)]

    # a third for Ana's address is refused, answering its hello; nothing else is
    third = await relayed(net, srv, "203.0.113.1", "Ana")
    got = await third.until_closed()
    assert [(m["type"], m["code"]) for m in got] == [("error", "too_many_connections")]
    assert "at most 2 at once" in got[0]["message"]
    for n, conn in enumerate(ana + ben):
        await conn.send({"type": "ping", "nonce": n})
        assert (await conn.expect("pong"))["nonce"] == n

    # one of Ana's closes: counted out of her address, and she may come again
    await ana[0].close()
    await held_becomes(srv, "203.0.113.1", 1)
    await welcomed(net, srv, "203.0.113.1", "Ana")
    assert srv.per_address.held("203.0.113.1") == 2


async def test_a_relays_connections_are_counted_at_their_hello(net: Net) -> None:  # noqa: F811
    srv = await net.server()
    waiting = [await connect_from(net, srv, RELAY) for _ in range(4)]  # no hello yet
    async with asyncio.timeout(2.0):
        while len(srv.clients) < 4:  # every one accepted (and counted in the server's cap)
            await asyncio.sleep(0.01)
    assert srv.per_address.held(RELAY) == 0
    # without forwarded_for a relay's connection is its own address's
    for raw in waiting[:2]:
        await raw.hello("relay")
    assert srv.per_address.held(RELAY) == 2
    await waiting[2].send({"type": "hello", "version": 1, "name": "relay"})
    assert await waiting[2].error_then_close() == ["too_many_connections"]
    # one that closes before its hello was never counted: nothing to count out
    await waiting[3].close()
    await held_becomes(srv, RELAY, 2)


async def test_forwarded_for_from_anyone_else_is_refused(net: Net) -> None:  # noqa: F811
    srv = await net.server()
    liar = await connect_from(net, srv, OTHER)
    await held_becomes(srv, OTHER, 1)  # counted on connecting, as every connection
    await liar.send({"type": "hello", "version": 1, "forwarded_for": "203.0.113.9"})
    got = await liar.until_closed()
    assert [(m["type"], m["code"]) for m in got] == [("error", "untrusted_relay")]
    assert got[0]["message"] == (
        f"this server does not take forwarded addresses from {OTHER} (its operator "
        f"can trust it with craits-server --trusted-relay {OTHER})"
    )
    await held_becomes(srv, OTHER, 0)
    assert srv.per_address.held("203.0.113.9") == 0
    # the same connection without the field is welcome
    honest = await connect_from(net, srv, OTHER)
    assert (await honest.hello())["type"] == "welcome"


async def test_a_client_is_told_why_in_one_line(net: Net) -> None:  # noqa: F811
    srv = await net.server(trusted_relays=())
    with pytest.raises(ConnectError, match=r"does not take forwarded addresses from 127\.0\.0\.1"):
        await Connection.open(HOST, srv.port, "Ana", forwarded_for="203.0.113.9")
    srv2 = await net.server(trusted_relays=LOOPBACK_RELAYS)
    conn = await Connection.open(HOST, srv2.port, "Ana", forwarded_for="203.0.113.9")
    try:
        assert srv2.per_address.held("203.0.113.9") == 1
        assert srv2.per_address.held("127.0.0.1") == 0
    finally:
        await conn.close()


async def test_forwarded_for_must_be_an_ip_address(net: Net) -> None:  # noqa: F811
    srv = await net.server(max_connections_per_address=10)
    for bad in ("cards.example.org", "203.0.113.1:5000", "", 7, "1" * 46):
        raw = await relayed(net, srv, bad)  # type: ignore[arg-type]
        error = await raw.expect("error")
        assert error["code"] == "bad_message"
        assert "forwarded_for" in error["message"]
        assert (await raw.hello())["type"] == "welcome"  # the hello may come again
    assert srv.per_address.held("cards.example.org") == 0


async def test_an_ipv6_visitor_counts_as_its_64(net: Net) -> None:  # noqa: F811
    srv = await net.server()
    await welcomed(net, srv, "2001:db8:1:2::1")
    await welcomed(net, srv, "2001:db8:1:2:ffff::9")
    assert srv.per_address.held("2001:db8:1:2::/64") == 2
    extra = await relayed(net, srv, "2001:db8:1:2::77")
    assert await extra.error_then_close() == ["too_many_connections"]
    await welcomed(net, srv, "::ffff:203.0.113.5")  # an IPv4-mapped address is IPv4's
    assert srv.per_address.held("203.0.113.5") == 1


async def test_one_visitors_wrong_invite_codes_spend_only_their_own_budget(
    net: Net,  # noqa: F811
) -> None:
    srv = await net.server(max_connections_per_address=10)
    host = await welcomed(net, srv, "203.0.113.1", "Host")
    await host.send({"type": "create_table", "name": "den", "seats": 3, "private": True})
    code = (await host.expect("table_created"))["code"]

    async def guess(conn: Raw, given: str) -> str:
        await conn.send({"type": "spectate", "table": "den", "code": given})
        while True:
            reply = await conn.recv()
            if reply["type"] in ("error", "spectating", "state"):
                return str(reply.get("code", reply["type"]))

    # a guesser (through the relay) spends their address's 5 tries over two connections
    guessers = [await welcomed(net, srv, "198.51.100.66", "Eve") for _ in range(2)]
    answers = [await guess(conn, "WRONGWRONGWRONGW") for conn in guessers for _ in range(3)]
    assert answers == ["bad_invite_code"] * 5 + ["too_many_attempts"]
    # another visitor through the same relay still has a whole budget
    friend = await welcomed(net, srv, "203.0.113.2", "Friend")
    assert await guess(friend, "WRONGWRONGWRONGW") == "bad_invite_code"
    assert await guess(friend, code) != "too_many_attempts"


async def test_a_kicked_visitor_is_barred_by_their_own_address(net: Net) -> None:  # noqa: F811
    srv = await net.server(max_connections_per_address=10)
    host = await welcomed(net, srv, "203.0.113.1", "Host")
    await host.send({"type": "create_table", "name": "den", "seats": 3})
    await host.expect("table_created")
    await host.send({"type": "join", "table": "den", "name": "Host"})
    await host.expect("joined")
    pest = await welcomed(net, srv, "198.51.100.66", "Pest")
    await pest.send({"type": "join", "table": "den", "name": "Pest"})
    seat = (await pest.expect("joined"))["seat"]
    await host.send({"type": "kick", "seat": seat})
    assert (await pest.expect("error"))["code"] == "kicked"
    # the pest under another name is kept out; another visitor of the same relay is not
    again = await welcomed(net, srv, "198.51.100.66", "Pest2")
    await again.send({"type": "join", "table": "den", "name": "Pest2"})
    assert (await again.expect("error"))["code"] == "barred"
    friend = await welcomed(net, srv, "203.0.113.2", "Friend")
    await friend.send({"type": "join", "table": "den", "name": "Friend"})
    assert (await friend.expect("joined"))["table"] == "den"


def test_the_hello_schema() -> None:
    hello = {"type": "hello", "version": 1, "forwarded_for": "2001:db8::1"}
    assert parse_client_message(hello)["forwarded_for"] == "2001:db8::1"  # type: ignore[typeddict-item]
    with pytest.raises(ProtocolError, match="forwarded_for: must be an IP address"):
        parse_client_message({**hello, "forwarded_for": "localhost"})


def test_trusted_relays() -> None:
    relays = TrustedRelays(["10.0.0.0/24", "::1", "192.0.2.7"])
    assert relays.trusts("10.0.0.200") and relays.trusts("::1") and relays.trusts("192.0.2.7")
    assert relays.trusts("::ffff:10.0.0.9")  # an IPv4-mapped peer is its IPv4 address
    assert not relays.trusts("10.0.1.1") and not relays.trusts("127.0.0.1")
    assert not relays.trusts("not an address") and not TrustedRelays()
    assert str(relay_network(" 10.0.0.5/24 ")) == "10.0.0.0/24"
    with pytest.raises(argparse.ArgumentTypeError, match="not an IP address or network"):
        relay_network("relay.example.org")


def test_the_setting(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    parser = build_parser()
    assert config_from(parser.parse_args([])).trusted_relays == ServerConfig().trusted_relays == ()
    args = parser.parse_args(["--trusted-relay", "10.0.0.5", "--trusted-relay", "fd00::/8"])
    assert config_from(args).trusted_relays == ("10.0.0.5/32", "fd00::/8")
    # --web trusts its own web process: the loopback, and --host's one address
    web = config_from(parser.parse_args(["--web", "8080"])).trusted_relays
    assert web == LOOPBACK_RELAYS
    one = config_from(parser.parse_args(["--web", "8080", "--host", "192.0.2.7"]))
    assert one.trusted_relays == (*LOOPBACK_RELAYS, "192.0.2.7/32")
    # from the environment and the config file too (server/config.py)
    monkeypatch.setenv("CRAITS_TRUSTED_RELAY", "10.0.0.5 10.0.0.6")
    resolved = settings_from([])
    assert not isinstance(resolved, int)
    assert config_from(resolved[0]).trusted_relays == ("10.0.0.5/32", "10.0.0.6/32")
    monkeypatch.delenv("CRAITS_TRUSTED_RELAY")
    toml = tmp_path / "craits.toml"
    toml.write_text('trusted-relay = ["10.1.0.0/16"]\n')
    resolved = settings_from(["--config", str(toml)])
    assert not isinstance(resolved, int)
    assert config_from(resolved[0]).trusted_relays == ("10.1.0.0/16",)
    with pytest.raises(SystemExit) as stopped:
        main(["--trusted-relay", "relay.example.org"])
    assert stopped.value.code == 2
    assert "not an IP address or network" in capsys.readouterr().err
