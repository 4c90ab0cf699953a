"""The account store in one SQLite file: a single server's accounts
(docs/accounts.md, *Store*), ``accounts.db`` in its data directory.

Every statement runs in the store's own worker thread (one thread, one
connection), so the event loop never waits on the disk; an :class:`asyncio.Lock`
keeps a transaction's statements together. The file is in WAL mode with
``synchronous=NORMAL`` (a power cut may lose the last commits, never corrupt the
file) and foreign keys on.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from .database import Conflict, Executor, Row, migrate
from .schema import SQLITE
from .store import AccountStore

FILE_NAME = "accounts.db"
"""The store's file in the server's data directory."""

T = TypeVar("T")

_PLACEHOLDER = re.compile(r"\$(\d+)")


def _sqlite(sql: str) -> str:
    return _PLACEHOLDER.sub(r"?\1", sql)


class _Statements:
    """Statements on the connection, each run in the worker thread."""

    def __init__(self, connection: sqlite3.Connection, pool: ThreadPoolExecutor) -> None:
        self._connection = connection
        self._pool = pool

    async def _run(self, work: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, work)
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" in str(exc) or "PRIMARY KEY" in str(exc):
                raise Conflict(str(exc)) from exc
            raise

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        c = self._connection
        return await self._run(lambda: list(c.execute(_sqlite(sql), args).fetchall()))

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        c = self._connection
        # every row is read: a RETURNING statement left half-stepped would keep
        # its write (and the file's lock) pending
        rows: list[Row] = await self._run(lambda: c.execute(_sqlite(sql), args).fetchall())
        return rows[0] if rows else None

    async def execute(self, sql: str, *args: object) -> None:
        c = self._connection
        await self._run(lambda: c.execute(_sqlite(sql), args))

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        c, batch = self._connection, list(rows)
        await self._run(lambda: c.executemany(_sqlite(sql), batch))


class SqliteDatabase:
    """One SQLite file behind :class:`~.database.Database`.

    Use :func:`open_sqlite_store`; this opens nothing itself.
    """

    dialect = "sqlite"

    def __init__(self, connection: sqlite3.Connection, pool: ThreadPoolExecutor) -> None:
        self._connection = connection
        self._pool = pool
        self._statements = _Statements(connection, pool)
        self._lock = asyncio.Lock()

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        async with self._lock:
            return await self._statements.fetch(sql, *args)

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        async with self._lock:
            return await self._statements.fetchrow(sql, *args)

    async def execute(self, sql: str, *args: object) -> None:
        async with self._lock:
            await self._statements.execute(sql, *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        async with self._lock:
            await self._statements.executemany(sql, rows)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._lock:
            await self._statements.execute("BEGIN IMMEDIATE")
            try:
                yield self._statements
            except BaseException:
                await asyncio.shield(self._statements.execute("ROLLBACK"))
                raise
            await self._statements.execute("COMMIT")

    async def lock_schema(self, tx: Executor) -> None:
        """Nothing more to do: ``BEGIN IMMEDIATE`` holds the file's write lock."""

    async def close(self) -> None:
        async with self._lock:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._pool, self._connection.close)
        self._pool.shutdown(wait=True)


def connect_file(path: Path) -> sqlite3.Connection:
    """A connection to the file for the store's worker thread (rows by name, WAL,
    foreign keys); call it in that thread."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.execute("PRAGMA busy_timeout=10000")
    return connection


async def open_sqlite_store(path: Path) -> AccountStore:
    """The store in the SQLite file ``path`` (made if missing), migrated to the
    newest schema.

    Args:
        path: the file, normally ``<data directory>/accounts.db``; its directory
            must exist.

    Raises:
        SchemaTooNew: the file was made by a newer release.
        sqlite3.DatabaseError: the file is not an SQLite database.
        OSError: it cannot be opened.
    """
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="accounts-sqlite")
    loop = asyncio.get_running_loop()
    try:
        connection = await loop.run_in_executor(pool, connect_file, path)
    except BaseException:
        pool.shutdown(wait=False)
        raise
    db = SqliteDatabase(connection, pool)
    try:
        await migrate(db, SQLITE)
    except BaseException:
        await db.close()
        raise
    return AccountStore(db)
