"""``craits-server``'s command line: its options (each a setting of the
``--config`` file and of a ``CRAITS_*`` variable too, :mod:`craits.server.ops.config`),
their checks, the :class:`~craits.server.app.ServerConfig` they make, and the
exit statuses of the server and its commands (:data:`COMMANDS`).

The cluster's options (``--cluster``, ``--advertise``, ``--workers``…,
docs/cluster.md) are one block of them (:func:`add_cluster_options`).
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

from craits.protocol import DEFAULT_PORT
from craits.protocol.address import parse_target
from craits.protocol.release import version
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, BotLevel
from platformdirs import user_data_dir

from ..app import ServerConfig
from ..cluster.start import advertised
from ..errors import (
    ConfigError,
    TlsSetupError,
)
from ..journal.journal import Durability
from ..lobby.practice import MAX_PRACTICE_TABLES
from ..lobby.quick_play import QUICK_BOTS_AFTER
from ..net.address_limit import DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, relay_setting
from ..net.analysis_requests import BACKGROUND
from ..net.tls_listener import certificate_fingerprint
from ..table.actor import ABANDON_AFTER, ABANDON_OFFLINE_AFTER, MIN_TURN_TIMEOUT
from ..table.timing import MAX_CORRESPONDENCE
from . import config as settings
from . import logs, metrics
from .web import add_web_options, web_relays
from .workers import find_redis

EXIT_FAILED = 1
"""The status of a server that could not start (the address is taken, another
server holds the journal), or of an ``export`` with nothing to export."""


EXIT_USAGE = 2
"""The status of a bad command line."""


EXIT_DAMAGED = 3
"""The status when the journal is damaged: the server cannot read it at
start, ``export`` could not write every record, ``check`` found a problem."""


EXIT_UNWRITABLE = 4
"""The status of a server whose journal cannot be written (a read-only
file, directory or file system, a full disk)."""


EXIT_BROKEN_PIPE = 141
"""The status of a program whose reader went away: 128 + SIGPIPE, as a shell reports it."""


LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


ANY_ADDRESS = frozenset({"0.0.0.0", "::", ""})


def join_address(host: str, port: int) -> str:
    """The address to give ``craits-client`` for a server listening on ``host:port``,
    as the README writes it: ``localhost`` for the loopback, ``HOST`` for every
    address (0.0.0.0), and ``:PORT`` only when it is not the default."""
    if host in ANY_ADDRESS:
        shown = "HOST"
    elif host.lower() in LOOPBACK:
        shown = "localhost"
    else:
        shown = f"[{host}]" if ":" in host else host
    return shown if port == DEFAULT_PORT else f"{shown}:{port}"


COMMANDS = {
    "export": "write game records (JSON) from the journal",
    "check": "check the journal (safe while the server runs)",
    "analyse": "a game's post-game analysis: every decision judged by the expert bot",
    "status": "probe a running server: exit 0 when healthy (for scripts, HEALTHCHECK)",
    "drain": "drain a cluster node: no new tables, its games end, it stops (docs/cluster.md)",
    "rerate": "recompute every rating from the rated games (docs/accounts.md)",
    "leaderboard": "print a running server's leaderboard (--json for scripts)",
}
"""The commands ``craits-server COMMAND`` runs instead of a server; each has ``--help``."""


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server``. Every option can also be set in
    the ``--config`` file or a ``CRAITS_*`` variable (:mod:`craits.server.ops.config`)."""
    commands = "\n".join(f"  craits-server {name:<7} {what}" for name, what in COMMANDS.items())
    p = argparse.ArgumentParser(
        prog="craits-server",
        description="Host Craits tables. Players join with: craits-client HOST[:PORT].",
        epilog=f"commands ('craits-server COMMAND --help' for each):\n{commands}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; "
        "0.0.0.0 to be reachable from other machines)",
    )
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})"
    )
    p.add_argument(
        "--public-address",
        default=None,
        metavar="HOST[:PORT]",
        help="the address players elsewhere reach this server at (a DNS name or public "
        "IP, a port forwarded to this one; the port defaults to --port): the invite links "
        "of private tables name it (sent in welcome, protocol §4.1; default: none, and a "
        "link names the address its creator connected to)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=list(logs.LEVELS),
        help="log level on stderr (default info: one line per table event)",
    )
    p.add_argument(
        "--log-format",
        default="plain",
        choices=list(logs.FORMATS),
        help="plain (default): text lines ending [peer=IP:PORT table=NAME seat=N]; "
        "json: one JSON object per line (time, level, logger, message, peer, table, seat)",
    )
    p.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics at http://METRICS_HOST:PORT/metrics "
        f"(default: none; needs {metrics.INSTALL_HINT})",
    )
    p.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        metavar="HOST",
        help="address the metrics are served on (default 127.0.0.1)",
    )
    p.add_argument(
        "--bots",
        type=int,
        default=0,
        metavar="N",
        help="keep practice tables with N bots, each waiting for one player: 'practice', "
        "and 'practice-2'... opened as they are taken (default 0: none)",
    )
    p.add_argument(
        "--max-practice-tables",
        type=int,
        default=MAX_PRACTICE_TABLES,
        metavar="N",
        help=f"with --bots: at most N practice tables open at once (default {MAX_PRACTICE_TABLES})",
    )
    p.add_argument(
        "--quick-play-bots-after",
        type=float,
        default=QUICK_BOTS_AFTER,
        metavar="SECONDS",
        help="a table quick play opens waits this long for people before bots take its "
        f"free seats (default {QUICK_BOTS_AFTER:g})",
    )
    p.add_argument(
        "--bot-level",
        default=DEFAULT_BOT_LEVEL,
        choices=sorted(BotLevel),
        help="level of the --bots bots (default basic)",
    )
    p.add_argument(
        "--turn-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="default turn timeout of new tables (default 60; 0 turns it off; "
        "otherwise at least --min-turn-timeout)",
    )
    p.add_argument(
        "--min-turn-timeout",
        type=float,
        default=MIN_TURN_TIMEOUT,
        metavar="SECONDS",
        help="the shortest turn timeout a table may ask for; shorter ones are refused "
        f"(bad_turn_timeout), 0 (no timeout) is always allowed (default {MIN_TURN_TIMEOUT:g})",
    )
    p.add_argument(
        "--max-correspondence-turn",
        type=float,
        default=MAX_CORRESPONDENCE,
        metavar="SECONDS",
        help="the longest turn a correspondence game may ask for (create_table."
        "correspondence_ms; longer ones are refused: bad_time_control); at least 3600 "
        f"(default {MAX_CORRESPONDENCE:g}, three days)",
    )
    p.add_argument(
        "--hand-pause",
        type=float,
        default=4.0,
        metavar="SECONDS",
        help="pause between a hand's end and the next deal (default 4)",
    )
    p.add_argument(
        "--abandon-after",
        type=float,
        default=ABANDON_AFTER,
        metavar="SECONDS",
        help="a running game nobody plays (every player away or offline) for this long is "
        "abandoned: it ends (its record kept, marked abandoned) and the table closes "
        f"(default {ABANDON_AFTER:g}, half an hour; 0 never)",
    )
    p.add_argument(
        "--abandon-offline-after",
        type=float,
        default=ABANDON_OFFLINE_AFTER,
        metavar="SECONDS",
        help="the shorter grace of a table whose players are all offline (no player "
        f"connected): abandoned after this long (default {ABANDON_OFFLINE_AFTER:g}, ten "
        "minutes; 0: as --abandon-after, never more than it)",
    )
    p.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where the journal (every table, deal and action) lives "
        f"(default {user_data_dir('craits')})",
    )
    p.add_argument(
        "--no-journal",
        action="store_true",
        help="keep nothing on disk: a throwaway server whose games die with it",
    )
    p.add_argument(
        "--durability",
        default=Durability.FULL,
        choices=list(Durability),
        help="full (default): every move is on the disk before it is acknowledged, "
        "so it survives a power cut; normal: it survives the server being killed, "
        "but a power cut can lose the last second or so of play",
    )
    p.add_argument(
        "--max-connections", type=int, default=5000, help="connection cap (default 5000)"
    )
    # the per-address connection cap, protocol §4.7
    p.add_argument(
        "--max-connections-per-address",
        type=int,
        default=DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
        metavar="N",
        help="connections one address (IPv4, or IPv6 /64) may hold at once "
        f"(default {DEFAULT_MAX_CONNECTIONS_PER_ADDRESS}; 0 no limit, e.g. for load tests "
        "from one machine)",
    )
    p.add_argument(  # a web front's visitors, each counted as their own address (§4.1)
        "--trusted-relay",
        action="append",
        type=relay_setting,
        default=[],
        metavar="ADDR",
        help="an address or network (10.0.0.5, 10.0.0.0/24) whose connections may give "
        "the address of the person they speak for, which then counts for the limits per "
        "address: a craits-web on another machine (repeatable; --web trusts its own)",
    )
    p.add_argument(
        "--invite-tries",
        type=int,
        default=5,
        metavar="N",
        help="wrong invite codes of private tables one connection may give before it "
        "must wait (default 5; protocol §11.9)",
    )
    p.add_argument(
        "--invite-tries-per-address",
        type=int,
        default=20,
        metavar="N",
        help="wrong invite codes all connections of one address may give before they "
        "must wait (default 20)",
    )
    p.add_argument(
        "--invite-refill",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="once the wrong codes are spent, one more try every SECONDS (default 30)",
    )
    p.add_argument(
        "--analyse-finished",
        type=int,
        default=BACKGROUND,
        metavar="N",
        help="analyse every game played to its end in the background, at the lowest "
        "CPU priority, and store it with its record; at most N wait at once "
        f"(default {BACKGROUND}; 0: off, a game is analysed only when asked; "
        "~75 s of CPU for a 4-player game, docs/bots.md)",
    )
    p.add_argument(
        "--registrations-per-hour",
        type=int,
        default=10,
        metavar="N",
        help="accounts one address (IPv4, or IPv6 /64) may register in an hour "
        "(default 10; 0: no limit, e.g. for a league of bots on one machine)",
    )
    p.add_argument(
        "--records-share",
        type=float,
        default=0.1,
        metavar="FRACTION",
        help="the share of the server's time that rebuilding finished games for get_record "
        "and get_replay may take on average; past it they are answered records_busy "
        "(default 0.1; 0: no limit)",
    )
    p.add_argument("--max-tables", type=int, default=2000, help="table cap (default 2000)")
    p.add_argument(
        "--empty-table-grace",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="a table nobody has come to (new, or restored at start) closes after this "
        "(default 30)",
    )
    p.add_argument(
        "--max-empty-tables",
        type=int,
        default=2,
        metavar="N",
        help="tables nobody sits at that one connection may hold at once (default 2)",
    )
    p.add_argument(
        "--max-empty-tables-per-address",
        type=int,
        default=10,
        metavar="N",
        help="... that one address (IPv4, or IPv6 /64) may hold at once (default 10)",
    )
    p.add_argument(
        "--heartbeat",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="heartbeat interval; silent for two is a drop (default 10)",
    )
    p.add_argument(
        "--rate",
        type=float,
        default=100.0,
        metavar="PER_SECOND",
        help="messages per second one connection may keep up (default 100; "
        "raise it for load tests)",
    )
    p.add_argument(
        "--burst",
        type=float,
        default=200.0,
        metavar="N",
        help="messages one connection may send at once (default 200)",
    )
    p.add_argument(
        "--web",
        type=int,
        metavar="PORT",
        help="also serve the game to web browsers on this HTTP port (craits-web, "
        "a child process; same --host)",
    )
    add_web_options(p)  # --web-public-url, --web-trusted-proxy, --web-max-sessions
    add_tls_options(p)
    add_cluster_options(p)  # --cluster, --advertise (docs/cluster.md)
    settings.add_config_options(p)
    return p


