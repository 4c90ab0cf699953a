"""Abuse (issue 11): nobody locks everyone out with tables nobody sits at.

Real servers on loopback ports, real sockets. Connections come from distinct
loopback addresses (127.0.0.2, 127.0.0.3…: all of 127/8 is the loopback) where
a test needs distinct addresses. The restart test runs a real ``craits-server``
process, stopped and started again on its journal.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from craits.protocol import MAX_SERVER_FRAME, FrameReader, decode, encode
from craits.server.app import Server

from tests.support.cluster import until
from tests.support.net import HOST, Net, Raw, net  # noqa: F401 - net is a fixture
from tests.support.processes import SERVER, free_port, open_player
from tests.support.server import Player

# ------------------------------------------------------------------ helpers


async def raw_from(net: Net, srv: Server, source: str, name: str = "raw") -> Raw:  # noqa: F811
    """A raw connection from loopback address ``source``, after its hello."""
    reader, writer = await asyncio.open_connection(HOST, srv.port, local_addr=(source, 0))
    raw = Raw(reader, writer)
    net.raws.append(raw)
    await raw.hello(name)
    return raw


async def create(conn: Raw | Player, name: str, seats: int = 2) -> dict[str, Any]:
    """Send ``create_table``; the reply (``table_created`` or an error)."""
    await conn.send({"type": "create_table", "name": name, "seats": seats})
    while True:
        reply = await conn.recv()
        if reply["type"] in ("table_created", "error"):
            return reply


async def tables(conn: Raw | Player, watch: bool = False) -> list[str]:
    """The names of the server's tables (one page); ``watch``: go on watching the lobby."""
    await conn.send({"type": "list_tables", "watch": watch})
    return [t["name"] for t in (await conn.expect("tables"))["tables"]]


# ------------------------------------------------------- the grace of an empty table


async def test_a_table_nobody_comes_to_closes_after_the_grace(net: Net) -> None:  # noqa: F811
    srv = await net.server(empty_table_grace=0.4)
    watcher = await net.player(srv, "Watcher")
    await watcher.send({"type": "list_tables", "watch": True})
    await watcher.expect("tables")
    maker = await net.player(srv, "Maker")
    started = time.monotonic()
    assert (await create(maker, "nobody"))["type"] == "table_created"
    assert (await create(maker, "somebody"))["type"] == "table_created"
    await maker.send({"type": "join", "table": "somebody", "name": "Maker"})
    await maker.expect("joined")
    closed = await watcher.expect("table_closed", timeout=10.0)
    assert closed["name"] == "nobody"
    assert time.monotonic() - started > 0.35  # never before its grace
    await asyncio.sleep(0.5)  # past the grace of "somebody": it has a player, it stays
    assert await tables(watcher, watch=True) == ["somebody"]
    # the creator left: it closes at once, as always
    await maker.send({"type": "leave"})
    await maker.expect("left")
    assert (await watcher.expect("table_closed"))["name"] == "somebody"
    assert srv.tables == {}


async def test_a_table_watched_by_its_creator_stays(net: Net) -> None:  # noqa: F811
    srv = await net.server(empty_table_grace=0.2)
    maker = await net.player(srv, "Maker")
    assert (await create(maker, "watched"))["type"] == "table_created"
    await maker.send({"type": "spectate", "table": "watched"})
    await maker.expect("state")
    await asyncio.sleep(0.5)
    assert list(srv.tables) == ["watched"]


# ------------------------------------------------------ limits per connection, address


async def test_a_connection_holds_only_a_few_empty_tables(net: Net) -> None:  # noqa: F811
    # a grace far longer than the steps below take on a busy machine
    srv = await net.server(empty_table_grace=3.0, max_empty_tables=2)
    maker = await net.player(srv, "Maker")
    assert (await create(maker, "a"))["type"] == "table_created"
    assert (await create(maker, "b"))["type"] == "table_created"
    refused = await create(maker, "c")
    assert refused["type"] == "error" and refused["code"] == "too_many_empty_tables"
    assert "2" in refused["message"] and "id" not in refused
    # a refused request does not count as a bad message, and the connection stays
    assert maker.conn is not None and await tables(maker) == ["a", "b"]
    # sitting at one frees its place
    await maker.send({"type": "join", "table": "a", "name": "Maker"})
    await maker.expect("joined")
    assert (await create(maker, "c"))["type"] == "table_created"
    assert (await create(maker, "d"))["code"] == "too_many_empty_tables"
    # another connection has its own share
    other = await net.player(srv, "Other")
    assert (await create(other, "e"))["type"] == "table_created"
    # the grace frees the rest
    await until(lambda: sorted(srv.tables) == ["a"])
    assert (await create(maker, "d"))["type"] == "table_created"


