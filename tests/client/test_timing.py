"""Pilot tests of timing that makes sense (issue 13): the new table's turn-time
presets, the summary between hands, and the screen while the game waits for
away players."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from craits.client.dialogs import CreateTableDialog
from craits.client.table import TableScreen
from craits.server.app import ServerConfig
from textual.widgets import Input, Select

from tests.client.conftest import screen_text, wait_for, wait_text


def on_table(app: Any) -> bool:
    return isinstance(app.screen, TableScreen)


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    """The client tests' settings with a shortest turn of 20 s (the default is 10)."""
    return dataclasses.replace(config, min_turn_timeout=20.0)


async def test_a_new_table_offers_turn_time_presets(server: Any, make_app: Any) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        dialog = app.screen
        field = dialog.query_one("#timeout", Select)
        assert field.value == 60  # the default: a minute
        text = await wait_text(pilot, app, "Turn time")
        assert "1 min" in text
        assert not dialog.query("#timeout Input")  # nothing to type an absurd value into
        # open the list, go up to "30 s" (60 → 30), choose it
        dialog.query_one("#table-name", Input).value = "half"
        field.focus()
        await pilot.press("enter")
        await wait_text(pilot, app, "no limit")  # the whole list shows
        for preset in ("15 s", "30 s", "2 min", "5 min"):
            assert preset in screen_text(app)
        await pilot.press("up", "enter")
        await wait_for(pilot, lambda: field.value == 30, what="30 s chosen")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: on_table(app), what="the new table")
        assert server.tables["half"].config.turn_timeout == 30
        assert app.model.info["turn_timeout_ms"] == 30_000
        # back in the lobby: a preset shorter than this server's shortest (20 s) is
        # refused, and the player reads why
        await pilot.press("q")
        await wait_for(pilot, lambda: not on_table(app), what="the lobby")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        app.screen.query_one("#table-name", Input).value = "quick"
        app.screen.query_one("#timeout", Select).value = 15
        await pilot.press("ctrl+s")
        refusal = "the shortest turn at this server is 20 s"
        await wait_for(
            pilot,
            lambda: refusal in " ".join(screen_text(app).replace("▌", "").split()),
            what="the server's refusal shown",
        )
        assert "quick" not in server.tables
