"""Whose address a browser visitor has: what ``craits-web`` tells the game server
each visitor's client speaks for (``hello.forwarded_for``, protocol §4.1).

Every visitor's client connects to the game server from the web server's one
address; the game server, trusting ``craits-web`` as a relay
(``craits-server --trusted-relay``, or automatically with ``--web``), counts its
limits per address (connections, wrong invite codes, tables nobody sits at)
against the address this module finds for each visitor:

- the address the browser's request came from, as a rule;
- behind a reverse proxy named with ``craits-web --trusted-proxy ADDR`` (the
  proxy in front of ``--public-url``), the ``X-Forwarded-For`` header of a
  request from that proxy: read from its right end, the first address that is
  not one of the trusted proxies (what each proxy appended; what a browser put
  at the left end itself is never believed).
"""

from __future__ import annotations

import argparse
import ipaddress
from collections.abc import Iterable, Sequence

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_HOPS = 32
"""Addresses of ``X-Forwarded-For`` read at most (from its right end)."""


def proxy_network(text: str) -> IPNetwork:
    """``--trusted-proxy``'s type: an IP address or network (``127.0.0.1``,
    ``10.0.0.0/8``; host bits allowed).

    Raises:
        argparse.ArgumentTypeError: neither (the message says what is wanted).
    """
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/8)"
        ) from None


def _ip(text: str) -> IPAddress | None:
    """``text`` as an IP address (an IPv6 zone dropped, an IPv4-mapped IPv6 address
    as its IPv4 one), or None."""
    try:
        ip = ipaddress.ip_address(text.strip().split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def visitor_address(
    remote: str | None, forwarded: Iterable[str], proxies: Sequence[IPNetwork]
) -> str | None:
    """The address of the visitor behind a request.

    Args:
        remote: the address the request came from (aiohttp's ``request.remote``).
        forwarded: the request's ``X-Forwarded-For`` headers, as sent (each a
            comma-separated list, the nearest proxy's addition last).
        proxies: the reverse proxies trusted to say whom they forward for.

    Returns:
        The visitor's IP address in its usual text form; None when the request
        came from no IP address (a Unix socket).
    """
    here = _ip(remote or "")
    if here is None:
        return None

    def trusted(ip: IPAddress) -> bool:
        return any(ip in network for network in proxies)

    if not trusted(here):
        return str(here)
    hops = [hop for header in forwarded for hop in header.split(",")][-MAX_HOPS:]
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            break  # garbage: nothing further left is believed
        if not trusted(ip):
            return str(ip)
        here = ip
    return str(here)  # the leftmost trusted hop (or the proxy itself)
