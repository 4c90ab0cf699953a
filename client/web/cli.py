"""``craits-web [HOST[:PORT]]``: serve the Craits client to browsers.

Each browser that opens the page gets its own client process, connected to the
game server at ``HOST:PORT`` (default ``127.0.0.1:7777``) under the name its
visitor typed. ``craits-server --web PORT`` starts this command beside the
game server (as a child process).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import platformdirs
from craits.protocol import DEFAULT_PORT
from craits.protocol.address import Target, parse_target

from .addresses import proxy_network

EXIT_FAILED = 1
"""The status when the page's address cannot be bound (e.g. already in use)."""
EXIT_USAGE = 2
DEFAULT_WEB_PORT = 8080


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-web``."""
    p = argparse.ArgumentParser(
        prog="craits-web",
        description="Serve Craits to web browsers: send the link, friends play with "
        "nothing installed. Each browser is its own player and keeps its own seat.",
    )
    p.add_argument(
        "server",
        metavar="HOST[:PORT]",
        nargs="?",
        default=f"127.0.0.1:{DEFAULT_PORT}",
        help=f"the game server (default 127.0.0.1:{DEFAULT_PORT}; a craitss:// link for TLS)",
    )
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    p.add_argument(
        "--port", type=int, default=DEFAULT_WEB_PORT, help=f"HTTP port (default {DEFAULT_WEB_PORT})"
    )
    p.add_argument(
        "--public-url",
        metavar="URL",
        help="the URL browsers use, behind a reverse proxy (e.g. https://cards.example.org)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        type=proxy_network,
        default=[],
        metavar="ADDR",
        help="a reverse proxy in front of this server (an address or network, repeatable): "
        "its X-Forwarded-For header says each visitor's address",
    )
    p.add_argument(
        "--no-forwarded-for",
        dest="forwarded_for",
        action="store_false",
        help="do not tell the game server each visitor's address (for a server that does "
        "not trust this one as a relay: every visitor then counts as this host's address)",
    )
    p.add_argument(
        "--max-sessions",
        type=int,
        default=50,
        metavar="N",
        help="open game pages at most, one client process each (default 50); "
        "past it visitors see a page saying the room is full",
    )
    p.add_argument(
        "--log-level",
        choices=["debug", "info", "warning", "error"],
        default="info",
        help="log level on stderr (default info: a line per page and websocket)",
    )
    p.add_argument(
        "--no-prefork",
        action="store_true",
        help="start each visitor's client as a new process (by default each is forked "
        "from one that has loaded the client already: far less memory and start-up CPU)",
    )
    p.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help="where each visitor's name and seats are kept (default: the user's state dir)",
    )
    p.add_argument(
        "--lifeline",
        type=int,
        default=None,
        metavar="FD",
        help="the read end of a pipe whose write end only the process that started this "
        "one holds: stop (as on SIGTERM) when it closes, however that process ends "
        "(craits-server --web gives one)",
    )
    return p


def parse_server(text: str) -> Target:
    """The game server's address, without a table.

    Raises:
        ValueError: a bad address (the message says why).
    """
    return parse_target(text, DEFAULT_PORT).with_table(None)


def _open_fd(fd: int) -> bool:
    """Whether ``fd`` is an open file descriptor of this process."""
    try:
        os.fstat(fd)
    except (OSError, OverflowError):
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``craits-web``; returns the exit status."""
    args = build_parser().parse_args(argv)
    try:
        game = parse_server(args.server)
    except ValueError as exc:
        print(f"craits-web: bad address {args.server!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not 1 <= args.port <= 65535 or args.max_sessions < 1:
        print("craits-web: --port must be 1..65535 and --max-sessions >= 1", file=sys.stderr)
        return EXIT_USAGE
    if args.public_url and not args.public_url.startswith(("http://", "https://")):
        print("craits-web: --public-url must start with http:// or https://", file=sys.stderr)
        return EXIT_USAGE
    if args.lifeline is not None and not _open_fd(args.lifeline):
        print(f"craits-web: --lifeline {args.lifeline} is not an open file", file=sys.stderr)
        return EXIT_USAGE
    state = args.state_dir or Path(platformdirs.user_state_dir("craits")) / "web"

    from .server import CraitsWebServer

    server = CraitsWebServer(
        game,
        state,
        host=args.host,
        port=args.port,
        public_url=args.public_url,
        max_sessions=args.max_sessions,
        log_level=args.log_level.upper(),
        prefork=not args.no_prefork,
        proxies=args.trusted_proxy,
        forward_addresses=args.forwarded_for,
        lifeline=args.lifeline,
    )
    try:
        server.serve()
    except OSError as exc:
        where = f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}"
        print(f"craits-web: cannot listen on {where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILED
    return 0


if __name__ == "__main__":
    sys.exit(main())
