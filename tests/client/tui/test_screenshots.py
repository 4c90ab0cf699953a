"""Screenshots of the client for a side-by-side look (not a check): the lobby, a
table waiting for players, a table mid-game and the hand summary, each at 80×24
and 120×40, saved as SVG and plain text.

Skipped unless ``CRAITS_SCREENSHOTS`` names a folder to write them to; taken
before and after a change to the client's code, the two folders should hold
the same files (``diff -r``)::

    CRAITS_SCREENSHOTS=/tmp/before pytest tests/client/tui/test_screenshots.py
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from craits.client.tui.dialogs import summary
from craits.client.tui.dialogs.new_table import CreateTableDialog
from craits.client.tui.dialogs.summary import SummaryScreen
from craits.client.tui.screens.lobby_screen import LobbyScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.server.table.outcome import Step
from textual.widgets import Input, Select

from tests.support.client import (
    ANA,
    BEN,
    ben_at_table,
    deal_order,
    footer_keys,
    screen_text,
    script,
    wait_for,
    wait_text,
)
from tests.support.server import strip_seat

FOLDER = os.environ.get("CRAITS_SCREENSHOTS")
SIZES = ((80, 24), (120, 40))

pytestmark = pytest.mark.skipif(not FOLDER, reason="CRAITS_SCREENSHOTS is not set")


async def shoot(pilot: Any, app: Any, name: str) -> None:
    """Save the screen at each size as ``name-WxH.svg`` and ``.txt``."""
    assert FOLDER is not None
    folder = Path(FOLDER)
    folder.mkdir(parents=True, exist_ok=True)
    for width, height in SIZES:
        await pilot.resize_terminal(width, height)
        await pilot.pause(0.2)
        if app.screen.query("Footer"):
            await footer_keys(pilot, app)
        await pilot.pause(0.1)
        stem = f"{name}-{width}x{height}"
        app.save_screenshot(f"{stem}.svg", str(folder))
        (folder / f"{stem}.txt").write_text(screen_text(app), encoding="utf-8")
        for path in (folder / f"{stem}.svg", folder / f"{stem}.txt"):
            # the server's port changes from run to run
            text = path.read_text(encoding="utf-8").replace(f":{app.session.port}", ":PORT")
            path.write_text(text, encoding="utf-8")


async def test_screenshot_the_lobby(server: Any, connect: Any, make_app: Any) -> None:
    ben = await connect("Ben")
    await ben.send(
        {"type": "create_table", "name": "t1", "seats": 3, "rules": {"short_game": True}}
    )
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    cy, dan = await connect("Cy"), await connect("Dan")
    await cy.send({"type": "create_table", "name": "t2", "seats": 2, "turn_timeout_ms": 0})
    await cy.expect("table_created")
    for p in (cy, dan):
        await p.send({"type": "join", "table": "t2", "name": p.name})
        await p.expect("joined")
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await wait_for(pilot, lambda: "t1" in app.tables and "t2" in app.tables)
        await wait_for(pilot, lambda: app.tables["t2"].get("state") == "playing")
        await shoot(pilot, app, "lobby")


async def test_screenshot_a_waiting_table(server: Any, make_app: Any) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        app.screen.query_one("#table-name", Input).value = "mine"
        app.screen.query_one("#seat-count", Input).value = "3"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await wait_text(pilot, app, "b: add a bot")
        await shoot(pilot, app, "waiting-creator")


async def test_screenshot_a_table_mid_game(server: Any, connect: Any, make_app: Any) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    cy = await connect("Cy")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        await cy.send({"type": "spectate", "table": "t1"})
        await wait_for(pilot, lambda: app.model.spectators == 1, what="the spectator")
        await pilot.press("4", "enter")  # 7♥: Ben draws for it
        update = await ben.expect("update", where=lambda m: m["view"]["to_act"] == 0)
        legal = update["view"]["legal"]
        move = next((a for a in legal if "play" in a), legal[0])
        await ben.act(strip_seat(move))
        await wait_for(pilot, lambda: app.model.my_turn, what="Ana's turn again")
        await ben.send({"type": "chat", "text": "nice one"})
        await wait_for(pilot, lambda: app.model.chat, what="the chat")
        await pilot.press("right")
        await shoot(pilot, app, "mid-game")
        await pilot.press("c")
        app.screen.query_one("#chat-input", Input).cursor_blink = False  # (shot at any time)
        await shoot(pilot, app, "mid-game-chat")


async def test_screenshot_the_hand_summary(
    server: Any, connect: Any, make_app: Any, monkeypatch: Any
) -> None:
    ben_hand = ["3D", "9C", "2C", "4C", "QS", "KC", "JS", "5D"]
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2, "turn_timeout_ms": 0})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    script(server.tables["t1"], ["2C", "AC"], deal_order(ben_hand, ANA, "KH"))
    app = make_app("Ana", table="t1")
    monkeypatch.setattr(summary, "GRACE", 0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        table = server.tables["t1"]
        table.game.hands[1] = ["7H"]
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await wait_for(pilot, lambda: app.model.view["hand_number"] == 2, what="hand 2")
        await wait_text(pilot, app, "Hand 2 is dealt")
        await shoot(pilot, app, "summary")


async def test_screenshot_waiting_for_the_creator(server: Any, connect: Any, make_app: Any) -> None:
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 3, "turn_timeout_ms": 0})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await wait_text(pilot, app, "Waiting for the creator (Ben) to start.")
        await shoot(pilot, app, "waiting-player")


async def test_screenshot_a_spectator(server: Any, connect: Any, make_app: Any) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    cy = await connect("Cy")
    await cy.send({"type": "join", "table": "t1", "name": "Cy"})
    await cy.expect("joined")
    update = await cy.expect("update")
    move = next(a for a in update["view"]["legal"] if "play" in a)
    await cy.act(strip_seat(move))
    app = make_app("Watcher", spectate="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        await wait_text(pilot, app, "Ben to play")
        await shoot(pilot, app, "spectator")


async def test_screenshot_the_end_of_a_game(server: Any, make_app: Any) -> None:
    app = make_app("Ana")
    monkey_grace = summary.GRACE
    summary.GRACE = 0.0
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.link == "online", what="the connection")
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
            app.screen.query_one("#table-name", Input).value = "mine"
            app.screen.query_one("#timeout", Select).value = 0
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
            table = server.tables["mine"]
            script(table, ["AC", "2C"], deal_order(BEN, ANA, "KH"))
            await pilot.press("b")  # one bot (shift+b would choose its level)
            await wait_for(pilot, lambda: app.model.view is not None, what="the game")
            table.game.hand_number = 15
            table.game.hands[0] = ["7H"]
            table.publish(Step([]))
            await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
            await wait_for(pilot, lambda: app.model.state == "finished", what="finished")
            await wait_text(pilot, app, "n: start a new game")
            await shoot(pilot, app, "game-over")
    finally:
        summary.GRACE = monkey_grace


async def test_screenshot_a_hint(server: Any, connect: Any, make_app: Any) -> None:
    """Ana's turn with the expert's hint under the prompt, its card chosen (protocol §7.6)."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # before the app replaces stderr (tests/.../test_hints.py)
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.my_turn)
        await pilot.press("t")
        await wait_text(pilot, app, "Hint: ", timeout=120)
        await pilot.pause(5)  # the "thinking" notice gone
        await shoot(pilot, app, "hint")
