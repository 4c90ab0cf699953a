"""Snapshot tests of the table mid-game: the screen exported as SVG
(``App.export_screenshot``) at 80×24, 120×40 and 200×50, in the dark and the
light theme, and with ``--ascii``, compared with the SVGs committed in
``tests/client/tui/snapshots/``. The position is fixed (a scripted deal, no turn
timer, no motion), so the screen is the same every run.

After a change to the look, look at the new screens, then write them again::

    CRAITS_UPDATE_SNAPSHOTS=1 pytest tests/client/tui/test_snapshots.py

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
from craits.client.tui.dialogs.base import ChoiceDialog, ConfirmDialog
from craits.client.tui.dialogs.scores import ScoreSheetScreen
from craits.client.tui.dialogs.summary import GRACE, SummaryScreen
from craits.client.tui.screens.lobby_screen import LobbyScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.server.table.outcome import Step

from tests.client.tui.scenes import (
    config,  # noqa: F401  (the long heartbeat of the snapshots' server)
    listening,
    lobby_with_tables,
    mid_game,
    play_to_mid_game,
    settle,
)
from tests.support.client import (
    footer_keys,
    screen_text,
    wait_for,
    wait_text,
)

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = bool(os.environ.get("CRAITS_UPDATE_SNAPSHOTS"))
SIZES = ((80, 24), (120, 40), (200, 50))
THEMES = {"dark": "textual-dark", "light": "textual-light"}


def same(svg: str) -> str:
    """An SVG with its ``terminal-NNN`` class prefix taken out: rich derives it
    from the segments' styles, links and handlers included, which may differ
    where nothing drawn does (the lobby's first drawing)."""
    return re.sub(r"\bterminal-\d+", "terminal", svg)


def compare(app: Any, name: str) -> None:
    """The screen as SVG against ``snapshots/NAME.svg`` (written when updating)."""
    svg = app.export_screenshot(title=name)
    svg = re.sub(rf":{app.session.port}\b", ":PORT", svg)
    path = SNAPSHOTS / f"{name}.svg"
    new = SNAPSHOTS / f"{name}.new.svg"
    if UPDATE and path.exists() and same(svg) == same(path.read_text(encoding="utf-8")):
        new.unlink(missing_ok=True)
        return  # (unchanged: the file is left as it is)
    if UPDATE or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(svg, encoding="utf-8")
        new.unlink(missing_ok=True)
        if not UPDATE:
            pytest.fail(f"{path.name} was missing: written; look at it, then commit it")
        return
    if same(svg) != same(path.read_text(encoding="utf-8")):
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
        async with listening(ben):
            await shoot(pilot, app, "table")


def not_ascii(text: str) -> list[str]:
    """The lines of ``text`` holding a character that is not ASCII."""
    return [line for line in text.splitlines() if not line.isascii()]


async def test_the_ascii_table_is_ascii_only(server: Any, connect: Any, make_app: Any) -> None:
    app, ben = await mid_game(server, connect, make_app, ascii=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await play_to_mid_game(pilot, app, ben)
        async with listening(ben):
            await shoot(pilot, app, "table", ascii=True)
            for size in SIZES:
                await settle(pilot, app, size)
                text = screen_text(app)
                assert not_ascii(text) == [], text
                assert "7H" in text  # suits as letters
            # the request for a bigger terminal
            await pilot.resize_terminal(50, 15)
            await wait_for(
                pilot,
                lambda: "Maketheterminalatleast80x20" in "".join(screen_text(app).split()),
                what="the request for a bigger terminal",
            )
            text = screen_text(app)
            assert not_ascii(text) == [], text
            # the rules page, and the lobby
            await pilot.resize_terminal(80, 24)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: app.screen.query("#rules"), what="the rules")
            await pilot.pause(0.1)
            assert not_ascii(screen_text(app)) == [], screen_text(app)
            await pilot.press("pagedown", "down")  # its scroll bar part way down
            await wait_for(
                pilot, lambda: app.screen.query_one("#rules").scroll_y > 0, what="scrolled"
            )
            assert not_ascii(screen_text(app)) == [], screen_text(app)
            await pilot.press("escape")
            # a key's refusal, said in a line
            await pilot.press("i")
            await wait_for(pilot, lambda: app._notifications, what="the refusal")
            await wait_text(pilot, app, "Nobody to call idiot on")
            assert not_ascii(screen_text(app)) == [], screen_text(app)
            app.clear_notifications()
            # the suit chooser (an 8), and the question before leaving mid-game
            await pilot.press("1", "enter")
            await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="the suits")
            await pilot.pause(0.1)
            assert not_ascii(screen_text(app)) == [], screen_text(app)
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
            await pilot.press("q")
            await wait_for(
                pilot, lambda: isinstance(app.screen, ConfirmDialog), what="the question"
            )
            await pilot.pause(0.1)
            assert not_ascii(screen_text(app)) == [], screen_text(app)
            await pilot.press("y")
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


