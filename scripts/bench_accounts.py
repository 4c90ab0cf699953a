#!/usr/bin/env python3
"""The account store's costs at scale (issue 26, docs/accounts.md):

* a rating update for an 8-player game (``rate_game``), microseconds;
* the leaderboard's first page and a history page (50 games), through the
  async store, with ``--players`` accounts and ``--games`` recorded games of 4
  seats (defaults 100,000 and 1,000,000), on SQLite and, with ``--postgres``,
  on a throwaway PostgreSQL (initdb/pg_ctl, as the tests start it).

The databases are filled in bulk (SQL straight to the schema the store made),
not game by game: the figures are the queries', not the filling's.

    python scripts/bench_accounts.py [--players N] [--games N] [--postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from craits.server.accounts.ratings import Rating, Standing, rate_game
from craits.server.accounts.sqlite import open_sqlite_store
from craits.server.accounts.store import AccountStore

NOW = 1_800_000_000.0
DAY = 86400.0
SEATS = 4


def bench_rating(runs: int = 2000) -> float:
    """Mean microseconds of one 8-player rating update."""
    rng = random.Random(1)
    ratings = {a: Rating(mu=rng.uniform(15, 35), sigma=rng.uniform(2, 8)) for a in range(8)}
    order = list(range(8))
    start = time.perf_counter()
    for _ in range(runs):
        rng.shuffle(order)
        rate_game(ratings, [Standing(a, place + 1) for place, a in enumerate(order)])
    return (time.perf_counter() - start) / runs * 1e6


def rows(players: int, games: int) -> Iterator[tuple[str, tuple[object, ...]]]:
    """The bulk rows: accounts, ratings, games, seats (deterministic)."""
    rng = random.Random(2)
    for a in range(1, players + 1):
        yield "account", (a, f"player{a}", f"player{a}", NOW - 400 * DAY)
        yield "rating", (a, rng.gauss(25, 4), rng.uniform(2.5, 8.3), rng.randint(0, 80),
                         rng.randint(0, 80), NOW - rng.uniform(0, 60) * DAY)  # fmt: skip
    for g in range(1, games + 1):
        at = NOW - (games - g) * 30.0
        yield "game", (g, f"g{g}", f"table{g % 500}", int(g % 10 == 0), 1, at)
        for seat, a in enumerate(rng.sample(range(1, players + 1), SEATS)):
            yield "seat", (g, seat, a, f"player{a}", seat + 1, rng.randint(0, 150), 0,
                           25.0, 8.0, 25.5, 7.9)  # fmt: skip


SQL = {
    "account": "INSERT INTO accounts (id, name, canonical, created_at) VALUES ($1, $2, $3, $4)",
    "rating": "INSERT INTO ratings (account_id, mu, sigma, games, completed, last_game_at)"
    " VALUES ($1, $2, $3, $4, $5, $6)",
    "game": "INSERT INTO games (seq, game_id, table_name, private, rated, finished_at)"
    " VALUES ($1, $2, $3, $4, $5, $6)",
    "seat": "INSERT INTO game_players (seq, seat, account_id, name, place, points, left_game,"
    " mu_before, sigma_before, mu_after, sigma_after)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
}


def batches(
    players: int, games: int, size: int = 50_000
) -> Iterator[dict[str, list[tuple[object, ...]]]]:
    """The rows in batches, by table."""
    batch: dict[str, list[tuple[object, ...]]] = {k: [] for k in SQL}
    count = 0
    for kind, row in rows(players, games):
        batch[kind].append(row)
        count += 1
        if count >= size:
            yield batch
            batch, count = {k: [] for k in SQL}, 0
    yield batch


def fill_sqlite(path: Path, players: int, games: int) -> None:
    """Bulk rows into the migrated file."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA synchronous=OFF")
    connection.execute("BEGIN")
    for batch in batches(players, games):
        for kind, sql in SQL.items():
            if batch[kind]:
                connection.executemany(sql.replace("$", "?"), batch[kind])
    connection.execute("COMMIT")
    connection.execute("ANALYZE")
    connection.close()


async def fill_postgres(dsn: str, players: int, games: int) -> None:
    """Bulk rows into the migrated database (COPY)."""
    import asyncpg

    tables = {
        "account": ("accounts", ["id", "name", "canonical", "created_at"]),
        "rating": ("ratings", ["account_id", "mu", "sigma", "games", "completed", "last_game_at"]),
        "game": ("games", ["seq", "game_id", "table_name", "private", "rated", "finished_at"]),
        "seat": (
            "game_players",
            [
                "seq",
                "seat",
                "account_id",
                "name",
                "place",
                "points",
                "left_game",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
            ],
        ),
    }
    connection = await asyncpg.connect(dsn)
    for batch in batches(players, games):
        for kind, (table, columns) in tables.items():
            if batch[kind]:
                await connection.copy_records_to_table(table, records=batch[kind], columns=columns)
    await connection.execute("ANALYZE")
    await connection.close()


async def timed(call: Callable[[], Awaitable[object]], runs: int = 30) -> tuple[float, float]:
    """Median and worst milliseconds of ``runs`` calls (after one warm-up)."""
    await call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


async def bench_store(store: AccountStore, players: int) -> dict[str, tuple[float, float]]:
    """The queries' median and worst milliseconds."""
    rng = random.Random(3)
    results = store.results
    figures = {
        "leaderboard, first 100": await timed(lambda: results.leaderboard(NOW, limit=100)),
        "leaderboard, lines 1000-1099": await timed(
            lambda: results.leaderboard(NOW, limit=100, offset=1000)
        ),
        "history, newest 50 (random players)": await timed(
            lambda: results.history(rng.randint(1, players), limit=50)
        ),
    }
    page = await results.history(1, limit=20)
    cursor = page[-1].cursor if page else None
    figures["history, second page of 50"] = await timed(
        lambda: results.history(1, limit=50, before=cursor)
    )
    figures["ratings of 8 accounts"] = await timed(
        lambda: results.ratings(rng.sample(range(1, players + 1), 8))
    )
    return figures


def report(name: str, figures: dict[str, tuple[float, float]]) -> None:
    """Print one database's figures."""
    for what, (median, worst) in figures.items():
        print(f"{name} | {what} | {median:.2f} ms median | {worst:.2f} ms worst")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--postgres", action="store_true", help="also on a throwaway PostgreSQL")
    args = parser.parse_args()
    print(f"rating update, 8 players: {bench_rating():.0f} µs")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "accounts.db"
        await (await open_sqlite_store(path)).close()
        start = time.perf_counter()
        fill_sqlite(path, args.players, args.games)
        print(f"SQLite filled: {args.players} players, {args.games} games "
              f"in {time.perf_counter() - start:.0f} s")  # fmt: skip
        store = await open_sqlite_store(path)
        report("SQLite", await bench_store(store, args.players))
        await store.close()
    if args.postgres:
        await bench_postgres(args.players, args.games)


async def bench_postgres(players: int, games: int) -> None:
    """The same on a throwaway PostgreSQL server."""
    from craits.server.accounts.postgres import open_postgres_store

    from tests.accounts.postgres import PostgresServer, why_not

    reason = why_not()
    if reason is not None:
        print(f"PostgreSQL skipped: {reason}")
        return
    server = PostgresServer()
    server.start()
    try:
        store = await open_postgres_store(server.dsn())
        await store.close()
        start = time.perf_counter()
        await fill_postgres(server.dsn(), players, games)
        print(f"PostgreSQL filled in {time.perf_counter() - start:.0f} s")
        store = await open_postgres_store(server.dsn())
        report("PostgreSQL", await bench_store(store, players))
        await store.close()
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
