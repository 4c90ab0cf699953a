"""How many connections one address holds (protocol §4.7, "Too many
connections from one address").

The server's connection cap (``max_connections``) is for the whole server:
without a rule per address, one address could open every connection there is
and, from each, create and join a table. :class:`ConnectionsPerAddress`
counts the open connections of each address (an IPv4 address, or an IPv6
/64: :func:`address_key`, the same unit as the
limit of tables nobody sits at) and refuses one more past the limit; the
:class:`~craits.server.net.connection.Client` that is refused is told
``too_many_connections`` and closed, before its ``hello``. Loopback is not
exempt: a load test or a test opening many connections from one machine
runs its server with the limit off (0).

**Trusted relays** (protocol §4.1, *forwarded address*, added in round 2). A
relay such as ``craits-web`` opens one connection per visitor from its own
address; counted there, its visitors would share one address's connections and
one budget of wrong invite codes. A connection from an address the server
trusts as a relay (:class:`TrustedRelays`, ``craits-server --trusted-relay``)
may name, in its ``hello``, the address it speaks for (``forwarded_for``): it
then counts against that address, for every per-address limit. Such a
connection is counted at its ``hello`` rather than on connecting (the relay's
own address holds no count for it before). A ``forwarded_for`` from any other
connection is refused (``untrusted_relay``): a server that silently ignored it
would hide a relay's misconfiguration.
"""

from __future__ import annotations

import argparse
import ipaddress
from collections import Counter
from collections.abc import Iterable
from typing import Protocol

from craits.protocol.vocab import ErrorCode

DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64
"""Connections one address may hold at once by default: far more than one
household's players and spectators, far fewer than the server's cap."""


def address_key(host: str) -> str:
    """What a connection from ``host`` counts against: the IPv4 address (an
    IPv4-mapped IPv6 address as its IPv4 one), the /64 of an IPv6 address
    (one subscriber's usual share), or ``host`` as given if it is neither."""
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Gated(Protocol):
    """What the count of addresses needs of a connection
    (a :class:`~craits.server.net.connection.Client`)."""

    address: str
    """The address it counts against (:func:`address_key`)."""
    peer: str
    """Its peer, ``ip:port``, for the logs."""

    def error(self, code: ErrorCode, message: str) -> None:
        """Send an ``error``."""

    def abort_after_flush(self) -> None:
        """Close once what was sent is written."""


