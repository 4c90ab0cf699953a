"""``craits-server leaderboard HOST:PORT`` as an operator runs it: a real
subprocess asking a real server (protocol §7.5), in lines and in JSON; an
address where nothing listens gives ``status``'s exit status."""

from __future__ import annotations

import asyncio
import json
from asyncio.subprocess import PIPE

from craits.protocol.identity import public_key_bytes
from craits.server.accounts.model import GameRecord, Seat
from craits.server.accounts.secrets import FOR_TESTS
from craits.server.app import Server, ServerConfig
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.support.processes import SERVER, free_port


async def run(*args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        *SERVER, "leaderboard", *args, stdout=PIPE, stderr=PIPE
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_leaderboard_of_a_running_server(config: ServerConfig) -> None:
    config.account_hashing = FOR_TESTS
    server = Server(config)
    await server.start()
    try:
        assert server.accounts.service is not None
        store, now = server.accounts.service.store, server.accounts.service.now()
        ids = []
        for name in ("Ana", "Ben"):
            key = public_key_bytes(Ed25519PrivateKey.generate())
            ids.append((await store.accounts.create(name, key, "laptop", now)).id)
        for i in range(22):  # Ben wins every game
            seats = (Seat("Ana", 2, 40, ids[0]), Seat("Ben", 1, 10, ids[1]))
            await store.results.record(GameRecord(f"g{i}", "t", False, True, now - 60 + i, seats))
        address = f"127.0.0.1:{server.port}"
        status, out, err = await run(address)
        assert status == 0, err
        rows = out.splitlines()
        assert rows[0].split() == ["rank", "rating", "games", "last", "game", "name"]
        assert [r.split()[0] for r in rows[1:]] == ["1", "2"]
        assert rows[1].endswith("Ben") and rows[2].endswith("Ana")
        status, out, err = await run(address, "--json", "--offset", "1", "--limit", "1")
        assert status == 0, err
        (line,) = json.loads(out)
        assert line["name"] == "Ana" and line["rank"] == 2 and line["games"] == 22
    finally:
        await server.stop()


async def test_nothing_listening_is_refused() -> None:
    status, out, err = await run(f"127.0.0.1:{free_port()}")
    assert status == 5 and out == ""
    assert "connection refused" in err
