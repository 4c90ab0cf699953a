"""``craits-server``'s commands besides serving (:data:`~craits.server.ops.options.COMMANDS`):
``export`` (game records from the journal, ``docs/records.md``), ``check``
(is the journal whole?), ``analyse`` (a game's post-game analysis, ``docs/bots.md``)
and ``drain`` (a cluster node: no new tables, its games
end, it stops; docs/cluster.md). ``status`` is :mod:`craits.server.ops.status`'s.
Each reads the server's settings for its defaults, and returns an exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from ..accounts.opening import open_account_store
from ..accounts.sqlite import FILE_NAME as ACCOUNTS_FILE
from ..bots.expert.analyse import GameLoader, RecordError, StoredLoader, analyse_main
from ..cluster.start import advertised
from ..errors import (
    ConfigError,
    JournalDamaged,
    JournalError,
)
from ..journal.check import check_journal
from ..journal.journal import JournalReader
from ..journal.records import build_record
from ..journal.replay_frames import with_frames
from . import config as settings
from .drain import COMMAND_TIMEOUT, CONFIRM, node_states, request_drain, wait_gone
from .options import (
    EXIT_BROKEN_PIPE,
    EXIT_DAMAGED,
    EXIT_FAILED,
    EXIT_USAGE,
    build_parser,
)


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


EXIT_NOT_TAKEN = 1
"""``craits-server drain``'s status when no node took the request, or Redis is out of reach."""


def build_drain_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server drain``."""
    p = argparse.ArgumentParser(
        prog="craits-server drain",
        description="Drain a node of a cluster: it takes no new tables or games, lets "
        "its games end, then stops. Asked through the cluster's Redis (no port is opened "
        "for it); the node takes the request within a heartbeat. Exit status 0: taken; "
        f"{EXIT_NOT_TAKEN}: no node took it (or Redis is out of reach).",
    )
    p.add_argument(
        "--cluster",
        default=None,
        metavar="redis://HOST:PORT",
        help="the cluster's Redis (default: the server's own setting: CRAITS_CLUSTER or "
        "the --config file's)",
    )
    p.add_argument(
        "--node",
        action="append",
        default=None,
        metavar="HOST:PORT",
        help="the node to drain, by its advertised address; the shared address of a "
        "--workers server drains all its workers; may be repeated (default: this "
        "machine's server, from its settings)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="stop after this long even if games are running (default: the node's "
        f"--drain-timeout, or {COMMAND_TIMEOUT:g} when it has none)",
    )
    p.add_argument(
        "--confirm",
        type=float,
        default=CONFIRM,
        metavar="SECONDS",
        help=f"how long the node has to take the request (default {CONFIRM:g}; a node "
        "looks once a heartbeat)",
    )
    p.add_argument("--wait", action="store_true", help="return once the node has stopped")
    p.add_argument("--list", action="store_true", help="list the cluster's nodes and exit")
    p.add_argument(
        "--config", default=None, metavar="FILE", help="the server's TOML settings (for defaults)"
    )
    return p


def _defaults(args: argparse.Namespace) -> tuple[str | None, list[str]]:
    """The Redis and nodes the command is about: its options, else the server's settings."""
    server = settings.resolve(
        build_parser(), [] if args.config is None else ["--config", args.config]
    )
    values = server.values
    url = args.cluster or values.cluster
    nodes = args.node or [advertised(values.advertise, values.host, values.port)]
    return (str(url).replace("valkey://", "redis://", 1) if url else None), nodes


async def _command(args: argparse.Namespace, url: str, nodes: list[str]) -> int:
    if args.list:
        for s in await node_states(url):
            shown = "down" if s.get("down") else ("draining" if s.get("draining") else "up")
            tables, connections = s.get("tables", "-"), s.get("connections", "-")
            print(f"{s['address']}\t{shown}\ttables {tables}\tconnections {connections}")
        return 0
    status = 0
    for address in nodes:
        if await request_drain(url, address, args.timeout, args.confirm):
            print(f"craits-server drain: {address} is draining", file=sys.stderr)
        else:
            print(
                f"craits-server drain: no node at {address} took the request within "
                f"{args.confirm:g}s (is it running, in the cluster at {url}?)",
                file=sys.stderr,
            )
            status = EXIT_NOT_TAKEN
    if args.wait and status == 0:
        for address in nodes:
            await wait_gone(url, address)
            print(f"craits-server drain: {address} has stopped", file=sys.stderr)
    return status


