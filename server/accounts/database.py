"""What the account store needs of a database, and its schema's migrations
(docs/accounts.md, *Store*).

The store's queries are written once, in PostgreSQL's placeholder style (``$1``,
``$2``…), against :class:`Database`; each dialect adapts them (SQLite reads
``$1`` as its own numbered ``?1``). A dialect turns a broken uniqueness
constraint into :class:`Conflict`, so the store tells "name taken" the same way
on both.

:func:`migrate` brings a database to the newest schema: the versions applied
are rows of ``schema_migrations``; each missing one runs in its own
transaction, with its row. A database newer than this code is refused
(:class:`SchemaTooNew`), never written to.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol


class Conflict(Exception):
    """A write broke a uniqueness constraint (the row exists already)."""


class SchemaTooNew(Exception):
    """The database was made by a newer release: this one will not touch it."""


class Row(Protocol):
    """A result row: its columns by name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: str, /) -> Any: ...


class Executor(Protocol):
    """Runs statements (``$n`` placeholders) and returns rows."""

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        """Every row of a query."""
        ...

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        """The first row of a query, or None."""
        ...

    async def execute(self, sql: str, *args: object) -> None:
        """A statement whose rows are not wanted.

        Raises:
            Conflict: it broke a uniqueness constraint.
        """
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """One statement for each argument tuple of ``rows``.

        Raises:
            Conflict: as :meth:`execute`.
        """
        ...


class Database(Executor, Protocol):
    """A database: statements one by one (each its own transaction), or several in one."""

    dialect: str
    """``sqlite`` or ``postgres``: which migrations apply."""

    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """A transaction: committed when the block ends, rolled back if it raises."""
        ...

    async def lock_schema(self, tx: Executor) -> None:
        """Within ``tx``, keep other processes from migrating at the same time."""
        ...

    async def close(self) -> None:
        """Close it (the store is unusable afterwards)."""
        ...


async def migrate(db: Database, migrations: Sequence[Sequence[str]]) -> int:
    """Apply the migrations ``db`` lacks; ``migrations[i]`` makes version ``i + 1``.

    Returns:
        The schema version now.

    Raises:
        SchemaTooNew: the database has a version this code does not know.
    """
    while True:
        async with db.transaction() as tx:
            # the lock first: two PostgreSQL nodes creating the table at once collide
            await db.lock_schema(tx)
            await tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations"
                " (version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            row = await tx.fetchrow("SELECT MAX(version) AS v FROM schema_migrations")
            current = int(row["v"]) if row is not None and row["v"] is not None else 0
            if current > len(migrations):
                raise SchemaTooNew(
                    f"the accounts database is at schema {current}; this release knows "
                    f"up to {len(migrations)}: run the newer release, or restore a backup"
                )
            if current == len(migrations):
                return current
            for statement in migrations[current]:
                await tx.execute(statement)
            await tx.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                current + 1,
                time.time(),
            )
