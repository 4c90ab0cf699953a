"""Pilot tests of the client's sessions: spectating, reconnecting, resuming after a
restart, the end of a hand and of a game, timeouts, chat."""

from __future__ import annotations

import asyncio
from typing import Any

from craits.client.core import reconnecting as client_app
from craits.client.tui.dialogs import summary
from craits.client.tui.dialogs.base import ConfirmDialog
from craits.client.tui.dialogs.new_table import CreateTableDialog
from craits.client.tui.dialogs.summary import SummaryScreen
from craits.client.tui.screens.lobby_screen import LobbyScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.protocol.client import Connection
from craits.server.table.outcome import Step
from textual.widgets import Checkbox, Input, Select

from tests.support.client import (
    ANA,
    BEN,
    ben_at_table,
    deal_order,
    footer_keys,
    log_text,
    screen_text,
    script,
    wait_for,
    wait_text,
)
from tests.support.server import strip_seat


def on_table(app: Any) -> bool:
    return isinstance(app.screen, TableScreen)


async def test_spectate_shows_the_table_without_a_hand(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    cy = await connect("Cy")
    await cy.send({"type": "join", "table": "t1", "name": "Cy"})
    await cy.expect("joined")
    await cy.expect("update")  # the table filled: the game started
    app = make_app("Watcher", spectate="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        await pilot.pause(0.05)
        model = app.model
        assert model.spectator and model.hand == []
        assert model.view["hand"] is None
        text = screen_text(app)
        assert "You are watching — spectators see no hand." in text
        assert "you are watching" in text
        assert "Ben" in text and "Cy" in text and "8 cards" in text
        assert "Cy to play" in text
        screen = app.screen
        for action in ("play", "draw", "announce", "idiot", "move"):
            assert screen.check_action(action, ()) is False, action
        # the spectator follows the game
        move = next(a for a in cy.view["legal"] if "play" in a)
        await cy.act(strip_seat(move))
        await wait_for(pilot, lambda: app.model.view["top"] == move["play"], what="Cy's play")
        assert f"Cy played {app.style.label(move['play'])}" in log_text(app)
        # Ben sees one spectator
        info = await ben.expect("table_info", where=lambda m: m["table"]["spectators"] == 1)
        assert info["table"]["spectators"] == 1


async def test_reconnects_after_a_drop_and_resumes_after_a_restart(
    server: Any, connect: Any, make_app: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    # The client's reconnections wait until the test has looked at the offline
    # screen: a retry timer alone would end that state after ~2 s, and on a
    # loaded machine one poll of the app can take that long and miss it.
    reconnect = asyncio.Event()

    class HeldConnection(Connection):
        @classmethod
        async def open(cls, *args: Any, **kwargs: Any) -> Any:
            await reconnect.wait()
            return await super().open(*args, **kwargs)

    app = make_app("Ana", table="t1")
    table = server.tables["t1"]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        hand = list(app.model.hand)
        monkeypatch.setattr(client_app, "Connection", HeldConnection)
        # the server drops Ana's connection
        (conn,) = [c for c in server.clients if c.name == "Ana"]
        conn.abort()
        await wait_for(pilot, lambda: app.link == "reconnecting", what="the drop")
        text = await wait_text(pilot, app, "reconnecting…")
        assert "Waiting for the connection" in text
        assert app.screen.check_action("play", ()) is None  # greyed while offline
        assert app.screen.check_action("pass", ()) is False  # no play_drawn_card: hidden
        reconnect.set()
        await wait_for(pilot, lambda: app.link == "online", what="the reconnection")
        await wait_for(pilot, lambda: table.seats[1].member is not None, what="the resume")
        await wait_for(pilot, lambda: "reconnecting" not in screen_text(app), what="no banner")
        assert on_table(app) and app.model.seat == 1 and app.model.hand == hand
        assert app.screen.check_action("play", ()) is True
    # quit (the connection drops); a new client with the same state file takes the seat back
    saved = app.session.store.get(app.session.store_key)
    assert saved is not None and saved["table"] == "t1" and saved["seat"] == 1
    again = make_app("Ana", store=app.session.store)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(again) and again.model.view, what="resume")
        assert again.model.seat == 1 and again.model.hand == hand
        await wait_for(pilot, lambda: table.seats[1].member is not None, what="seat back")
        ana_conn = table.seats[1].member
        # another name on the same account (same state file) never takes Ana's seat
        other = make_app("Cy", store=app.session.store)
        async with other.run_test(size=(80, 24)) as pilot2:
            await wait_for(pilot2, lambda: other.link == "online", what="Cy online")
            await pilot2.pause(0.3)
            assert not on_table(other)
            assert "Rejoin" not in screen_text(other)
        assert table.seats[1].member is ana_conn


async def test_hand_end_summary(server: Any, connect: Any, make_app: Any, monkeypatch: Any) -> None:
    ben_hand = ["3D", "9C", "2C", "4C", "QS", "KC", "JS", "5D"]
    await ben_at_table(server, connect, ben_hand, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        # down to the last card: Ana holds only 7♥ (test shortcut inside the server)
        table = server.tables["t1"]
        table.game.hands[1] = ["7H"]
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")
        monkeypatch.setattr(summary, "GRACE", 3.0)  # however slow the machine
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await pilot.press("enter")  # an Enter right after the play does not close it
        await pilot.pause(0.1)
        assert isinstance(app.screen, SummaryScreen)
        text = screen_text(app)
        assert "Hand 1 of 15" in text
        assert "went out" in text
        # Ben's hand revealed (he drew one for the 7), his 3 cancelled his 9, the points
        result = app.model.last_result
        ben = result["results"][0]
        assert ben["cancelled"] == [["3D", "9C"]]
        assert "3♦→9♣" in text
        assert str(ben["points"]) in text
        for card in ben["cards"]:
            assert app.style.label(card) in text
        # the next hand is dealt meanwhile; the summary stays until closed
        await wait_for(pilot, lambda: app.model.view["hand_number"] == 2, what="hand 2")
        await wait_text(pilot, app, "Hand 2 is dealt: Ben to play — Enter: back to the table")
        monkeypatch.setattr(summary, "GRACE", 0.0)
        await pilot.press("enter")
        await wait_for(pilot, lambda: on_table(app), what="back to the table")
        assert app.screen.check_action("summary", ()) is True
        assert "Hand 1 is over — You went out" in log_text(app)


async def test_create_add_bot_game_over_and_new_game(
    server: Any, connect: Any, make_app: Any
) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        dialog = app.screen
        dialog.query_one("#table-name", Input).value = "mine"
        dialog.query_one("#opt-short_game", Checkbox).value = True
        dialog.query_one("#timeout", Select).value = 0
        text = await wait_text(pilot, app, "Short game")
        assert "Short game" in text and "Face cards" in text
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: on_table(app), what="the new table")
        table = server.tables["mine"]
        assert table.rules.short_game and table.config.turn_timeout == 0
        # Ana (seat 0) plays first: the bot cuts 2♣ and deals
        script(table, ["AC", "2C"], deal_order(BEN, ANA, "KH"))
        await wait_text(pilot, app, "b: add a bot")
        assert app.screen.check_action("start", ()) is None  # one player only
        await pilot.press("b")  # a basic bot at once (B chooses the level)
        await wait_for(pilot, lambda: app.model.view is not None, what="the game")
        assert app.model.name_of(1) == "basic-bot-1"
        assert app.screen.check_action("close_table", ()) is False  # not while a game runs
        # the last hand of the game, down to one card (test shortcut inside the server)
        table.game.hand_number = 8
        table.game.hands[0] = ["7H"]
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await wait_for(pilot, lambda: app.model.state == "finished", what="finished")
        assert app.table_screen().check_action("close_table", ()) is True  # once it is over
        text = await wait_text(pilot, app, "Game over after hand 8")
        assert "Game over after hand 8" in text
        assert "Ana wins the game!" in text
        assert "n: start a new game" in text
        await pilot.press("n")
        await wait_for(
            pilot, lambda: app.model.view["phase"] == "play" and app.model.view["hand_number"] == 1
        )
        assert on_table(app)


async def test_timeout_notice(server: Any, connect: Any, make_app: Any) -> None:
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2, "turn_timeout_ms": 1000})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    script(server.tables["t1"], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        # Ana's first turn keeps the 1 s deadline it was dealt; every later turn
        # (Ben's next, so he is not timed out and away too, which would put the
        # game on hold) has 30 s, and an away seat waits 30 s
        server.tables["t1"].config.turn_timeout = 30
        server.tables["t1"].config.away_delay = 30
        # Ana does nothing: the server plays for her
        await wait_for(pilot, lambda: "server played for you" in log_text(app), what="timeout")
        await wait_for(pilot, lambda: app.model.away, what="away")
        assert not app.model.on_hold
        await wait_text(pilot, app, "You are away")
        assert app.screen.check_action("back", ()) is True
        # b: back; the server stops playing for Ana
        await pilot.press("b")
        await wait_for(pilot, lambda: not app.model.away, what="back")
        await wait_for(pilot, lambda: "You are away" not in screen_text(app), what="no notice")
        assert app.screen.check_action("back", ()) is False


async def test_alone_with_a_bot_and_away_the_game_waits_and_says_so(
    server: Any, connect: Any, make_app: Any
) -> None:
    """One person and a bot: once the person is away nobody is playing, so the
    server holds the game (protocol §11.4) and the screen says it waits for
    them, not that the server plays on."""
    app = make_app("Ana")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.online, what="connected")
        app.send({"type": "create_table", "name": "solo", "seats": 2, "turn_timeout_ms": 300})
        await wait_for(pilot, lambda: "solo" in app.tables, what="the table listed")
        app.send({"type": "join", "table": "solo", "name": "Ana"})
        await wait_for(pilot, lambda: on_table(app), what="seated")
        app.send({"type": "add_bot"})
        await wait_for(pilot, lambda: app.model.view is not None, what="the deal")
        # Ana does nothing: timed out once, then away; with only a bot left, the game waits
        await wait_for(pilot, lambda: app.model.away and app.model.on_hold, what="on hold")
        text = await wait_text(pilot, app, "The game waits for you")
        assert "the server plays your turns" not in text
        seq = server.tables["solo"].seq
        await pilot.pause(0.5)
        assert server.tables["solo"].seq == seq  # nothing played while it waits
        server.tables["solo"].config.turn_timeout = 30
        await pilot.press("b")
        await wait_for(pilot, lambda: not app.model.on_hold, what="play on")
        await wait_for(
            pilot,
            lambda: "The game waits for you. b" not in screen_text(app),
            what="the prompt no longer says the game waits",
        )