def drain_main(argv: list[str]) -> int:
    """``craits-server drain``: ask nodes of a cluster to drain (or list them); the exit status."""
    args = build_drain_parser().parse_args(argv)
    if (args.timeout is not None and not args.timeout >= 0) or not args.confirm > 0:
        print("craits-server drain: --timeout must be >= 0, --confirm > 0", file=sys.stderr)
        return EXIT_USAGE
    try:
        url, nodes = _defaults(args)
    except Exception as exc:  # the server's settings cannot be read: said in one line
        print(f"craits-server drain: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if url is None:
        print("craits-server drain: no cluster: give --cluster redis://HOST:PORT", file=sys.stderr)
        return EXIT_USAGE
    try:
        import redis  # noqa: F401
    except ImportError:
        print(
            "craits-server drain: needs the redis package: pip install 'craits[cluster]'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    from redis.exceptions import RedisError

    try:
        return asyncio.run(_command(args, url, nodes))
    except (RedisError, OSError) as exc:
        print(f"craits-server drain: cannot reach Redis at {url}: {exc}", file=sys.stderr)
        return EXIT_NOT_TAKEN
    except KeyboardInterrupt:
        return 130


def build_rerate_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-server rerate``."""
    p = argparse.ArgumentParser(
        prog="craits-server rerate",
        description="Recompute every player's rating from the rated games, oldest first, "
        "and each game's stored rating changes (docs/accounts.md, Ratings). One "
        "transaction: the server's own account writes wait for it, so run it while "
        "the server is stopped or quiet.",
    )
    _add_data_dir(p)
    p.add_argument(
        "--accounts-db",
        default=None,
        metavar="postgresql://… | FILE",
        help="the account store (default: the server's own setting, else accounts.db "
        "in the data directory)",
    )
    return p


def _accounts_target(args: argparse.Namespace) -> tuple[Path, str | None]:
    """The data directory and the ``--accounts-db`` a command reads: its own
    options, else the server's settings.

    Raises:
        ConfigError: the server's settings cannot be read.
    """
    argv = [] if args.config is None else ["--config", str(args.config)]
    values = settings.resolve(build_parser(), argv).values
    data_dir = args.data_dir or values.data_dir or Path(user_data_dir("craits"))
    return data_dir, args.accounts_db or values.accounts_db


async def _rerate(data_dir: Path, dsn: str | None) -> int:
    opened = await open_account_store(data_dir, dsn)
    try:
        return await opened.store.results.rerate()
    finally:
        await opened.close()


def rerate_main(argv: list[str]) -> int:
    """``craits-server rerate``: recompute the ratings from the rated games;
    returns the exit status (:data:`EXIT_FAILED` when the store cannot be read)."""
    args = build_rerate_parser().parse_args(argv)
    try:
        data_dir, dsn = _accounts_target(args)
    except ConfigError as exc:
        print(f"craits-server rerate: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if dsn is None and not (data_dir / ACCOUNTS_FILE).exists():
        print(f"craits-server rerate: no accounts at {data_dir / ACCOUNTS_FILE}", file=sys.stderr)
        return EXIT_FAILED
    try:
        games = asyncio.run(_rerate(data_dir, dsn))
    except Exception as exc:  # the store's own errors: unreachable, damaged, too new
        print(f"craits-server rerate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print(f"craits-server rerate: {games} rated games replayed; ratings rewritten")
    return 0


ANALYSE = "craits-server analyse"


def journal_loader(config: Path | None = None) -> GameLoader:
    """A :data:`~craits.server.bots.expert.analyse.GameLoader` on the server's journal:
    ``load_game(game_id, data_dir, unfinished)`` reads game ``game_id``'s record from
    ``craits.db`` in ``data_dir`` (None: the server's own setting, as ``export`` finds it:
    ``CRAITS_DATA_DIR``, the ``config`` file's ``data-dir``, else the default folder),
    read only (safe beside a running server), built as ``export`` builds it.

    The loader raises :class:`~craits.server.bots.expert.analyse.RecordError`: the
    settings cannot be read, no journal, no such game, a game still in play (unless
    ``unfinished``), a damaged row, a log that does not replay.
    """

    def load_game(game_id: int, data_dir: Path | None, unfinished: bool) -> dict[str, Any]:
        try:
            db = _journal_path(argparse.Namespace(data_dir=data_dir, config=config))
        except ConfigError as exc:
            raise RecordError(str(exc)) from None
        if not db.exists():
            raise RecordError(f"no journal at {db}")
        try:
            journal = JournalReader(db)
            try:
                row = journal.game(game_id)
            finally:
                journal.close()
        except JournalError as exc:
            raise RecordError(str(exc)) from None
        if row is None:
            raise RecordError(f"no game {game_id} in {db}")
        if row["finished"] is None and not unfinished:
            raise RecordError(
                f"game {game_id} is still in play (--unfinished analyses it as it stands)"
            )
        try:
            return build_record(row)
        except Exception as exc:  # a damaged row or a log that does not replay
            raise RecordError(f"game {game_id}'s log does not replay: {exc}") from None

    return load_game


def stored_loader(config: Path | None = None) -> StoredLoader:
    """A :data:`~craits.server.bots.expert.analyse.StoredLoader` on the server's
    journal (found as :func:`journal_loader` finds it, read only): a game's
    stored analysis, or None (none stored, no journal, or it cannot be read:
    the command judges the game itself)."""

    def load_stored(game_id: int, data_dir: Path | None) -> dict[str, Any] | None:
        try:
            db = _journal_path(argparse.Namespace(data_dir=data_dir, config=config))
            if not db.exists():
                return None
            journal = JournalReader(db)
            try:
                return journal.analysis(game_id)
            finally:
                journal.close()
        except (ConfigError, JournalError):
            return None

    return load_stored


def analyse_command(argv: list[str]) -> int:
    """``craits-server analyse GAME_ID|FILE [--json] [--all] [--seed N] [--budget N]
    [--workers N] [--unfinished] [--data-dir DIR] [--config FILE]``: the post-game
    analysis (``docs/bots.md``, "Post-game analysis") of a game of the server's journal,
    found through the server's settings, or of a record file; returns the exit status
    (0; 1 the game cannot be analysed; 2 a usage error; 130 interrupted).

    ``--config`` (the server's TOML settings, for its ``data-dir``) is this command's
    own; the rest is the expert package's command line
    (:func:`~craits.server.bots.expert.analyse.analyse_main`).
    """
    pre = argparse.ArgumentParser(prog=ANALYSE, add_help=False)
    pre.add_argument("--config", type=Path, default=None, metavar="FILE")
    known, rest = pre.parse_known_args(argv)
    epilog = (
        "--config FILE: the server's TOML settings, for its data-dir when --data-dir is "
        f"not given ({settings.CONFIG_ENV} names it too)."
    )
    return analyse_main(
        rest, ANALYSE, journal_loader(known.config), epilog, stored_loader(known.config)
    )
