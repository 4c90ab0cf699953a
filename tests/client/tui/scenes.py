"""The fixed scenes the snapshot, size and looks tests draw (a scripted deal, no turn
timer): the table mid-game, the lobby with three tables; and the long heartbeat
their server needs (the ``config`` fixture, imported by the tests that use it)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest
from craits.client.tui.screens.table_screen import TableScreen
from craits.server.app import ServerConfig

from tests.support.client import ANA, BEN, deal_order, footer_keys, script, wait_for
from tests.support.server import strip_seat


@contextlib.asynccontextmanager
async def listening(*players: Any) -> AsyncIterator[None]:
    """Read what the server sends ``players`` (their connections answer its
    heartbeat pings, so none shows as offline however long the screenshots take)."""

    async def read(player: Any) -> None:
        with contextlib.suppress(Exception):
            while True:
                await player.recv(timeout=3600)

    tasks = [asyncio.create_task(read(p)) for p in players]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    """The test server's settings, with a long heartbeat: an SVG of a large screen
    holds the client's loop for a while, and under load it missed two pings and
    was dropped ("Connection lost" on the snapshot)."""
    return dataclasses.replace(config, heartbeat=120.0)


async def mid_game(server: Any, connect: Any, make_app: Any, **app_options: Any) -> Any:
    """Ben (seat 0, dealer) and Ana (this client) at t1 with no turn timer: Ana
    played 7♥, Ben drew for it and played; Ben said something. Returns (app, ben)."""
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2, "turn_timeout_ms": 0})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    script(server.tables["t1"], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    return make_app("Ana", table="t1", **app_options), ben


async def play_to_mid_game(pilot: Any, app: Any, ben: Any) -> None:
    """The moves of :func:`mid_game`, then the third card chosen."""
    app.animation_level = "none"  # nothing moves or blinks: the same screen every run
    await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
    await pilot.press("4", "enter")  # 7♥: Ben draws a card for it
    update = await ben.expect("update", where=lambda m: m["view"]["to_act"] == 0)
    legal = update["view"]["legal"]
    move = next((a for a in legal if "play" in a), legal[0])
    await ben.act(strip_seat(move))
    await wait_for(pilot, lambda: app.model.my_turn, what="Ana's turn again")
    await ben.send({"type": "chat", "text": "nice one"})
    await wait_for(pilot, lambda: app.model.chat, what="the chat")
    await pilot.press("3")


async def settle(pilot: Any, app: Any, size: tuple[int, int]) -> None:
    """Resize to ``size`` and let the screen and the Footer settle."""
    await pilot.resize_terminal(*size)
    await pilot.pause(0.2)
    await footer_keys(pilot, app)
    await pilot.pause(0.1)


async def lobby_with_tables(connect: Any) -> list[Any]:
    """Three tables in the lobby: t1 (Ben waiting), "friday night" (Cleo and Dan
    playing, short game, 30 s turns) and "quiet" (private-free, 4 seats, empty)."""
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2, "turn_timeout_ms": 0})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    cleo, dan = await connect("Cleo"), await connect("Dan")
    await cleo.send(
        {
            "type": "create_table",
            "name": "friday night",
            "seats": 4,
            "rules": {"short_game": True},
            "turn_timeout_ms": 0,
        }
    )
    await cleo.expect("table_created")
    for who, name in ((cleo, "Cleo"), (dan, "Dan")):
        await who.send({"type": "join", "table": "friday night", "name": name})
        await who.expect("joined")
    await cleo.send({"type": "start"})
    await cleo.expect("update")
    await ben.send({"type": "create_table", "name": "quiet", "seats": 4, "turn_timeout_ms": 0})
    await ben.expect("table_created")
    return [ben, cleo, dan]
