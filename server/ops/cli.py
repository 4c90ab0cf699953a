"""``craits-server``: host Craits tables on this machine.

Its settings come from the command line, ``CRAITS_*`` environment variables
and a TOML file (:mod:`craits.server.ops.config`, generic over :func:`build_parser`:
an option added there is a setting everywhere); its logs are plain or JSON
lines naming the peer, table and seat (:mod:`craits.server.ops.logs`); with
``--metrics-port`` it serves Prometheus metrics (:mod:`craits.server.ops.metrics`).
``craits-server export``, ``check`` and ``status`` (:mod:`craits.server.ops.status`)
are commands of their own (:data:`COMMANDS`).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import re
import signal
import ssl
import sys
from pathlib import Path

from craits.protocol import DEFAULT_PORT
from craits.protocol.address import parse_target
from craits.protocol.release import version
from craits.protocol.tls import format_fingerprint
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, BotLevel
from platformdirs import user_data_dir

from ..app import Server, ServerConfig
from ..errors import (
    BindError,
    ConfigError,
    JournalDamaged,
    JournalError,
    JournalUnwritable,
    TlsSetupError,
)
from ..journal.check import check_journal
from ..journal.journal import Durability, JournalReader
from ..journal.records import build_record
from ..journal.replay_frames import with_frames
from ..lobby.practice import MAX_PRACTICE_TABLES
from ..net.address_limit import DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, relay_setting
from ..net.tls_listener import certificate_fingerprint, load_context
from ..table.actor import ABANDON_AFTER, ABANDON_OFFLINE_AFTER, MIN_TURN_TIMEOUT
from . import config as settings
from . import logs, metrics
from .cluster_options import (
    add_cluster_options,
    cluster_config,
    cluster_problem,
    run_workers,
)
from .drain import Drain, drain_main
from .status import status_main
from .web import (
    add_web_options,
    game_address,
    start_web,
    stop_web,
    web_options,
    web_relays,
    web_url,
)

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
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop the server cleanly: every client is told ``shutdown``
and the journal is committed and closed."""

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
    "status": "probe a running server: exit 0 when healthy (for scripts, HEALTHCHECK)",
    "drain": "drain a cluster node: no new tables, its games end, it stops (docs/cluster.md)",
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


# ------------------------------------------------------------------ TLS (protocol §2)


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


def tls_context(args: argparse.Namespace) -> ssl.SSLContext | None:
    """The TLS context ``--tls-cert``/``--tls-key`` ask for (None: plain TCP),
    its certificate's fingerprint said on stderr (logged, with ``--log-format json``)
    for clients to pin.

    Raises:
        TlsSetupError: only one of the two is given, or they cannot be used.
    """
    if args.tls_cert is None and args.tls_key is None:
        return None
    if args.tls_cert is None or args.tls_key is None:
        raise TlsSetupError("--tls-cert and --tls-key go together")
    context = load_context(args.tls_cert, args.tls_key)
    fp = certificate_fingerprint(args.tls_cert)
    said = (
        f"TLS certificate {args.tls_cert}, SHA-256 fingerprint {format_fingerprint(fp)} "
        f"(self-signed? friends join with: craits-client "
        f"craitss://{join_address(args.host, args.port or DEFAULT_PORT)}?fp={fp})"
    )
    if args.log_format == "json":
        logging.getLogger("craits.server").info("%s", said)  # every line JSON
    else:
        print(f"craits-server: {said}", file=sys.stderr, flush=True)
    return context


def tls_game_link(config: ServerConfig, args: argparse.Namespace | None, port: int) -> str | None:
    """How ``craits-web`` (``--web``) reaches a TLS server: a ``craitss://`` link
    pinning the server's own certificate (protocol §1.1, §2); None over plain TCP."""
    if config.tls is None or args is None or args.tls_cert is None:
        return None
    fp = certificate_fingerprint(args.tls_cert)
    return f"craitss://{game_address(config.host, port)}?fp={fp}"