class ConnectionsPerAddress:
    """The open connections of each address, at most ``limit`` each (0: no limit).

    The low level: :meth:`admit` counts a connection of an address in (or
    refuses it), :meth:`release` counts it out. The connection's life:
    :meth:`connected`, :meth:`greeted` (its ``hello``), :meth:`closed`, which
    count each connection under the address it speaks for (from a trusted
    relay, the ``forwarded_for`` of its ``hello``; see the module's notes).

    Args:
        limit: connections one address may hold at once; 0: no limit.
        relays: who may forward an address (none by default).

    Raises:
        ValueError: ``limit`` < 0.
    """

    def __init__(self, limit: int, relays: TrustedRelays | None = None) -> None:
        if limit < 0:
            raise ValueError(f"the limit of connections per address must be >= 0, not {limit}")
        self.limit = limit
        """Connections one address may hold at once; 0: no limit."""
        self.relays = relays if relays is not None else TrustedRelays()
        self._open: Counter[str] = Counter()
        self._counted: dict[Gated, str] = {}
        """Each connection counted in, and the address it is counted under."""
        self._relayed: set[Gated] = set()
        """Connections from a trusted relay not counted yet (before their hello)."""

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address`` in; False (nothing counted)
        if that address already holds :attr:`limit` connections."""
        if self.limit and self._open[address] >= self.limit:
            return False
        self._open[address] += 1
        return True

    def release(self, address: str) -> None:
        """Count out a closed connection that :meth:`admit` let in."""
        left = self._open[address] - 1
        if left > 0:
            self._open[address] = left
        else:
            del self._open[address]

    def held(self, address: str) -> int:
        """Open connections ``address`` holds now."""
        return self._open.get(address, 0)

    def connected(self, conn: Gated, peername: object) -> bool:
        """A new connection (its socket's ``peername``): counted in under its
        address, or, from a trusted relay, left to be counted at its ``hello``.
        False: refused, ``too_many_connections`` sent and the connection closing
        (protocol §4.7)."""
        host = peername[0] if isinstance(peername, tuple) else None
        if isinstance(host, str) and self.relays.trusts(host):
            self._relayed.add(conn)
            return True
        return self._count(conn, conn.address)

    def greeted(self, conn: Gated, forwarded_for: str | None) -> bool:
        """The connection's ``hello``, naming (``forwarded_for``) the address it
        speaks for, or not: a relay's connection is counted in now, under that
        address (or its own). False: refused, an ``error`` sent and the
        connection closing: ``untrusted_relay`` (a ``forwarded_for`` from a
        connection that is not a trusted relay's) or ``too_many_connections``."""
        if conn not in self._relayed:
            if forwarded_for is None:
                return True  # counted on connecting
            host = conn.peer.rpartition(":")[0] or conn.peer
            conn.error(
                ErrorCode.UNTRUSTED_RELAY,
                f"this server does not take forwarded addresses from {host} (its operator "
                f"can trust it with craits-server --trusted-relay {host})",
            )
            conn.abort_after_flush()
            return False
        self._relayed.discard(conn)
        if forwarded_for is not None:
            ip = parse_ip(forwarded_for)
            if ip is not None:  # (checked by the hello's schema)
                conn.address = address_key(str(ip))
                conn.peer = f"{ip} via {conn.peer}"
        return self._count(conn, conn.address)

    def closed(self, conn: Gated) -> None:
        """The connection closed: counted out, if it was counted in."""
        self._relayed.discard(conn)
        address = self._counted.pop(conn, None)
        if address is not None:
            self.release(address)

    def _count(self, conn: Gated, address: str) -> bool:
        if not self.admit(address):
            conn.error(
                ErrorCode.TOO_MANY_CONNECTIONS,
                f"too many connections from your address (at most {self.limit} "
                "at once); close one and try again",
            )
            conn.abort_after_flush()
            return False
        self._counted[conn] = address
        return True


IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK_RELAYS = ("127.0.0.1/32", "::1/128")
"""What ``craits-server --web`` trusts for its own web process (which reaches the
game over the loopback when the server listens on every address)."""


def relay_network(text: str) -> IPNetwork:
    """A trusted relay as ``--trusted-relay`` gives it: an IP address
    (``10.0.0.5``, ``::1``) or a network (``10.0.0.0/24``, host bits allowed).

    Raises:
        argparse.ArgumentTypeError: neither (the message says what is wanted).
    """
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IP address or network (e.g. 10.0.0.5 or 10.0.0.0/24)"
        ) from None


def relay_setting(text: str) -> str:
    """``--trusted-relay``'s type: the address or network as :func:`relay_network`
    reads it, written back in its usual form (``10.0.0.5/32``).

    Raises:
        argparse.ArgumentTypeError: as :func:`relay_network`.
    """
    return str(relay_network(text))


class TrustedRelays:
    """The addresses whose connections may name the address they speak for
    (``hello.forwarded_for``, protocol §4.1): IP networks, IPv4-mapped IPv6
    peers seen as their IPv4 address. Empty: no relay is trusted (the default).

    Raises:
        argparse.ArgumentTypeError: an item that is no IP address or network.
    """

    def __init__(self, relays: Iterable[str | IPNetwork] = ()) -> None:
        self.networks: tuple[IPNetwork, ...] = tuple(
            r if isinstance(r, ipaddress.IPv4Network | ipaddress.IPv6Network) else relay_network(r)
            for r in relays
        )

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, host: str) -> bool:
        """Whether a connection from ``host`` (a peer's IP address as the socket
        gives it, an IPv6 zone allowed) is from a trusted relay."""
        ip = parse_ip(host)
        return ip is not None and any(ip in network for network in self.networks)


def parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an IP address (an IPv6 zone dropped, an IPv4-mapped IPv6
    address as its IPv4 one), or None if it is not one."""
    try:
        ip = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip
