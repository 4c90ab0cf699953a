"""Two real servers on one account store (protocol §7.5, docs/cluster.md): a
name registered on one is taken on the other, and its key logs in on both.
On a real PostgreSQL started on a loopback port (``--accounts-db
postgresql://…``: a cluster's nodes), and on one SQLite file (``--accounts-db
FILE``: the workers of ``--workers``); PostgreSQL is skipped with the reason
printed where it cannot be started."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from craits.server.accounts.secrets import FOR_TESTS
from craits.server.app import Server, ServerConfig

from tests.accounts.conftest import fresh_postgres_dsn
from tests.server.net.signed import Device, devices, error


@pytest.fixture
async def target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where both servers' accounts are: a PostgreSQL URL or an SQLite file."""
    if backend == "sqlite":
        return str(tmp_path / "shared-accounts.db")
    return await fresh_postgres_dsn(request.getfixturevalue("postgres_server"))


@pytest.fixture
async def servers(target: str, tmp_path: Path) -> AsyncIterator[list[Server]]:
    started = []
    for i in range(2):
        config = ServerConfig(
            host="127.0.0.1",
            port=0,
            analyse_finished=0,  # no background analyses (their own tests turn them on)
            data_dir=tmp_path / f"node-{i}",
            accounts_db=target,
            account_hashing=FOR_TESTS,
            rate=100_000.0,
            burst=100_000.0,
        )
        assert config.data_dir is not None
        config.data_dir.mkdir()
        server = Server(config)
        await server.start()
        started.append(server)
    yield started
    for server in started:
        await server.stop()


async def test_a_name_is_one_account_on_every_server(servers: list[Server]) -> None:
    one, two = servers
    async for on_one in devices(one):
        async for on_two in devices(two):
            ana: Device = await on_one("Ana")
            assert (await ana.register("Ana"))["type"] == "registered"
            thief: Device = await on_two("x")
            error(await thief.register("ANA"), "name_registered")
            again: Device = await on_two("Ana", ana.key)
            assert (await again.login())["account"]["name"] == "Ana"
            # and the data directories hold no accounts.db of their own
            for server in servers:
                assert server.config.data_dir is not None
                assert not (server.config.data_dir / "accounts.db").exists()