async def test_leave_returns_to_the_lobby(server: Any, connect: Any, make_app: Any) -> None:
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 3})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "t1" in app.tables, what="the lobby")
        assert isinstance(app.screen, LobbyScreen)
        await wait_for(
            pilot, lambda: all(w in screen_text(app) for w in ("t1", "1/3", "Ben")), what="t1"
        )
        await pilot.press("j")
        await wait_for(pilot, lambda: on_table(app), what="the table")
        await wait_text(pilot, app, "Waiting for the creator (Ben) to start.")
        # chat both ways; what others write is shown as written, never as markup
        await ben.send({"type": "chat", "text": "[b]hi[/b] [link=x]y"})
        await wait_for(pilot, lambda: app.model.chat, what="chat")
        await wait_text(pilot, app, "Ben: [b]hi[/b] [link=x]y")
        await pilot.press("c", *"hello", "enter")
        line = await ben.expect("chat", where=lambda m: m["name"] == "Ana")
        assert line["text"] == "hello"
        # back to the cards
        await wait_for(pilot, lambda: app.screen.query_one("#hand").has_focus, what="the focus")
        assert app.session.store.get(app.session.store_key) is not None
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        assert app.model is None
        assert (
            app.session.store.get(app.session.store_key) is None
        )  # a seat freed before the game is forgotten
        await wait_for(pilot, lambda: len(app.tables["t1"]["players"]) == 1, what="seat freed")


