"""``craits-bot``: the network bot's command line.

It connects to a Craits server, joins a table (or creates it first with
``--create SEATS``), plays one game with a policy of :mod:`craits.server.bots`
(``--level``), and exits 0 when the game is over (``--forever``: it keeps
playing new games). See :class:`~.bot.BotClient`.

Example::

    craits-bot localhost --table practice
    craits-bot 'craits://10.0.0.5:7777/friday?code=MZXW6YTBOI3DEMRQ'
    craits-bot 10.0.0.5:7777 --table friday --create 4 --level random --think-ms 300
    craits-bot craitss://example.org:7777 --table friday --tls-fingerprint 0ff8eb…
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys

from craits.protocol import DEFAULT_PORT
from craits.protocol.address import normalize_fingerprint, parse_target
from craits.protocol.client import parse_address
from craits.protocol.redirect import MAX_REDIRECTS
from craits.protocol.release import version
from craits.protocol.tls import TlsOptions
from craits.protocol.vocab import DEFAULT_BOT_LEVEL

from ...errors import BotError
from ..levels import LEVELS
from .bot import BotClient, connect_bot

__all__ = ["build_parser", "main", "run"]

MIN_SEATS, MAX_SEATS = 2, 8
"""The seats a table may have (R1)."""


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-bot``."""
    p = argparse.ArgumentParser(
        prog="craits-bot",
        description="A computer player that joins a Craits table over the network.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    p.add_argument(
        "address",
        metavar="HOST[:PORT] | LINK",
        help=f"the server (default port {DEFAULT_PORT}); or an invite link, "
        "craits://HOST:PORT/TABLE?code=CODE, naming the table and its code",
    )
    p.add_argument("--table", help="the table to join (the invite link's, if left out)")
    p.add_argument(
        "--code",
        metavar="CODE",
        help="the invite code of a private table (the invite link's, if left out)",
    )
    p.add_argument(
        "--level",
        default=DEFAULT_BOT_LEVEL,
        choices=LEVELS,
        help=f"how it plays (default {DEFAULT_BOT_LEVEL})",
    )
    p.add_argument("--name", help="player name (default LEVEL-bot-NNN; another is tried if taken)")
    p.add_argument(
        "--think-ms",
        type=int,
        default=600,
        metavar="N",
        help="milliseconds before each decision, on average (default 600)",
    )
    p.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        metavar="J",
        help="each think time is drawn uniformly in think x [1-J, 1+J] (default 0.5; 0: fixed)",
    )
    p.add_argument(
        "--create",
        type=int,
        metavar="SEATS",
        help=f"create the table with SEATS seats ({MIN_SEATS}-{MAX_SEATS}) first, unless it exists",
    )
    p.add_argument(
        "--short-game", action="store_true", help="with --create: 8 hands instead of 15 (R2)"
    )
    p.add_argument(
        "--forever", action="store_true", help="keep playing new games instead of stopping"
    )
    p.add_argument("--seed", type=int, help="seed of the random level's choices")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    tls = p.add_argument_group("TLS (a server started with --tls-cert)")
    tls.add_argument(
        "--tls",
        action="store_true",
        help="connect with TLS (as a craitss:// address does), verifying the certificate "
        "against the system's authorities",
    )
    tls.add_argument(
        "--tls-fingerprint",
        metavar="SHA256",
        help="accept only the certificate with this SHA-256 fingerprint (for a "
        "self-signed certificate); implies --tls",
    )
    tls.add_argument(
        "--tls-ca",
        metavar="FILE",
        help="also trust the certificate authorities in this PEM file; implies --tls",
    )
    return p


def tls_options(args: argparse.Namespace, tls: bool, fingerprint: str | None) -> TlsOptions | None:
    """TLS as the command line and the address (``tls``, its ``fp=``) ask, or None.

    Raises:
        ValueError: ``--tls-fingerprint`` is not a SHA-256 fingerprint.
    """
    if args.tls_fingerprint:
        fingerprint = normalize_fingerprint(args.tls_fingerprint)
    if not (tls or args.tls or args.tls_ca or fingerprint):
        return None
    return TlsOptions(cafile=args.tls_ca, fingerprint=fingerprint)


async def run(args: argparse.Namespace) -> int:
    """Play as ``args`` say; returns the exit status.

    Raises:
        BotError: the bot could not connect, was refused, or lost the connection.
    """
    try:
        target = parse_target(args.address, DEFAULT_PORT)
    except ValueError as exc:
        raise BotError(f"bad address {args.address!r}: {exc}") from None
    try:
        tls = tls_options(args, target.tls, target.fingerprint)
    except ValueError as exc:
        raise BotError(f"bad --tls-fingerprint: {exc}") from None
    table = args.table or target.table
    if table is None:
        raise BotError("which table? name it with --table (or give an invite link)")
    code = args.code or (target.code if target.table in (None, table) else None)
    host, port = target.host, target.port
    rng = random.Random(args.seed)
    name = args.name or f"{args.level}-bot-{rng.randrange(100, 1000)}"

    def say(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    for hop in range(MAX_REDIRECTS + 1):
        bot = BotClient(
            table,
            name,
            level=args.level,
            think=max(0, args.think_ms) / 1000,
            jitter=args.jitter,
            create=args.create,
            rules={"short_game": True} if args.short_game else None,
            games=0 if args.forever else 1,
            rng=rng,
            say=say,
        )
        bot.code = code  # a private table's (protocol §11.9)
        bot.placed = hop > 0
        await connect_bot(host, port, bot, tls=tls)
        try:
            code = await bot.done
        finally:
            bot.close()
        if bot.redirect is None:
            return code
        try:  # a cluster's node sent it to another: the same request there (§7.4)
            host, port = parse_address(bot.redirect, DEFAULT_PORT)
        except ValueError:
            raise BotError(f"the server sent a bad address {bot.redirect!r}") from None
        say(f"{name}: table {table!r} is at {host}:{port}; going there")
    raise BotError(f"redirected more than {MAX_REDIRECTS} times")


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``craits-bot``; returns the exit status (0: the game ended,
    1: the bot could not go on, 2: a bad command line, 130: interrupted)."""
    args = build_parser().parse_args(argv)
    if args.create is not None and not MIN_SEATS <= args.create <= MAX_SEATS:
        print(f"craits-bot: --create takes {MIN_SEATS} to {MAX_SEATS} seats", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(args))
    except BotError as exc:
        print(f"craits-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
