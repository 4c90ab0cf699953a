"""One spelling per server, for every file the client keeps per server (resume
tokens, record keys, commitments, pinned certificates): the default port filled in,
the host lowercased, an IPv6 address in its short form, and ``localhost``,
``127.0.0.1`` and ``::1`` one server, ``localhost``.
"""

from __future__ import annotations

import contextlib
import ipaddress

from craits.protocol import DEFAULT_PORT

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""Host names that all mean this machine's loopback server, saved as ``localhost``."""


def normalize_host(host: str) -> str:
    """One spelling per server: lowercased, without IPv6 brackets, an IPv6 address
    in its short form, and ``localhost`` for every loopback name."""
    host = host.strip().strip("[]").lower()
    with contextlib.suppress(ValueError):
        host = str(ipaddress.ip_address(host))
    return "localhost" if host in LOOPBACK_NAMES else host


def normalize_key(key: str) -> str:
    """The stored form of a key ``"HOST[:PORT] name"`` (see the module's notes).

    ``HOST`` may be ``[IPv6]:PORT``, or an IPv6 address followed by ``:PORT``
    as keys were written before (``"::1:7777 ana"``); the name is kept as given.
    """
    address, sep, name = key.partition(" ")
    host, port = address, DEFAULT_PORT
    if address.startswith("["):
        end = address.find("]")
        if end > 0:
            host, rest = address[1:end], address[end + 1 :]
            if rest.startswith(":") and rest[1:].isdigit():
                port = int(rest[1:])
    elif ":" in address:
        head, _, tail = address.rpartition(":")
        if tail.isdigit():
            host, port = head, int(tail)
    host = normalize_host(host)
    shown = f"[{host}]" if ":" in host else host
    return f"{shown}:{port}{sep}{name}"


def address_key(address: str) -> str:
    """The key of the server at ``address`` (``HOST[:PORT]``, or a resume tokens'
    key ``"HOST:PORT name"``): ``HOST:PORT`` as :func:`normalize_key` writes it."""
    return normalize_key(address).partition(" ")[0]


def server_key(host: str, port: int) -> str:
    """The key of the server at ``host:port``: the host as :func:`normalize_host`
    writes it (``[addr]:port`` for IPv6)."""
    host = normalize_host(host)
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
