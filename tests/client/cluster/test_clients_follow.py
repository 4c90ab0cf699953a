"""``craits-client``'s session and ``craits-bot`` follow a cluster's redirects
(protocol §7.4): asked at one node for a table held by another, they land at
the other and sit down there; a request sent round in circles is given up."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.core.session import Session
from craits.client.present.card_style import CardStyle
from craits.client.present.describe import Narrator
from craits.protocol import encode
from craits.protocol.client import ConnectError, Connection
from craits.protocol.redirect import request
from craits.protocol.wire import FrameReader, decode
from craits.server.app import Server
from craits.server.bots.network.cli import build_parser, run

from tests.support.client import Told
from tests.support.cluster import until


async def evening_on(node: Server, open_player: Callable[..., Any], seats: int) -> Any:
    """Ana opens the table ``evening`` on ``node`` and sits down."""
    ana = await open_player(node.port, "Ana")
    await ana.send({"type": "create_table", "name": "evening", "seats": seats})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "evening", "name": "Ana"})
    await ana.expect("joined")
    return ana


def seated(node: Server, name: str) -> bool:
    """Whether a seat of ``node``'s table ``evening`` is ``name``'s."""
    table = node.tables.get("evening")
    return table is not None and any(s.name == name for s in table.seats)


async def test_the_client_session_follows_a_redirect_and_sits_down(
    nodes: list[Server], open_player: Callable[..., Any], tmp_path: Path
) -> None:
    a, _, c = nodes
    await evening_on(c, open_player, seats=3)
    await until(lambda: a.cluster is not None and a.cluster.lobby.node_of("evening") is not None)
    store = TokenStore(tmp_path / "resume.json")
    session = Session(
        "127.0.0.1", a.port, "Ben", Told(), narrator=Narrator(CardStyle()), store=store,
        table="evening",
    )  # fmt: skip
    task = asyncio.create_task(session.run())
    try:
        await until(lambda: session.model is not None and session.model.seat is not None)
        assert session.link.port == c.port and seated(c, "Ben")
        saved = session.saved_seat()  # kept under the address the player gave
        assert saved is not None and saved["table"] == "evening"
    finally:
        session.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_the_bot_follows_a_redirect_and_sits_down(
    nodes: list[Server], open_player: Callable[..., Any]
) -> None:
    _, b, c = nodes
    await evening_on(c, open_player, seats=3)
    await until(lambda: b.cluster is not None and b.cluster.lobby.node_of("evening") is not None)
    args = build_parser().parse_args(
        [f"127.0.0.1:{b.port}", "--table", "evening", "--name", "Robo", "--quiet"]
    )
    bot = asyncio.create_task(run(args))
    try:
        await until(lambda: seated(c, "Robo"))
    finally:
        bot.cancel()
        await asyncio.gather(bot, return_exceptions=True)


async def test_a_request_sent_round_in_circles_is_given_up() -> None:
    """A peer that answers every join with a redirect to itself (a broken
    cluster): the client stops after two hops."""
    opened = 0

    async def peer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal opened
        opened += 1
        frames = FrameReader(65536)
        port = writer.get_extra_info("sockname")[1]
        while data := await reader.read(65536):
            for body in frames.frames(data):
                message = decode(body, 65536)
                if message["type"] == "hello":
                    reply = {"type": "welcome", "version": 1, "server": "craits"}
                else:
                    reply = {"type": "redirect", "address": f"127.0.0.1:{port}", "table": "t"}
                writer.write(encode(reply))
        writer.close()

    server = await asyncio.start_server(peer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]

    async def opener(host: str, p: int) -> Connection:
        return await Connection.open(host, p, name="Ana")

    conn = await opener("127.0.0.1", port)
    try:
        with pytest.raises(ConnectError, match="more than 2"):
            await request(conn, {"type": "join", "table": "t", "name": "Ana"}, opener)
        assert opened == 3  # the first connection and two hops
    finally:
        await conn.close()
        server.close()
        await server.wait_closed()
