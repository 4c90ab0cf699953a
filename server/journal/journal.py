"""The journal: every table, deal and accepted action, in an embedded SQLite database.

The server writes to the journal before it sends anything, so a crash loses
nothing a player has seen. The writes are done by the journal's writer, a
process of its own (:mod:`craits.server.journal.writer`), so that the event
loop never waits for a write, a commit or an fsync. In the server the writes
are *deferred*: each is queued with a ticket, and every message queued after
it waits for it. At the end of each pass of the event loop what is queued
goes to the writer as one batch, unless a batch is in flight (then it goes
when that one is done: batches grow by themselves under load, group commit);
the writer commits each batch in one transaction and answers, and only then
do the messages that waited on it go out. A write that fails is reported
back, and that table pauses at its last recorded state.

On start the server replays the journal to restore every unfinished table
exactly where it was (RULES.md R2: same hands, stock order, count, scores and
shuffle penalties), and the resume tokens issued before.

The database holds the deck orders, so a journal the server creates (and its
``-wal``/``-shm`` companions) is readable by its owner only; the server never
changes the permissions of a file it did not create. One server at a time
holds the database file itself (:mod:`craits.server.journal.file`), with its
writer. It runs in WAL mode; with :attr:`~craits.server.journal.file.Durability.FULL`
(the default) each commit is fsynced before anything waiting on it is sent,
so an acknowledged step survives a power cut; with ``NORMAL`` it survives the
process being killed.

What cannot be read is told apart from what cannot be written
(:class:`JournalDamaged`, :class:`JournalUnwritable`), and a damaged part of
the journal spoils only the tables and games that lie in it: :meth:`JournalReader.tables`
marks a table it cannot read, :meth:`JournalReader.game_ids` lists the games
around a damaged part.

Every shuffle is recorded as the order it produced, with a random salt and the
SHA-256 commitment published to the players (:mod:`craits.server.table.fairness`,
``docs/records.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ..errors import JournalError
from ..table.ports import Entry, TableRow
from .batches import Batches
from .batches import WriteFailure as WriteFailure
from .file import Durability as Durability
from .file import as_journal_error, claim, release
from .writer import CATCH_UP_FRAMES as CATCH_UP_FRAMES
from .writer import SCHEMA as SCHEMA
from .writer import WAL_RESET_FRAMES as WAL_RESET_FRAMES
from .writer import WAL_SIZE_LIMIT as WAL_SIZE_LIMIT
from .writer import WriterLink

log = logging.getLogger("craits.server")

T = TypeVar("T")


@dataclass
class SavedGame:
    """A table's game (in play, or its last, over) as the journal holds it."""

    id: int
    players: list[str]
    rules: dict[str, Any]
    entries: list[Entry]


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
    table's abandon clock (:class:`craits.server.table.clock.AbandonClock`)."""
    access: dict[str, Any] | None = None
    """Its invite code, lock, muted spectators and bars (protocol §11.9;
    :meth:`craits.server.table.access.Access.row`), or None: a public table with
    none (a row from before private tables)."""
    timing: dict[str, Any] | None = None
    """Its time bank and each seat's time left in it (protocol §11.10;
    :meth:`craits.server.table.timing.Banks.row`), or None: no time bank."""
    problem: str | None = None
    """Why the table's row or its game's log cannot be read (the rest may be
    missing); None when it was read whole."""


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

    def entries(self, game_id: int) -> list[Entry]:
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
            timing = "timing" if "timing" in columns else "NULL"
            rows = self.db.execute(
                "SELECT name, capacity, rules, turn_timeout, creator, state, seats, game_id,"
                f" {vacant}, {access}, {timing} FROM tables ORDER BY updated"
            ).fetchall()
        except sqlite3.Error as exc:
            raise as_journal_error(self.path, exc, "read") from None
        return [self._saved_table(row) for row in rows]

    def _saved_table(self, row: tuple[Any, ...]) -> SavedTable:
        name, capacity, rules, timeout, creator, state, seats, game_id, vacant, access, timing = row
        saved = SavedTable(str(name), capacity, {}, timeout, creator, str(state), [], None, vacant)
        try:
            saved.access = json.loads(access) if access is not None else None
            saved.timing = json.loads(timing) if timing is not None else None
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
        :mod:`craits.server.journal.record_access`.

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

    def analysis(self, game_id: int) -> dict[str, Any] | None:
        """Game ``game_id``'s stored post-game analysis (the document of
        ``docs/bots.md``, "Post-game analysis"; protocol §7.6), or None: none
        stored (or a journal from before analyses were stored, read only).

        Raises:
            JournalError: the stored analysis cannot be read
                (:class:`JournalDamaged`: the journal is damaged there).
        """
        try:
            if not self._has_analyses():
                return None
            row = self.db.execute(
                "SELECT analysis FROM analyses WHERE game_id = ?", (game_id,)
            ).fetchone()
            found = json.loads(row[0]) if row is not None else None
        except sqlite3.Error as exc:
            raise as_journal_error(self.path, exc, "read") from None
        except ValueError as exc:
            raise JournalError(f"game {game_id}'s stored analysis is not readable: {exc}") from None
        if found is not None and not isinstance(found, dict):
            raise JournalError(f"game {game_id}'s stored analysis is not a document")
        return found

    def _has_analyses(self) -> bool:
        """Whether the journal has its ``analyses`` table (a journal opened to
        read only, from before analyses were stored, has not)."""
        found = self.db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'analyses'"
        ).fetchone()
        return found is not None

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