async def serve(config: ServerConfig, args: argparse.Namespace | None = None) -> None:
    """Run a server until SIGINT, SIGTERM or SIGHUP (:data:`STOP_SIGNALS`),
    then shut down cleanly; with ``args.metrics_port``, serve its metrics too;
    with ``args.web``, ``craits-web`` beside it (:mod:`craits.server.ops.web`).

    Raises:
        OSError: the address cannot be bound.
        BindError: the metrics' or the web page's address cannot be bound.
        JournalError: as :meth:`Server.start` raises it.
    """
    # Stop signals are caught from before the port listens: one that comes
    # while the rest starts (metrics, the web page, a cluster) stops the server
    # cleanly once started, where it used to kill it (-15) mid-start.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    server = Server(config)
    await server.start()
    exporter: metrics.Exporter | None = None
    if args is not None and args.metrics_port is not None:
        try:
            exporter = metrics.start(server, args.metrics_host, args.metrics_port)
        except OSError as exc:
            await server.stop()
            where = f"{args.metrics_host}:{args.metrics_port}"
            why = exc.strerror or exc
            raise BindError(f"cannot serve metrics on {where}: {why}") from None
    web_port = getattr(args, "web", None) if args is not None else None
    if config.shared_port is not None:  # a --workers worker: the supervisor runs craits-web
        web_port = None
    web = None
    if web_port is not None:
        game = tls_game_link(config, args, server.port)  # None: plain TCP
        try:
            web = await start_web(config.host, server.port, web_port, game, web_options(args))
        except OSError as exc:
            if exporter is not None:
                exporter.stop()
            await server.stop()
            where = game_address(config.host, web_port)
            raise BindError(
                f"cannot serve the web page on {where}: {exc.strerror or exc}"
            ) from None
    # What exists at start lives as long as the server: keep it out of the
    # garbage collector's full passes, which otherwise stall every table.
    gc.freeze()
    # A --workers node listens on a port of its own (for redirects) and on the
    # port the workers share: players are given the shared one.
    joined = server.port if config.shared_port is None else config.shared_port
    own = "" if config.shared_port is None else f" (a worker; its own port {server.port})"
    ready = (
        f"craits-server listening on {config.host}:{joined}{own} — "
        f"join with: craits-client {'craitss://' if config.tls else ''}"
        f"{config.public_address or join_address(config.host, joined)}"
    )
    if web_port is not None:
        ready += f"\nin a browser: {web_url(config.host, web_port)}"
    for line in ready.splitlines():
        if args is not None and args.log_format == "json":
            logging.getLogger("craits.server").info("%s", line)  # every line JSON
        else:
            print(line, file=sys.stderr, flush=True)
    drain = Drain(server, stop)  # a cluster node drains first (docs/cluster.md)
    drain.watch()  # for craits-server drain
    await stop.wait()
    await drain.wait()
    logging.getLogger("craits.server").info("shutting down")
    if web is not None:
        await stop_web(web)
    if exporter is not None:
        exporter.stop()
    await server.stop()