def add_tls_options(p: argparse.ArgumentParser) -> None:
    """``--tls-cert`` and ``--tls-key``: serve TLS instead of plain TCP."""
    tls = p.add_argument_group("TLS")
    tls.add_argument(
        "--tls-cert",
        type=Path,
        default=None,
        metavar="FILE",
        help="serve TLS with this PEM certificate (chain), e.g. Let's Encrypt's "
        "fullchain.pem or a self-signed one; clients connect with --tls or craitss://",
    )
    tls.add_argument(
        "--tls-key", type=Path, default=None, metavar="FILE", help="the certificate's private key"
    )


def _bad_arguments(args: argparse.Namespace) -> tuple[str, str] | None:
    """What is wrong with the settings' values, as the ``dest`` of the first
    bad one and why, or None."""
    checks: list[tuple[str, bool, str]] = [
        ("port", 1 <= args.port <= 65535 or args.port == 0, "must be 1..65535"),
        ("bots", 0 <= args.bots <= 7, "must be 0..7"),
        ("max_practice_tables", args.max_practice_tables >= 1, "must be >= 1"),
        ("quick_play_bots_after", 0 <= args.quick_play_bots_after <= 3600, "must be 0..3600"),
        ("rate", args.rate > 0, "must be > 0"),
        ("burst", args.burst >= 1, "must be >= 1"),
        ("abandon_after", args.abandon_after >= 0, "must be >= 0"),
        ("abandon_offline_after", args.abandon_offline_after >= 0, "must be >= 0"),
        ("empty_table_grace", args.empty_table_grace > 0, "must be > 0"),
        ("max_empty_tables", args.max_empty_tables >= 1, "must be >= 1"),
        ("max_empty_tables_per_address", args.max_empty_tables_per_address >= 1, "must be >= 1"),
        ("max_connections", args.max_connections >= 1, "must be >= 1"),
        # the per-address connection cap (0: no limit)
        ("max_connections_per_address", args.max_connections_per_address >= 0, "must be >= 0"),
        ("max_tables", args.max_tables >= 1, "must be >= 1"),
        ("invite_tries", args.invite_tries >= 1, "must be >= 1"),
        ("invite_tries_per_address", args.invite_tries_per_address >= 1, "must be >= 1"),
        ("invite_refill", args.invite_refill > 0, "must be > 0"),
        ("registrations_per_hour", args.registrations_per_hour >= 0, "must be >= 0"),
        ("analyse_finished", args.analyse_finished >= 0, "must be >= 0"),
        ("records_share", 0 <= args.records_share <= 1, "must be 0..1"),
        ("heartbeat", args.heartbeat > 0, "must be > 0"),
        ("min_turn_timeout", args.min_turn_timeout >= 0, "must be >= 0"),
        (
            "turn_timeout",
            args.turn_timeout == 0 or args.turn_timeout >= max(args.min_turn_timeout, 1e-9),
            f"must be 0 (no timeout) or at least --min-turn-timeout ({args.min_turn_timeout:g})",
        ),
        ("hand_pause", args.hand_pause >= 0, "must be >= 0"),
        ("max_correspondence_turn", args.max_correspondence_turn >= 3600, "must be >= 3600"),
    ]
    if args.public_address:
        good = public_address(args.public_address, args.port or DEFAULT_PORT) is not None
        checks.append(("public_address", good, "must be HOST or HOST:PORT (port 1..65535)"))
    if args.web is not None:
        checks.append(("web", 1 <= args.web <= 65535, "must be a port 1..65535"))
    if args.metrics_port is not None:
        checks.append(("metrics_port", 0 <= args.metrics_port <= 65535, "must be 1..65535"))
    for dest, good, why in checks:
        if not good:
            return dest, why
    return cluster_problem(args)


