"""Whose address a browser visitor has: what ``craits-web`` tells the game server
each visitor's client speaks for (``hello.forwarded_for``, protocol §4.1); and
which address the browser asked for (:class:`Origin`: the links, the websocket
and the cookie of each page are made for it).

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

Behind such a proxy, the scheme and host the browser used are what the proxy
says in ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` (believed from the
trusted proxies only, as ``X-Forwarded-For``): an HTTPS proxy in front of
craits-web then needs no ``--public-url``, unless it serves the page under a
path of its own.
"""

from __future__ import annotations

import argparse
import ipaddress
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_HOPS = 32
"""Addresses of ``X-Forwarded-For`` read at most (from its right end)."""
_HOST = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?"
)
"""A host as a ``Host`` header names it: a name or IPv4 address, or ``[IPv6]``, and a port."""


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


def trusted_hop(remote: str | None, proxies: Sequence[IPNetwork]) -> bool:
    """Whether a request from ``remote`` came from one of the trusted ``proxies``."""
    here = _ip(remote or "")
    return here is not None and any(here in network for network in proxies)


def _first(headers: Iterable[str]) -> str:
    """The first item of a header that may hold a list (what the proxy nearest
    the browser wrote), stripped; ``""`` when there is none."""
    for header in headers:
        return header.split(",", 1)[0].strip()
    return ""


@dataclass(frozen=True, slots=True)
class Origin:
    """The scheme and host a page was asked for, as the browser wrote them.

    Attributes:
        scheme: ``http`` or ``https``.
        host: the host, with a port when the browser's address had one
            (``cards.example.org``, ``192.168.1.5:8080``, ``[::1]:8080``).
    """

    scheme: str
    host: str

    @property
    def base(self) -> str:
        """``scheme://host``: the site's address, links go under it."""
        return f"{self.scheme}://{self.host}"

    @classmethod
    def of_url(cls, url: str) -> Origin:
        """The origin of ``--public-url`` (a path in it is not part of the origin)."""
        parts = urlsplit(url)
        return cls(parts.scheme, parts.netloc)

    @classmethod
    def of_request(
        cls,
        scheme: str,
        host: str,
        remote: str | None,
        forwarded_proto: Iterable[str],
        forwarded_host: Iterable[str],
        proxies: Sequence[IPNetwork],
    ) -> Origin:
        """The origin a request was made for.

        Args:
            scheme, host: the request's own (aiohttp's ``request.scheme`` and
                ``request.host``, from its ``Host`` header).
            remote: the address the request came from.
            forwarded_proto, forwarded_host: its ``X-Forwarded-Proto`` and
                ``X-Forwarded-Host`` headers, as sent.
            proxies: the reverse proxies trusted to say them.

        Returns:
            The request's scheme and host, but for what a trusted proxy says
            instead: ``http`` or ``https``, and a well-formed host (anything else
            it says is ignored). From any other address, the headers count for
            nothing.
        """
        if trusted_hop(remote, proxies):
            said = _first(forwarded_proto).lower()
            if said in ("http", "https"):
                scheme = said
            said = _first(forwarded_host)
            if _HOST.fullmatch(said):
                host = said
        return cls(scheme, host)
