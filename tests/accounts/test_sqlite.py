"""The SQLite store keeps the event loop free: every statement runs in its worker
thread (docs/accounts.md, *Store*)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from craits.server.accounts.database import migrate
from craits.server.accounts.schema import SQLITE
from craits.server.accounts.sqlite import SqliteDatabase, connect_file


async def test_every_statement_runs_off_the_loop(tmp_path: Path) -> None:
    pool = ThreadPoolExecutor(max_workers=1)
    connection = await asyncio.get_running_loop().run_in_executor(
        pool, connect_file, tmp_path / "accounts.db"
    )
    # SQLite calls this function in the thread that runs the statement
    connection.create_function("runner", 0, threading.get_ident)
    db = SqliteDatabase(connection, pool)
    await migrate(db, SQLITE)
    loop_thread = threading.get_ident()
    row = await db.fetchrow("SELECT runner() AS t")
    assert row is not None and row["t"] != loop_thread
    async with db.transaction() as tx:
        inside = await tx.fetchrow("SELECT runner() AS t")
    assert inside is not None and inside["t"] == row["t"]
    await db.close()


async def test_transactions_do_not_interleave(tmp_path: Path) -> None:
    """Two coroutines each read-then-write a counter in a transaction: with the
    statements of one transaction kept together, none of the increments is lost."""
    pool = ThreadPoolExecutor(max_workers=1)
    connection = await asyncio.get_running_loop().run_in_executor(
        pool, connect_file, tmp_path / "accounts.db"
    )
    db = SqliteDatabase(connection, pool)
    await db.execute("CREATE TABLE counter (n INTEGER NOT NULL)")
    await db.execute("INSERT INTO counter VALUES (0)")

    async def bump() -> None:
        for _ in range(20):
            async with db.transaction() as tx:
                row = await tx.fetchrow("SELECT n FROM counter")
                assert row is not None
                await asyncio.sleep(0)  # let the other coroutine try to step in
                await tx.execute("UPDATE counter SET n = $1", row["n"] + 1)

    await asyncio.gather(bump(), bump(), bump())
    final = await db.fetchrow("SELECT n FROM counter")
    assert final is not None and final["n"] == 60
    await db.close()


async def test_a_failed_transaction_leaves_nothing(tmp_path: Path) -> None:
    pool = ThreadPoolExecutor(max_workers=1)
    connection = await asyncio.get_running_loop().run_in_executor(
        pool, connect_file, tmp_path / "accounts.db"
    )
    db = SqliteDatabase(connection, pool)
    await db.execute("CREATE TABLE t (n INTEGER NOT NULL)")
    try:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO t VALUES (1)")
            raise RuntimeError("halfway")
    except RuntimeError:
        pass
    assert await db.fetch("SELECT n FROM t") == []
    await db.execute("INSERT INTO t VALUES (2)")  # the connection is usable again
    assert [r["n"] for r in await db.fetch("SELECT n FROM t")] == [2]
    await db.close()