_HOST_NAME = re.compile(r"[A-Za-z0-9._-]+|[0-9A-Fa-f:.]+")
"""A host name or an IP address (IPv6 without its brackets): what
``--public-address`` may name (no scheme, path, space or user part)."""


def public_address(text: str, port: int) -> str | None:
    """``--public-address`` as ``HOST:PORT`` (``[IPv6]:PORT``; the port
    ``port`` when it names none), or None when it is no host and port."""
    text = text.strip()
    try:
        target = parse_target(text, port)
    except ValueError:
        return None
    if "://" in text or not _HOST_NAME.fullmatch(target.host):
        return None
    return target.hostport


def config_from(args: argparse.Namespace) -> ServerConfig:
    """The server's settings from its command line (:func:`build_parser`)."""
    public = args.public_address
    return ServerConfig(
        host=args.host,
        port=args.port,
        public_address=public_address(public, args.port or DEFAULT_PORT) if public else None,
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
        trusted_relays=(*args.trusted_relay, *(web_relays(args.host) if args.web else ())),
        max_tables=args.max_tables,
        invite_tries=args.invite_tries,
        invite_tries_per_address=args.invite_tries_per_address,
        invite_refill=args.invite_refill,
        registrations_per_hour=args.registrations_per_hour,
        analyse_finished=args.analyse_finished,
        records_share=args.records_share,
        empty_table_grace=args.empty_table_grace,
        max_empty_tables=args.max_empty_tables,
        max_empty_tables_per_address=args.max_empty_tables_per_address,
        heartbeat=args.heartbeat,
        turn_timeout=args.turn_timeout,
        min_turn_timeout=args.min_turn_timeout,
        max_correspondence_turn=args.max_correspondence_turn,
        hand_pause=args.hand_pause,
        abandon_after=args.abandon_after,
        abandon_offline_after=args.abandon_offline_after,
        bots=args.bots,
        max_practice_tables=args.max_practice_tables,
        quick_play_bots_after=args.quick_play_bots_after,
        bot_level=args.bot_level,
        rate=args.rate,
        burst=args.burst,
        data_dir=None if args.no_journal else (args.data_dir or Path(user_data_dir("craits"))),
        durability=Durability(args.durability),
        **cluster_config(args),
    )


