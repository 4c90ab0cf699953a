"""The account store on both databases: every contract test runs against a real
SQLite file and a real PostgreSQL (skipped, with the reason printed, where
PostgreSQL cannot be started)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from craits.server.accounts.secrets import FOR_TESTS, SecretHasher
from craits.server.accounts.store import AccountStore

from tests.accounts.postgres import PostgresServer, why_not

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (each test gets its own database)."""
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    server = PostgresServer()
    try:
        server.start()
    except OSError as exc:
        server.stop()
        pytest.skip(f"PostgreSQL did not start: {exc}")
    yield server
    server.stop()


async def fresh_postgres_dsn(server: PostgresServer) -> str:
    """A new, empty database on ``server``; its connection string."""
    import asyncpg

    name = f"accounts_{next(_databases)}"
    connection = await asyncpg.connect(server.dsn())
    try:
        await connection.execute(f"CREATE DATABASE {name}")
    finally:
        await connection.close()
    return server.dsn(name)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the test's store is on."""
    return str(request.param)


@pytest.fixture
async def store(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[AccountStore]:
    """A fresh, migrated store on ``backend``."""
    if backend == "sqlite":
        from craits.server.accounts.sqlite import open_sqlite_store

        opened = await open_sqlite_store(tmp_path / "accounts.db")
    else:
        from craits.server.accounts.postgres import open_postgres_store

        server = request.getfixturevalue("postgres_server")
        opened = await open_postgres_store(await fresh_postgres_dsn(server))
    yield opened
    await opened.close()


@pytest.fixture
def hasher() -> SecretHasher:
    """argon2id at the tests' parameters (never the server's)."""
    return SecretHasher(FOR_TESTS)
