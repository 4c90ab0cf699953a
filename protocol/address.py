"""Where a client goes: a server's address, or a whole invite, as one string.

Three spellings are accepted (protocol §1.1):

* ``HOST``, ``HOST:PORT`` or ``[IPv6]:PORT`` — a server over plain TCP;
* ``craits://HOST[:PORT][/TABLE][?code=CODE&watch=1]`` — the same as a link,
  naming a table to sit at (or watch) and, for a private table, its invite code;
* ``craitss://…`` — the same over TLS; ``fp=HEX`` in the query pins the
  server's certificate by its SHA-256 fingerprint (64 hex digits).

:func:`parse_target` reads any of them into a :class:`Target`;
:meth:`Target.link` writes the one-string form back (what a table's creator
sends to friends). Nothing here opens a connection.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

PLAIN_SCHEME = "craits"
"""The scheme of a link to a server over plain TCP."""
TLS_SCHEME = "craitss"
"""The scheme of a link to a server over TLS."""

_HEX64 = re.compile(r"[0-9a-f]{64}")


def normalize_fingerprint(text: str) -> str:
    """A SHA-256 certificate fingerprint as 64 lowercase hex digits.

    Accepts upper or lower case, with or without ``:`` separators and an
    optional ``sha256:`` prefix (as ``openssl x509 -fingerprint`` prints it).

    Raises:
        ValueError: not 32 bytes of hex.
    """
    fp = text.strip().lower()
    fp = fp.removeprefix("sha256:").removeprefix("sha256=")
    fp = fp.replace(":", "")
    if not _HEX64.fullmatch(fp):
        raise ValueError("a certificate fingerprint is 64 hex digits (SHA-256)")
    return fp


def _split_host_port(hostport: str, default_port: int) -> tuple[str, int]:
    host, port_text = hostport, ""
    if hostport.startswith("["):
        end = hostport.find("]")
        if end < 0:
            raise ValueError("an IPv6 address needs its closing ]")
        host, rest = hostport[1:end], hostport[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"unexpected {rest!r} after the IPv6 address")
        port_text = rest[1:]
    elif hostport.count(":") == 1:
        host, port_text = hostport.split(":")
    port = default_port
    if port_text:
        if not port_text.isdigit():
            raise ValueError(f"port {port_text!r} is not a number")
        port = int(port_text)
    if not 1 <= port <= 65535:
        raise ValueError(f"port {port} is out of range")
    return host or "127.0.0.1", port


@dataclass(frozen=True)
class Target:
    """A server to connect to and, optionally, what to do there.

    Attributes:
        host: name or IP address (an IPv6 address without brackets).
        port: TCP port, 1…65535.
        tls: connect with TLS (the ``craitss`` scheme, or ``--tls``).
        fingerprint: the server certificate's SHA-256 as 64 lowercase hex
            digits, pinned ahead of time; ``None`` to verify or trust on first use.
        table: a table to sit at (or watch, with ``watch``), or ``None``.
        code: the invite code of a private table, or ``None``.
        watch: watch ``table`` as a spectator instead of sitting down.
    """

    host: str
    port: int
    tls: bool = False
    fingerprint: str | None = None
    table: str | None = None
    code: str | None = None
    watch: bool = False

    @property
    def hostport(self) -> str:
        """``HOST:PORT``, with brackets around an IPv6 address."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def link(self) -> str:
        """The one-string form, e.g. ``craitss://example.org:7777/friday?code=K3…&fp=ab…``.

        :func:`parse_target` reads it back to an equal :class:`Target`.
        """
        scheme = TLS_SCHEME if self.tls else PLAIN_SCHEME
        path = "/" + quote(self.table, safe="") if self.table else ""
        query: dict[str, str] = {}
        if self.code:
            query["code"] = self.code
        if self.watch:
            query["watch"] = "1"
        if self.fingerprint:
            query["fp"] = self.fingerprint
        tail = "?" + urlencode(query) if query else ""
        return f"{scheme}://{self.hostport}{path}{tail}"

    def with_table(self, table: str | None, code: str | None = None) -> Target:
        """This server with another table (and invite code)."""
        return replace(self, table=table, code=code, watch=False)


def parse_target(text: str, default_port: int) -> Target:
    """Read an address or a link (see the module's docstring) into a :class:`Target`.

    Args:
        text: what the user typed or pasted; surrounding blanks are ignored.
        default_port: the port when none is given.

    Raises:
        ValueError: a bad port, an unknown scheme or query key, a bad fingerprint,
            or ``fp``/``watch`` on a plain address; the message says which.
    """
    text = text.strip()
    if "://" not in text:
        host, port = _split_host_port(text, default_port)
        return Target(host, port)
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if scheme not in (PLAIN_SCHEME, TLS_SCHEME):
        raise ValueError(
            f"unknown scheme {parts.scheme!r} (use {PLAIN_SCHEME}:// or {TLS_SCHEME}://)"
        )
    host, port = _split_host_port(parts.netloc, default_port)
    table = unquote(parts.path.strip("/")) or None
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = set(query) - {"code", "watch", "fp"}
    if unknown:
        raise ValueError(f"unknown part {sorted(unknown)[0]!r} in the link")

    def one(key: str) -> str | None:
        values = query.get(key)
        return values[-1] if values else None

    fp = one("fp")
    if fp is not None and scheme != TLS_SCHEME:
        raise ValueError(f"a fingerprint needs TLS ({TLS_SCHEME}://)")
    watch = one("watch") not in (None, "", "0")
    if watch and table is None:
        raise ValueError("watch=1 needs a table in the link")
    return Target(
        host,
        port,
        tls=scheme == TLS_SCHEME,
        fingerprint=normalize_fingerprint(fp) if fp is not None else None,
        table=table,
        code=one("code") or None,
        watch=watch,
    )
