"""The journal: every table, deal and accepted action, in an embedded SQLite database.

The server writes to the journal before it sends anything, so a crash loses
nothing a player has seen. In the server the writes are *deferred*: each is
queued with a ticket, every message queued after it waits for it, and at the
end of each pass of the event loop everything queued is committed in one
transaction (group commit) before any message goes out. A write that fails is
reported back, and that table pauses at its last recorded state.

On start the server replays the journal to restore every unfinished table
exactly where it was (RULES.md R2: same hands, stock order, count, scores and
shuffle penalties), and the resume tokens issued before.

The database holds the deck orders, so a journal the server creates (and its
``-wal``/``-shm`` companions) is readable by its owner only; the server never
changes the permissions of a file it did not create. One server at a time
holds the database file itself (:mod:`craits.server.journalfile`). It runs in
WAL mode; with :attr:`~craits.server.journalfile.Durability.FULL` (the
default) each commit is fsynced before anything waiting on it is sent, so an
acknowledged step survives a power cut; with ``NORMAL`` it survives the
process being killed.

What cannot be read is told apart from what cannot be written
(:class:`JournalDamaged`, :class:`JournalUnwritable`), and a damaged part of
the journal spoils only the tables and games that lie in it: :meth:`JournalReader.tables`
marks a table it cannot read, :meth:`JournalReader.game_ids` lists the games
around a damaged part.

Every shuffle is recorded as the order it produced, with a random salt and the
SHA-256 commitment published to the players (:mod:`craits.server.fairness`,
``docs/records.md``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .journalfile import Durability as Durability
from .journalfile import JournalDamaged as JournalDamaged
from .journalfile import JournalError as JournalError
from .journalfile import JournalLocked as JournalLocked
from .journalfile import JournalUnwritable as JournalUnwritable
from .journalfile import as_journal_error, claim, open_for_writing, release

log = logging.getLogger("craits.server")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    capacity INTEGER NOT NULL,
    rules TEXT NOT NULL,
    turn_timeout REAL NOT NULL,
    creator TEXT,
    state TEXT NOT NULL,
    seats TEXT NOT NULL,
    game_id INTEGER,
    updated REAL NOT NULL,
    vacant_since REAL,
    access TEXT
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name TEXT NOT NULL,
    players TEXT NOT NULL,
    rules TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT,
    private INTEGER
);
CREATE TABLE IF NOT EXISTS readers (
    game_id INTEGER NOT NULL,
    digest BLOB NOT NULL,
    PRIMARY KEY (game_id, digest)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS readers_by_digest ON readers (digest);
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
"""


WAL_RESET_FRAMES = 1024
"""Frames in the write-ahead log (a 4 KiB page and a 24-byte header each) past
which the writer starts it over: ~4 MiB, about a second of play at 250 tables
(the background checkpoint asks at most once a second, and waits for a core
like everything else: on a busy, shared machine the file reached 14–19 MiB,
``scripts/journal_size.py``). Each start over costs the loop an inline catch-up of
~1 ms (:meth:`Checkpointer.catch_up`); docs/performance.md has the figures."""
CATCH_UP_FRAMES = 64
"""At most about this many frames are left for the writer's inline catch-up."""
WAL_SIZE_LIMIT = 16 * 1024 * 1024
"""Bytes the write-ahead log file is cut back to when it starts over."""


@dataclass
class SavedGame:
    """A table's game (in play, or its last, over) as the journal holds it."""

    id: int
    players: list[str]
    rules: dict[str, Any]
    entries: list[tuple[str, dict[str, Any]]]


