"""Fixtures: a real server on a loopback port, and real msgpack clients over TCP."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig


class Player:
    """A test client: a real connection plus a log of everything it received."""

    def __init__(self, conn: Connection, name: str):
        self.conn = conn
        self.name = name
        self.received: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.token: str | None = None
        self.seat: int | None = None
        self._next_id = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.conn.send(message)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            message = await self.conn.recv()
        self.received.append(message)
        if message.get("type") in ("update", "state") and message.get("view") is not None:
            self.view = message["view"]
            self.seq = message.get("seq", self.seq)
        if message.get("type") == "joined":
            self.token = message["token"]
            self.seat = message["seat"]
        return message

    async def expect(
        self,
        kind: str,
        timeout: float = 10.0,
        where: Callable[[dict[str, Any]], bool] | None = None,
    ) -> dict[str, Any]:
        """Read until a message of type ``kind`` (matching ``where``) arrives."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.recv(timeout)
                if message.get("type") == kind and (where is None or where(message)):
                    return message

    async def act(self, action: dict[str, Any], seq: bool = False) -> int:
        self._next_id += 1
        message: dict[str, Any] = {"type": "act", "id": self._next_id, "action": action}
        if seq:
            message["seq"] = self.seq
        await self.send(message)
        return self._next_id

    async def drain(self, quiet: float = 0.05) -> None:
        """Read whatever arrives until the line is quiet for ``quiet`` seconds."""
        while True:
            try:
                await self.recv(quiet)
            except TimeoutError:
                return

    async def close(self) -> None:
        await self.conn.close()


def strip_seat(action: dict[str, Any]) -> dict[str, Any]:
    """A legal action from a view, as the wire's ``act`` carries it (no seat)."""
    return {k: v for k, v in action.items() if k != "seat"}


@pytest.fixture
def config() -> ServerConfig:
    """Fast settings for tests: short pauses, no turn timeout unless a test sets one."""
    return ServerConfig(
        host="127.0.0.1",
        port=0,
        analyse_finished=0,  # no background analyses (their own tests turn them on)
        heartbeat=5.0,
        hello_timeout=1.0,
        frame_timeout=1.0,
        turn_timeout=0.0,
        min_turn_timeout=0.0,  # tests time turns out in a fraction of a second
        hand_pause=0.01,
        bot_delay=0.0,
        away_delay=0.0,
        rate=100_000.0,
        burst=100_000.0,
    )


@pytest.fixture
async def server(config: ServerConfig) -> AsyncIterator[Server]:
    """A real server on a free loopback port, stopped after the test."""
    srv = Server(config)
    await srv.start()
    yield srv
    await srv.stop()


@pytest.fixture
async def connect(server: Server) -> AsyncIterator[Callable[..., Any]]:
    """Open named clients to the server; all closed after the test."""
    opened: list[Player] = []

    async def _connect(name: str = "p") -> Player:
        conn = await Connection.open("127.0.0.1", server.port, name=name)
        player = Player(conn, name)
        opened.append(player)
        return player

    yield _connect
    for p in opened:
        await p.close()


async def settle(players: list[Player], seq: int, timeout: float = 10.0) -> None:
    """Read until every player has seen the update numbered ``seq``."""
    for p in players:
        while p.seq < seq:
            try:
                await p.recv(timeout)
            except TimeoutError:
                raise AssertionError(f"{p.name} saw update {p.seq}, never {seq}") from None


async def play_until(
    players: list[Player],
    done: Callable[[], bool],
    rng: random.Random,
    max_steps: int = 20000,
) -> int:
    """Play random legal actions from the views the players received until ``done``.

    The player to act (per the latest view, which all players share once
    settled) picks uniformly among its legal turn actions; returns the number
    of actions sent.
    """
    steps = 0
    while not done() and steps < max_steps:
        actor = None
        for p in players:
            v = p.view
            if v is not None and v["phase"] == "play" and v["to_act"] == p.seat:
                actor = p
                break
        if actor is None:
            # between hands: wait for the next deal
            seq = max(p.seq for p in players) + 1
            await settle(players, seq)
            continue
        assert actor.view is not None
        turn = [a for a in actor.view["legal"] if "idiot" not in a]
        choice = rng.choice(turn)
        action_id = await actor.act(strip_seat(choice))
        reply = await actor.expect("ok", where=lambda m, i=action_id: m.get("id") == i)
        assert reply["id"] == action_id
        await settle(players, actor.seq + 1)
        steps += 1
    return steps


async def finished_game(server: Server) -> tuple[list[Player], dict[str, Any]]:
    """Ana and Ben play a whole short game (R2) at table "r"; returns them and the last view."""
    players = [
        Player(await Connection.open("127.0.0.1", server.port, name=n), n) for n in ("Ana", "Ben")
    ]
    ana = players[0]
    await ana.send({"type": "create_table", "name": "r", "seats": 2, "rules": {"short_game": True}})
    await ana.expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": "r", "name": p.name})
        await p.expect("joined")
    await settle(players, 1)
    first = ana.received[-1]
    assert first["commitments"] and all(len(c["sha256"]) == 64 for c in first["commitments"])

    def over() -> bool:
        return ana.view is not None and ana.view["phase"] == "game_over"

    await play_until(players, over, random.Random(3))
    assert ana.view is not None
    return players, ana.view


async def unfinished_journal(config: ServerConfig, data: Path) -> Path:
    """A journal whose one game was dealt and is still in play."""
    config.data_dir = data
    srv = Server(config)
    await srv.start()
    players = [
        Player(await Connection.open("127.0.0.1", srv.port, name=n), n) for n in ("Ana", "Ben")
    ]
    await players[0].send({"type": "create_table", "name": "u", "seats": 2})
    await players[0].expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": "u", "name": p.name})
        await p.expect("joined")
    await settle(players, 1)
    for p in players:
        await p.close()
    await srv.stop()
    return data
