"""``craits-server --workers 2``: two nodes behind one port, with a Redis the
server starts itself, or the one ``--cluster`` names (docs/cluster.md).
Connections to the one port land on either worker; every one lists the table,
and a request for it that lands on the other worker is redirected to the one
that holds it. With ``--web``, one ``craits-web`` serves the page for the
shared port. The first stop signal drains the workers, the second stops them
at once; ``craits-server drain`` for the shared address drains them too."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
import tempfile
import time
import urllib.request
from asyncio.subprocess import PIPE
from pathlib import Path
from typing import IO

import pytest
from craits.protocol.client import Connection
from craits.protocol.redirect import request
from craits.server.ops.drain import node_states
from craits.server.ops.workers import Plan, Supervisor, find_redis, port_free
from redis.exceptions import RedisError

from tests.support.cluster import RedisProcess
from tests.support.processes import SERVER, free_port, stop_server

FAST = ("--cluster-heartbeat", "0.25", "--rate", "100000", "--burst", "100000")


async def start_workers(port: int, *extra: str) -> asyncio.subprocess.Process:
    """A ``craits-server --workers 2`` on ``port``; returns once the port answers
    and both workers are in the cluster (a worker joins after it has bound the
    shared port: until then every connection reaches the other one).

    Raises:
        OSError: it did not within 30 s, or it exited (with its last lines).
    """
    if find_redis() is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    # the server's stderr, shown when it fails to start; it outlives this function
    log = tempfile.TemporaryFile()  # noqa: SIM115
    proc = await asyncio.create_subprocess_exec(
        *SERVER,
        *("--workers", "2", "--port", str(port), "--turn-timeout", "0", *FAST, *extra),
        stderr=log,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.returncode is not None:
                raise OSError(f"the server did not answer within 30 s:\n{_tail(log)}") from None
            await asyncio.sleep(0.1)
    while await workers_up(proc.pid) < 2:
        if time.monotonic() > deadline or proc.returncode is not None:
            raise OSError(f"the two workers did not both join within 30 s:\n{_tail(log)}")
        await asyncio.sleep(0.1)
    return proc


def _tail(log: IO[bytes]) -> str:
    """The last lines the server wrote to ``log``."""
    log.seek(0)
    return "\n".join(log.read().decode(errors="replace").splitlines()[-30:])


async def workers_up(pid: int) -> int:
    """How many nodes of the supervisor ``pid``'s cluster are up (its workers
    name the cluster's Redis on their command lines)."""
    urls = {
        line[line.index("--cluster") + 1]
        for line in children(pid)
        if "--cluster" in line and "craits.server.ops.cli" in " ".join(line)
    }
    if not urls:
        return 0
    try:
        states = await node_states(urls.pop())
    except (RedisError, OSError):
        return 0
    return sum(1 for state in states if not state.get("down"))


async def stop_workers(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM (the supervisor stops its workers, then its Redis); SIGKILL after 30 s."""
    if proc.returncode is not None:
        return
    proc.terminate()
    try:
        await asyncio.wait_for(proc.wait(), 30)
    except TimeoutError:
        await stop_server(proc)


def children(pid: int) -> list[list[str]]:
    """The command lines of the process ``pid``'s children (Linux ``/proc``)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found.append(Path(f"/proc/{child}/cmdline").read_bytes().decode().split("\0")[:-1])
    return found


async def test_two_workers_behind_one_port_are_one_server_and_share_one_web_page(
    tmp_path: Path,
) -> None:
    port, web_port = free_port(), free_port()
    proc = await start_workers(port, "--data-dir", str(tmp_path), f"--web={web_port}")
    opened: list[Connection] = []

    async def opener(host: str, p: int) -> Connection:
        conn = await Connection.open(host, p, name="Eve")
        opened.append(conn)
        return conn

    try:
        deadline = time.monotonic() + 20
        ana = await opener("127.0.0.1", port)
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

        # one craits-web, for the shared port (the workers' redirects work behind it)
        webs = [c for c in children(proc.pid) if "craits.client.web" in c]
        assert len(webs) == 1 and f"127.0.0.1:{port}" in webs[0], children(proc.pid)
        while True:  # once it listens
            try:
                await asyncio.open_connection("127.0.0.1", web_port)
                break
            except OSError:
                assert time.monotonic() < deadline + 20
                await asyncio.sleep(0.1)
        page = await asyncio.to_thread(
            lambda: urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=10).read()
        )
        assert b'id="name-form"' in page
        # a client process (as craits-web runs one per visitor) reaches the table
        client = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "craits.client.cli", f"127.0.0.1:{port}", "--list",
            stdout=PIPE, stderr=PIPE,
        )  # fmt: skip
        out, _ = await asyncio.wait_for(client.communicate(), 30)
        assert out.decode().splitlines()[1].startswith("both\t")
    finally:
        for conn in opened:
            await conn.close()
        await stop_workers(proc)
    assert proc.returncode == 0
    # each worker's journal apart; one accounts.db for them all (its WAL files beside it)
    kept = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("accounts.db-"))
    assert kept == ["accounts.db", "worker-0", "worker-1"]
    with pytest.raises(OSError):  # craits-web stopped with them
        await asyncio.open_connection("127.0.0.1", web_port)