def build_export_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server export``."""
    p = argparse.ArgumentParser(
        prog="craits-server export",
        description="Write game records (one JSON document per game) from the journal.",
    )
    _add_data_dir(p)
    p.add_argument("--game", type=int, default=None, help="only this game id (default: all)")
    p.add_argument(
        "--out",
        type=Path,
        default=Path("."),
        help="folder to write craits-game-ID.json files into, or a file with --game "
        "(default: the current folder); '-' writes to stdout",
    )
    p.add_argument("--unfinished", action="store_true", help="include games still in play")
    p.add_argument(
        "--frames",
        action="store_true",
        help="add each hand's frames, the table after every move, for craits-client "
        "--replay to step through move by move (docs/records.md, Frames)",
    )
    return p


def _export_ids(
    journal: JournalReader, args: argparse.Namespace
) -> tuple[list[int], dict[int, str]]:
    """The ids of the games to export, in order, and those that cannot be read
    (with why); when there are none at all, says why on stderr."""
    if args.game is not None:
        return [args.game], {}
    ids, unreadable = journal.game_ids(finished_only=not args.unfinished)
    if not ids and not unreadable:
        in_play = [] if args.unfinished else journal.game_ids(finished_only=False)[0]
        if in_play:
            print(
                f"craits-server export: no finished games to export; {len(in_play)} "
                "still in play (--unfinished exports them as they stand)",
                file=sys.stderr,
            )
        else:
            print("craits-server export: no games to export", file=sys.stderr)
    return ids, unreadable


def _write_record(text: str, game_id: int, args: argparse.Namespace) -> None:
    """Write one record: to stdout (``--out -``), a file (``--game``), or a
    ``craits-game-ID.json`` file in the ``--out`` folder."""
    if str(args.out) == "-":
        print(text)
        return
    target: Path = args.out
    if args.game is None or target.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        target = target / f"craits-game-{game_id}.json"
    target.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


def _export(journal: JournalReader, args: argparse.Namespace) -> int:
    """Export the records ``args`` ask for; returns the exit status. A record
    that cannot be read or does not replay is named on stderr and the others
    are written all the same (status :data:`EXIT_DAMAGED`)."""
    ids, unreadable = _export_ids(journal, args)
    if not ids and not unreadable:
        return EXIT_FAILED
    failed = dict(unreadable)
    for game_id in ids:
        try:
            row = journal.game(game_id)
            if row is None:
                print(f"craits-server export: no game {game_id}", file=sys.stderr)
                return EXIT_FAILED
            record = build_record(row)
            if args.frames:  # (compact: frames repeat the table at every move)
                text = json.dumps(with_frames(record), separators=(",", ":"))
            else:
                text = json.dumps(record, indent=1)
        except Exception as exc:  # a damaged row or a log that does not replay: name it, go on
            failed[game_id] = str(exc) or type(exc).__name__
            continue
        _write_record(text, game_id, args)
    if str(args.out) == "-":
        sys.stdout.flush()
    for game_id, why in sorted(failed.items()):
        print(f"craits-server export: game {game_id} not exported: {why}", file=sys.stderr)
    return EXIT_DAMAGED if failed else 0


def _add_data_dir(p: argparse.ArgumentParser) -> None:
    """``--data-dir`` and ``--config`` of a command that reads the server's journal."""
    p.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="the server's data directory (default: the server's own setting: "
        f"CRAITS_DATA_DIR, or data-dir in the --config file, or {user_data_dir('craits')})",
    )
    p.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"the server's TOML settings, for its data-dir ({settings.CONFIG_ENV} names it too)",
    )


def _journal_path(args: argparse.Namespace) -> Path:
    """The journal a command reads: its ``--data-dir``, else the server's own
    setting (``CRAITS_DATA_DIR``, the ``--config`` file's ``data-dir``), else
    the default.

    Raises:
        ConfigError: the server's settings cannot be read.
    """
    data_dir: Path | None = args.data_dir
    if data_dir is None:
        argv = [] if args.config is None else ["--config", str(args.config)]
        data_dir = settings.resolve(build_parser(), argv).values.data_dir
    return (data_dir or Path(user_data_dir("craits"))) / "craits.db"


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


def _open_reader(db: Path, command: str) -> JournalReader | int:
    """The journal at ``db`` opened to read, or the exit status after saying why not."""
    if not db.exists():
        print(f"craits-server {command}: no journal at {db}", file=sys.stderr)
        return EXIT_FAILED
    try:
        return JournalReader(db)
    except JournalError as exc:
        print(f"craits-server {command}: {exc}", file=sys.stderr)
        return EXIT_DAMAGED if isinstance(exc, JournalDamaged) else EXIT_FAILED


def export_main(argv: list[str]) -> int:
    """``craits-server export``: write game records from the journal (``docs/records.md``),
    reading it only (safe beside a running server); returns the exit status."""
    args = build_export_parser().parse_args(argv)
    try:
        db = _journal_path(args)
    except ConfigError as exc:
        print(f"craits-server export: {exc}", file=sys.stderr)
        return EXIT_USAGE
    journal = _open_reader(db, "export")
    if isinstance(journal, int):
        return journal
    try:
        return _export(journal, args)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as cat would. Point
        # stdout at /dev/null so the exit's flush of what is left cannot fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    finally:
        journal.close()