def settings_from(argv: list[str]) -> tuple[argparse.Namespace, list[str]] | int:
    """The settings in force (the command line over ``CRAITS_*`` over the
    ``--config`` file over the defaults), checked, with the ``CRAITS_*``
    variables that are no setting; or the exit status after
    saying on one line what is wrong (:data:`EXIT_USAGE`), or after
    ``--print-config`` printed them (0)."""
    parser = build_parser()
    try:
        resolved = settings.resolve(parser, argv)
    except ConfigError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return EXIT_USAGE
    args = resolved.values
    problem = _bad_arguments(args)
    if problem is not None:
        print(f"craits-server: {settings.blame(parser, resolved, *problem)}", file=sys.stderr)
        return EXIT_USAGE
    if args.metrics_port is not None and not metrics.available():
        print(f"craits-server: --metrics-port needs {metrics.INSTALL_HINT}", file=sys.stderr)
        return EXIT_USAGE
    if args.print_config:
        sys.stdout.write(settings.render(parser, resolved))
        return 0
    return args, resolved.ignored


def local_address() -> str:
    """The address ``craits-server status`` probes when given none: the host
    and port of this machine's settings (``CRAITS_*``, the ``CRAITS_CONFIG``
    file, the defaults; a wildcard host is probed on loopback), as a
    ``craitss://`` link pinned to the certificate's fingerprint if the
    settings serve TLS (``--tls-cert``).

    Raises:
        ValueError: the settings cannot be read, or the certificate file cannot.
    """
    try:
        values = settings.resolve(build_parser(), []).values
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(values.host, values.host)
    hostport = f"[{host}]:{values.port}" if ":" in host else f"{host}:{values.port}"
    if values.tls_cert is None:
        return hostport
    try:
        fp = certificate_fingerprint(values.tls_cert)
    except (OSError, TlsSetupError) as exc:
        raise ValueError(f"cannot read the certificate {values.tls_cert}: {exc}") from None
    return f"craitss://{hostport}?fp={fp}"


