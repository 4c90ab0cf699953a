"""``craits-server --workers 2``: two nodes behind one port, with a Redis the
server starts itself (docs/cluster.md). Connections to the one port land on
either worker; every one lists the table, and a request for it that lands on
the other worker is redirected to the one that holds it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from craits.protocol.client import Connection
from craits.protocol.redirect import request
from craits.server.cluster.workers import find_redis

from tests.server.processes import SERVER, free_port, stop_server


async def test_two_workers_behind_one_port_are_one_server(tmp_path: Path) -> None:
    if find_redis() is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        *SERVER,
        *("--workers", "2", "--port", str(port), "--data-dir", str(tmp_path)),
        *("--cluster-heartbeat", "0.25", "--rate", "100000", "--burst", "100000"),
        stderr=asyncio.subprocess.DEVNULL,
    )
    opened: list[Connection] = []

    async def opener(host: str, p: int) -> Connection:
        conn = await Connection.open(host, p, name="Eve")
        opened.append(conn)
        return conn

    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                ana = await opener("127.0.0.1", port)
                break
            except Exception:
                if time.monotonic() > deadline or proc.returncode is not None:
                    raise
                await asyncio.sleep(0.1)
        await ana.send({"type": "create_table", "name": "both", "seats": 2})
        assert (await ana.recv())["type"] == "table_created"

        # every connection to the one port lists it, whichever worker it reached
        # (once the worker that holds it has told the other)
        redirects = 0
        for _ in range(20):
            eve = await opener("127.0.0.1", port)
            while True:
                await eve.send({"type": "list_tables"})
                listed = await eve.recv()
                if [t["name"] for t in listed["tables"]] == ["both"]:
                    break
                assert time.monotonic() < deadline + 10, listed
                await asyncio.sleep(0.05)
            landed, answer = await request(eve, {"type": "spectate", "table": "both"}, opener)
            assert answer["type"] == "state" and answer["table"]["name"] == "both"
            redirects += landed is not eve
        assert redirects > 0  # 20 connections never all reach one worker of two
    finally:
        for conn in opened:
            await conn.close()
        proc.terminate()  # the supervisor stops its workers, then its Redis
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            await stop_server(proc)
    assert proc.returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["worker-0", "worker-1"]
