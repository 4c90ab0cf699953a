"""The client connection (``craits.protocol.client.Connection``) over real
sockets, against a scripted peer on a loopback port: frames however the bytes
are cut, pings answered, typed reading, and one-line ``ConnectError``s."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from craits.protocol.client import ConnectError, Connection
from craits.protocol.vocab import ServerMessage
from craits.protocol.wire import (
    HEADER,
    MAX_SERVER_FRAME,
    FrameReader,
    ProtocolError,
    decode,
    encode,
)

WELCOME = {
    "type": "welcome",
    "version": 1,
    "server": "craits",
    "heartbeat_ms": 10000,
    "limits": {
        "max_frame": 65536,
        "max_name": 24,
        "max_chat": 300,
        "rate": 100,
        "burst": 200,
        "max_tables": 2000,
    },
}

Script = Callable[["Peer"], Awaitable[None]]


class Peer:
    """The server side of one connection: reads the client's frames, writes bytes."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.frames = FrameReader()
        self.got: list[dict[str, object]] = []

    async def read(self) -> dict[str, object]:
        while len(self.got) == 0:
            data = await self.reader.read(4096)
            assert data, "the client closed"
            self.got += [decode(body) for body in self.frames.feed(data)]
        return self.got.pop(0)

    async def write(self, data: bytes, piece: int = 0) -> None:
        """Write ``data``, ``piece`` bytes at a time (0: at once)."""
        step = piece or len(data)
        for i in range(0, len(data), step):
            self.writer.write(data[i : i + step])
            await self.writer.drain()
            if piece:
                await asyncio.sleep(0)


@pytest.fixture
async def scripted() -> AsyncIterator[Callable[[Script], Awaitable[int]]]:
    """Start a loopback server that runs a script on each connection; gives its port."""
    servers: list[asyncio.Server] = []
    tasks: list[asyncio.Task[None]] = []

    async def start(script: Script) -> int:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            tasks.append(asyncio.current_task())  # type: ignore[arg-type]
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                await script(Peer(reader, writer))

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        servers.append(server)
        return int(server.sockets[0].getsockname()[1])

    yield start
    for task in tasks:
        task.cancel()
    for server in servers:
        server.close()
        await server.wait_closed()


async def welcome_then(peer: Peer, after: bytes, piece: int = 0) -> None:
    hello = await peer.read()
    assert hello["type"] == "hello" and hello["version"] == 1
    await peer.write(encode(WELCOME) + after, piece)


async def test_frames_cut_into_single_bytes_arrive_whole(
    scripted: Callable[[Script], Awaitable[int]],
) -> None:
    chats = [
        {"type": "chat", "table": "t", "name": "a", "seat": 0, "text": f"{i}"} for i in range(3)
    ]

    async def script(peer: Peer) -> None:
        await welcome_then(peer, b"".join(encode(c) for c in chats), piece=1)
        await asyncio.sleep(10)

    conn = await Connection.open("127.0.0.1", await scripted(script), name="Ana")
    assert conn.welcome == WELCOME
    assert [await conn.recv() for _ in chats] == chats
    await conn.close()


async def test_pings_are_answered_and_skipped(scripted: Callable[[Script], Awaitable[int]]) -> None:
    pongs: list[dict[str, object]] = []
    done = asyncio.Event()

    async def script(peer: Peer) -> None:
        await welcome_then(peer, encode({"type": "ping"}) + encode({"type": "ping", "nonce": 9}))
        pongs.append(await peer.read())
        pongs.append(await peer.read())
        await peer.write(encode({"type": "ping"}) + encode({"type": "ok", "id": 1}))
        pongs.append(await peer.read())
        done.set()
        await asyncio.sleep(10)

    conn = await Connection.open("127.0.0.1", await scripted(script))
    assert await conn.recv_frame() is None  # a ping: the server is alive
    assert await conn.recv_frame() is None
    assert await conn.recv() == {"type": "ok", "id": 1}  # the ping before it was skipped
    await asyncio.wait_for(done.wait(), 5)
    assert pongs == [{"type": "pong"}, {"type": "pong", "nonce": 9}, {"type": "pong"}]
    await conn.close()


