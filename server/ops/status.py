"""``craits-server status HOST[:PORT]``: a health probe for scripts and
orchestrators (a container's HEALTHCHECK, a monitoring check).

It connects, says ``hello`` (protocol §4.1), lists the tables (§7.2, every
page) and prints a short summary: the server's release (``welcome``'s
``server_version``), the tables by state, the players and spectators. It only
reads; it takes no seat. ``--json`` prints one JSON object instead.

Exit status (:data:`EXIT_CODES`): 0 healthy; 2 a bad command line; 5 the
connection was refused (nothing listens there); 6 the host cannot be reached
(no such name, no route); 7 no answer within ``--timeout``; 8 something
answered but not as a healthy Craits server (another protocol, or an error
such as ``server_full`` or ``shutdown``).
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import json
import os
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from craits.protocol import DEFAULT_PORT, ProtocolError
from craits.protocol.address import Target, parse_target
from craits.protocol.client import Connection
from craits.protocol.tls import TlsError, TlsOptions, open_tls
from craits.protocol.types import HelloMsg, ListTablesMsg
from craits.protocol.vocab import ClientMessage, ServerMessage, TableState

from ..errors import ProbeFailed

EXIT_HEALTHY = 0
EXIT_USAGE = 2
EXIT_REFUSED = 5
EXIT_UNREACHABLE = 6
EXIT_TIMEOUT = 7
EXIT_UNHEALTHY = 8
EXIT_CODES = {
    EXIT_HEALTHY: "healthy",
    EXIT_USAGE: "bad command line",
    EXIT_REFUSED: "connection refused",
    EXIT_UNREACHABLE: "unreachable",
    EXIT_TIMEOUT: "timed out",
    EXIT_UNHEALTHY: "answered, but not healthy",
}
"""Each exit status of ``craits-server status`` and what it means."""


@dataclass
class Health:
    """What a healthy server told the probe."""

    address: str
    server_version: str
    protocol: int
    seconds: float
    """From connecting to the last table page, seconds."""
    tables: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The figures, as ``--json`` prints them. People and bots are counted
        at every table, private ones too (whose entries name nobody, but count
        their seats: protocol §10, ``seated``, ``people``, ``people_connected``)."""
        states = Counter(str(t.get("state")) for t in self.tables)
        counts = [_seat_counts(t) for t in self.tables]
        return {
            "address": self.address,
            "healthy": True,
            "server_version": self.server_version,
            "protocol": self.protocol,
            "answered_ms": round(self.seconds * 1000, 1),
            "tables": len(self.tables),
            "tables_by_state": {str(s): states.get(str(s), 0) for s in TableState},
            "players": sum(c[0] for c in counts),
            "players_connected": sum(c[1] for c in counts),
            "bots": sum(c[2] for c in counts),
            "spectators": sum(int(t.get("spectators", 0)) for t in self.tables),
        }

    def lines(self) -> list[str]:
        """The summary for a person."""
        s = self.summary()
        states = ", ".join(f"{n} {state}" for state, n in s["tables_by_state"].items() if n)
        return [
            f"{self.address}: healthy, craits {s['server_version']} (protocol {s['protocol']}), "
            f"answered in {s['answered_ms']:g} ms",
            f"tables: {s['tables']}" + (f" ({states})" if states else ""),
            f"players: {s['players']} ({s['players_connected']} connected), bots: {s['bots']}, "
            f"spectators: {s['spectators']}",
        ]


def _seat_counts(table: dict[str, Any]) -> tuple[int, int, int]:
    """A lobby entry's people, people connected and bots. From its counts
    (``seated``, ``people``, ``people_connected``: a private table's entry lists
    no players); from its ``players`` when a server older than those counts
    sent it."""
    players = table.get("players", [])
    if "people" not in table:
        persons = [p for p in players if not p.get("bot")]
        connected = sum(1 for p in persons if p.get("connected"))
        return len(persons), connected, len(players) - len(persons)
    people = int(table["people"])
    seated = int(table.get("seated", len(players)))
    return people, int(table.get("people_connected", 0)), max(0, seated - people)


async def connect(target: Target, cafile: str | None) -> Connection:
    """A TCP (or TLS) connection to ``target``; TLS is trusted as the client
    trusts it (:func:`craits.protocol.tls.open_tls`): the pinned fingerprint
    (``fp=``), else the system's certificate authorities and ``cafile``.

    Raises:
        ProbeFailed: refused or unreachable; a certificate not trusted.
    """
    host, port = target.host, target.port
    try:
        if target.tls:
            options = TlsOptions(cafile=cafile, fingerprint=target.fingerprint)
            reader, writer = await open_tls(host, port, options)
        else:
            reader, writer = await asyncio.open_connection(host, port)
    except TlsError as exc:
        raise ProbeFailed(EXIT_UNHEALTHY, f"{target.hostport}: TLS failed: {exc}") from None
    except socket.gaierror as exc:
        raise ProbeFailed(EXIT_UNREACHABLE, f"cannot resolve {host}: {exc.strerror}") from None
    except OSError as exc:
        if exc.errno == errno.ECONNREFUSED or isinstance(exc, ConnectionRefusedError):
            raise ProbeFailed(EXIT_REFUSED, f"{host}:{port}: connection refused") from None
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise ProbeFailed(EXIT_UNREACHABLE, f"{host}:{port}: {why.lower()}") from None
    return Connection(reader, writer)