async def test_a_spectator_whose_table_is_gone_goes_back_to_the_lobby(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Watcher", spectate="t1")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app), what="the table")
        # the table survives a drop: the spectator watches it again
        (conn,) = [c for c in server.clients if c.name == "Watcher"]
        conn.abort()
        await wait_for(
            pilot,
            lambda: any(c.name == "Watcher" and c is not conn for c in server.clients),
            what="the reconnection",
        )
        await wait_for(pilot, lambda: server.tables["t1"].spectators, what="watching again")
        assert on_table(app)
        # a restart without a journal: the table is no more
        (conn,) = [c for c in server.clients if c.name == "Watcher"]
        del server.tables["t1"]
        conn.abort()
        await wait_for(pilot, lambda: not on_table(app), what="back to the lobby")
        assert app.model is None
        await wait_text(pilot, app, "Table t1 is gone")


async def test_leave_when_the_server_says_not_at_a_table(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Watcher", spectate="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app), what="the table")
        (conn,) = [c for c in server.clients if c.name == "Watcher"]
        conn.table = None  # the server forgot this spectator
        await pilot.press("q")
        await wait_for(pilot, lambda: not on_table(app), what="back to the lobby")
        assert app.model is None


async def test_the_seats_field_takes_a_typed_digit(
    server: Any, connect: Any, make_app: Any
) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        dialog = app.screen
        dialog.query_one("#table-name", Input).value = "four"
        await pilot.press("tab")  # to the seats field, holding "2"
        seats = dialog.query_one("#seat-count", Input)
        assert app.focused is seats and seats.value == "2"
        await pilot.press("5")
        assert seats.value == "5"
        await pilot.press("end", "4")  # whatever the cursor, the digit replaces
        assert seats.value == "4"
        await pilot.press("x")
        assert seats.value == "4"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "four" in server.tables, what="the table")
        assert server.tables["four"].seating.capacity == 4


