"""A cluster node told to stop with a drain timeout, or by ``craits-server
drain`` (docs/cluster.md): it takes no new tables (they go to the other nodes)
and starts no new game, and waits for its running game to end before it
stops; a second signal ends the wait (the journal closed whole)."""

from __future__ import annotations

import asyncio
import random
import signal
from asyncio.subprocess import PIPE
from collections.abc import Callable
from pathlib import Path
from typing import Any

from craits.server.app import Server
from craits.server.ops.commands import EXIT_NOT_TAKEN
from craits.server.ops.drain import Drain, client, drain_key, node_states, watch

from tests.server.cluster.test_cluster import a_game_on
from tests.support.cluster import HEARTBEAT, RedisProcess, address, until
from tests.support.processes import SERVER, free_port, open_player, start_server, stop_server
from tests.support.server import Player


async def test_a_draining_node_sends_new_tables_elsewhere_and_waits_for_its_game(
    nodes: list[Server], open_player: Callable[..., Any]
) -> None:
    a, b, c = nodes
    ana, _ben = await a_game_on(c, open_player, "last")
    c.config.drain_timeout = 60.0
    stop = asyncio.Event()
    stop.set()  # the signal that started it
    draining = asyncio.create_task(Drain(c, stop).wait())
    await until(
        lambda: a.cluster is not None and b.cluster is not None
        and address(c) not in a.cluster.lobby.loads()
        and address(c) not in b.cluster.lobby.loads()
    )  # fmt: skip

    eve = await open_player(c.port, "Eve")
    await eve.send({"type": "create_table", "name": "next", "seats": 2})
    redirect = await eve.expect("redirect")
    assert redirect["address"] in (address(a), address(b)) and "next" not in c.tables
    # even a request already placed once does not stay on a node that is stopping
    await eve.send({"type": "create_table", "name": "next", "seats": 2, "placed": True})
    assert (await eve.expect("redirect"))["address"] in (address(a), address(b))

    await asyncio.sleep(0.3)
    assert not draining.done()  # the game at "last" is still running
    await ana.send({"type": "close_table", "end_game": True})  # its game ends
    await asyncio.wait_for(draining, 10)
    assert "last" not in c.tables or not c.tables["last"].status.playing


async def test_a_second_signal_ends_the_wait(
    nodes: list[Server], open_player: Callable[..., Any]
) -> None:
    _, _, c = nodes
    await a_game_on(c, open_player, "long")
    c.config.drain_timeout = 60.0
    stop = asyncio.Event()
    draining = asyncio.create_task(Drain(c, stop).wait())
    await asyncio.sleep(0.1)
    assert not draining.done()
    stop.set()
    await asyncio.wait_for(draining, 10)
    assert c.tables["long"].status.playing  # it stops with the game running, as told


# ------------------------------------------------- real processes: the command, signals


