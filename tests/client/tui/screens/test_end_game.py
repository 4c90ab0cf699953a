"""The creator closes a table during its game, after the client asks "close the
table and end the game?" (issue 11, abuse 2; protocol §11.2)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from craits.client.core.model import TableModel
from craits.client.present.card_style import CardStyle
from craits.client.present.presenter import KeyContext, table_key
from craits.client.present.record_text import render_hand
from craits.client.tui.dialogs.base import ChoiceDialog, ConfirmDialog
from craits.client.tui.dialogs.new_table import CreateTableDialog
from craits.client.tui.screens.lobby_screen import LobbyScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.protocol.vocab import TableState
from rich.console import Console
from textual.widgets import Input

from tests.client.views import table_info, view
from tests.support.client import ANA, BEN, deal_order, footer_keys, script, wait_for, wait_text


def test_end_game_is_the_creators_during_a_game_only() -> None:
    online = KeyContext(online=True, player_name="Ben")
    ben = TableModel("t1", seat=0, me="Ben", info=table_info(), view=view(seat=0))
    assert table_key("end_game", ben, online) is True
    assert table_key("close_table", ben, online) is False  # the one x of a game is end_game
    offline = KeyContext(online=False, player_name="Ben")
    assert table_key("end_game", ben, offline) is None
    ana = TableModel("t1", seat=1, me="Ana", info=table_info(), view=view(seat=1))
    assert table_key("end_game", ana, KeyContext(online=True, player_name="Ana")) is False
    ben.info = table_info(state=TableState.FINISHED)
    assert table_key("end_game", ben, online) is False
    assert table_key("close_table", ben, online) is True


@pytest.mark.parametrize("turned", ["3H", "8H"])
async def test_the_creator_ends_the_game_by_closing_the_table_after_asking(
    server: Any, connect: Any, make_app: Any, turned: str
) -> None:
    """Ana deals; with a turned-up 8 she names the suit first (R3), in a dialog
    over the table (a random deal once timed this test out that way)."""
    app = make_app("Ana")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        app.screen.query_one("#table-name", Input).value = "mine"
        app.screen.query_one("#seat-count", Input).value = "2"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        script(server.tables["mine"], ["2C", "AC"], deal_order(ANA, BEN, turned))
        ben = await connect("Ben")
        await ben.send({"type": "join", "table": "mine", "name": "Ben"})
        await ben.expect("joined")
        # the screen's own model, as its keys read it (on a loaded machine the app's
        # model can say playing a moment before the screen has been given it)
        table = app.screen_stack[1]
        assert isinstance(table, TableScreen)
        await wait_for(
            pilot,
            lambda: table.model is not None and table.model.state == TableState.PLAYING,
            what="the game",
        )
        if turned == "8H":  # Ana names the suit first (R3)
            await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="suit")
            await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is table, what="the table again")
        screen = app.screen
        assert screen.check_action("close_table", ()) is False  # as before: not while playing
        assert screen.check_action("end_game", ()) is True
        assert not any(k.endswith("End game") for k in await footer_keys(pilot, app))
        # it asks first: n keeps the game going
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="asked")
        text = await wait_text(pilot, app, "and end the game?")
        assert "Close table mine and end the game?" in text and "abandoned" in text
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="kept")
        assert server.tables["mine"].status.playing
        # y ends it: the table closes for everyone, with a word of why
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="asked")
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        assert "mine" not in server.tables
        assert app.model is None and app.session.store.get(app.session.store_key) is None
        text = await wait_text(pilot, app, "You closed table mine.")
        assert "ended unfinished" in text and "abandoned" in text
        closed = await ben.expect("table_closed")
        assert closed["name"] == "mine"


@pytest.mark.parametrize("ascii", [False, True])
async def test_the_creators_footer_in_play_fits_80_columns(
    server: Any, connect: Any, make_app: Any, ascii: bool
) -> None:
    """The busiest footer, as the table's creator sees it: in play, with the
    drawn-card option, away. "x End game" applies but is left out: it would
    not fit (the rules page lists it)."""
    app = make_app("Ana", ascii=ascii)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        app.session.requests.create_table(
            {
                "type": "create_table",
                "name": "t1",
                "seats": 2,
                "turn_timeout_ms": 300,
                "rules": {"play_drawn_card": True},
            }
        )
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        script(server.tables["t1"], ["AC", "2C"], deal_order(BEN, ANA, "KH"))
        ben = await connect("Ben")
        await ben.send({"type": "join", "table": "t1", "name": "Ben"})
        await ben.expect("joined")
        await wait_for(pilot, lambda: app.model.view is not None, what="the game")
        server.tables["t1"].config.away_delay = 30
        await wait_for(pilot, lambda: app.model.away, what="Ana away")
        screen = app.screen
        for action in ("move", "play", "draw", "pass", "announce", "idiot", "back", "end_game"):
            assert screen.check_action(action, ()) is not False, action
        shown = await footer_keys(pilot, app)
        assert not any(label.endswith("End game") for label in shown), shown
        assert any(label.endswith("Leave") for label in shown), shown


def test_the_replay_of_an_abandoned_game_says_so(record: dict[str, Any]) -> None:
    abandoned = {
        **record,
        "complete": False,
        "abandoned": "closed_by_creator",
        "winners": [],
        "hands": record["hands"][:2],
    }
    console = Console(file=io.StringIO(), width=100)
    console.print(render_hand(abandoned, 1, CardStyle(ascii=True)))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "The game ended here, unfinished: abandoned, its creator closed the table." in text
    console = Console(file=io.StringIO(), width=100)
    console.print(render_hand(abandoned, 0, CardStyle(ascii=True)))
    assert "unfinished" not in console.file.getvalue()  # type: ignore[attr-defined]
