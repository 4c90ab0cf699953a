"""The journal's writer: a process of its own that owns the journal's SQLite
connection, so that the server's event loop never waits for a write, a commit
or an fsync (issue 25).

The server (:class:`craits.server.journal.journal.Journal`) hands the writer *batches*
of writes over a Unix socket and goes on serving; the writer runs each batch
in one transaction, commits it (fsynced with ``--durability full``), and
answers with the last ticket of the batch and the writes that failed. Only
then are the replies and frames that the batch's moves caused sent. One batch
is in flight at a time: what the loop queues meanwhile goes in the next, so
batches grow by themselves under load (group commit), as a database's
write-ahead-log writer does it.

Why a process and not a thread: a thread needs CPython's global lock after
every SQLite call, and the busy loop holds it; a writer thread measured p99
latencies of 20-140 ms in a batch's round trip where this process measured
9-18 ms on the same loaded machine (docs/performance.md). The writer process
imports nothing of the server but this module, :mod:`craits.server.journal.file`
and the standard library.

The wire between them (both ends are this module): a frame is a 4-byte
big-endian length and a JSON document. To the writer:

- ``["w", OPS]``, then a frame of ROWS: a batch. ``OPS`` are the writes, in
  ticket order (see :class:`Writer`); ``ROWS`` is the JSON text of every log
  row of the batch, ``[[game_id, n, kind, data], ...]``, handed to SQLite
  whole (``json_each``), so that no Python code runs per row in the writer,
  and the loop encodes a batch's rows in one call.
- ``["look"]``: look the whole file over for damage at the next checkpoint.
- ``["close"]``: fold the log into the database and exit.

From the writer: ``["ready", top_game_id]`` once it has opened the journal
(or ``["error", KIND, MESSAGE]`` and it exits), ``["a", TICKET, FAILURES]``
after each batch, and ``["log", MESSAGE]`` for the operator (a damaged file).

The writer holds the journal's lock with the server (it inherits the locked
file descriptor), and dies with it (``PR_SET_PDEATHSIG``), so a restarted
server never finds an old writer still at work on its journal.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import JournalDamaged, JournalError, JournalLocked, JournalUnwritable
from .file import Durability, as_journal_error, open_for_writing

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
    access TEXT,
    timing TEXT
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
CREATE TABLE IF NOT EXISTS analyses (
    game_id INTEGER PRIMARY KEY,
    seed INTEGER NOT NULL,
    budget INTEGER NOT NULL,
    analysis TEXT NOT NULL,
    made REAL NOT NULL
);
"""

WAL_RESET_FRAMES = 1024
"""Frames in the write-ahead log (a 4 KiB page and a 24-byte header each) past
which the writer starts it over: ~4 MiB, about a second of play at 250 tables
(the background checkpoint asks at most once a second, and waits for a core
like everything else: on a busy, shared machine the file reached 14–19 MiB,
``scripts/journal_size.py``). Each start over costs the writer an inline
catch-up of ~1 ms (:meth:`Checkpointer.catch_up`), between two batches;
docs/performance.md has the figures."""
CATCH_UP_FRAMES = 64
"""At most about this many frames are left for the writer's inline catch-up."""
WAL_SIZE_LIMIT = 16 * 1024 * 1024
"""Bytes the write-ahead log file is cut back to when it starts over."""

HEADER = struct.Struct(">I")
"""A frame's length, before its JSON document."""