# ------------------------------------------------ the lobby, the summary, the sheet

PHONE = (44, 30)
"""A phone's browser, about (``craits-web``): the stacked layouts."""


async def shoot(pilot: Any, app: Any, screen: str, ascii: bool = False) -> None:
    """Snapshots of the screen shown now, called ``screen``: each size in each
    theme (each size but the largest with ``--ascii``), then the phone's width."""
    if ascii:
        app.theme = THEMES["dark"]
        for size in SIZES[:2]:
            await settle(pilot, app, size)
            compare(app, f"{screen}-ascii-{size[0]}x{size[1]}")
        return
    for theme, name in THEMES.items():
        app.theme = name
        for size in SIZES:
            await settle(pilot, app, size)
            compare(app, f"{screen}-{theme}-{size[0]}x{size[1]}")
    app.theme = THEMES["dark"]


async def test_the_lobby_in_each_size_and_theme(server: Any, connect: Any, make_app: Any) -> None:
    players = await lobby_with_tables(connect)
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot, listening(*players):
        await wait_for(pilot, lambda: "quiet" in screen_text(app), what="the lobby's list")
        await shoot(pilot, app, "lobby")
        await settle(pilot, app, PHONE)
        compare(app, f"lobby-dark-{PHONE[0]}x{PHONE[1]}")


async def test_the_ascii_lobby_and_its_dialog_are_ascii_only(
    server: Any, connect: Any, make_app: Any
) -> None:
    players = await lobby_with_tables(connect)
    app = make_app("Ana", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot, listening(*players):
        await wait_for(pilot, lambda: "quiet" in screen_text(app), what="the lobby's list")
        await shoot(pilot, app, "lobby", ascii=True)
        for size in (*SIZES, PHONE):
            await settle(pilot, app, size)
            assert not_ascii(screen_text(app)) == [], screen_text(app)
        # the new-table dialog, and a refusal's line
        await pilot.press("n")
        await wait_for(pilot, lambda: "Create" in screen_text(app), what="the dialog")
        assert not_ascii(screen_text(app)) == [], screen_text(app)


def snapshot_name(screen: str, size: tuple[int, int], theme: str = "dark") -> str:
    """A snapshot's name: ``lobby-dark-44x30``."""
    return f"{screen}-{theme}-{size[0]}x{size[1]}"


async def end_the_first_hand(pilot: Any, server: Any, app: Any) -> None:
    """At :func:`mid_game`'s table before a move: Ana is left 7♥ alone (a test
    shortcut inside the server) and goes out with it; Ben's cards are counted
    (his 3♦ cancels a card) and hand 2 is dealt. Waits for the summary."""
    app.animation_level = "none"
    await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
    table = server.tables["t1"]
    table.game.hands[1] = ["7H"]
    table.publish(Step([]))
    await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="the summary")
    await wait_for(pilot, lambda: app.model.view["hand_number"] == 2, what="hand 2 dealt")
    await wait_text(pilot, app, "Hand 2 is dealt: Ben to play")


@pytest.mark.parametrize("ascii", [False, True], ids=["themes", "ascii"])
async def test_the_summary_and_the_score_sheet_in_each_size_and_theme(
    server: Any, connect: Any, make_app: Any, ascii: bool
) -> None:
    app, ben = await mid_game(server, connect, make_app, ascii=ascii)
    async with app.run_test(size=(80, 24)) as pilot, listening(ben):
        await end_the_first_hand(pilot, server, app)
        await shoot(pilot, app, "summary", ascii)
        if ascii:
            for size in (*SIZES, PHONE):
                await settle(pilot, app, size)
                assert not_ascii(screen_text(app)) == [], screen_text(app)
        else:
            await settle(pilot, app, PHONE)
            compare(app, snapshot_name("summary", PHONE))
            assert "10♦" in screen_text(app)  # Ben's cards, under his name
        await pilot.resize_terminal(80, 24)
        app.screen._opened -= GRACE  # (Enter and Escape close it once it has been read)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), what="the sheet")
        await wait_text(pilot, app, "1 of 15 hands played")
        await shoot(pilot, app, "sheet", ascii)
        if ascii:
            for size in (*SIZES, PHONE):
                await settle(pilot, app, size)
                assert not_ascii(screen_text(app)) == [], screen_text(app)
        else:
            await settle(pilot, app, PHONE)
            compare(app, snapshot_name("sheet", PHONE))


async def test_the_table_at_a_phones_width(server: Any, connect: Any, make_app: Any) -> None:
    """At 44×30 (a phone's browser) the table is stacked: the seats and the pile,
    the hand, the prompt, then the log; the Footer keeps play, draw, help, leave."""
    app, ben = await mid_game(server, connect, make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_mid_game(pilot, app, ben)
        async with listening(ben):
            await settle(pilot, app, PHONE)
            compare(app, snapshot_name("table", PHONE))
            keys = await footer_keys(pilot, app)
            assert {"⏎ Play", "? Rules", "q Leave"} <= set(keys), keys
