"""A real ``craits-server --cluster`` process killed with SIGKILL and started
again on its data directory: its tables are listed as unavailable (and
refused) meanwhile, come back with it, and its players resume through any
node (docs/cluster.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from craits.protocol.types import TableInfo
from craits.server.app import Server

from tests.protocol.shapes import problems
from tests.server.cluster.test_cluster import follow
from tests.support.cluster import HEARTBEAT, RedisProcess, node_config, until
from tests.support.processes import free_port, start_server, stop_server
from tests.support.server import settle


async def start_node(port: int, data: Path, url: str, *extra: str) -> asyncio.subprocess.Process:
    """``craits-server --cluster`` on ``port`` with its journal in ``data``;
    returns once it accepts connections.

    Raises:
        OSError: it did not accept a connection within 15 s, or it exited.
    """
    return await start_server(
        port,
        data,
        *("--cluster", url, "--advertise", f"127.0.0.1:{port}"),
        *("--cluster-heartbeat", str(HEARTBEAT)),
        *extra,
    )


async def test_a_node_killed_and_restarted_takes_its_tables_back_into_the_lobby(
    redis: RedisProcess, open_player: Callable[..., Any], tmp_path: Path
) -> None:
    a = Server(node_config(redis.url))
    await a.start()
    port = free_port()
    proc = await start_node(port, tmp_path, redis.url)
    try:
        ana = await open_player(port, "Ana")
        ben = await open_player(port, "Ben")
        await ana.send({"type": "create_table", "name": "kept", "seats": 2})
        await ana.expect("table_created")
        for p in (ana, ben):
            await p.send({"type": "join", "table": "kept", "name": p.name})
            await p.expect("joined")
        await settle([ana, ben], 1)
        eve = await open_player(a.port, "Eve")

        def listed() -> bool:
            return a.cluster is not None and bool(a.cluster.lobby.tables())

        await until(listed)
        await eve.send({"type": "list_tables", "watch": True})
        assert [t["name"] for t in (await eve.expect("tables"))["tables"]] == ["kept"]

        proc.kill()
        await proc.wait()
        # its key expires within four heartbeats: its tables are listed as unavailable
        gone = await eve.expect("table_info", where=lambda m: "unavailable" in m["table"])
        assert not problems(gone["table"], TableInfo), problems(gone["table"], TableInfo)
        assert gone["table"]["name"] == "kept" and gone["table"]["unavailable"] is True
        await eve.send({"type": "list_tables", "watch": True})
        assert (await eve.expect("tables"))["tables"] == [gone["table"]]
        zed = await open_player(a.port, "Zed")
        for request in ({"type": "join", "table": "kept", "name": "Zed"},
                        {"type": "spectate", "table": "kept"},
                        {"type": "resume", "token": ben.token}):  # fmt: skip
            await zed.send(request)
            assert (await zed.expect("error"))["code"] == "table_unavailable"
        await zed.send({"type": "create_table", "name": "kept", "seats": 2})
        assert (await zed.expect("error"))["code"] == "table_exists"  # the name is still its

        proc = await start_node(port, tmp_path, redis.url)
        back = await eve.expect("table_info", timeout=15)
        assert back["table"]["name"] == "kept" and back["table"]["state"] == "playing"
        assert "unavailable" not in back["table"]
        token = ben.token
        assert token is not None
        ben = await open_player(a.port, "Ben")
        ben = await follow(open_player, ben, {"type": "resume", "token": token})
        assert ben.received[-1]["type"] == "resumed"
        assert ben.conn.writer.get_extra_info("peername")[1] == port
    finally:
        await stop_server(proc)
        await a.stop()


async def test_sigterm_drains_a_node_and_a_second_one_stops_it(
    redis: RedisProcess, open_player: Callable[..., Any], tmp_path: Path
) -> None:
    port = free_port()
    proc = await start_node(port, tmp_path, redis.url, "--drain-timeout", "60")
    try:
        ana = await open_player(port, "Ana")
        ben = await open_player(port, "Ben")
        await ana.send({"type": "create_table", "name": "busy", "seats": 2})
        await ana.expect("table_created")
        for p in (ana, ben):
            await p.send({"type": "join", "table": "busy", "name": p.name})
            await p.expect("joined")
        await settle([ana, ben], 1)
        proc.terminate()
        await asyncio.sleep(1.0)
        assert proc.returncode is None  # draining: its game still runs
        await ana.send({"type": "create_table", "name": "more", "seats": 2})
        assert (await ana.expect("error"))["code"] == "too_many_tables"  # no other node
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 15)
        assert proc.returncode == 0
    finally:
        if proc.returncode is None:
            await stop_server(proc)