class Journal(JournalReader):
    """The journal database at ``path`` (created, owner-only, if missing), as
    the server's writer: its writes are done by the writer process
    (:mod:`craits.server.journal.writer`), its reads on a connection of its own.

    Every write gets a *ticket* (1, 2, 3…, in order). By default a write is
    done before the call returns (and raises :class:`JournalError`). With
    ``on_pending`` (the server's way, inside its event loop) writes are
    queued (:attr:`out`, :class:`~craits.server.journal.batches.Batches`): the
    first one queued calls ``on_pending()``; :meth:`send` hands what is queued
    to the writer as one batch, unless a batch is in flight (then it goes when
    that one is done: group commit); when a batch is committed,
    :attr:`processed` is its last ticket and ``out.on_written`` is called with
    the writes that failed. Once a write to a game's log (or a
    table's row) fails, later writes to it fail too, so a log never has a
    gap. Reads see committed writes only. It implements the tables'
    :class:`~craits.server.table.ports.TableJournal`.

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
        writer starts it over (see :class:`~craits.server.journal.writer.Checkpointer`);
        ``durability``: whether each commit is fsynced
        (:class:`~craits.server.journal.file.Durability`).

        Raises:
            JournalLocked: another server holds the database file.
            JournalUnwritable: it cannot be written.
            JournalDamaged: it is damaged.
        """
        self._lock = claim(path)
        try:
            every, reset = checkpoint_every, wal_reset_frames
            self._link = WriterLink(path, self._lock, durability, every, reset)
        except JournalError:
            release(self._lock)
            raise
        try:
            db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
            super().__init__(path, db)
        except (sqlite3.Error, JournalError):
            self._link.close()
            release(self._lock)
            raise
        self.durability = durability
        self._next_game = self._link.top + 1
        self._next_n: dict[int, int] = {}
        self.out = Batches(self._link, on_pending)
        """The writes queued and in flight."""
        self._read_thread: ThreadPoolExecutor | None = None
        self._reader: JournalReader | None = None
        """The reads' connection, used in :attr:`_read_thread`' thread only."""

    # --------------------------------------------------------------- writing

    def _submit(self, key: tuple[str, Any], op: list[Any]) -> int:
        """Queue write ``op`` (:meth:`Batches.submit`); returns its ticket.

        Raises:
            JournalError: not deferred, the write failed.
        """
        return self.out.submit(key, op)

    def _rows_for(self, game_id: int, entries: list[Entry]) -> list[int]:
        """Queue the log rows of ``entries`` for game ``game_id`` (numbered on
        from its last); returns their span ``[start, end)`` in the batch."""
        n = self._next_n.get(game_id)
        if n is None:
            row = self.db.execute(
                "SELECT COALESCE(MAX(n) + 1, 0) FROM log WHERE game_id = ?", (game_id,)
            ).fetchone()
            n = int(row[0])
        self._next_n[game_id] = n + len(entries)
        rows = self.out.rows
        start = len(rows)
        rows.extend([game_id, n + i, kind, data] for i, (kind, data) in enumerate(entries))
        return [start, len(rows)]

    def send(self) -> None:
        """Hand the queued writes to the writer (:meth:`Batches.send`)."""
        self.out.send()

    def recorded(self, game_id: int) -> list[Entry]:
        """Game ``game_id``'s log as recorded, in order (a table rebuilding its
        game after a failed write, :class:`~craits.server.table.ports.TableJournal`).

        Raises:
            JournalError: the log cannot be read (a damaged journal), or an entry
                is not JSON.
        """
        try:
            return self.entries(game_id)
        except sqlite3.Error as exc:
            raise as_journal_error(self.path, exc, "read") from None
        except ValueError as exc:
            raise JournalError(f"game {game_id}'s log is not readable: {exc}") from None

    def written(self, ticket: int) -> bool:
        """Whether write ``ticket`` is done: committed, or failed and reported."""
        return ticket <= self.out.processed

    @property
    def submitted(self) -> int:
        """The last ticket handed out."""
        return self.out.submitted

    @property
    def processed(self) -> int:
        """Every ticket up to this one is written (or failed and was reported)."""
        return self.out.processed

    @property
    def pending(self) -> bool:
        """Whether writes are queued or in flight that are not done yet."""
        return self.out.processed < self.out.submitted

    async def read(self, fn: Callable[[JournalReader], T]) -> T:
        """``fn(reader)`` on a reader of the journal (a connection of its own),
        in a thread of its own, so the event loop does not wait for the disk
        (the finished games' records and replays, protocol §7.3). Reads see
        committed writes only.

        Raises:
            JournalError: the reader cannot be opened; whatever ``fn`` raises.
        """
        if self._read_thread is None:
            self._read_thread = ThreadPoolExecutor(1, thread_name_prefix="journal-read")
        return await asyncio.get_running_loop().run_in_executor(self._read_thread, self._read, fn)

    def _read(self, fn: Callable[[JournalReader], T]) -> T:
        if self._reader is None:
            self._reader = JournalReader(self.path)
        return fn(self._reader)

    def forget_failure(self, name: str) -> None:
        """Table ``name`` never was (its first row failed) and has closed: its
        name is free again, and its next writes are tried afresh."""
        self._submit(("table", name), ["f", 0, name])

    def look_for_damage(self) -> None:
        """Have the writer's checkpoint thread look the whole file over for
        damage (SQLite's ``quick_check``) at its next checkpoint, and log what
        it finds; the server asks once, after restoring its tables."""
        self.out.look()

    def set_max_pages(self, pages: int) -> int:
        """Cap the database at ``pages`` pages (SQLite ``max_page_count``): writes
        that need more fail as on a full disk. Returns the write's ticket (the
        cap holds for the writes after it)."""
        return self._submit(("pragma", None), ["p", 0, int(pages)])

    def close(self) -> None:
        """Write what is queued (waiting for it), stop the writer (it folds the
        log into the database), close the database, and let the file go
        (another server may take it). Writes that fail now are logged."""
        self.out.close()
        self._link.close()
        if self._read_thread is not None:
            if self._reader is not None:
                self._read_thread.submit(self._reader.close)  # in the thread it was opened in
            self._read_thread.shutdown()
        self.db.close()
        release(self._lock)

    def save_table(self, row: TableRow) -> int:
        """Write a table's row (its seats with their token digests, never
        tokens; protocol §11.9's access; when its last person went); returns
        the write's ticket.

        Raises:
            JournalError: not deferred, the write failed.
        """
        op = [
            "t",
            0,
            row.name,
            row.capacity,
            json.dumps(row.rules),
            row.turn_timeout,
            row.creator,
            row.state,
            json.dumps(row.seats),
            row.game_id,
            time.time(),
            row.vacant_since,
            json.dumps(row.access) if row.access is not None else None,
            json.dumps(row.timing) if row.timing is not None else None,
        ]
        return self._submit(("table", row.name), op)

    def drop_table(self, name: str) -> int:
        """Forget a closed table (its games stay, as records); returns the ticket.

        Raises:
            JournalError: not deferred, the write failed.
        """
        return self._submit(("table", name), ["d", 0, name])

    def start_game(
        self,
        table: str,
        players: list[str],
        rules: dict[str, Any],
        entries: list[Entry] | None = None,
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
        span = self._rows_for(game_id, entries or [])
        private = int(readers is not None)
        hexes = [digest.hex() for digest in readers or []]
        op = [
            *("g", 0, game_id, table, json.dumps(players), json.dumps(rules), time.time()),
            *(private, *span, hexes),
        ]
        self._submit(("game", game_id), op)
        return game_id

    def save_analysis(self, game_id: int, analysis: dict[str, Any]) -> int:
        """Store game ``game_id``'s post-game analysis (the document of
        ``docs/bots.md``, with its ``seed`` and ``budget``), in place of one
        stored before; returns the write's ticket. A failed write is logged
        (nothing pauses: the analysis is made again when asked).

        Raises:
            JournalError: not deferred, the write failed.
        """
        text = json.dumps(analysis, separators=(",", ":"))
        seed, budget = int(analysis.get("seed", 0)), int(analysis.get("budget", 0))
        op = ["y", 0, game_id, seed, budget, text, time.time()]
        return self._submit(("analysis", game_id), op)

    def append(
        self,
        game_id: int,
        entries: list[Entry],
        result: dict[str, Any] | None = None,
    ) -> int:
        """Append entries to a game's log in one transaction (with ``result``,
        the game is marked finished in it too); returns the write's ticket.

        Raises:
            JournalError: not deferred, the write failed; nothing of it was kept.
        """
        span = self._rows_for(game_id, entries)
        finished = (time.time(), json.dumps(result)) if result is not None else (None, None)
        try:
            return self._submit(("game", game_id), ["a", 0, game_id, *span, *finished])
        except JournalError:
            self._next_n.pop(game_id, None)
            raise