INSTALL = "the redis package: pip install 'craits[cluster]'"


def add_cluster_options(p: argparse.ArgumentParser) -> None:
    """Add the cluster's options to ``craits-server``'s parser."""
    g = p.add_argument_group("cluster (docs/cluster.md)")
    g.add_argument(
        "--cluster",
        default=None,
        metavar="redis://HOST:PORT",
        help="join a cluster of servers sharing one lobby through this Redis/Valkey "
        "(default: none, a single server; needs craits[cluster])",
    )
    g.add_argument(
        "--advertise",
        default=None,
        metavar="HOST:PORT",
        help="the address the other nodes send clients to for this node's tables "
        "(default: the address it listens on)",
    )
    g.add_argument(
        "--cluster-heartbeat",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="seconds between this node's heartbeats; it is taken as down after 4 (default 1)",
    )
    g.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N nodes of a cluster behind --port, one per core (SO_REUSEPORT), with "
        "the Redis of --cluster or one started from redis-server/valkey-server (default 1)",
    )
    g.add_argument(
        "--drain-timeout",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="told to stop, a cluster node first takes no new tables and waits up to this "
        "long for its games to end; a second signal stops it at once (default 0: no wait)",
    )
    g.add_argument("--shared-port", type=int, default=None, help=argparse.SUPPRESS)
    g.add_argument(
        "--accounts-db",
        default=None,
        metavar="postgresql://… | FILE",
        help="where players' accounts, ratings and history live: a PostgreSQL URL, shared "
        "by every node of a cluster, or an SQLite file (default: accounts.db in --data-dir; "
        "the workers of --workers share one; without a journal, a temporary file)",
    )