async def test_an_address_holds_only_a_few_empty_tables_even_across_connections(
    net: Net,  # noqa: F811
) -> None:
    srv = await net.server(
        empty_table_grace=1.0, max_empty_tables=2, max_empty_tables_per_address=3
    )
    first = await raw_from(net, srv, "127.0.0.2")
    assert (await create(first, "a1"))["type"] == "table_created"
    assert (await create(first, "a2"))["type"] == "table_created"
    second = await raw_from(net, srv, "127.0.0.2")
    assert (await create(second, "a3"))["type"] == "table_created"
    refused = await create(second, "a4")
    assert refused["code"] == "too_many_empty_tables" and "address" in refused["message"]
    # hanging up does not give the address its share back: the tables wait out the grace
    await first.close()
    third = await raw_from(net, srv, "127.0.0.2")
    assert (await create(third, "a4"))["code"] == "too_many_empty_tables"
    # another address is not affected
    elsewhere = await raw_from(net, srv, "127.0.0.3")
    assert (await create(elsewhere, "b1"))["type"] == "table_created"


async def test_nobody_locks_everyone_out_by_creating_tables_up_to_the_cap(
    net: Net,  # noqa: F811
) -> None:
    """The attack of issue 11: connections create tables (never sitting down)
    until the cap, then hang up. Now they get a few tables, which close; a
    newcomer always gets a table."""
    srv = await net.server(
        max_tables=40, empty_table_grace=3.0, max_empty_tables=2, max_empty_tables_per_address=6
    )  # a grace far longer than the attack takes on a busy machine
    attackers = [await raw_from(net, srv, "127.0.0.2", f"x{i}") for i in range(20)]
    created = 0
    for i, attacker in enumerate(attackers):
        for k in range(5):
            reply = await create(attacker, f"junk-{i}-{k}")
            created += reply["type"] == "table_created"
            if reply["type"] == "error":
                assert reply["code"] == "too_many_empty_tables", reply
    assert created == 6
    for attacker in attackers:
        await attacker.close()
    newcomer = await raw_from(net, srv, "127.0.0.3", "New")
    assert (await create(newcomer, "real"))["type"] == "table_created"
    await newcomer.send({"type": "join", "table": "real", "name": "New"})
    await newcomer.expect("joined")
    await until(lambda: sorted(srv.tables) == ["real"])
    assert await tables(newcomer) == ["real"]
    # and the attacker's address has its share again, no more
    again = await raw_from(net, srv, "127.0.0.2")
    assert (await create(again, "junk-again"))["type"] == "table_created"


async def test_the_limits_are_in_the_welcome(net: Net) -> None:  # noqa: F811
    srv = await net.server(empty_table_grace=12.5, max_empty_tables=3)
    raw = await net.raw(srv)
    await raw.send({"type": "hello", "version": 1})
    limits = (await raw.expect("welcome"))["limits"]
    assert limits["max_empty_tables"] == 3
    assert limits["max_empty_tables_per_address"] == 10
    assert limits["empty_table_grace_ms"] == 12500


async def test_leaving_by_resuming_elsewhere_closes_the_table_left_empty(
    net: Net,  # noqa: F811
) -> None:
    srv = await net.server()
    ana = await net.player(srv, "Ana")
    for name in ("one", "two"):
        assert (await create(ana, name, seats=3))["type"] == "table_created"
    await ana.send({"type": "join", "table": "two", "name": "Ana"})
    await ana.expect("joined")
    token = ana.token
    await ana.send({"type": "leave"})
    await ana.expect("left")  # "two" closed: its seat is gone; rejoin "one" instead
    await ana.send({"type": "join", "table": "one", "name": "Ana"})
    await ana.expect("joined")
    assert token is not None and list(srv.tables) == ["one"]
    # Ben sits at a table, and moves his connection to his seat at "one"
    ben = await net.player(srv, "Ben")
    await ben.send({"type": "join", "table": "one", "name": "Ben"})
    await ben.expect("joined")
    ben_token = ben.token
    other = await net.player(srv, "Other")
    assert (await create(other, "three", seats=3))["type"] == "table_created"
    await other.send({"type": "join", "table": "three", "name": "Other"})
    await other.expect("joined")
    await other.send({"type": "resume", "token": ben_token})
    await other.expect("resumed")
    # "three" was left with nobody and no game: it closed, as after a leave
    assert sorted(srv.tables) == ["one"]


# ------------------------------------------------------------------ restart


