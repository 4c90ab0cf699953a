"""Pilot tests of the table screen's layout: the event log at 80 columns and wider,
and a Footer that fits 80 columns."""

from __future__ import annotations

import random
from typing import Any

import pytest
from craits.client.tui.screens.table_screen import TableScreen

from tests.support.client import (
    ANA,
    BEN,
    deal_order,
    footer_keys,
    screen_text,
    script,
    shown_in,
    wait_for,
)
from tests.support.server import play_until, settle


def squeezed(text: str) -> str:
    """``text`` without any whitespace: wrapped rows join up again."""
    return "".join(text.split())


def newest_line_in_sight(app: Any) -> bool:
    """Whether the newest event line is on the screen, whole, in the log."""
    log = app.screen.query_one("#log")
    newest = app.model.log.lines[-1].plain
    return squeezed(newest) in squeezed("".join(shown_in(app, log)))


async def test_the_event_log_shows_the_newest_line_whole(
    server: Any, connect: Any, make_app: Any
) -> None:
    # two players with long names (long event lines) play a few turns; Watcher watches
    bart = await connect("Bartholomew")
    await bart.send({"type": "create_table", "name": "t1", "seats": 2})
    await bart.expect("table_created")
    await bart.send({"type": "join", "table": "t1", "name": "Bartholomew"})
    await bart.expect("joined")
    script(server.tables["t1"], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    maxi = await connect("Maximiliana")
    await maxi.send({"type": "join", "table": "t1", "name": "Maximiliana"})
    await maxi.expect("joined")
    players = [bart, maxi]
    await settle(players, 1)
    app = make_app("Watcher", spectate="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        # six turns: nobody can go out of eight cards, the hand goes on
        await play_until(players, lambda: False, random.Random(5), max_steps=6)
        await wait_for(pilot, lambda: app.model.seq == bart.seq, what="the last turn")
        await pilot.pause(0.05)
        log = app.screen.query_one("#log")
        assert log.virtual_size.height > log.size.height  # more than fits: scrolled
        # (a log that keeps scrolling jumps at most once a second: the newest
        # line is in sight within that)
        await wait_for(pilot, lambda: newest_line_in_sight(app), what=screen_text(app))
        # the chat line opens under the log: the log is shorter, the newest line still whole
        await pilot.press("c")
        await wait_for(pilot, lambda: newest_line_in_sight(app), what=screen_text(app))
        await pilot.press("escape")
        # wider: the log takes more of the width, its lines wrapped again
        await pilot.resize_terminal(120, 40)
        await wait_for(pilot, lambda: log.size.width >= 40, what="the wider log")
        await wait_for(pilot, lambda: newest_line_in_sight(app), what=screen_text(app))
        # and narrower again: nothing cut at the right edge
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert log.size.width < 40
        await wait_for(pilot, lambda: newest_line_in_sight(app), what=screen_text(app))


@pytest.mark.parametrize("ascii", [False, True])
async def test_the_footer_fits_80_columns_when_every_key_applies(
    server: Any, connect: Any, make_app: Any, ascii: bool
) -> None:
    # the busiest footer: in play, with the drawn-card option (p), and Ana away (b)
    ben = await connect("Ben")
    await ben.send(
        {
            "type": "create_table",
            "name": "t1",
            "seats": 2,
            "turn_timeout_ms": 300,
            "rules": {"play_drawn_card": True},
        }
    )
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    script(server.tables["t1"], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    app = make_app("Ana", table="t1", ascii=ascii)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        server.tables["t1"].config.away_delay = 30  # away seats then wait: the game pauses
        await wait_for(pilot, lambda: app.model.away, what="Ana away")
        # "You are away", or, once Ben (who never acts) times out too and the
        # game is on hold, "The game waits for you": either way b applies
        await wait_for(
            pilot,
            lambda: any(t in screen_text(app) for t in ("You are away", "The game waits for you")),
            what="the away banner",
        )
        screen = app.screen
        for action in ("move", "play", "draw", "pass", "announce", "idiot", "back", "chat"):
            assert screen.check_action(action, ()) is not False, action  # each one applies
        shown = await footer_keys(pilot, app)
        assert any(label.endswith("Leave") for label in shown), shown
        # the chat line open: the keys that work in it
        await pilot.press("c")
        assert await footer_keys(pilot, app) == ["Esc Close chat"]


async def test_the_lobby_row_of_a_full_bot_table_fits_100_columns(
    server: Any, connect: Any, make_app: Any
) -> None:
    """A table of a person and three bots: its state and watchers stay on screen
    at 100 columns; bots are counted, not listed by name."""
    ana = await connect("Anastasia-Longname")
    await ana.send({"type": "create_table", "name": "bots4", "seats": 4})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "bots4", "name": "Anastasia-Longname"})
    await ana.expect("joined")
    for _ in range(3):
        await ana.send({"type": "add_bot"})
    await ana.expect("table_info", where=lambda m: m["table"]["state"] == "playing")
    app = make_app("Ben")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "bots4" in app.tables, what="the lobby")
        await wait_for(
            pilot,
            lambda: any(
                "bots4" in line and "3 bots" in line for line in screen_text(app).splitlines()
            ),
            what="the table's row",
        )
        row = next(line for line in screen_text(app).splitlines() if "bots4" in line)
        assert "hand 1/15" in row, row  # the state column is on screen
        assert "Anastasia-Longname" in row and "basic-bot" not in row, row


async def test_a_resize_while_the_table_is_taken_down_lays_nothing_out() -> None:
    """A resize that reaches the table screen while it is being taken down (its
    chat log already gone, its right column not yet: a busy machine's CI run of the
    store's test met it) lays nothing out and raises nothing."""
    from craits.client.tui.screens.table_layout import TableLayout
    from textual.app import App, ComposeResult
    from textual.containers import Vertical
    from textual.screen import Screen

    class Half(Screen[None]):
        def compose(self) -> ComposeResult:
            yield Vertical(id="right")

    class Shell(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Half())

    app = Shell()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, Half), what="the screen")
        TableLayout(app.screen).fit(60, 30)  # stacked: the chat log's rows are set
        assert not app.screen.has_class("-narrow")