def cluster_problem(args: argparse.Namespace) -> tuple[str, str] | None:
    """What is wrong with the cluster's settings, as the ``dest`` of the first
    bad one and why, or None."""
    if args.workers < 1:
        return "workers", "must be >= 1"
    if args.workers > 1:
        if args.port == 0:
            return "port", "must be given (not 0) with --workers: the workers share it"
        if args.cluster is None and find_redis() is None:
            return "workers", "needs --cluster, or redis-server/valkey-server installed"
        if importlib.util.find_spec("redis") is None:
            return "workers", f"needs {INSTALL}"
        if args.advertise and advertised(args.advertise, "", 0) != f"{args.advertise}:0":
            return "advertise", "names a HOST only with --workers (each worker adds its port)"
    if not args.drain_timeout >= 0:
        return "drain_timeout", "must be >= 0"
    if args.cluster is None:
        return None
    if not str(args.cluster).startswith(("redis://", "rediss://", "valkey://")):
        return "cluster", "takes a URL redis://HOST:PORT"
    if importlib.util.find_spec("redis") is None:
        return "cluster", f"needs {INSTALL}"
    if not args.cluster_heartbeat > 0:
        return "cluster_heartbeat", "must be > 0"
    if args.advertise is not None:
        try:
            parse_target(args.advertise, args.port or 1)
        except ValueError as exc:
            return "advertise", str(exc)
    return None


def cluster_config(args: argparse.Namespace) -> dict[str, Any]:
    """The :class:`~craits.server.app.ServerConfig` fields the options set."""
    url = str(args.cluster).replace("valkey://", "redis://", 1) if args.cluster else None
    return {
        "cluster": url,
        "advertise": args.advertise,
        "cluster_heartbeat": args.cluster_heartbeat,
        "shared_port": args.shared_port,
        "drain_timeout": args.drain_timeout,
        "accounts_db": args.accounts_db,
    }
