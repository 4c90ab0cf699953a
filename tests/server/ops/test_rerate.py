"""``craits-server rerate`` as an operator runs it (a real subprocess, a real
accounts.db): the ratings spoilt in the file are recomputed from its rated
games; with no accounts there it says so."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

from craits.protocol.identity import public_key_bytes
from craits.server.accounts.model import GameRecord, Seat
from craits.server.accounts.sqlite import FILE_NAME, open_sqlite_store
from craits.server.accounts.store import AccountStore
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.support.processes import SERVER

NOW = 1_800_000_000.0


async def _filled(path: Path) -> tuple[dict[int, tuple[float, float, int]], list[int]]:
    """A store with three accounts and four rated games; their ratings."""
    store: AccountStore = await open_sqlite_store(path)
    try:
        ids = []
        for name in ("ana", "bea", "cy"):
            key = public_key_bytes(Ed25519PrivateKey.generate())
            ids.append((await store.accounts.create(name, key, "laptop", NOW)).id)
        a, b, c = ids
        for i, (x, y, z) in enumerate([(a, b, c), (b, c, a), (c, a, b), (a, c, b)]):
            seats = (Seat("x", 1, 5, x), Seat("y", 2, 9, y), Seat("z", 3, 20, z))
            await store.results.record(GameRecord(f"g{i}", "t", False, True, NOW + i, seats))
        ratings = await store.results.ratings(ids)
        return {k: (r.mu, r.sigma, r.games) for k, r in ratings.items()}, ids
    finally:
        await store.close()


async def _spoil(path: Path) -> None:
    store = await open_sqlite_store(path)
    try:
        await store._db.execute("UPDATE ratings SET mu = 10, sigma = 1, games = 99")
    finally:
        await store.close()


async def _ratings(path: Path, ids: list[int]) -> dict[int, tuple[float, float, int]]:
    store = await open_sqlite_store(path)
    try:
        ratings = await store.results.ratings(ids)
        return {k: (r.mu, r.sigma, r.games) for k, r in ratings.items()}
    finally:
        await store.close()


def test_rerate_recomputes_the_ratings_in_the_data_directory(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    before, ids = asyncio.run(_filled(path))
    asyncio.run(_spoil(path))
    assert asyncio.run(_ratings(path, ids)) != before
    run = subprocess.run(
        [*SERVER, "rerate", "--data-dir", str(tmp_path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "4 rated games replayed" in run.stdout
    assert asyncio.run(_ratings(path, ids)) == before


def test_rerate_without_accounts_says_so(tmp_path: Path) -> None:
    run = subprocess.run(
        [*SERVER, "rerate", "--data-dir", str(tmp_path)], capture_output=True, text=True
    )
    assert run.returncode == 1
    assert f"no accounts at {tmp_path / FILE_NAME}" in run.stderr
    assert not (tmp_path / FILE_NAME).exists()