async def _start(port: int, data: Path, *extra: str) -> asyncio.subprocess.Process:
    """A real ``craits-server`` on ``port`` with its journal in ``data``."""
    proc = await asyncio.create_subprocess_exec(
        *SERVER,
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--turn-timeout",
        "0",
        *extra,
        stderr=asyncio.subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            _, w = await asyncio.open_connection(HOST, port)
            w.close()
            return proc
        except OSError:
            await asyncio.sleep(0.05)
    raise OSError("the server did not start")


async def _stop(proc: asyncio.subprocess.Process) -> None:
    proc.send_signal(signal.SIGTERM)
    await asyncio.wait_for(proc.wait(), 10)


async def test_empty_tables_restored_after_a_restart_close_after_the_grace(
    tmp_path: Path,
) -> None:
    data, port = tmp_path / "data", free_port()
    grace = "1.5"
    proc = await _start(port, data, "--empty-table-grace", "30", "--bots", "1")
    try:
        maker = await open_player(port, "Maker")
        for name in ("empty", "seated"):
            await maker.send({"type": "create_table", "name": name, "seats": 3})
            await maker.expect("table_created")
        ana = await open_player(port, "Ana")
        await ana.send({"type": "join", "table": "seated", "name": "Ana"})
        await ana.expect("joined")
    finally:
        await _stop(proc)  # Ana still seated: her seat is kept in the journal
    await maker.close()
    await ana.close()
    # the restart: the empty table and the seated one (its seat now disconnected)
    # both wait for their people; the practice table is the server's own
    proc = await _start(port, data, "--empty-table-grace", grace, "--bots", "1")
    try:
        lobby = await open_player(port, "Lobby")
        await lobby.send({"type": "list_tables", "watch": True})
        listed = await lobby.expect("tables")
        assert sorted(t["name"] for t in listed["tables"]) == ["empty", "practice", "seated"]
        started = time.monotonic()
        closed = {(await lobby.expect("table_closed", timeout=10.0))["name"] for _ in range(2)}
        assert closed == {"empty", "seated"}
        assert time.monotonic() - started > 1.0  # never before their grace
        await lobby.send({"type": "list_tables"})
        assert [t["name"] for t in (await lobby.expect("tables"))["tables"]] == ["practice"]
        await lobby.close()
    finally:
        await _stop(proc)
    # a player back within the grace keeps the table
    proc = await _start(port, data, "--empty-table-grace", "30")
    try:
        bea = await open_player(port, "Bea")
        await bea.send({"type": "create_table", "name": "kept", "seats": 2})
        await bea.expect("table_created")
        await bea.send({"type": "join", "table": "kept", "name": "Bea"})
        await bea.expect("joined")
        token = bea.token
    finally:
        await _stop(proc)
    await bea.close()
    proc = await _start(port, data, "--empty-table-grace", grace)
    try:
        bea = await open_player(port, "Bea")
        await bea.send({"type": "resume", "token": token})
        await bea.expect("resumed")
        await asyncio.sleep(float(grace) + 0.7)
        await bea.send({"type": "list_tables"})
        assert [t["name"] for t in (await bea.expect("tables"))["tables"]] == ["kept"]
        await bea.close()
    finally:
        await _stop(proc)


# ------------------------------------------------------------ stalled readers


async def _spectator(net: Net, srv: Server, rcvbuf: int) -> tuple[socket.socket, Any]:  # noqa: F811
    """A spectator of table "t" on a plain socket with a small receive buffer,
    read only when the test says so (no stream reading ahead for it); returns
    the socket and the connection as the server sees it."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    net.sockets.append(sock)
    await loop.sock_connect(sock, (HOST, srv.port))
    await loop.sock_sendall(sock, encode({"type": "hello", "version": 1, "name": "Lazy"}))
    await loop.sock_sendall(sock, encode({"type": "spectate", "table": "t"}))
    frames = FrameReader(MAX_SERVER_FRAME)
    async with asyncio.timeout(5.0):
        while not any(
            decode(b, MAX_SERVER_FRAME, depth=16)["type"] == "state"
            for b in frames.feed(await loop.sock_recv(sock, 65536))
        ):
            pass
    (client,) = srv.tables["t"].spectators
    return sock, client


async def _table_of_two(net: Net, srv: Server) -> Player:  # noqa: F811
    """Ana and Ben seated at table "t" (3 seats: no game starts); returns Ana."""
    ana = await net.player(srv, "Ana")
    ben = await net.player(srv, "Ben")
    await ana.send({"type": "create_table", "name": "t", "seats": 3})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "t", "name": p.name})
        await p.expect("joined")
    return ana


async def _busy(ana: Player, stop: asyncio.Event) -> None:
    """Ana chats as fast as the socket takes it: ~300 bytes to every member per line."""
    pad = "z" * 280
    n = 0
    while not stop.is_set():
        ana.conn.writer.write(
            b"".join(encode({"type": "chat", "text": f"{n + k}:{pad}"}) for k in range(50))
        )
        n += 50
        await ana.conn.writer.drain()
        await asyncio.sleep(0.005)


async def test_a_spectator_that_stops_reading_at_a_busy_table_is_dropped_in_time(
    net: Net,  # noqa: F811
    caplog: Any,
) -> None:
    """protocol §4.5: once the kernel's buffer for a connection is full, it must
    take something within write_timeout, or it is dropped — whatever the
    server's byte cap (set high here, so that only the time rule applies)."""
    srv = await net.server(write_timeout=0.6, out_buffer=64 << 20, heartbeat=30.0)
    ana = await _table_of_two(net, srv)
    lazy, client = await _spectator(net, srv, rcvbuf=4096)
    loop = asyncio.get_running_loop()
    # the server asked the kernel for a small send buffer (Linux doubles it)
    sock = client.transport.get_extra_info("socket")
    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= 2 * srv.config.send_buffer
    stop = asyncio.Event()
    busy = asyncio.create_task(_busy(ana, stop))
    reader = asyncio.create_task(ana.drain(5.0))
    try:
        full_at = None
        started = time.monotonic()
        async with asyncio.timeout(10.0):
            while not client.closed:
                if full_at is None and client.transport.get_write_buffer_size() > 0:
                    full_at = time.monotonic()  # the kernel took no more: the clock runs
                await asyncio.sleep(0.01)
        dropped_at = time.monotonic()
    finally:
        stop.set()
        await busy
        reader.cancel()
    assert full_at is not None
    # never before its time (the ceiling is the 10 s above)
    assert dropped_at - full_at > 0.55, (full_at - started, dropped_at - full_at)
    assert any("nothing taken" in r.getMessage() for r in caplog.records)
    assert client not in srv.clients and not srv.tables["t"].spectators
    # a reset, not a close: the spectator's socket learns at once that the
    # connection is gone, with what its buffer held and nothing after
    with pytest.raises(ConnectionResetError):
        async with asyncio.timeout(2.0):
            while await loop.sock_recv(lazy, 1 << 20):
                pass


async def test_a_slow_reader_that_keeps_reading_is_not_dropped(net: Net) -> None:  # noqa: F811
    """Progress, however slow, keeps a connection: the time rule counts from
    the last byte the kernel took, not from when the buffer filled.

    The backlog is a fixed amount, not what 0.3 s of chat piled up (~1 MiB on
    a fast machine: 23 s of reading, near the 30 s limit); and the reader,
    still every 0.2 s, has 1.5 s before the rule drops it, so a busy machine
    that holds up the event loop for a few tenths of a second (the check
    then runs before the late read) does not drop it. Reading the backlog
    still takes several times 1.5 s: a rule counting from when the buffer
    filled would drop it."""
    srv = await net.server(write_timeout=1.5, out_buffer=64 << 20, heartbeat=30.0)
    ana = await _table_of_two(net, srv)
    slow, client = await _spectator(net, srv, rcvbuf=4096)
    stop = asyncio.Event()
    busy = asyncio.create_task(_busy(ana, stop))
    reader = asyncio.create_task(ana.drain(5.0))
    async with asyncio.timeout(10.0):
        while client.transport.get_write_buffer_size() < 192 * 1024:
            await asyncio.sleep(0.01)
    stop.set()
    await busy
    await asyncio.sleep(0.05)
    backlog = client.transport.get_write_buffer_size()
    assert backlog > 64 * 1024, backlog  # much waits in the server for it
    # it reads what its 4 KiB buffer holds every 0.2 s (~40 KiB/s): far slower
    # than it was sent, and than the kernel's buffer (the transport's shrinks
    # only once the kernel has sent half of its own), but never still for 1.5 s
    loop = asyncio.get_running_loop()
    reads = 0
    got = 0
    async with asyncio.timeout(30.0):
        while client.transport.get_write_buffer_size() > 0 or got == 0:
            got += len(await loop.sock_recv(slow, 16 * 1024))
            reads += 1
            await asyncio.sleep(0.2)
    assert not client.closed and client in srv.clients
    assert reads * 0.2 > 3 * 1.5, reads  # a rule counting from the fill would have dropped it
    reader.cancel()