async def test_messages_read_typed(scripted: Callable[[Script], Awaitable[int]]) -> None:
    async def script(peer: Peer) -> None:
        await welcome_then(
            peer,
            encode({"type": "from_the_future", "x": 1})
            + encode({"type": "ok"})
            + encode({"type": "left", "table": "t"}),
        )
        await asyncio.sleep(10)

    conn = await Connection.open("127.0.0.1", await scripted(script))
    with pytest.raises(ProtocolError) as err:
        await conn.recv_message()
    assert err.value.code == "unknown_type"  # a client may skip it and read on (§14)
    with pytest.raises(ProtocolError) as err:
        await conn.recv_message()
    assert err.value.code == "bad_message"
    left = await conn.recv_message()
    assert left["type"] == ServerMessage.LEFT
    if left["type"] == ServerMessage.LEFT:
        assert left["table"] == "t"
    await conn.close()


async def test_good_frames_before_a_bad_header_are_read_first(
    scripted: Callable[[Script], Awaitable[int]],
) -> None:
    async def script(peer: Peer) -> None:
        ok = encode({"type": "ok", "id": 1})
        await welcome_then(peer, ok + HEADER.pack(MAX_SERVER_FRAME + 1))
        await asyncio.sleep(10)

    conn = await Connection.open("127.0.0.1", await scripted(script))
    assert await conn.recv() == {"type": "ok", "id": 1}
    with pytest.raises(ProtocolError) as err:
        await conn.recv()
    assert err.value.code == "frame_too_large"
    with pytest.raises(ProtocolError):  # and it stays broken
        await conn.recv()
    await conn.close()


async def test_a_large_frame_is_read(scripted: Callable[[Script], Awaitable[int]]) -> None:
    text = "x" * (MAX_SERVER_FRAME - 100)

    async def script(peer: Peer) -> None:
        await welcome_then(peer, encode({"type": "chat", "text": text}), piece=70_000)
        await asyncio.sleep(10)

    conn = await Connection.open("127.0.0.1", await scripted(script))
    assert (await conn.recv())["text"] == text
    await conn.close()


async def test_a_closed_connection_ends_reading(
    scripted: Callable[[Script], Awaitable[int]],
) -> None:
    async def script(peer: Peer) -> None:
        await welcome_then(peer, encode({"type": "ok", "id": 1}) + b"\x00\x00")
        peer.writer.close()

    conn = await Connection.open("127.0.0.1", await scripted(script))
    assert await conn.recv() == {"type": "ok", "id": 1}
    with pytest.raises(asyncio.IncompleteReadError):
        await conn.recv()
    await conn.close()


async def test_a_refused_hello_is_a_connect_error(
    scripted: Callable[[Script], Awaitable[int]],
) -> None:
    async def script(peer: Peer) -> None:
        await peer.read()
        refusal = {
            "type": "error",
            "code": "unsupported_version",
            "message": "protocol version 2 is not supported",
            "supported": [1],
        }
        await peer.write(encode(refusal))
        await asyncio.sleep(10)

    port = await scripted(script)
    with pytest.raises(ConnectError) as err:
        await Connection.open("127.0.0.1", port, version=2)
    assert str(err.value) == f"127.0.0.1:{port} refused: protocol version 2 is not supported"


async def test_a_peer_that_is_not_craits_is_a_connect_error(
    scripted: Callable[[Script], Awaitable[int]],
) -> None:
    async def script(peer: Peer) -> None:
        await peer.write(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        await asyncio.sleep(10)

    port = await scripted(script)
    with pytest.raises(ConnectError) as err:
        await Connection.open("127.0.0.1", port)
    assert str(err.value) == f"127.0.0.1:{port} does not speak the Craits protocol"


async def test_a_silent_peer_is_a_connect_error(
    scripted: Callable[[Script], Awaitable[int]],
) -> None:
    async def script(peer: Peer) -> None:
        await asyncio.sleep(10)

    port = await scripted(script)
    with pytest.raises(ConnectError) as err:
        await Connection.open("127.0.0.1", port, timeout=0.2)
    assert str(err.value) == f"no answer from 127.0.0.1:{port} within 0.2 s"


async def test_nobody_listening_is_a_connect_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: connections are refused
        with pytest.raises(ConnectError) as err:
            await Connection.open("127.0.0.1", port)
    assert str(err.value) == f"cannot reach 127.0.0.1:{port}: connection refused"
