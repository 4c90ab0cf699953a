"""``craits-client HOST[:PORT]``: play Craits in the terminal.

``craits-client craits://HOST:PORT/TABLE?code=CODE`` (an invite, its only
argument) sits at that table — a private one with its invite code; ``--code
CODE`` gives the code with ``--table`` or ``--spectate`` (protocol §1.1, §11.9).

With ``--plain`` it plays in lines of text, for a screen reader or a braille
display (:mod:`craits.client.plain`, docs/accessibility.md); ``--lang`` chooses
the language (docs/i18n.md).

With ``--list`` it prints the server's tables and exits (for scripts); with
``--games``, the tables where this client holds a seat, the user's turns
first (protocol §11.11: for a shell prompt or a cron job). Errors
(unreachable server, another protocol version, a bad address) are one line on
stderr and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import re
import sys
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from craits.protocol import DEFAULT_PORT, MAX_NAME, ProtocolError
from craits.protocol.address import Target, normalize_fingerprint, parse_target
from craits.protocol.client import ConnectError
from craits.protocol.i18n import CATALOGS, SOURCE, _, language_argument, speak_as_asked
from craits.protocol.messages import undrawable
from craits.protocol.release import version
from craits.protocol.types import GameRecord, ListTablesMsg, TableInfo
from craits.protocol.vocab import ClientMessage, ServerMessage, TableState
from rich.cells import cell_len

from .core import privacy
from .core.analysisfetch import fetch_analysis
from .core.my_games import fetch_games
from .core.queries import answer, open_short
from .core.replayfetch import fetch_record
from .core.saved.known_hosts import KnownHosts, ServerTrust
from .core.saved.record_keys import RecordKeys
from .core.saved.resume_tokens import default_path
from .errors import Refused
from .present.card_style import unicode_suits_ok
from .present.games_text import format_games
from .present.rule_options import describe_rules

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def say_busy(wait: float) -> None:
    """Tell the user that the server asked to wait (``records_busy``, protocol §7.3)."""
    print(f"craits-client: the server is busy; asking again in {wait:g} s", file=sys.stderr)


_BAD_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")


def _cleaned(name: str) -> str:
    """``name`` composed (NFC, as the server takes it), without control
    characters or brackets, at most 24 characters; maybe empty."""
    name = unicodedata.normalize("NFC", name)
    return _BAD_NAME.sub("", name).strip()[:MAX_NAME].strip()


def clean_name(name: str) -> str:
    """A display name the server accepts, made of ``name`` (a login name): no
    control characters or brackets, nothing a terminal draws in an unknown
    width (:func:`~craits.protocol.messages.undrawable`), 1–24 characters;
    ``player`` when nothing is left."""
    name = _cleaned("".join(ch for ch in _cleaned(name) if undrawable(ch) is None))
    return name or "player"


def given_name(name: str) -> str:
    """``--name`` as the server takes it (surrounding spaces, control
    characters and brackets left out, at most 24 characters).

    Raises:
        ValueError: nothing is left (an empty name would be the login name's,
            and take the seat of a client already running under it), or it
            holds what a terminal draws in an unknown width (a joined emoji, a
            combining mark: protocol §5): why, in words.
    """
    cleaned = _cleaned(name)
    if not cleaned:
        raise ValueError("it is empty (brackets and control characters do not count)")
    why = undrawable(cleaned)
    if why is not None:
        raise ValueError(f"it {why}")
    return cleaned


def default_name() -> str:
    """The user's login name, or ``player``."""
    try:
        return clean_name(getpass.getuser())
    except Exception:
        return "player"


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-client``."""
    p = argparse.ArgumentParser(
        prog="craits-client",
        description="Play Craits, the Crazy Eights family card game, at a craits-server.",
        epilog="Keys are shown at the bottom of the screen; ? shows the rules. "
        "q leaves, Ctrl+C quits at once (a seat in a running game is kept: "
        "starting the client again takes it back).",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    p.add_argument(
        "address",
        metavar="HOST[:PORT] | LINK",
        nargs="?",
        help=f"the server, e.g. localhost or 192.168.1.5:{DEFAULT_PORT} "
        f"(port {DEFAULT_PORT} if left out); or an invite link, "
        "craits://HOST:PORT/TABLE?code=CODE, which sits at that table",
    )
    p.add_argument(
        "--name",
        default=None,
        help=f"your name at the table (default: your login name; at most {MAX_NAME} characters)",
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument("--table", metavar="NAME", help="take a seat at this table at once")
    group.add_argument("--spectate", metavar="NAME", help="watch this table")
    group.add_argument(
        "--quick",
        action="store_true",
        help="quick play: a seat at the table that starts soonest, or a new one "
        "that bots fill after a countdown",
    )
    group.add_argument(
        "--list",
        action="store_true",
        help="print the server's tables and exit: in columns on a terminal, "
        "tab-separated when piped (for scripts)",
    )
    group.add_argument(
        "--games",
        action="store_true",
        help="print the tables at this server where you hold a seat (the seats this client "
        "kept), whose turn it is and the time left, your turns first, and exit: in columns "
        "on a terminal, tab-separated when piped (for a shell prompt or a cron job)",
    )
    p.add_argument(
        "--code",
        metavar="CODE",
        help="the invite code of the private table named by --table or --spectate",
    )
    p.add_argument(
        "--replay",
        metavar="FILE",
        type=Path,
        help="step through a recorded game, all hands shown: move by move on the table "
        "for a record from craits-server export --frames, else hand by hand",
    )
    p.add_argument(
        "--replay-game",
        metavar="N",
        type=int,
        help="step through finished game N of the server at ADDRESS, move by move "
        "(its record and frames fetched with get_record and get_replay), with the "
        "marks of its post-game analysis (m: the next one)",
    )
    p.add_argument(
        "--analysis-wait",
        metavar="SECONDS",
        type=float,
        default=600.0,
        help="with --replay-game: how long to wait for the server to analyse the game "
        "(a minute or more the first time; Ctrl-C skips it; 0: no analysis; default 600)",
    )
    p.add_argument(
        "--ascii",
        action="store_true",
        help="suits as S H D C instead of ♠ ♥ ♦ ♣ (automatic when the terminal cannot show them)",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="play in plain lines of text, one sentence per event, for a screen reader or "
        "a braille display: no colours, no cursor moves; type help at its prompt",
    )
    p.add_argument(
        "--brief",
        action="store_true",
        help="with --plain: say less (whose turn only when it is yours)",
    )
    p.add_argument(
        "--lang",
        metavar="LANG",
        type=language_argument,
        help=f"the language to speak: {', '.join((SOURCE, *CATALOGS))} "
        "(default: from LC_ALL, LC_MESSAGES or LANG, else en)",
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="run inside craits-web: connection problems are shown in the app with a retry, "
        "and Ctrl+C copies instead of quitting",
    )
    p.add_argument(  # set by craits-web for each visitor (protocol §4.1)
        "--forwarded-for",
        metavar="IP",
        help=argparse.SUPPRESS,
    )
    p.add_argument(  # set by craits-web: the page's host, the address its visitor knows
        "--shown-address",
        metavar="HOST",
        help=argparse.SUPPRESS,
    )
    add_tls_options(p)
    return p


def add_tls_options(p: argparse.ArgumentParser) -> None:
    """``--tls``, ``--tls-fingerprint`` and ``--tls-ca`` (protocol §2)."""
    tls = p.add_argument_group("TLS (a server started with --tls-cert)")
    tls.add_argument(
        "--tls",
        action="store_true",
        help="connect with TLS, as a craitss://HOST:PORT address does; the certificate is "
        "verified against the system's authorities, or else shown to you to trust "
        "(its fingerprint is then kept for that server)",
    )
    tls.add_argument(
        "--tls-fingerprint",
        metavar="SHA256",
        help="accept only the certificate with this SHA-256 fingerprint (64 hex digits, "
        "colons allowed; craits-server prints it at start), without asking; implies --tls",
    )
    tls.add_argument(
        "--tls-ca",
        metavar="FILE",
        help="also trust the certificate authorities in this PEM file; implies --tls",
    )


def server_trust(args: argparse.Namespace, target: Target) -> ServerTrust | None:
    """How to trust the server: None for plain TCP, else TLS as ``args`` and
    the address say (``--tls-fingerprint`` before the link's ``fp=``).

    Raises:
        ValueError: ``--tls-fingerprint`` is not a SHA-256 fingerprint.
    """
    if not (target.tls or args.tls or args.tls_fingerprint or args.tls_ca):
        return None
    fingerprint = target.fingerprint
    if args.tls_fingerprint:
        fingerprint = normalize_fingerprint(args.tls_fingerprint)
    return ServerTrust(KnownHosts(), cafile=args.tls_ca, fingerprint=fingerprint)


def _plain(text: str) -> str:
    """Network text made safe for a terminal line: no control characters."""
    return _BAD_NAME.sub("?", text).strip()


LIST_GAP = 2
"""Blank columns between two columns of ``--list`` on a terminal."""


def format_tables(tables: list[TableInfo], aligned: bool = False) -> str:
    """The ``--list`` output: a header, then one line per table; its columns
    tab-separated (for scripts), or ``aligned`` under their headers, padded to
    the cells a terminal draws (names in any script or emoji), :data:`LIST_GAP`
    apart."""
    rows = [["table", "seats", "players", "state", "rules", "watching"]]
    for t in sorted(tables, key=lambda t: t["name"]):
        players = t["players"]
        names = ",".join(_plain(p["name"]) for p in players) or "-"
        state = str(t["state"])
        if state == TableState.PLAYING:
            state = f"playing {t['hand_number']}/{t['hands_in_game']}"
        fields = [
            _plain(t["name"]) + privacy.badge(t),
            f"{privacy.seats_taken(t)}/{t['seats']}",
            names,
            state,
            describe_rules(t["rules"]),
            str(t["spectators"]),
        ]
        rows.append(fields)
    if not aligned:
        return "\n".join("\t".join(row) for row in rows)
    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]))]
    gap = " " * LIST_GAP
    return "\n".join(
        gap.join(
            cell + " " * (w - cell_len(cell)) for cell, w in zip(row, widths, strict=True)
        ).rstrip()
        for row in rows
    )


async def list_tables(
    host: str, port: int, name: str, timeout: float = 5.0, tls: ServerTrust | None = None
) -> list[TableInfo]:
    """The server's tables, by one short connection (over TLS with ``tls``:
    nobody is asked to trust a certificate, one that does not verify is refused).

    Raises:
        ConnectError: unreachable, refused, not trusted, or no answer in time.
    """
    conn = await open_short(host, port, name, timeout, tls)
    try:
        await conn.send(ListTablesMsg(type=ClientMessage.LIST_TABLES))
        async with asyncio.timeout(timeout):
            listed = await answer(conn, ServerMessage.TABLES)
            return cast(list[TableInfo], listed["tables"])
    except Refused as exc:
        raise ConnectError(f"{host}:{port} refused: {exc}") from None
    except TimeoutError:
        raise ConnectError(f"no list of tables from {host}:{port}") from None
    except (asyncio.IncompleteReadError, OSError):
        raise ConnectError(f"{host}:{port} closed the connection") from None
    except ProtocolError as exc:
        raise ConnectError(f"bad data from {host}:{port} ({exc.message})") from None
    finally:
        await conn.close()


def start_point(address: str, table: str | None, spectate: str | None, code: str | None) -> Target:
    """Where the client goes: the server of ``address`` (``HOST[:PORT]`` or an
    invite link, protocol §1.1) and the table to sit at (``table``) or watch
    (``spectate``), by default the link's, with its invite ``code`` (by default
    the link's).

    Raises:
        ValueError: a bad address or link, or a code with no table to use it at.
    """
    target = parse_target(address, DEFAULT_PORT)
    if table is not None or spectate is not None:
        target = replace(target, table=table or spectate, watch=spectate is not None)
    target = replace(target, code=code or target.code)
    if target.code and target.table is None:
        raise ValueError("an invite code goes with --table or --spectate (or use the invite link)")
    return target


def replay(path: Path | GameRecord, ascii: bool, analysis: dict[str, Any] | None = None) -> int:
    """Run the replay viewer on a record file (or a record fetched, with its post-game
    ``analysis`` if there is one); returns the exit status."""
    from .core.record_file import load_record
    from .errors import RecordError
    from .tui.replay_app import ReplayApp

    try:
        record = load_record(path) if isinstance(path, Path) else path
    except RecordError as exc:
        print(f"craits-client: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        prefs = default_path().parent  # the client's kept theme and motion
        ascii = ascii or not unicode_suits_ok()
        ReplayApp(record, ascii=ascii, prefs=prefs, analysis=analysis).run()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return 0


def replay_game(
    args: argparse.Namespace, target: Target, name: str, trust: ServerTrust | None
) -> int:
    """``--replay-game N``: fetch the server's finished game N and step through it;
    returns the exit status."""
    host, port = target.host, target.port
    try:
        held = RecordKeys(default_path().parent).tokens(f"{host}:{port}")  # a private game's
        fetched = asyncio.run(
            fetch_record(
                host, port, name, args.replay_game, tls=trust, on_busy=say_busy, tokens=held
            )
        )
    except ConnectError as exc:
        print(f"craits-client: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    analysis = fetched_analysis(args, host, port, name, trust, held)
    return replay(fetched, args.ascii, analysis)


def print_tables(target: Target, name: str, trust: ServerTrust | None) -> int:
    """``--list``: print the server's tables; returns the exit status."""
    try:
        tables = asyncio.run(list_tables(target.host, target.port, name, tls=trust))
    except ConnectError as exc:
        print(f"craits-client: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    print(format_tables(tables, aligned=sys.stdout.isatty()))
    return 0


def print_games(target: Target, name: str, trust: ServerTrust | None) -> int:
    """``--games``: the tables where the seats this client kept for the
    server are, printed (protocol §11.11); returns the exit status."""
    host, port = target.host, target.port
    held = RecordKeys(default_path().parent).tokens(f"{host}:{port}")  # every seat's token
    try:
        games = asyncio.run(fetch_games(host, port, name, held, tls=trust))
    except ConnectError as exc:
        print(f"craits-client: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    print(format_games(games, aligned=sys.stdout.isatty()))
    return 0


def ask_address() -> str | None:
    """``--plain`` without an address: ask for one, on a line of its own (None at
    the end of input)."""
    from .plain.app import quiet_readline

    if sys.stdin.isatty():
        quiet_readline()
    print(_("Which server? Type its address, e.g. localhost or 192.168.1.5:7777:"), flush=True)
    try:
        return input().strip() or None
    except EOFError:
        return None


def plain(args: argparse.Namespace, target: Target, name: str, trust: ServerTrust | None) -> int:
    """Run the plain client (``--plain``); returns the exit status."""
    from .plain.app import PlainClient

    client = PlainClient(
        target.host,
        target.port,
        name,
        table=None if target.watch else target.table,
        spectate=target.table if target.watch else None,
        code=target.code,
        tls=trust,
        brief=args.brief,
    )
    try:
        return asyncio.run(client.run())
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def fetched_analysis(
    args: argparse.Namespace,
    host: str,
    port: int,
    name: str,
    trust: ServerTrust | None,
    held: list[str],
) -> dict[str, Any] | None:
    """The post-game analysis of ``--replay-game``'s game (protocol §7.6), waited for
    ``--analysis-wait`` seconds at most; None (said why) without it: the replay
    opens all the same, without marks."""
    game, wait = args.replay_game, args.analysis_wait
    if wait <= 0:
        return None

    def running(done: int, total: int) -> None:
        so_far = f"{done}/{total} decisions" if total else "counting the decisions"
        print(
            f"craits-client: the server is analysing game {game} ({so_far}; a minute or "
            "more; Ctrl-C opens the replay without its marks)…",
            file=sys.stderr,
        )

    try:
        return asyncio.run(
            fetch_analysis(host, port, name, game, wait, trust, held, on_running=running)
        )
    except ConnectError as exc:
        print(f"craits-client: the replay without marks: {exc}", file=sys.stderr)
    except KeyboardInterrupt:
        print("craits-client: the replay without marks", file=sys.stderr)
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``craits-client``; returns the exit status."""
    speak_as_asked(argv)  # before the parser, so that its help speaks the language too
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.replay is not None:
        return replay(args.replay, args.ascii)
    if args.address is None and args.plain:
        args.address = ask_address()
    if not args.address:
        parser.error("the server's address is required (or --replay FILE)")
    try:
        target = start_point(args.address, args.table, args.spectate, args.code)
    except ValueError as exc:
        print(f"craits-client: bad address {args.address!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        trust = server_trust(args, target)
    except ValueError as exc:
        print(f"craits-client: bad --tls-fingerprint: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        name = default_name() if args.name is None else given_name(args.name)
    except ValueError as exc:
        print(f"craits-client: bad --name {args.name!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.replay_game is not None:
        return replay_game(args, target, name, trust)
    if args.games:
        return print_games(target, name, trust)
    if args.list:
        return print_tables(target, name, trust)
    if args.plain:
        return plain(args, target, name, trust)
    return run_tui(args, target, name, trust)


def run_tui(args: argparse.Namespace, target: Target, name: str, trust: ServerTrust | None) -> int:
    """Run the Textual client (the default, and ``--web``'s); returns the exit status."""
    from .core.saved.accounts import default_account_dir
    from .tui.app import CraitsApp

    ascii_suits = args.ascii or (not args.web and not unicode_suits_ok())
    app = CraitsApp(
        target.host,
        target.port,
        name,
        table=None if target.watch else target.table,
        spectate=target.table if target.watch else None,
        code=target.code,
        quick=args.quick,
        ascii=ascii_suits,
        web=args.web,
        tls=trust,
        forwarded_for=args.forwarded_for,
        shown_address=args.shown_address,
        # (a browser visitor's identity is not this machine's key: no accounts there)
        account_dir=None if args.web else default_account_dir(),
    )
    app.language_given = args.lang is not None
    try:
        app.run()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    if app.error_message:
        print(f"craits-client: {app.error_message}", file=sys.stderr)
        return EXIT_ERROR
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
