"""Snapshot tests of the table mid-game: the screen exported as SVG
(``App.export_screenshot``) at 80×24, 120×40 and 200×50, in the dark and the
light theme, and with ``--ascii``, compared with the SVGs committed in
``tests/client/snapshots/``. The position is fixed (a scripted deal, no turn
timer, no motion), so the screen is the same every run.

After a change to the look, look at the new screens, then write them again::

    CRAITS_UPDATE_SNAPSHOTS=1 pytest tests/client/test_snapshots.py

A screen that differs is written next to the committed one as ``NAME.new.svg``
(ignored by git) for a side-by-side look.

The ``--ascii`` screens are also read as text for any character that is not
ASCII, at every size, in the lobby, at the table and in the too-small screen.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from craits.client.lobby import LobbyScreen
from craits.client.table import TableScreen

from tests.client.conftest import deal_order, footer_keys, screen_text, script, wait_for
from tests.client.test_table import ANA, BEN
from tests.server.conftest import strip_seat

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = bool(os.environ.get("CRAITS_UPDATE_SNAPSHOTS"))
SIZES = ((80, 24), (120, 40), (200, 50))
THEMES = {"dark": "textual-dark", "light": "textual-light"}


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


def compare(app: Any, name: str) -> None:
    """The screen as SVG against ``snapshots/NAME.svg`` (written when updating)."""
    svg = app.export_screenshot(title=name)
    svg = re.sub(rf":{app.port}\b", ":PORT", svg)
    path = SNAPSHOTS / f"{name}.svg"
    new = SNAPSHOTS / f"{name}.new.svg"
    if UPDATE or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
        new.unlink(missing_ok=True)
        if not UPDATE:
            pytest.fail(f"{path.name} was missing: written; look at it, then commit it")
        return
    if svg != path.read_text(encoding="utf-8"):
        new.write_text(svg, encoding="utf-8")
        pytest.fail(
            f"the screen differs from {path.name}: see {new.name}; "
            "CRAITS_UPDATE_SNAPSHOTS=1 writes it when the change is wanted"
        )
    new.unlink(missing_ok=True)


async def test_the_table_mid_game_in_each_size_and_theme(
    server: Any, connect: Any, make_app: Any
) -> None:
    app, ben = await mid_game(server, connect, make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_mid_game(pilot, app, ben)
        for theme, name in THEMES.items():
            app.theme = name
            for size in SIZES:
                await settle(pilot, app, size)
                compare(app, f"table-{theme}-{size[0]}x{size[1]}")


def not_ascii(text: str) -> list[str]:
    """The lines of ``text`` holding a character that is not ASCII."""
    return [line for line in text.splitlines() if not line.isascii()]


async def test_the_ascii_table_is_ascii_only(server: Any, connect: Any, make_app: Any) -> None:
    app, ben = await mid_game(server, connect, make_app, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_mid_game(pilot, app, ben)
        for size in SIZES:
            await settle(pilot, app, size)
            text = screen_text(app)
            assert not_ascii(text) == [], text
            assert "7H" in text  # suits as letters
            if size != (200, 50):
                compare(app, f"table-ascii-{size[0]}x{size[1]}")
        # the request for a bigger terminal
        await pilot.resize_terminal(50, 15)
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Maketheterminalatleast80x20" in "".join(text.split()), text
        assert not_ascii(text) == [], text
        # the rules page, and the lobby
        await pilot.resize_terminal(80, 24)
        await pilot.press("question_mark")
        await pilot.pause(0.3)
        assert not_ascii(screen_text(app)) == [], screen_text(app)
        await pilot.press("escape")
        await pilot.press("q", "y")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await wait_for(pilot, lambda: "t1" in screen_text(app), what="the lobby's list")
        assert not_ascii(screen_text(app)) == [], screen_text(app)


@pytest.mark.parametrize(
    ("size", "shown"),
    [((50, 15), False), ((60, 30), True), ((80, 20), True), ((79, 20), False)],
)
async def test_a_terminal_too_small_says_so(
    server: Any, connect: Any, make_app: Any, size: tuple[int, int], shown: bool
) -> None:
    """Below the least size the table asks for a bigger terminal in words, instead
    of panels that vanish; from 40 columns the log goes under the table."""
    app, _ = await mid_game(server, connect, make_app)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        await pilot.pause(0.2)
        text = screen_text(app)
        if shown:
            assert "Make the terminal" not in text, text
            assert app.screen.query_one("#hand").region.height > 0
            assert "K♥" in text, text  # the top card
        else:
            squeezed = "".join(text.split())
            assert "Maketheterminalatleast80×20" in squeezed, text
            assert f"itis{size[0]}×{size[1]}now" in squeezed, text