async def live(url: str) -> list[str]:
    """The addresses of the cluster's live nodes."""
    return [s["address"] for s in await node_states(url) if not s.get("down")]


async def test_workers_drain_at_the_first_signal_and_stop_at_the_second(
    redis: RedisProcess, tmp_path: Path
) -> None:
    port = free_port()
    proc = await start_workers(
        port, "--cluster", redis.url, "--data-dir", str(tmp_path), "--drain-timeout", "60"
    )
    opened: list[Connection] = []

    async def opener(host: str, p: int) -> Connection:
        conn = await Connection.open(host, p, name=f"P{len(opened)}")
        opened.append(conn)
        return conn

    try:
        deadline = time.monotonic() + 20
        while len(await live(redis.url)) < 2:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        ana = await opener("127.0.0.1", port)
        await ana.send({"type": "create_table", "name": "long", "seats": 2})
        assert (await ana.recv())["type"] == "table_created"
        for who, p in enumerate((ana, await opener("127.0.0.1", port))):  # the game starts
            join = {"type": "join", "table": "long", "name": f"P{who}"}
            _, answer = await request(p, join, opener)
            assert answer["type"] == "joined", answer

        proc.send_signal(signal.SIGTERM)  # the first: the idle worker stops, the other drains
        while True:  # (once its heartbeat says so)
            left = [s for s in await node_states(redis.url) if not s.get("down")]
            if len(left) == 1 and left[0]["draining"]:
                break
            assert time.monotonic() < deadline + 20, left
            await asyncio.sleep(0.05)
        assert left[0]["tables"] == 1
        assert proc.returncode is None

        proc.send_signal(signal.SIGTERM)  # the second: at once
        assert await asyncio.wait_for(proc.wait(), 20) == 0
        assert await live(redis.url) == []
    finally:
        for conn in opened:
            await conn.close()
        await stop_workers(proc)


async def test_the_drain_command_for_the_shared_address_drains_every_worker(
    redis: RedisProcess, tmp_path: Path
) -> None:
    port = free_port()
    proc = await start_workers(port, "--cluster", redis.url, "--no-journal")
    try:
        deadline = time.monotonic() + 20
        while len(await live(redis.url)) < 2:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        drain = await asyncio.create_subprocess_exec(
            *SERVER, "drain", "--cluster", redis.url, "--node", f"127.0.0.1:{port}",
            stderr=PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(drain.communicate(), 30)
        assert drain.returncode == 0, err
        # no game anywhere: every worker stops, and the supervisor with them
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        assert await live(redis.url) == []
    finally:
        await stop_workers(proc)


def test_a_worker_whose_port_was_taken_meanwhile_starts_again_on_a_free_one() -> None:
    """A worker's own port is picked free, then anything may take it before the
    worker binds it (it is an ephemeral port: an outgoing connection, the other
    worker's to Redis, can get it). Started again on it, the worker would fail for
    ever and the supervisor's cluster would never be whole (seen in CI: "the two
    workers did not both join"). The supervisor moves it to a free port instead,
    and keeps a port nobody took."""
    supervisor = Supervisor(Plan(workers=2, port=free_port()), [], "redis://127.0.0.1:1")
    kept = supervisor.ports[0]
    assert supervisor._own_port(0) == kept
    taken = supervisor.ports[1]
    with socket.socket() as listener, socket.socket() as outgoing:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        outgoing.bind(("127.0.0.1", taken))  # an established connection from that port
        outgoing.connect(listener.getsockname())
        assert not port_free("127.0.0.1", taken)
        moved = supervisor._own_port(1)
        assert moved != taken and port_free("127.0.0.1", moved)
        assert supervisor.ports[1] == moved
