"""The journal's file: claiming it for one server, opening it as that server's
writer, and telling a damaged journal from one that cannot be written.

The server's writer takes the database file itself: it opens ``craits.db``
(creating it owner-only if it is missing, and changing the permissions of no
file it did not create), takes an exclusive ``flock`` on it (held until
:func:`release`; a second server on the same file is refused, whatever
happens to the files beside it), and makes one real write, so a journal it
cannot write (a read-only file, directory or file system, a full disk) stops
it at start with a message that says which.

``flock`` locks and SQLite's own (POSIX ``fcntl``) locks do not interact on
Linux, so readers such as ``craits-server export`` and ``check`` keep working
beside a running server.

The errors are :class:`JournalError` and its kinds: :class:`JournalDamaged`
(SQLite finds the file malformed, or not a database),
:class:`JournalUnwritable` (it cannot be written) and :class:`JournalLocked`
(another server holds it).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
import time
from enum import StrEnum
from pathlib import Path

from ..errors import JournalDamaged, JournalError, JournalLocked, JournalUnwritable

JOURNAL_FORMAT = 1
"""The journal's format, kept in SQLite's ``user_version``; written at every
start (the write that proves the journal writable)."""
PID_NOTE = "craits.lock"
"""The file beside the database that names the pid of the server holding it
(only a note for the message a second server gets: the lock is on the
database file itself)."""
_DAMAGE = frozenset({11, 26})
"""SQLite's primary result codes of a damaged file: SQLITE_CORRUPT, SQLITE_NOTADB."""
_NOT_WRITABLE = frozenset({3, 8, 10, 13, 14})
"""SQLite's primary result codes of a file it cannot write: SQLITE_PERM,
SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN."""
_READ_ONLY_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS})


class Durability(StrEnum):
    """When an acknowledged step is on the disk (``--durability``, SQLite's
    ``synchronous`` in WAL mode)."""

    FULL = "full"
    """Each commit (one per batch of writes, :mod:`craits.server.journal.writer`)
    is fsynced before the messages that wait on it go out: an acknowledged
    step survives a power cut or a crash of the machine."""
    NORMAL = "normal"
    """Commits are written, and fsynced only at checkpoints (about every
    second): an acknowledged step survives the server being killed, but a
    power cut can lose the last second or so."""


def is_damage(exc: sqlite3.Error) -> bool:
    """Whether SQLite's error says the file is damaged (corrupt, or not a database)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _DAMAGE


def as_journal_error(path: Path, exc: sqlite3.Error | OSError, doing: str) -> JournalError:
    """The :class:`JournalError` of the right kind for ``exc``, raised while
    ``doing`` (e.g. ``"open"``) the journal at ``path``."""
    if isinstance(exc, OSError):
        reason = exc.strerror or str(exc)
        if exc.errno in _READ_ONLY_ERRNOS:
            return JournalUnwritable(f"cannot write the journal {path}: {reason}")
        return JournalError(f"cannot {doing} the journal {path}: {reason}")
    if is_damage(exc):
        return JournalDamaged(f"the journal {path} is damaged ({exc})")
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in _NOT_WRITABLE:
        where = f" (is the data directory {path.parent} writable?)" if code & 0xFF == 14 else ""
        return JournalUnwritable(f"cannot write the journal {path}: {exc}{where}")
    return JournalError(f"cannot {doing} the journal {path}: {exc}")


CLAIM_WAIT = 2.0
"""Seconds a server waits for the lock before it says another holds it: the
journal's writer process of a server that was just killed holds it until the
kernel has ended it too (:mod:`craits.server.journal.writer`), a few
milliseconds."""


def claim(path: Path, wait: float = CLAIM_WAIT) -> int:
    """Open the database file at ``path`` (creating it, and its directory,
    owner-only if missing) and take an exclusive lock on it, waiting up to
    ``wait`` seconds for it; returns the file descriptor that holds the lock
    (:func:`release` lets it go).

    Raises:
        JournalUnwritable: the file (or, to create it, its directory) cannot be written.
        JournalLocked: another server holds it (the message names its pid).
        JournalError: another failure to open it.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, created = _open_or_create(path)
    except OSError as exc:
        raise as_journal_error(path, exc, "open") from None
    if not _lock(fd, wait):
        os.close(fd)
        raise JournalLocked(
            f"another craits-server (pid {_holder(path)}) is using the journal in "
            f"{path.parent}; stop it, or give this one its own --data-dir"
        ) from None
    if created:
        _sync_directory(path.parent)  # the new file's name survives a power cut
    with contextlib.suppress(OSError):  # only a note: a read-only directory is found below
        (path.parent / PID_NOTE).write_text(str(os.getpid()))
    return fd


def _lock(fd: int, wait: float) -> bool:
    """Take the exclusive lock on ``fd``, trying for up to ``wait`` seconds."""
    give_up = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            if time.monotonic() >= give_up:
                return False
            time.sleep(0.02)


def _open_or_create(path: Path) -> tuple[int, bool]:
    """The file opened for reading and writing, and whether it was created
    (owner-only: mode 0600; an existing file keeps its mode)."""
    flags = os.O_RDWR | os.O_CLOEXEC
    try:
        return os.open(path, flags), False
    except FileNotFoundError:
        return os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600), True


def _sync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _holder(path: Path) -> str:
    """The pid the note beside the journal names, or ``?``."""
    try:
        return (path.parent / PID_NOTE).read_text().strip() or "?"
    except OSError:
        return "?"


def release(fd: int) -> None:
    """Let the journal go: close the descriptor :func:`claim` returned (after
    every SQLite connection to the file is closed)."""
    with contextlib.suppress(OSError):
        os.close(fd)


def open_for_writing(
    path: Path, schema: str, durability: Durability, wal_size_limit: int
) -> sqlite3.Connection:
    """Open the claimed database at ``path`` as the server's writer: WAL mode,
    ``synchronous`` as ``durability`` says, no automatic checkpoints (a thread
    does them, :class:`craits.server.journal.journal.Checkpointer`), the log cut back
    to ``wal_size_limit`` bytes when it starts over; creates ``schema``; and
    writes the journal's format, so a journal that cannot be written is
    found now.

    Raises:
        JournalUnwritable: it cannot be written.
        JournalDamaged: it is damaged.
        JournalError: another failure.
    """
    db = None
    try:
        db = sqlite3.connect(str(path), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={durability.upper()}")
        # Checkpoints (which fsync) run in a thread of their own, never
        # inline in a commit on the event loop.
        db.execute("PRAGMA wal_autocheckpoint=0")
        # a log started over is cut back to this size (bytes)
        db.execute(f"PRAGMA journal_size_limit={int(wal_size_limit)}")
        db.executescript(schema)
        db.execute(f"PRAGMA user_version={JOURNAL_FORMAT}")
    except sqlite3.Error as exc:
        if db is not None:
            db.close()
        raise as_journal_error(path, exc, "open") from None
    return db