@dataclass
class SavedTable:
    """A table as the journal holds it."""

    name: str
    capacity: int
    rules: dict[str, Any]
    turn_timeout: float
    creator: str | None
    state: str
    seats: list[dict[str, Any]]
    game: SavedGame | None
    vacant_since: float | None = None
    """When its last person went (seconds since the epoch), or None: the
    table's abandon clock (:class:`craits.server.clock.AbandonClock`)."""
    access: dict[str, Any] | None = None
    """Its invite code, lock, muted spectators and bars (protocol §11.9;
    :meth:`craits.server.access.Access.row`), or None: a public table with
    none (a row from before private tables)."""
    problem: str | None = None
    """Why the table's row or its game's log cannot be read (the rest may be
    missing); None when it was read whole."""


class WriteFailure(NamedTuple):
    """A journal write that failed: its ticket, what it wrote to, and why."""

    ticket: int
    key: tuple[str, Any]
    """``("game", game_id)`` or ``("table", name)``: the log or row written."""
    reason: str


Statement = tuple[str, tuple[Any, ...]]


class JournalReader:
    """The journal database at ``path``, opened to read only (``craits-server
    export`` and ``check``, also while a server runs): no schema, no
    checkpoints, nothing written, so it never holds up the server's writes.
    :class:`Journal`, the server's writer, reads the same way.

    Raises:
        JournalDamaged: the file is damaged (not a database, or malformed).
        JournalError: the file cannot be opened.
    """

    def __init__(self, path: Path, db: sqlite3.Connection | None = None):
        """``db``: a connection already open on ``path`` (the writer's)."""
        self.path = path
        try:
            self.db = db if db is not None else self._open_to_read(path)
            names = {n for (n,) in self.db.execute("SELECT name FROM sqlite_master")}
        except (OSError, sqlite3.Error) as exc:
            raise as_journal_error(path, exc, "open") from None
        if not {"tables", "games", "log"} <= names:
            self.db.close()
            raise JournalError(f"{path} is not a Craits journal")

    @staticmethod
    def _open_to_read(path: Path) -> sqlite3.Connection:
        uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
        return sqlite3.connect(uri, uri=True, isolation_level=None)

    def close(self) -> None:
        """Close the database."""
        self.db.close()

    def entries(self, game_id: int) -> list[tuple[str, dict[str, Any]]]:
        """A game's log, in order.

        Raises:
            sqlite3.Error: the log cannot be read (a damaged journal).
            ValueError: an entry is not JSON.
        """
        rows = self.db.execute(
            "SELECT kind, data FROM log WHERE game_id = ? ORDER BY n", (game_id,)
        ).fetchall()
        return [(kind, json.loads(data)) for kind, data in rows]

    def tables(self) -> list[SavedTable]:
        """Every open table, with the log of its game in play or just over (a
        finished table comes back with its last game's final view and the
        replies to its actions, protocol §4.8). A
        table whose row or log cannot be read is there with its
        :attr:`~SavedTable.problem` (and what could be read of it).

        Raises:
            JournalDamaged: the list of tables itself cannot be read.
            JournalError: another failure to read it.
        """
        try:
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
            vacant = "vacant_since" if "vacant_since" in columns else "NULL"  # older journals
            access = "access" if "access" in columns else "NULL"
            rows = self.db.execute(
                "SELECT name, capacity, rules, turn_timeout, creator, state, seats, game_id,"
                f" {vacant}, {access} FROM tables ORDER BY updated"
            ).fetchall()
        except sqlite3.Error as exc:
            raise as_journal_error(self.path, exc, "read") from None
        return [self._saved_table(row) for row in rows]

    def _saved_table(self, row: tuple[Any, ...]) -> SavedTable:
        name, capacity, rules, timeout, creator, state, seats, game_id, vacant, access = row
        saved = SavedTable(str(name), capacity, {}, timeout, creator, str(state), [], None, vacant)
        try:
            saved.access = json.loads(access) if access is not None else None
            saved.seats = json.loads(seats)
            saved.rules = json.loads(rules)
            if game_id is not None and state in ("playing", "finished"):
                found = self.db.execute(
                    "SELECT players, rules FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                if found is not None:
                    players, game_rules = json.loads(found[0]), json.loads(found[1])
                    saved.game = SavedGame(game_id, players, game_rules, self.entries(game_id))
        except (sqlite3.Error, ValueError, TypeError) as exc:
            saved.problem = f"its row or its game {game_id}'s log cannot be read: {exc}"
        return saved

    def games(self, finished_only: bool = True) -> list[dict[str, Any]]:
        """Games in the journal: id, table, players, started, finished (newest first)."""
        sql = "SELECT id, table_name, players, started, finished FROM games"
        if finished_only:
            sql += " WHERE finished IS NOT NULL"
        rows = self.db.execute(sql + " ORDER BY id DESC").fetchall()
        return [
            {
                "id": i,
                "table": t,
                "players": json.loads(p),
                "started": s,
                "finished": f,
            }
            for i, t, p, s, f in rows
        ]

    def finished_games(self, digests: Collection[bytes], limit: int) -> list[dict[str, Any]]:
        """The newest finished games (at most ``limit``) that are public, or
        that one of ``digests`` may read (:meth:`readers`), as :meth:`games`
        gives them: the server's ``list_records`` (protocol §7.3), for
        :mod:`craits.server.record_access`.

        Raises:
            sqlite3.Error: the list cannot be read.
            ValueError: a game's players are not readable.
        """
        marks = ", ".join("?" * len(digests))
        mine = f" OR id IN (SELECT game_id FROM readers WHERE digest IN ({marks}))"
        rows = self.db.execute(
            "SELECT id, table_name, players, started, finished FROM games"
            " WHERE finished IS NOT NULL AND (private IS NULL OR private = 0"
            f"{mine if digests else ''}) ORDER BY id DESC LIMIT ?",
            (*digests, limit),
        ).fetchall()
        return [
            {"id": i, "table": t, "players": json.loads(p), "started": a, "finished": b}
            for i, t, p, a, b in rows
        ]

    def readers(self, game_id: int) -> list[bytes] | None:
        """The SHA-256 digests of the tokens that may read game ``game_id``'s
        record (its private table's seats' and creator's, written when it
        started), or None: a public game, a game from before readers were
        kept, or no such game (protocol §7.3).

        Raises:
            JournalError: the game's rows cannot be read.
        """
        try:
            row = self.db.execute("SELECT private FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None or not row[0]:
                return None
            found = self.db.execute("SELECT digest FROM readers WHERE game_id = ?", (game_id,))
            return [bytes(d) for (d,) in found]
        except sqlite3.Error as exc:
            raise as_journal_error(self.path, exc, "read") from None

    def game_ids(self, finished_only: bool = True) -> tuple[list[int], dict[int, str]]:
        """The ids of the games in the journal (only the finished ones with
        ``finished_only``), oldest first; and the ids whose row cannot be read,
        with why. If the list cannot be read whole (a damaged journal), every
        id ever given out is looked up on its own, so a damaged part spoils
        only the games that lie in it."""
        sql = "SELECT id FROM games" + (" WHERE finished IS NOT NULL" if finished_only else "")
        try:
            return [int(i) for (i,) in self.db.execute(sql + " ORDER BY id")], {}
        except sqlite3.Error:
            pass
        ids: list[int] = []
        unreadable: dict[int, str] = {}
        for game_id in range(1, self._highest_game_id() + 1):
            try:
                row = self.db.execute(
                    "SELECT finished FROM games WHERE id = ?", (game_id,)
                ).fetchone()
            except sqlite3.Error as exc:
                unreadable[game_id] = str(exc)
                continue
            if row is not None and (row[0] is not None or not finished_only):
                ids.append(game_id)
        return ids, unreadable

    def _highest_game_id(self) -> int:
        """The highest game id given out, as far as the journal can tell: the
        id counter, else the highest id in the log or the games."""
        for sql in (
            "SELECT seq FROM sqlite_sequence WHERE name = 'games'",
            "SELECT MAX(game_id) FROM log",
            "SELECT MAX(id) FROM games",
        ):
            with contextlib.suppress(sqlite3.Error, TypeError, ValueError):
                row = self.db.execute(sql).fetchone()
                if row is not None and row[0] is not None:
                    return int(row[0])
        return 0

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One game's row and log, or None.

        Raises:
            JournalError: its row or its log cannot be read
                (:class:`JournalDamaged`: the journal is damaged there).
        """
        try:
            return self._game(game_id)
        except (sqlite3.Error, ValueError, TypeError) as exc:
            if isinstance(exc, sqlite3.Error):
                raise as_journal_error(self.path, exc, "read") from None
            raise JournalError(f"game {game_id}'s row or log is not readable: {exc}") from None

    def _game(self, game_id: int) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT id, table_name, players, rules, started, finished, result FROM games "
            "WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        return {
            "id": row[0],
            "table": row[1],
            "players": json.loads(row[2]),
            "rules": json.loads(row[3]),
            "started": row[4],
            "finished": row[5],
            "result": json.loads(row[6]) if row[6] else None,
            "entries": self.entries(row[0]),
        }


class Checkpointer:
    """Keeps the write-ahead log of the database at ``path`` bounded: a thread
    of its own copies the log into the database every ``every`` seconds (a
    passive checkpoint, on its own connection, never blocks the writer), and
    past ``reset_frames`` frames asks the writer to start the log over
    (:meth:`catch_up`, on the writer's connection ``db``)."""

    def __init__(self, path: Path, db: sqlite3.Connection, every: float, reset_frames: int):
        self.path = path
        self._db = db
        self._reset_frames = reset_frames
        self._wal_full = False
        """Set by the thread: the log is long and checkpointed; the writer
        should start it over."""
        self._stop = threading.Event()
        self.look = threading.Event()
        """Set: look the whole file over for damage at the next checkpoint
        (:meth:`Journal.look_for_damage`)."""
        self._thread = threading.Thread(
            target=self._loop, args=(every,), name="journal-checkpoint", daemon=True
        )
        self._thread.start()

    def catch_up(self) -> None:
        """Let the write-ahead log start over once it is long; the writer calls
        it between writes (:meth:`Journal.catch_up`).

        The checkpoint thread copies the log into the database (and fsyncs)
        without blocking the writer, but SQLite starts the log over only when a
        write finds every frame in it copied, which never happens while writes
        keep coming: the log grew by ~7 KiB per move, without end, under steady
        play. So when the thread reports a long log it has checkpointed up to
        a few frames (:meth:`_checkpoint`), the writer checkpoints those
        inline (two small fsyncs, ~1 ms measured), and its next write starts
        the log over."""
        if not self._wal_full:
            return
        self._wal_full = False
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _loop(self, every: float) -> None:
        """Copy the write-ahead log into the database every ``every`` seconds,
        on a connection of this thread's own (a passive checkpoint never blocks
        the writer); past ``reset_frames`` frames, ask the writer to start
        the log over (:meth:`catch_up`)."""
        try:
            db = sqlite3.connect(str(self.path), isolation_level=None)
        except sqlite3.Error:
            return
        try:
            while not self._stop.wait(every):
                if self.look.is_set():
                    self.look.clear()
                    self._look_for_damage(db)
                with contextlib.suppress(sqlite3.Error):
                    self._checkpoint(db)
        finally:
            db.close()

    def _look_for_damage(self, db: sqlite3.Connection) -> None:
        """SQLite's ``quick_check`` over the whole file (:attr:`look`), off the
        event loop (~0.5 s for 200 MB). Damage is logged, naming ``craits-server
        check``; the server goes on (what cannot be read fails on its own,
        table by table)."""
        try:
            found = [str(row[0]) for row in db.execute("PRAGMA quick_check(5)").fetchall()]
        except sqlite3.Error as exc:
            found = [str(exc)]
        if found != ["ok"]:
            log.error(
                "journal %s is damaged (%s); 'craits-server check' says where",
                self.path,
                "; ".join(found),
            )

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        """One background checkpoint. Past ``reset_frames``, checkpoint
        again at once until a pass finds fewer than :data:`CATCH_UP_FRAMES`
        new frames (each pass copies what came in during the last), and only
        then ask the writer to catch up: so what it copies inline, on the event
        loop, is a handful of frames whatever the write rate."""
        busy, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if frames <= self._reset_frames:
            return
        for _ in range(20):
            if busy or copied != frames or self._stop.is_set():
                return
            before = frames
            busy, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if not busy and copied == frames and frames - before < CATCH_UP_FRAMES:
                self._wal_full = True
                return

    def stop(self) -> None:
        """Stop the thread (it finishes the checkpoint under way)."""
        self._stop.set()
        self._thread.join(5)


class Journal(JournalReader):
    """The journal database at ``path`` (created, owner-only, if missing), as
    the server's writer.

    Every write gets a *ticket* (1, 2, 3…, in order). By default a write is
    done before the call returns (and raises :class:`JournalError`). With
    ``on_pending`` (the server's way) writes are queued: the first one queued
    calls ``on_pending()``, and :meth:`commit` writes everything queued, in
    ticket order, in one transaction. Once a write to a game's log (or a
    table's row) fails, later writes to it fail too, so a log never has a gap.
    Reads see committed writes only. It implements the tables'
    :class:`~craits.server.interfaces.TableJournal`.

    Raises:
        JournalError: the file cannot be opened or created.
    """

    def __init__(
        self,
        path: Path,
        on_pending: Callable[[], None] | None = None,
        checkpoint_every: float = 1.0,
        wal_reset_frames: int = WAL_RESET_FRAMES,
        durability: Durability = Durability.FULL,
    ):
        """``checkpoint_every``: seconds between the background checkpoints;
        ``wal_reset_frames``: past this many frames in the write-ahead log, the
        writer starts it over (see :class:`Checkpointer`); ``durability``:
        whether each commit is fsynced (:class:`~craits.server.journalfile.Durability`).

        Raises:
            JournalLocked: another server holds the database file.
            JournalUnwritable: it cannot be written.
            JournalDamaged: it is damaged.
        """
        self._lock = claim(path)
        try:
            db = open_for_writing(path, SCHEMA, durability, WAL_SIZE_LIMIT)
            try:
                _add_vacant_since(db)
                (top,) = db.execute(
                    "SELECT MAX(COALESCE((SELECT MAX(id) FROM games), 0),"
                    " COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0))"
                ).fetchone()
            except sqlite3.Error as exc:
                db.close()
                raise as_journal_error(path, exc, "read") from None
        except JournalError:
            release(self._lock)
            raise
        super().__init__(path, db)
        self.durability = durability
        self._next_game = int(top) + 1
        self._next_n: dict[int, int] = {}
        self.submitted = 0
        """The last ticket handed out."""
        self.processed = 0
        """Every ticket up to this one is written (or failed and was reported)."""
        self._on_pending = on_pending
        self._pending: list[tuple[int, tuple[str, Any], list[Statement]]] = []
        self._broken: dict[tuple[str, Any], str] = {}
        self._checkpointer = Checkpointer(path, db, checkpoint_every, wal_reset_frames)

    # --------------------------------------------------------------- writing

    def _submit(self, key: tuple[str, Any], statements: list[Statement]) -> int:
        """Write ``statements`` in one transaction; returns the write's ticket.

        Raises:
            JournalError: not deferred, the write failed.
        """
        self.submitted += 1
        ticket = self.submitted
        if self._on_pending is not None:
            if not self._pending:
                self._on_pending()
            self._pending.append((ticket, key, statements))
            return ticket
        try:
            self._run(self.db, statements)
        except sqlite3.Error as exc:
            raise JournalError(f"journal write failed: {exc}") from None
        finally:
            self.processed = ticket
        self.catch_up()
        return ticket

    @staticmethod
    def _run(db: sqlite3.Connection, statements: list[Statement]) -> None:
        if len(statements) == 1:  # one statement is its own transaction
            db.execute(*statements[0])
            return
        db.execute("BEGIN")
        try:
            for sql, args in statements:
                db.execute(sql, args)
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def written(self, ticket: int) -> bool:
        """Whether write ``ticket`` is done: committed, or failed and reported
        by :meth:`commit`."""
        return ticket <= self.processed

    @property
    def pending(self) -> bool:
        """Whether writes are queued that :meth:`commit` has not written yet."""
        return self.processed < self.submitted

    def commit(self) -> list[WriteFailure]:
        """Write every queued write, in one transaction; returns those that
        failed (if the transaction fails, each write is tried on its own, in
        order, to find them). Afterwards :attr:`processed` is the last ticket."""
        items, self._pending = self._pending, []
        if not items:
            return []
        broken = self._broken
        failed: list[WriteFailure] = []
        todo = []
        for ticket, key, statements in items:
            if key in broken:
                failed.append(WriteFailure(ticket, key, broken[key]))
            else:
                todo.append((ticket, key, statements))
        try:
            if todo:
                self._run(self.db, [st for _, _, sts in todo for st in sts])
        except sqlite3.Error:
            for ticket, key, statements in todo:
                if key in broken:
                    failed.append(WriteFailure(ticket, key, broken[key]))
                    continue
                try:
                    self._run(self.db, statements)
                except sqlite3.Error as exc:
                    broken[key] = f"journal write failed: {exc}"
                    failed.append(WriteFailure(ticket, key, broken[key]))
            failed.sort()
        self.processed = items[-1][0]
        return failed

    def catch_up(self) -> None:
        """Let the write-ahead log start over once it is long
        (:meth:`Checkpointer.catch_up`). Deferred writers call it after
        :meth:`commit` when they have sent what waited on it (it may take a
        millisecond or two); direct writes do it themselves."""
        self._checkpointer.catch_up()

    def forget_failure(self, name: str) -> None:
        """Table ``name`` never was (its first row failed) and has closed: its
        name is free again, and its next writes are tried afresh."""
        self._broken.pop(("table", name), None)

    def look_for_damage(self) -> None:
        """Have the checkpoint thread look the whole file over for damage
        (SQLite's ``quick_check``) at its next checkpoint, and log what it
        finds; the server asks once, after restoring its tables."""
        self._checkpointer.look.set()

    def set_max_pages(self, pages: int) -> int:
        """Cap the database at ``pages`` pages (SQLite ``max_page_count``): writes
        that need more fail as on a full disk. Returns the write's ticket (the
        cap holds for the writes after it)."""
        return self._submit(("pragma", None), [(f"PRAGMA max_page_count = {int(pages)}", ())])

    def close(self) -> None:
        """Write what is queued, stop the checkpoints, fold the log into the
        database, close it, and let the file go (another server may take it)."""
        self.commit()
        self._checkpointer.stop()
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()
        release(self._lock)

    def save_table(
        self,
        name: str,
        capacity: int,
        rules: dict[str, Any],
        turn_timeout: float,
        creator: str | None,
        state: str,
        seats: list[dict[str, Any]],
        game_id: int | None,
        vacant_since: float | None = None,
        access: dict[str, Any] | None = None,
    ) -> int:
        """Write a table's row (its seats with their token digests, never tokens;
        ``vacant_since``: when its last person went, seconds since the epoch;
        ``access``: its invite code, lock and bars, protocol §11.9);
        returns the write's ticket.

        Raises:
            JournalError: not deferred, the write failed.
        """
        return self._submit(
            ("table", name),
            [
                (
                    "INSERT OR REPLACE INTO tables (name, capacity, rules, turn_timeout,"
                    " creator, state, seats, game_id, updated, vacant_since, access)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        name,
                        capacity,
                        json.dumps(rules),
                        turn_timeout,
                        creator,
                        state,
                        json.dumps(seats),
                        game_id,
                        time.time(),
                        vacant_since,
                        json.dumps(access) if access is not None else None,
                    ),
                )
            ],
        )

    def drop_table(self, name: str) -> int:
        """Forget a closed table (its games stay, as records); returns the ticket.

        Raises:
            JournalError: not deferred, the write failed.
        """
        return self._submit(("table", name), [("DELETE FROM tables WHERE name = ?", (name,))])

    def start_game(
        self,
        table: str,
        players: list[str],
        rules: dict[str, Any],
        entries: list[tuple[str, dict[str, Any]]] | None = None,
        readers: list[bytes] | None = None,
    ) -> int:
        """Open a game, with the first entries of its log, in one write; returns
        the game's id (ids are given out here, in order, never reused).
        ``readers``: the SHA-256 digests (never tokens) that may read a
        private table's game's record (protocol §7.3); None: a public game.

        Raises:
            JournalError: not deferred, the write failed.
        """
        game_id = self._next_game
        self._next_game += 1
        self._next_n[game_id] = 0
        row = (game_id, table, json.dumps(players), json.dumps(rules), time.time())
        statements: list[Statement] = [
            (
                "INSERT INTO games (id, table_name, players, rules, started, private)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (*row, int(readers is not None)),
            ),
            *_reader_rows(game_id, readers or []),
        ]
        self._submit(("game", game_id), statements + self._log_rows(game_id, entries or []))
        return game_id

    def _log_rows(self, game_id: int, entries: list[tuple[str, dict[str, Any]]]) -> list[Statement]:
        n = self._next_n.get(game_id)
        if n is None:
            row = self.db.execute(
                "SELECT COALESCE(MAX(n) + 1, 0) FROM log WHERE game_id = ?", (game_id,)
            ).fetchone()
            n = int(row[0])
        self._next_n[game_id] = n + len(entries)
        return [
            ("INSERT INTO log VALUES (?, ?, ?, ?)", (game_id, n + i, kind, json.dumps(data)))
            for i, (kind, data) in enumerate(entries)
        ]

    def append(
        self,
        game_id: int,
        entries: list[tuple[str, dict[str, Any]]],
        result: dict[str, Any] | None = None,
    ) -> int:
        """Append entries to a game's log in one transaction (with ``result``,
        the game is marked finished in it too); returns the write's ticket.

        Raises:
            JournalError: not deferred, the write failed; nothing of it was kept.
        """
        statements = self._log_rows(game_id, entries)
        if result is not None:
            statements.append(
                (
                    "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                    (time.time(), json.dumps(result), game_id),
                )
            )
        try:
            return self._submit(("game", game_id), statements)
        except JournalError:
            self._next_n.pop(game_id, None)
            raise


def _add_vacant_since(db: sqlite3.Connection) -> None:
    """Give a journal from before the abandon clock its ``vacant_since`` column,
    one from before private tables its ``access`` column (protocol §11.9), and
    one from before private games' readers its games' ``private`` column (its
    games stay public, as they were: protocol §7.3; the ``readers`` table is
    made by the schema)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    if "vacant_since" not in columns:
        db.execute("ALTER TABLE tables ADD COLUMN vacant_since REAL")
    if "access" not in columns:
        db.execute("ALTER TABLE tables ADD COLUMN access TEXT")
    if "private" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}:
        db.execute("ALTER TABLE games ADD COLUMN private INTEGER")


def _reader_rows(game_id: int, readers: list[bytes]) -> list[Statement]:
    """The rows of the ``readers`` table of a private game: the SHA-256 digests
    of the tokens that may read its record (protocol §7.3)."""
    insert = "INSERT OR IGNORE INTO readers (game_id, digest) VALUES (?, ?)"
    return [(insert, (game_id, digest)) for digest in readers]