_INSERT_ROWS = (
    "INSERT INTO log (game_id, n, kind, data) SELECT json_extract(value, '$[0]'),"
    " json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]')"
    " FROM json_each(?)"
)
"""Every log row of a batch, from the batch's rows as one JSON text."""
_INSERT_SOME_ROWS = _INSERT_ROWS + " WHERE key >= ? AND key < ?"
"""The log rows of one write (rows ``[start, end)`` of its batch)."""
_START_GAME = (
    "INSERT INTO games (id, table_name, players, rules, started, private) VALUES (?, ?, ?, ?, ?, ?)"
)
_SAVE_ANALYSIS = (
    "INSERT OR REPLACE INTO analyses (game_id, seed, budget, analysis, made) VALUES (?, ?, ?, ?, ?)"
)
_ADD_READER = "INSERT OR IGNORE INTO readers (game_id, digest) VALUES (?, ?)"
_SAVE_TABLE = (
    "INSERT OR REPLACE INTO tables (name, capacity, rules, turn_timeout,"
    " creator, state, seats, game_id, updated, vacant_since, access, timing)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def frame(message: Any) -> bytes:
    """``message`` (JSON-able) as one frame of the wire: its length, then its JSON."""
    data = json.dumps(message, separators=(",", ":")).encode()
    return HEADER.pack(len(data)) + data


def key_of(op: list[Any]) -> tuple[str, Any]:
    """What write ``op`` writes to: ``("game", id)``, ``("analysis", id)``,
    ``("table", name)`` or ``("pragma", None)`` (:class:`Writer` says the ops)."""
    kind = op[0]
    if kind in ("g", "a"):
        return ("game", op[2])
    if kind == "y":
        return ("analysis", op[2])
    if kind in ("t", "d", "f"):
        return ("table", op[2])
    return ("pragma", None)


class Writer:
    """Runs batches of writes on the journal's connection ``db``, each batch
    in one transaction (:meth:`write`).

    The ops (JSON arrays, each with its ticket second):

    - ``["t", ticket, name, capacity, rules, turn_timeout, creator, state,
      seats, game_id, updated, vacant_since, access, timing]``: a table's row
      (``rules``, ``seats``, ``access``, ``timing`` as JSON texts);
    - ``["d", ticket, name]``: a table's row removed;
    - ``["g", ticket, game_id, table, players, rules, started, private,
      start, end, readers]``: a game opened (``players``, ``rules`` as JSON
      texts; ``private`` 1 for a private table's game, whose ``readers``, the
      SHA-256 digests in hex of the tokens that may read its record, protocol
      §7.3, are written with it), with log rows ``[start, end)`` of the batch;
    - ``["a", ticket, game_id, start, end, finished, result]``: log rows
      ``[start, end)`` appended, and with ``finished`` (seconds since the epoch)
      the game marked finished with ``result`` (a JSON text);
    - ``["y", ticket, game_id, seed, budget, analysis, made]``: game
      ``game_id``'s post-game analysis (``analysis``, a JSON text, judged with
      ``seed`` and ``budget``; ``made``, seconds since the epoch) stored, in
      place of one stored before (``docs/bots.md``, protocol §7.6);
    - ``["p", ticket, pages]``: the database capped at ``pages`` pages (SQLite
      ``max_page_count``: writes past it fail as on a full disk);
    - ``["f", ticket, name]``: table ``name``'s failed writes forgotten (its
      first row failed and it closed: the name is free again).

    Once a write to a game's log (or a table's row) fails, every later write
    to it fails too, so a log never has a gap.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.broken: dict[tuple[str, Any], str] = {}

    def write(self, ops: list[list[Any]], rows: str) -> list[list[Any]]:
        """Run the batch ``ops`` (with the log rows ``rows``, a JSON text) in
        one transaction; returns the writes that failed, ``[ticket, kind,
        key, reason]`` each, in ticket order. If the transaction fails, each
        write is tried in a transaction of its own, in order, to find them."""
        broken = self.broken
        if not any(op[0] in "pf" or key_of(op) in broken for op in ops):  # else: in order
            db = self.db
            try:
                db.execute("BEGIN")
                for op in ops:
                    self._op(op)
                if len(rows) > 2:  # not "[]"
                    db.execute(_INSERT_ROWS, (rows,))
                db.execute("COMMIT")
                return []
            except sqlite3.Error:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
        return self._one_by_one(ops, rows)

    def _one_by_one(self, ops: list[list[Any]], rows: str) -> list[list[Any]]:
        """Each write of a batch in its own transaction: the failed ones."""
        failed: list[list[Any]] = []
        db = self.db
        for op in ops:
            key = key_of(op)
            if op[0] == "f":
                self.broken.pop(key, None)
                continue
            if key in self.broken:
                failed.append([op[1], key[0], key[1], self.broken[key]])
                continue
            try:
                db.execute("BEGIN")
                self._op(op)
                span = _rows_of(op)
                if span is not None and span[0] < span[1]:
                    db.execute(_INSERT_SOME_ROWS, (rows, *span))
                db.execute("COMMIT")
            except sqlite3.Error as exc:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                self.broken[key] = reason = f"journal write failed: {exc}"
                failed.append([op[1], key[0], key[1], reason])
        return failed

    def _op(self, op: list[Any]) -> None:
        """Run ``op``'s statement (a log op's rows are inserted with the batch's)."""
        kind, db = op[0], self.db
        if kind == "a":
            if op[5] is not None:
                db.execute(
                    "UPDATE games SET finished = ?, result = ? WHERE id = ?", (op[5], op[6], op[2])
                )
        elif kind == "t":
            db.execute(_SAVE_TABLE, op[2:14])
        elif kind == "g":
            db.execute(_START_GAME, op[2:8])
            for digest in op[10]:
                db.execute(_ADD_READER, (op[2], bytes.fromhex(digest)))
        elif kind == "y":
            db.execute(_SAVE_ANALYSIS, op[2:7])
        elif kind == "d":
            db.execute("DELETE FROM tables WHERE name = ?", (op[2],))
        elif kind == "p":
            db.execute(f"PRAGMA max_page_count = {int(op[2])}")


def _rows_of(op: list[Any]) -> tuple[int, int] | None:
    """The span ``[start, end)`` of the batch's log rows that ``op`` writes, or None."""
    if op[0] == "g":
        return op[8], op[9]
    if op[0] == "a":
        return op[3], op[4]
    return None


class Checkpointer:
    """Keeps the write-ahead log of the database at ``path`` bounded: a thread
    of its own copies the log into the database every ``every`` seconds (a
    passive checkpoint, on its own connection, never blocks the writer), and
    past ``reset_frames`` frames asks the writer to start the log over
    (:meth:`catch_up`, on the writer's connection ``db``). Damage found by
    :attr:`look` is told to ``tell`` (one line for the operator)."""

    def __init__(
        self,
        path: Path,
        db: sqlite3.Connection,
        every: float,
        reset_frames: int,
        tell: Callable[[str], None],
    ):
        self.path = path
        self._db = db
        self._reset_frames = reset_frames
        self._tell = tell
        self._wal_full = False
        """Set by the thread: the log is long and checkpointed; the writer
        should start it over."""
        self._stop = threading.Event()
        self.look = threading.Event()
        """Set: look the whole file over for damage at the next checkpoint."""
        self._thread = threading.Thread(
            target=self._loop, args=(every,), name="journal-checkpoint", daemon=True
        )
        self._thread.start()

    def catch_up(self) -> None:
        """Let the write-ahead log start over once it is long; the writer calls
        it between batches, after answering the last.

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
        event loop (~0.5 s for 200 MB). Damage is told, naming ``craits-server
        check``; the server goes on (what cannot be read fails on its own,
        table by table)."""
        try:
            found = [str(row[0]) for row in db.execute("PRAGMA quick_check(5)").fetchall()]
        except sqlite3.Error as exc:
            found = [str(exc)]
        if found != ["ok"]:
            self._tell(
                f"journal {self.path} is damaged ({'; '.join(found)}); "
                "'craits-server check' says where"
            )

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        """One background checkpoint. Past ``reset_frames``, checkpoint
        again at once until a pass finds fewer than :data:`CATCH_UP_FRAMES`
        new frames (each pass copies what came in during the last), and only
        then ask the writer to catch up: so what it copies inline is a handful
        of frames whatever the write rate."""
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


def _top_game_id(db: sqlite3.Connection) -> int:
    """The highest game id ever given out (ids are never reused)."""
    (top,) = db.execute(
        "SELECT MAX(COALESCE((SELECT MAX(id) FROM games), 0),"
        " COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'games'), 0))"
    ).fetchone()
    return int(top)


def _add_columns(db: sqlite3.Connection) -> None:
    """Give a journal from before the abandon clock its ``vacant_since`` column,
    one from before private tables its ``access`` column (protocol §11.9), and
    one from before private games' readers its games' ``private`` column (its
    games stay public, as they were: protocol §7.3; the ``readers`` table is
    made by the schema, as the ``analyses`` table of one from before stored
    analyses)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
    if "vacant_since" not in columns:
        db.execute("ALTER TABLE tables ADD COLUMN vacant_since REAL")
    if "access" not in columns:
        db.execute("ALTER TABLE tables ADD COLUMN access TEXT")
    if "timing" not in columns:  # a journal from before time banks (protocol §11.10)
        db.execute("ALTER TABLE tables ADD COLUMN timing TEXT")
    if "private" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}:
        db.execute("ALTER TABLE games ADD COLUMN private INTEGER")


class _Wire:
    """The writer's end of the socket: frames read and written (a lock
    keeps the checkpoint thread's lines whole between the answers)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._file = sock.makefile("rb")
        self._lock = threading.Lock()

    def read_raw(self) -> bytes | None:
        """The next frame's body, or None at the end (the server is gone)."""
        head = self._file.read(HEADER.size)
        if len(head) < HEADER.size:
            return None
        size = HEADER.unpack(head)[0]
        body = self._file.read(size)
        return body if len(body) == size else None

    def read(self) -> Any:
        """The next message, or None at the end (the server is gone)."""
        body = self.read_raw()
        return None if body is None else json.loads(body)

    def send(self, message: Any) -> None:
        data = frame(message)
        with self._lock, contextlib.suppress(OSError):  # the server is gone: it exits next
            self.sock.sendall(data)


def _die_with_parent(parent: int) -> None:
    """Be killed when the server dies, however it dies (Linux; elsewhere the
    closed socket ends the writer at its next read)."""
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(0)


def serve(wire: _Wire, path: Path, durability: Durability, every: float, reset: int) -> int:
    """Open the journal at ``path``, answer the server's batches until it says
    ``close`` (or goes), fold the log into the database; returns the exit status."""
    try:
        db = open_for_writing(path, SCHEMA, durability, WAL_SIZE_LIMIT)
        try:
            _add_columns(db)
            top = _top_game_id(db)
        except sqlite3.Error as exc:
            db.close()
            raise as_journal_error(path, exc, "read") from None
    except JournalError as exc:
        wire.send(["error", type(exc).__name__, str(exc)])
        return 1
    checkpointer = Checkpointer(path, db, every, reset, lambda line: wire.send(["log", line]))
    writer = Writer(db)
    wire.send(["ready", top])
    try:
        while (message := wire.read()) is not None:
            if message[0] == "w":
                ops, rows = message[1], wire.read_raw()
                if rows is None:
                    break
                failed = writer.write(ops, rows.decode())
                wire.send(["a", ops[-1][1], failed])
                checkpointer.catch_up()
            elif message[0] == "look":
                checkpointer.look.set()
            elif message[0] == "close":
                break
    finally:
        checkpointer.stop()
        with contextlib.suppress(sqlite3.Error):
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
    return 0


class WriterLink:
    """The server's end of the writer: the process, started on the journal at
    ``path`` (holding the lock ``lock_fd`` with the server), and its socket.
    Frames go out in order; :meth:`receive` and :meth:`wait` read the answers.
    A batch is sent whole even on a non-blocking socket: what the socket does
    not take at once is written as it drains (``on_drain`` asks the server's
    loop to call :meth:`drain` when it can write).

    Raises:
        JournalError: the writer could not open the journal (of the kind it
            said: damaged, unwritable), or did not start.
    """

    def __init__(
        self, path: Path, lock_fd: int, durability: Durability, every: float, reset: int
    ) -> None:
        ours, theirs = socket.socketpair()
        command = [
            sys.executable,
            "-m",
            "craits.server.journal.writer",
            str(theirs.fileno()),
            str(os.getpid()),
            str(path),
            durability.value,
            repr(every),
            str(reset),
        ]
        try:
            self.proc = subprocess.Popen(
                command, pass_fds=(theirs.fileno(), lock_fd), stdin=subprocess.DEVNULL
            )
        except OSError as exc:
            ours.close()
            raise JournalError(f"cannot start the journal's writer: {exc}") from None
        finally:
            theirs.close()
        self.sock = ours
        self._in = bytearray()
        self._out = bytearray()
        self._parsed: list[Any] = []
        self.gone = False
        self.top = self._ready(path)

    def _ready(self, path: Path) -> int:
        """Wait for the writer to open the journal; returns the top game id."""
        message = self.wait()
        if message is not None and message[0] == "ready":
            return int(message[1])
        self.close()
        if message is None:
            raise JournalError(f"the journal's writer for {path} exited at start")
        kinds = (JournalDamaged, JournalUnwritable, JournalLocked)
        kind = next((k for k in kinds if k.__name__ == message[1]), JournalError)
        raise kind(message[2])

    def send(self, *frames: bytes) -> bool:
        """Send ``frames`` (after what waits); returns whether some wait for the
        socket to drain (non-blocking socket only)."""
        out = self._out
        for data in frames:
            out += data
        return self.drain()

    def drain(self) -> bool:
        """Write what waits, as far as the socket takes it; returns whether some still waits."""
        out = self._out
        while out:
            try:
                sent = self.sock.send(out)
            except BlockingIOError:
                return True
            except OSError:
                out.clear()
                self.gone = True
                return False
            del out[:sent]
        return False

    def receive(self) -> list[Any]:
        """The answers that have come (non-blocking socket); sets :attr:`gone`
        at the end of the stream."""
        while True:
            try:
                data = self.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                data = b""
            if not data:
                self.gone = True
                break
            self._in += data
            if len(data) < 65536:
                break
        self._parse()
        found, self._parsed = self._parsed, []
        return found

    def _parse(self) -> None:
        buf = self._in
        while len(buf) >= HEADER.size:
            size = HEADER.unpack_from(buf)[0]
            if len(buf) < HEADER.size + size:
                break
            self._parsed.append(json.loads(bytes(buf[HEADER.size : HEADER.size + size])))
            del buf[: HEADER.size + size]

    def wait(self) -> Any:
        """The next answer, waiting for it (the socket blocks meanwhile); None:
        the writer is gone."""
        blocking = self.sock.getblocking()
        self.sock.setblocking(True)
        try:
            while not self._parsed and not self.gone:
                if self._out:
                    self.drain()
                    continue
                data = self.sock.recv(65536)
                if not data:
                    self.gone = True
                self._in += data
                self._parse()
        except OSError:
            self.gone = True
        finally:
            self.sock.setblocking(blocking)
        return self._parsed.pop(0) if self._parsed else None

    def close(self, timeout: float = 30.0) -> int | None:
        """Tell the writer to fold the log into the database and exit; wait for
        it (killed after ``timeout`` s); returns its exit status."""
        if not self.gone:
            self.sock.setblocking(True)
            with contextlib.suppress(OSError):
                self.drain()
                self.sock.sendall(frame(["close"]))
        self.sock.close()
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def main(argv: list[str]) -> int:
    """``python -m craits.server.journal.writer FD PARENT PATH DURABILITY EVERY
    RESET``: the writer, started by :class:`craits.server.journal.journal.Journal`
    with its end of the socket as ``FD``."""
    fd, parent, path, durability, every, reset = argv
    _die_with_parent(int(parent))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which closes it
    wire = _Wire(socket.socket(fileno=int(fd)))
    return serve(wire, Path(path), Durability(durability), float(every), int(reset))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