def build_check_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server check``."""
    p = argparse.ArgumentParser(
        prog="craits-server check",
        description="Check the journal: SQLite's integrity check, every open table "
        "rebuilt as at start, every game replayed and its shuffle commitments verified. "
        "It only reads, so it is safe while the server runs. Exit status 0: whole; "
        f"{EXIT_DAMAGED}: damaged (each problem is printed).",
    )
    _add_data_dir(p)
    return p


def check_main(argv: list[str]) -> int:
    """``craits-server check``: check the whole journal and print what was
    found; returns 0 if it is whole, :data:`EXIT_DAMAGED` if not."""
    args = build_check_parser().parse_args(argv)
    try:
        db = _journal_path(args)
    except ConfigError as exc:
        print(f"craits-server check: {exc}", file=sys.stderr)
        return EXIT_USAGE
    journal = _open_reader(db, "check")
    if isinstance(journal, int):
        return journal
    try:
        report = check_journal(journal)
    finally:
        journal.close()
    print(f"journal: {db}")
    for line in report.lines():
        print(line)
    if report.problems:
        print(f"craits-server check: {report.problems} problem(s) found", file=sys.stderr)
        return EXIT_DAMAGED
    print("craits-server check: the journal is whole")
    return 0


def _bad_arguments(args: argparse.Namespace) -> tuple[str, str] | None:
    """What is wrong with the settings' values, as the ``dest`` of the first
    bad one and why, or None."""
    checks: list[tuple[str, bool, str]] = [
        ("port", 1 <= args.port <= 65535 or args.port == 0, "must be 1..65535"),
        ("bots", 0 <= args.bots <= 7, "must be 0..7"),
        ("max_practice_tables", args.max_practice_tables >= 1, "must be >= 1"),
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
        ("records_share", 0 <= args.records_share <= 1, "must be 0..1"),
        ("heartbeat", args.heartbeat > 0, "must be > 0"),
        ("min_turn_timeout", args.min_turn_timeout >= 0, "must be >= 0"),
        (
            "turn_timeout",
            args.turn_timeout == 0 or args.turn_timeout >= max(args.min_turn_timeout, 1e-9),
            f"must be 0 (no timeout) or at least --min-turn-timeout ({args.min_turn_timeout:g})",
        ),
        ("hand_pause", args.hand_pause >= 0, "must be >= 0"),
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
        records_share=args.records_share,
        empty_table_grace=args.empty_table_grace,
        max_empty_tables=args.max_empty_tables,
        max_empty_tables_per_address=args.max_empty_tables_per_address,
        heartbeat=args.heartbeat,
        turn_timeout=args.turn_timeout,
        min_turn_timeout=args.min_turn_timeout,
        hand_pause=args.hand_pause,
        abandon_after=args.abandon_after,
        abandon_offline_after=args.abandon_offline_after,
        bots=args.bots,
        max_practice_tables=args.max_practice_tables,
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


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``craits-server`` (and of its :data:`COMMANDS`);
    returns the exit status (:data:`EXIT_FAILED`, :data:`EXIT_USAGE`,
    :data:`EXIT_DAMAGED`, :data:`EXIT_UNWRITABLE`; ``status`` has its own)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["export"]:
        return export_main(argv[1:])
    if argv[:1] == ["check"]:
        return check_main(argv[1:])
    if argv[:1] == ["status"]:
        return status_main(argv[1:], local_address)
    if argv[:1] == ["drain"]:
        return drain_main(argv[1:])
    got = settings_from(argv)
    if isinstance(got, int):
        return got
    args, ignored = got
    logs.setup(args.log_level, args.log_format)
    for name in ignored:
        logging.getLogger("craits.server").warning("%s is not a setting; ignored", name)
    workers = run_workers(args, argv, config_from(args).data_dir)  # --workers N (cluster.md)
    if workers is not None:
        return workers
    config = config_from(args)
    try:
        config.tls = tls_context(args)
    except TlsSetupError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return EXIT_FAILED
    try:
        asyncio.run(serve(config, args))
    except JournalDamaged as exc:
        print(f"craits-server: {exc}; 'craits-server check' says what is left", file=sys.stderr)
        return EXIT_DAMAGED
    except JournalError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return EXIT_UNWRITABLE if isinstance(exc, JournalUnwritable) else EXIT_FAILED
    except BindError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as exc:
        print(
            f"craits-server: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return EXIT_FAILED
    return 0


if __name__ == "__main__":
    sys.exit(main())
