"""The store's schema versions (docs/accounts.md, *Store*): a file or database
is migrated once, kept across reopening, extended by a later migration with its
data intact, and refused when a newer release made it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest
from craits.protocol.identity import public_key_bytes
from craits.server.accounts.database import SchemaTooNew, migrate
from craits.server.accounts.postgres import PostgresDatabase, open_postgres_store
from craits.server.accounts.schema import POSTGRES, SQLITE
from craits.server.accounts.sqlite import open_sqlite_store
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.accounts.conftest import fresh_postgres_dsn
from tests.accounts.postgres import PostgresServer

NEXT = ["ALTER TABLE accounts ADD COLUMN motto TEXT"]
"""A stand-in for the next release's migration."""


def key() -> bytes:
    return public_key_bytes(Ed25519PrivateKey.generate())


async def test_a_sqlite_file_keeps_its_accounts_across_reopening(tmp_path: Path) -> None:
    path = tmp_path / "accounts.db"
    store = await open_sqlite_store(path)
    assert await store.schema_version() == len(SQLITE)
    await store.accounts.create("ana", key(), "laptop", 1.0)
    await store.close()
    again = await open_sqlite_store(path)
    assert await again.schema_version() == len(SQLITE)
    account = await again.accounts.by_name("ANA")
    assert account is not None and account.name == "ana"
    await again.close()
    with sqlite3.connect(path) as c:
        assert c.execute("SELECT COUNT(*) FROM schema_migrations").fetchone() == (len(SQLITE),)


async def test_a_later_migration_extends_a_sqlite_file_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "accounts.db"
    store = await open_sqlite_store(path)
    await store.accounts.create("ana", key(), "laptop", 1.0)
    await store.close()
    from concurrent.futures import ThreadPoolExecutor

    from craits.server.accounts.sqlite import SqliteDatabase, connect_file

    pool = ThreadPoolExecutor(max_workers=1)
    db = SqliteDatabase(connect_file(path), pool)
    assert await migrate(db, [*SQLITE, NEXT]) == len(SQLITE) + 1
    assert await migrate(db, [*SQLITE, NEXT]) == len(SQLITE) + 1  # once only
    row = await db.fetchrow("SELECT name, motto FROM accounts")
    assert row is not None and (row["name"], row["motto"]) == ("ana", None)
    await db.close()
    with pytest.raises(SchemaTooNew, match="newer release"):  # this release, a newer file
        await open_sqlite_store(path)


async def test_a_sqlite_file_from_a_newer_release_is_not_touched(tmp_path: Path) -> None:
    path = tmp_path / "accounts.db"
    await (await open_sqlite_store(path)).close()
    with sqlite3.connect(path) as c:
        c.execute("INSERT INTO schema_migrations VALUES (99, 0)")
    before = path.read_bytes()
    with pytest.raises(SchemaTooNew):
        await open_sqlite_store(path)
    assert path.read_bytes() == before


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "accounts.db"
    path.write_bytes(b"not a database, just text" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        await open_sqlite_store(path)


async def test_postgres_is_migrated_once_even_by_nodes_starting_together(
    postgres_server: PostgresServer,
) -> None:
    dsn = await fresh_postgres_dsn(postgres_server)
    stores = await asyncio.gather(*(open_postgres_store(dsn) for _ in range(4)))
    assert [await s.schema_version() for s in stores] == [len(POSTGRES)] * 4
    await stores[0].accounts.create("ana", key(), "laptop", 1.0)
    assert await stores[3].accounts.by_name("Ana") is not None  # one shared database
    for s in stores:
        await s.close()
    pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)
    db = PostgresDatabase(pool)
    assert await migrate(db, [*POSTGRES, NEXT]) == len(POSTGRES) + 1
    assert await db.fetchrow("SELECT motto FROM accounts") is not None
    await db.close()
    with pytest.raises(SchemaTooNew):
        await open_postgres_store(dsn)