async def drain_command(*args: str) -> tuple[int, str, str]:
    """``craits-server drain ARGS``: its exit status, stdout and stderr."""
    proc = await asyncio.create_subprocess_exec(*SERVER, "drain", *args, stdout=PIPE, stderr=PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def a_game_at(port: int, table: str, seats: int = 2) -> list[Player]:
    """Ana and Ben, connected to ``port``, sit at its new table ``table`` (a
    two-seat table: the game starts). The table is this node's (``placed``:
    once the node knows a less loaded one, it would send the request there)."""
    ana, ben = await open_player(port, "Ana"), await open_player(port, "Ben")
    await ana.send({"type": "create_table", "name": table, "seats": seats, "placed": True})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    return [ana, ben]


async def node_process(url: str, data: Path, *extra: str) -> tuple[asyncio.subprocess.Process, int]:
    """A cluster node ``craits-server`` process on a free port, and the port."""
    port = free_port()
    proc = await start_server(
        port, data, "--cluster", url, "--cluster-heartbeat", str(HEARTBEAT), *extra
    )
    return proc, port


async def test_the_drain_command_drains_a_node_which_stops_once_its_game_ends(
    redis: RedisProcess, tmp_path: Path
) -> None:
    a, a_port = await node_process(redis.url, tmp_path / "a")
    c, c_port = await node_process(redis.url, tmp_path / "c")  # no --drain-timeout
    players: list[Player] = []
    try:
        players += await a_game_at(c_port, "last")
        cal, dan = await a_game_at(c_port, "three", seats=3)  # waiting for a third
        players += [cal, dan]

        status, _, err = await drain_command(
            "--cluster", redis.url, "--node", f"127.0.0.1:{c_port}", "--timeout", "60"
        )
        assert status == 0 and f"127.0.0.1:{c_port} is draining" in err
        status, out, _ = await drain_command("--cluster", redis.url, "--list")
        assert status == 0 and f"127.0.0.1:{c_port}\tdraining" in out
        assert f"127.0.0.1:{a_port}\tup" in out

        eve = await open_player(c_port, "Eve")
        players.append(eve)
        await eve.send({"type": "create_table", "name": "next", "seats": 2})
        assert (await eve.expect("redirect"))["address"] == f"127.0.0.1:{a_port}"
        await cal.send({"type": "start"})  # no new game on a draining node
        assert (await cal.expect("error"))["code"] == "cannot_start"
        await eve.send({"type": "join", "table": "three", "name": "Eve"})  # nor a seat
        assert (await eve.expect("error"))["code"] == "cannot_start"  # that would start one

        await asyncio.sleep(0.5)
        assert c.returncode is None  # the game at "last" is running
        await players[0].send({"type": "close_table", "end_game": True})
        assert await asyncio.wait_for(c.wait(), 15) == 0  # its game over, it stops
        assert a.returncode is None
    finally:
        for p in players:
            await p.close()
        for proc in (a, c):
            if proc.returncode is None:
                await stop_server(proc)


async def test_a_drain_no_node_takes_fails_and_is_taken_back(redis: RedisProcess) -> None:
    status, _, err = await drain_command(
        "--cluster", redis.url, "--node", "127.0.0.1:1", "--confirm", "0.5"
    )
    assert status == EXIT_NOT_TAKEN and "no node at 127.0.0.1:1 took the request" in err
    r = client(redis.url)
    try:
        assert not await r.exists(drain_key("127.0.0.1:1"))  # a node started later is not drained
    finally:
        await r.aclose()


async def test_a_second_signal_stops_a_draining_node_at_once_with_its_journal_whole(
    redis: RedisProcess, tmp_path: Path
) -> None:
    c, c_port = await node_process(redis.url, tmp_path, "--drain-timeout", "60")
    players: list[Player] = []
    try:
        players += await a_game_at(c_port, "long")
        c.send_signal(signal.SIGTERM)  # the first: it drains, the game goes on

        async def draining() -> bool:
            states = await node_states(redis.url)
            return any(s.get("draining") for s in states)

        deadline = asyncio.get_running_loop().time() + 10
        while not await draining():
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.05)
        assert c.returncode is None
        c.send_signal(signal.SIGTERM)  # the second: at once
        assert await asyncio.wait_for(c.wait(), 15) == 0
    finally:
        for p in players:
            await p.close()
        if c.returncode is None:
            await stop_server(c)
    check = await asyncio.create_subprocess_exec(
        *SERVER, "check", "--data-dir", str(tmp_path), stdout=PIPE, stderr=PIPE
    )
    out, _ = await asyncio.wait_for(check.communicate(), 30)
    assert check.returncode == 0, out.decode()
    assert "1 in play" in out.decode()  # the game stopped mid-way, kept whole to go on


async def test_a_cancelled_drain_watch_stops_though_redis_py_swallows_cancellations(
    redis: RedisProcess,
) -> None:
    """redis-py (8.1) returns None from a command cancelled mid-way instead of
    raising: the watch (looking every 0 s, so most cancellations land in a
    command) must stop all the same, or a node's stop waits for ever (found
    by scripts/cluster_bench.py: nodes that did not exit on SIGTERM)."""
    rng = random.Random(15)
    for _ in range(100):
        task = asyncio.create_task(watch(redis.url, "127.0.0.1:1", 0.0, lambda _: None))
        await asyncio.sleep(rng.random() * 0.005)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=5)
        assert done, "the watch did not stop"


async def test_the_drain_command_says_what_is_missing() -> None:
    status, _, err = await drain_command("--node", "127.0.0.1:1")  # no cluster anywhere
    assert status == 2 and "no cluster: give --cluster" in err
    status, _, err = await drain_command("--cluster", "redis://127.0.0.1:1", "--timeout", "-1")
    assert status == 2 and "--timeout must be >= 0" in err
    status, _, err = await drain_command("--cluster", f"redis://127.0.0.1:{free_port()}")
    assert status == EXIT_NOT_TAKEN and "cannot reach Redis" in err