async def expect(conn: Connection, kind: ServerMessage, where: str) -> dict[str, Any]:
    """The next message, which must be ``kind``.

    Raises:
        ProbeFailed: another message (an error says its code), a bad frame, or the end.
    """
    try:
        reply = await conn.recv()
    except (asyncio.IncompleteReadError, ConnectionError):
        raise ProbeFailed(EXIT_UNHEALTHY, f"{where}: the connection was closed") from None
    except ProtocolError:
        raise ProbeFailed(EXIT_UNHEALTHY, f"{where}: not the Craits protocol") from None
    if reply.get("type") == kind:
        return reply
    if reply.get("type") == ServerMessage.ERROR:
        code, message = reply.get("code"), reply.get("message", "")
        raise ProbeFailed(EXIT_UNHEALTHY, f"{where}: refused: {code}: {message}")
    raise ProbeFailed(EXIT_UNHEALTHY, f"{where}: unexpected {reply.get('type')!r}")


async def probe(target: Target, cafile: str | None = None) -> Health:
    """Connect to ``target`` (TLS for ``craitss://``, trusting also the
    certificate authorities in the PEM file ``cafile``), say hello, list every table.

    Raises:
        ProbeFailed: the server is not healthy (see :data:`EXIT_CODES`); a
            caller bounds the time with :func:`asyncio.timeout`.
    """
    where = target.hostport
    started = time.perf_counter()
    conn = await connect(target, cafile)
    try:
        hello: HelloMsg = {"type": ClientMessage.HELLO, "version": 1, "client": "craits-status"}
        await conn.send(hello)
        welcome = await expect(conn, ServerMessage.WELCOME, where)
        tables: list[dict[str, Any]] = []
        while True:
            ask: ListTablesMsg = {"type": ClientMessage.LIST_TABLES, "offset": len(tables)}
            await conn.send(ask)
            page = await expect(conn, ServerMessage.TABLES, where)
            tables.extend(page.get("tables", []))
            if not page.get("tables") or len(tables) >= int(page.get("total", 0)):
                break
    except ConnectionError:
        raise ProbeFailed(EXIT_UNHEALTHY, f"{where}: the connection was closed") from None
    finally:
        await conn.close()
    return Health(
        address=where,
        server_version=str(welcome.get("server_version", "unknown")),
        protocol=int(welcome.get("version", 0)),
        seconds=time.perf_counter() - started,
        tables=tables,
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server status``."""
    codes = "; ".join(f"{code}: {meaning}" for code, meaning in EXIT_CODES.items())
    p = argparse.ArgumentParser(
        prog="craits-server status",
        description="Check a running server: connect, say hello, list the tables, "
        f"print a summary. Exit status {codes}.",
    )
    p.add_argument(
        "address",
        metavar="HOST[:PORT]",
        nargs="?",
        default=None,
        help=f"the server (default port {DEFAULT_PORT}; a craits:// link works too); "
        "without it, the server this machine's settings describe (CRAITS_* variables, "
        "the CRAITS_CONFIG file: its host and port, TLS pinned to its --tls-cert)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="give up after this long (default 5)",
    )
    p.add_argument(
        "--tls-ca",
        default=None,
        metavar="FILE",
        help="for craitss:// without fp=: also trust the certificate authorities in this PEM "
        "file (as craits-client --tls-ca)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (for scripts)")
    return p


def status_main(argv: list[str], local: Callable[[], str] | None = None) -> int:
    """``craits-server status``: probe a server, print what it said; returns
    the exit status (:data:`EXIT_CODES`). ``local`` gives the address of the
    server the local settings describe, probed when no address is given (it
    raises ``ValueError`` with a one-line reason if the settings are bad)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.address is None:
        if local is None:
            parser.error("the server's address is required")
        try:
            args.address = local()
        except ValueError as exc:
            print(f"craits-server status: {exc}", file=sys.stderr)
            return EXIT_USAGE
    try:
        target = parse_target(args.address, DEFAULT_PORT)
    except ValueError as exc:
        print(f"craits-server status: bad address {args.address!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.timeout <= 0:
        print("craits-server status: --timeout must be > 0", file=sys.stderr)
        return EXIT_USAGE
    address = target.hostport

    async def run() -> Health:
        async with asyncio.timeout(args.timeout):
            return await probe(target, args.tls_ca)

    try:
        health = asyncio.run(run())
    except TimeoutError:
        failed = ProbeFailed(EXIT_TIMEOUT, f"{address}: no answer within {args.timeout:g} s")
    except ProbeFailed as exc:
        failed = exc
    else:
        if args.json:
            print(json.dumps(health.summary()))
        else:
            print("\n".join(health.lines()))
        return EXIT_HEALTHY
    if args.json:
        print(
            json.dumps(
                {
                    "address": address,
                    "healthy": False,
                    "status": failed.status,
                    "error": EXIT_CODES[failed.status],
                    "message": str(failed),
                }
            )
        )
    else:
        print(f"craits-server status: {failed}", file=sys.stderr)
    return failed.status
