"""``craits-server leaderboard HOST[:PORT]``: a running server's leaderboard,
for operators and scripts (protocol §7.5, docs/accounts.md *Ratings*).

It connects as ``craits-server status`` does (TLS for ``craitss://``, pinned
or trusted as the client trusts it), says ``hello``, asks ``leaderboard`` and
prints one line per player, best first: rank, rating, rated games, last rated
game, name. ``--json`` prints the lines as one JSON array. It takes no seat
and logs in as nobody. Exit status as ``status``'s (:data:`EXIT_CODES`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from craits.protocol import DEFAULT_PORT
from craits.protocol.account_types import LeaderboardRequestMsg
from craits.protocol.address import Target, parse_target
from craits.protocol.messages import PAGE_LIMIT
from craits.protocol.types import HelloMsg
from craits.protocol.vocab import ClientMessage, ServerMessage

from ..errors import ProbeFailed
from .status import EXIT_HEALTHY, EXIT_TIMEOUT, EXIT_UNHEALTHY, EXIT_USAGE, connect, expect


async def fetch(target: Target, limit: int, offset: int, cafile: str | None) -> list[Any]:
    """The leaderboard's lines ``offset`` on, at most ``limit``, from ``target``.

    Raises:
        ProbeFailed: as ``status`` (refused, unreachable, not a Craits server,
            an error such as ``accounts_unavailable``).
    """
    conn = await connect(target, cafile)
    where = target.hostport
    try:
        hello: HelloMsg = {"type": ClientMessage.HELLO, "version": 1, "client": "craits-board"}
        await conn.send(hello)
        await expect(conn, ServerMessage.WELCOME, where)
        ask: LeaderboardRequestMsg = {
            "type": ClientMessage.LEADERBOARD,
            "offset": offset,
            "limit": limit,
        }
        await conn.send(ask)
        page = await expect(conn, ServerMessage.LEADERBOARD, where)
    except ConnectionError:
        raise ProbeFailed(EXIT_UNHEALTHY, f"{where}: the connection was closed") from None
    finally:
        await conn.close()
    return list(page.get("lines", []))


def lines(board: list[dict[str, Any]]) -> list[str]:
    """The leaderboard as printed: a header, then one line per player."""
    if not board:
        return ["no player is on the leaderboard yet (20 rated games, one in 14 days)"]
    out = [f"{'rank':>4}  {'rating':>6}  {'games':>5}  {'last game':<20}  name"]
    for line in board:
        out.append(
            f"{line['rank']:>4}  {line['rating']:>6}  {line['games']:>5}  "
            f"{line['last_game']:<20}  {line['name']}"
        )
    return out


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server leaderboard``."""
    p = argparse.ArgumentParser(
        prog="craits-server leaderboard",
        description="Print a running server's leaderboard, best first (players with at "
        "least 20 rated games, one in the last 14 days).",
    )
    p.add_argument(
        "address", metavar="HOST[:PORT]", help=f"the server (default port {DEFAULT_PORT})"
    )
    p.add_argument(
        "--limit", type=int, default=20, help=f"lines to print, 1..{PAGE_LIMIT} (default 20)"
    )
    p.add_argument("--offset", type=int, default=0, help="from this rank on, 0 the best")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS")
    p.add_argument("--tls-ca", default=None, metavar="FILE", help="as craits-server status")
    p.add_argument("--json", action="store_true", help="print the lines as one JSON array")
    return p


def leaderboard_main(argv: list[str]) -> int:
    """``craits-server leaderboard``: print the leaderboard; returns the exit
    status (:data:`~.status.EXIT_CODES`)."""
    args = build_parser().parse_args(argv)
    try:
        target = parse_target(args.address, DEFAULT_PORT)
    except ValueError as exc:
        print(f"craits-server leaderboard: bad address {args.address!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not 1 <= args.limit <= PAGE_LIMIT or args.offset < 0 or args.timeout <= 0:
        print(
            f"craits-server leaderboard: --limit is 1..{PAGE_LIMIT}, --offset >= 0, --timeout > 0",
            file=sys.stderr,
        )
        return EXIT_USAGE

    async def run() -> list[Any]:
        async with asyncio.timeout(args.timeout):
            return await fetch(target, args.limit, args.offset, args.tls_ca)

    try:
        board = asyncio.run(run())
    except TimeoutError:
        print(f"craits-server leaderboard: {target.hostport}: no answer", file=sys.stderr)
        return EXIT_TIMEOUT
    except ProbeFailed as exc:
        print(f"craits-server leaderboard: {exc}", file=sys.stderr)
        return exc.status
    print(json.dumps(board) if args.json else "\n".join(lines(board)))
    return EXIT_HEALTHY