async def test_join_on_a_full_table_says_why(server: Any, connect: Any, make_app: Any) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    cy = await connect("Cy")
    await cy.send({"type": "join", "table": "t1", "name": "Cy"})
    await cy.expect("joined")
    app = make_app("Ana")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: len(app.tables.get("t1", {}).get("players") or []) == 2)
        # greyed
        await wait_for(pilot, lambda: app.screen.check_action("join", ()) is None, what="greyed")
        await pilot.press("j")
        await wait_text(pilot, app, "Table t1 is full")
        assert not on_table(app)


async def test_the_creator_closes_the_table(server: Any, connect: Any, make_app: Any) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        app.screen.query_one("#table-name", Input).value = "mine"
        app.screen.query_one("#seat-count", Input).value = "3"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: on_table(app), what="the new table")
        # Ana opened the table: x closes it
        assert app.screen.check_action("close_table", ()) is True
        assert "x Close table" in await footer_keys(pilot, app)
        ben = make_app("Ben", table="mine")
        async with ben.run_test(size=(80, 24), notifications=True) as ben_pilot:
            # (from here on, the screens' own checks answer for Ben's app: only keys
            # and the screen are looked at for Ana's)
            await wait_for(ben_pilot, lambda: on_table(ben), what="Ben at the table")
            await wait_for(pilot, lambda: len(app.model.players) == 2, what="Ben seated")
            # Ben did not open it: he is not offered it
            assert ben.screen.check_action("close_table", ()) is False
            assert not any(k.endswith("Close table") for k in await footer_keys(ben_pilot, ben))
            # it asks first: n keeps the table
            await pilot.press("x")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="asked")
            await wait_text(pilot, app, "Close table mine?")
            await pilot.press("n")
            await wait_for(pilot, lambda: on_table(app), what="not closed")
            assert "mine" in server.tables
            # y closes it: both go back to the lobby, with a word of why
            await pilot.press("x")
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="asked")
            await pilot.press("y")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="lobby")
            assert "mine" not in server.tables
            assert app.model is None and app.session.store.get(app.session.store_key) is None
            await wait_text(pilot, app, "You closed table mine.")
            await wait_for(ben_pilot, lambda: isinstance(ben.screen, LobbyScreen), what="Ben")
            assert ben.model is None and ben.session.store.get(ben.session.store_key) is None
            await wait_text(ben_pilot, ben, "Ana closed table mine.")
            await wait_for(pilot, lambda: "mine" not in app.tables, what="the list")
