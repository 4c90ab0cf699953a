"""Faults at the wire, for the server's tests: a :class:`Raw` connection that sends
hand-made bytes, :class:`Net` (servers on loopback ports, players, raw connections,
all closed after the test) and its fixture ``net``, and helpers to start a table and
read its turns."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
import socket
import struct
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgpack
import pytest
from craits.protocol.client import Connection
from craits.protocol.wire import HEADER, MAX_SERVER_FRAME, decode, encode, frame_length
from craits.server.app import Server, ServerConfig
from craits.server.engine import Game, Rules
from craits.server.table.fairness import RecordingShuffle

from tests.support.server import Player, settle

HOST = "127.0.0.1"
CARD = re.compile(r"\b[A2-9TJQK][SHDC]\b")
TURN_EVENTS = ("played", "drew", "passed", "suit_named")


class Raw:
    """A raw TCP connection to the server: hand-made bytes out, frames in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, rcvbuf: int | None = None, limit: int = 2**16) -> Raw:
        """Connect; ``rcvbuf`` shrinks the socket's receive buffer (set before connecting)."""
        if rcvbuf is None:
            reader, writer = await asyncio.open_connection(HOST, port, limit=limit)
            return cls(reader, writer)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (HOST, port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=limit)
        return cls(reader, writer)

    async def write(self, data: bytes) -> None:
        """Send raw bytes."""
        self.writer.write(data)
        await self.writer.drain()

    async def send(self, message: dict[str, Any]) -> None:
        """Send one well-formed frame."""
        await self.write(encode(message))

    async def send_body(self, body: bytes) -> None:
        """Send ``body`` in a frame with a correct length header."""
        await self.write(HEADER.pack(len(body)) + body)

    async def recv(self, timeout: float = 2.0) -> dict[str, Any]:
        """The next frame from the server, decoded."""
        async with asyncio.timeout(timeout):
            header = await self.reader.readexactly(4)
            n = frame_length(header, MAX_SERVER_FRAME)
            return decode(await self.reader.readexactly(n), MAX_SERVER_FRAME, depth=16)

    async def expect(
        self, kind: str, timeout: float = 2.0, where: Callable[[dict[str, Any]], bool] | None = None
    ) -> dict[str, Any]:
        """Read until a message of type ``kind`` (matching ``where``)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv(timeout)
                if message.get("type") == kind and (where is None or where(message)):
                    return message

    async def hello(self, name: str = "raw") -> dict[str, Any]:
        await self.send({"type": "hello", "version": 1, "name": name})
        return await self.expect("welcome")

    async def until_closed(self, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Every frame the server sends until it closes the connection.

        Raises:
            AssertionError: the connection is still open after ``timeout`` seconds.
        """
        got: list[dict[str, Any]] = []
        try:
            async with asyncio.timeout(timeout):
                while True:
                    got.append(await self.recv(timeout))
        except (asyncio.IncompleteReadError, ConnectionError):
            return got
        except TimeoutError:
            raise AssertionError(f"the server did not close the connection; got {got}") from None

    async def error_then_close(self, timeout: float = 10.0) -> list[str]:
        """The codes of the errors received before the server closed the connection."""
        got = await self.until_closed(timeout)
        return [m["code"] for m in got if m.get("type") == "error"]

    def reset(self) -> None:
        """Drop the connection with a TCP reset (SO_LINGER 0, then abort)."""
        sock = self.writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.writer.transport.abort()

    async def close(self) -> None:
        try:
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 1.0)
        except (OSError, TimeoutError):
            pass


class Net:
    """Servers (with per-test settings) and the connections to them; all closed after the test."""

    def __init__(self, config: ServerConfig):
        self.config = config
        self.servers: list[Server] = []
        self.players: list[Player] = []
        self.raws: list[Raw] = []
        self.sockets: list[socket.socket] = []

    async def server(self, **overrides: Any) -> Server:
        srv = Server(dataclasses.replace(self.config, **overrides))
        await srv.start()
        self.servers.append(srv)
        return srv

    async def player(self, srv: Server, name: str) -> Player:
        player = Player(await Connection.open(HOST, srv.port, name=name), name)
        self.players.append(player)
        return player

    async def raw(self, srv: Server, rcvbuf: int | None = None, limit: int = 2**16) -> Raw:
        raw = await Raw.open(srv.port, rcvbuf, limit)
        self.raws.append(raw)
        return raw

    async def close(self) -> None:
        for p in self.players:
            await p.close()
        for r in self.raws:
            await r.close()
        for sock in self.sockets:
            sock.close()
        for s in self.servers:
            await s.stop()


@pytest.fixture
async def net(config: ServerConfig) -> AsyncIterator[Net]:
    n = Net(config)
    yield n
    await n.close()


async def start_table(
    net: Net,
    srv: Server,
    table: str,
    names: list[str],
    *,
    turn_timeout_ms: int | None = None,
    seed: int | None = None,
) -> list[Player]:
    """Players ``names`` seated at a new table of that many seats; the game started.

    ``seed`` fixes the shuffle (the table's random source) so the deal is known.
    """
    players = [await net.player(srv, name) for name in names]
    create: dict[str, Any] = {"type": "create_table", "name": table, "seats": len(names)}
    if turn_timeout_ms is not None:
        create["turn_timeout_ms"] = turn_timeout_ms
    await players[0].send(create)
    await players[0].expect("table_created")
    if seed is not None:
        srv.tables[table].gamelog.rng = RecordingShuffle(random.Random(seed))
    for p in players:
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    await settle(players, 1)
    return players


def find_seed(players: int, wanted: Callable[[Game], bool]) -> int:
    """A shuffle seed whose first deal (as a table deals it) satisfies ``wanted``."""
    for seed in range(5000):
        game, _ = Game.start(players, Rules(), random.Random(seed))
        if wanted(game):
            return seed
    raise AssertionError("no seed gives the wanted deal")


def plain_turn(game: Game) -> bool:
    """The seat to act simply plays or draws: no suit to name, no count, no drawn card."""
    return game.pending is None and game.count == 0 and game.drawn is None


async def own_view(player: Player) -> dict[str, Any]:
    """The seat's full view, fetched fresh from the server (resume on the same connection)."""
    await player.send({"type": "resume", "token": player.token})
    state = await player.expect("state")
    assert state["seat"] == player.seat
    return state["view"]


async def quiet(players: list[Player], wait: float = 0.05) -> list[dict[str, Any]]:
    """Everything the players receive until the line is quiet."""
    got: list[dict[str, Any]] = []
    for p in players:
        before = len(p.received)
        await p.drain(wait)
        got.extend(p.received[before:])
    return got


def turn_events(updates: list[dict[str, Any]], seat: int, after_seq: int) -> list[dict[str, Any]]:
    """The turn events (play, draw, pass, naming a suit) of ``seat`` after update ``after_seq``."""
    return [
        e
        for u in updates
        if u.get("type") == "update" and u["seq"] > after_seq
        for e in u["events"]
        if e["event"] in TURN_EVENTS and e.get("seat") == seat
    ]


def body_with(raw_value: bytes, **fields: Any) -> bytes:
    """A msgpack map body whose field ``x`` holds ``raw_value``, hand-made bytes."""
    placeholder = "\x00PLACEHOLDER\x00"
    body = msgpack.packb({**fields, "x": placeholder}, use_bin_type=True)
    packed = msgpack.packb(placeholder)
    assert body.count(packed) == 1
    return body.replace(packed, raw_value)


# ------------------------------------------- 1. not msgpack; truncated frame
