"""The account store in PostgreSQL: a cluster's shared accounts
(docs/accounts.md, *Store*; docs/cluster.md says why PostgreSQL).

Every node of a cluster opens the same database through a small asyncpg pool;
uniqueness (names, device keys, game ids) is the database's, so two nodes
registering one name at once get one account and one :class:`~.database.Conflict`.
Concurrent migrations wait on an advisory lock.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, cast

import asyncpg

from .database import Conflict, Executor, Row, migrate
from .schema import POSTGRES
from .store import AccountStore

MIGRATION_LOCK = 0x63726169  # "crai": pg_advisory_xact_lock's key for the schema
"""The advisory lock's key while the schema is migrated."""


class _Statements:
    """Statements on one connection (or, outside a transaction, on the pool)."""

    def __init__(self, target: Any) -> None:
        self._target = target

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        try:
            return cast(list[Row], await self._target.fetch(sql, *args))
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        try:
            return cast(Row | None, await self._target.fetchrow(sql, *args))
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc

    async def execute(self, sql: str, *args: object) -> None:
        try:
            await self._target.execute(sql, *args)
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            await self._target.executemany(sql, list(rows))
        except asyncpg.UniqueViolationError as exc:
            raise _conflict(exc) from exc


def _conflict(exc: asyncpg.UniqueViolationError) -> Conflict:
    """The constraint's name first (``accounts_canonical_key``...): the store reads it."""
    return Conflict(f"{exc.constraint_name}: {exc}")


class PostgresDatabase(_Statements):
    """An asyncpg pool behind :class:`~.database.Database`.

    Use :func:`open_postgres_store`; this opens nothing itself.
    """

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__(pool)
        self._pool = pool

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Executor]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _Statements(connection)

    async def lock_schema(self, tx: Executor) -> None:
        """Hold the migration's advisory lock until ``tx`` ends."""
        await tx.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)

    async def close(self) -> None:
        await self._pool.close()


async def open_postgres_store(dsn: str, *, min_size: int = 1, max_size: int = 8) -> AccountStore:
    """The store in the PostgreSQL database ``dsn``, migrated to the newest schema.

    Args:
        dsn: ``postgresql://user[:password]@host[:port]/database`` (a secret when
            it holds a password: never log it).
        min_size, max_size: the pool's connections.

    Raises:
        SchemaTooNew: the database was made by a newer release.
        OSError, asyncpg.PostgresError: it cannot be reached or used.
    """
    pool = await asyncpg.create_pool(dsn, min_size=min_size, max_size=max_size)
    db = PostgresDatabase(pool)
    try:
        await migrate(db, POSTGRES)
    except BaseException:
        await db.close()
        raise
    return AccountStore(db)
