"""``craits-client HOST[:PORT]``: play Craits in the terminal.

With ``--list`` it prints the server's tables and exits (for scripts). Errors
(unreachable server, another protocol version, a bad address) are one line on
stderr and a non-zero exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import re
import sys
from pathlib import Path

from craits.protocol import DEFAULT_PORT, MAX_NAME, ProtocolError
from craits.protocol.client import ConnectError, Connection, parse_address
from craits.protocol.release import version
from craits.protocol.types import ListTablesMsg, TableInfo
from craits.protocol.vocab import ClientMessage, ErrorCode, ServerMessage, TableState

from .cards import unicode_suits_ok
from .options import describe_rules

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

_BAD_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")


def clean_name(name: str) -> str:
    """A display name the server accepts: no control characters or brackets, 1–24 characters."""
    name = _BAD_NAME.sub("", name).strip()[:MAX_NAME].strip()
    return name or "player"


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
        metavar="HOST[:PORT]",
        nargs="?",
        help=f"the server, e.g. localhost or 192.168.1.5:{DEFAULT_PORT} "
        f"(port {DEFAULT_PORT} if left out)",
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
        "--list", action="store_true", help="print the server's tables and exit (for scripts)"
    )
    p.add_argument(
        "--replay",
        metavar="FILE",
        type=Path,
        help="step through a recorded game (craits-server export) hand by hand, all hands shown",
    )
    p.add_argument(
        "--ascii",
        action="store_true",
        help="suits as S H D C instead of ♠ ♥ ♦ ♣ (automatic when the terminal cannot show them)",
    )
    p.add_argument(
        "--web",
        action="store_true",
        help="run inside craits-web: connection problems are shown in the app with a retry, "
        "and Ctrl+C copies instead of quitting",
    )
    return p


def _plain(text: str) -> str:
    """Network text made safe for a terminal line: no control characters."""
    return _BAD_NAME.sub("?", text).strip()


def format_tables(tables: list[TableInfo]) -> str:
    """The ``--list`` output: a header, then one line per table (tab-separated)."""
    lines = ["table\tseats\tplayers\tstate\trules\twatching"]
    for t in sorted(tables, key=lambda t: t["name"]):
        players = t["players"]
        names = ",".join(_plain(p["name"]) for p in players) or "-"
        state = str(t["state"])
        if state == TableState.PLAYING:
            state = f"playing {t['hand_number']}/{t['hands_in_game']}"
        fields = [
            _plain(t["name"]),
            f"{len(players)}/{t['seats']}",
            names,
            state,
            describe_rules(t["rules"]),
            str(t["spectators"]),
        ]
        lines.append("\t".join(fields))
    return "\n".join(lines)


async def list_tables(host: str, port: int, name: str, timeout: float = 5.0) -> list[TableInfo]:
    """The server's tables, by one short connection.

    Raises:
        ConnectError: unreachable, refused, or no answer in time.
    """
    conn = await Connection.open(host, port, name, timeout=timeout)
    try:
        await conn.send(ListTablesMsg(type=ClientMessage.LIST_TABLES))
        async with asyncio.timeout(timeout):
            while True:
                try:
                    message = await conn.recv_message()
                except ProtocolError as exc:
                    if exc.code == ErrorCode.UNKNOWN_TYPE:
                        continue  # a message this client does not know (protocol §14)
                    raise
                if message["type"] == ServerMessage.TABLES:
                    return message["tables"]
                if message["type"] == ServerMessage.ERROR:
                    raise ConnectError(f"{host}:{port} refused: {message['message']}")
    except TimeoutError:
        raise ConnectError(f"no list of tables from {host}:{port}") from None
    except (asyncio.IncompleteReadError, OSError):
        raise ConnectError(f"{host}:{port} closed the connection") from None
    except ProtocolError as exc:
        raise ConnectError(f"bad data from {host}:{port} ({exc.message})") from None
    finally:
        await conn.close()


def replay(path: Path, ascii: bool) -> int:
    """Run the replay viewer on a record file; returns the exit status."""
    from .replay import RecordError, ReplayApp, load_record

    try:
        record = load_record(path)
    except RecordError as exc:
        print(f"craits-client: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        ReplayApp(record, ascii=ascii or not unicode_suits_ok()).run()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``craits-client``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.replay is not None:
        return replay(args.replay, args.ascii)
    if args.address is None:
        parser.error("the server's address is required (or --replay FILE)")
    try:
        host, port = parse_address(args.address, DEFAULT_PORT)
    except ValueError as exc:
        print(f"craits-client: bad address {args.address!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    name = clean_name(args.name) if args.name else default_name()
    if args.list:
        try:
            tables = asyncio.run(list_tables(host, port, name))
        except ConnectError as exc:
            print(f"craits-client: {exc}", file=sys.stderr)
            return EXIT_ERROR
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
        print(format_tables(tables))
        return 0

    from .app import CraitsApp

    ascii_suits = args.ascii or (not args.web and not unicode_suits_ok())
    app = CraitsApp(
        host,
        port,
        name,
        table=args.table,
        spectate=args.spectate,
        ascii=ascii_suits,
        web=args.web,
    )
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
