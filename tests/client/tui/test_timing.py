"""Pilot tests of timing that makes sense (issue 13): the new table's turn-time
presets, the summary between hands, and the screen while the game waits for
away players."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from craits.client.core.model import turn_on_hold
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.tui.app import CraitsApp
from craits.client.tui.dialogs.new_table import CreateTableDialog
from craits.client.tui.dialogs.summary import SummaryScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.server.app import Server, ServerConfig
from craits.server.table.outcome import Step
from textual.widgets import Input, Select

from tests.support.client import (
    ANA,
    BEN,
    ben_at_table,
    deal_order,
    log_text,
    screen_text,
    script,
    wait_for,
    wait_text,
)
from tests.support.processes import open_player
from tests.support.server import strip_seat


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


async def test_the_summary_counts_down_and_gives_way_to_the_players_turn(
    server: Any, connect: Any, make_app: Any
) -> None:
    """Between hands the summary says when the next hand comes; once dealt, whose
    turn it is; a spectator's closes by itself as the next hand is dealt (issue
    23: it stayed over the table through the hands after), a player's on the
    player's own turn, so it never hides the turn clock (protocol §11.4)."""
    server.config.hand_pause = 2.0
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    table = server.tables["t1"]
    table.config.turn_timeout = 30.0  # (the tests' server has none)
    app = make_app("Ana", table="t1")
    watcher = make_app("Cy", spectate="t1")
    async with app.run_test(size=(80, 24)) as pilot, watcher.run_test(size=(80, 24)) as wpilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="Ana's table")
        await wait_for(wpilot, lambda: watcher.model and watcher.model.view, what="Cy's table")
        table.game.hands[1] = ["7H"]  # Ana is down to 7♥ (a test shortcut inside the server)
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")  # she goes out: hand 1 is over
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await wait_text(pilot, app, "The next hand is dealt in ")
        await wait_for(wpilot, lambda: isinstance(watcher.screen, SummaryScreen), what="Cy's")
        await wait_text(wpilot, watcher, "The next hand is dealt in ")
        # hand 2: Ana deals, Ben leads; Ana's summary stays and says so, Cy's goes
        await wait_text(pilot, app, "Hand 2 is dealt: Ben to play — Enter: back to the table")
        await wait_for(wpilot, lambda: on_table(watcher), what="Cy's summary closed by itself")
        assert watcher.model.view["hand_number"] == 2
        assert isinstance(app.screen, SummaryScreen)
        # Ben plays: Ana's turn, and her summary gives way to the table by itself
        await ben.expect("update", where=lambda m: m["view"]["hand_number"] == 2)
        while ben.view["to_act"] == ben.seat:
            move = next(a for a in ben.view["legal"] if "idiot" not in a and "announce" not in a)
            await ben.act(strip_seat(move))
            await ben.expect("update")
        await wait_for(pilot, lambda: app.model.my_turn, what="Ana's turn")
        await wait_for(pilot, lambda: on_table(app), what="the summary closed by itself")


async def test_a_players_summary_gives_way_to_the_next_hands_first_move(
    server: Any, connect: Any, make_app: Any
) -> None:
    """Ana's summary stays over the table as the next hand is dealt (the table
    under it live: its top line says hand 2), and gives way by itself to the
    hand's first move, though the turn goes on to the third player, not to her
    (issue 23: a player saw the last summary until their own turn)."""
    server.config.hand_pause = 1.0
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t3", "seats": 3})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t3", "name": "Ben"})
    await ben.expect("joined")
    cid_hand = ["2H", "3H", "4H", "5H", "6H", "5C", "JH", "QH"]
    deal = [card for trio in zip(ANA, cid_hand, BEN, strict=True) for card in trio]
    # the cut (Ben deals hand 1, Ana hand 2), then two deals turning up K♥
    script(server.tables["t3"], ["2C", "AC", "KC"], [*deal, "KH"], [*deal, "KH"])
    app = make_app("Ana", table="t3")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.seat == 1, what="Ana seated")
        cid = await connect("Cid")
        await cid.send({"type": "join", "table": "t3", "name": "Cid"})
        await cid.expect("joined")
        await wait_for(pilot, lambda: app.model.my_turn, what="Ana's turn in hand 1")
        table = server.tables["t3"]
        table.game.hands[1] = ["7H"]  # (a test shortcut inside the server)
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")  # she goes out
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        summary = app.screen
        update = await cid.expect("update", where=lambda m: m["view"]["hand_number"] == 2)
        await ben.expect("update", where=lambda m: m["view"]["hand_number"] == 2)
        first = update["view"]["to_act"]
        assert update["view"]["dealer"] == 1 and first != 1  # Ana deals; another leads
        mover = ben if first == 0 else cid
        await wait_text(pilot, app, f"Hand 2 is dealt: {mover.name} to play")
        assert app.screen is summary  # dealt, nobody moved yet: it stays
        top = screen_text(app).splitlines()[0]
        assert "hand 2/15" in top, top  # the table under it is drawn as it is
        legal = mover.view["legal"]
        await mover.act(strip_seat(next(a for a in legal if "play" in a or "draw" in a)))
        await wait_for(pilot, lambda: on_table(app), what="the summary gone by itself")
        assert not app.model.my_turn  # (the turn went on to the third player)


async def test_a_new_game_takes_everyone_off_the_result_with_time_to_come_back(
    server: Any, connect: Any, make_app: Any
) -> None:
    """Ben, the creator, starts a new game from the result: Ana's result and the
    spectator Cy's go by themselves, and the new game's first turn has the
    pause between hands on top of its time (issue 23: the others were left on
    "Game over" while their turn's clock ran, and were played for)."""
    ben = await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    table = server.tables["t1"]
    table.config.turn_timeout = 30.0
    table.config.hand_pause = 4.0
    app = make_app("Ana", table="t1")
    watcher = make_app("Cy", spectate="t1")
    async with app.run_test(size=(80, 24)) as pilot, watcher.run_test(size=(80, 24)) as wpilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="Ana's table")
        await wait_for(wpilot, lambda: watcher.model and watcher.model.view, what="Cy's table")
        table.game.hand_number = 8  # the last hand, Ana down to one card (a test shortcut)
        table.game.hands[1] = ["7H"]
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")
        for client, client_pilot in ((app, pilot), (watcher, wpilot)):
            await wait_for(
                client_pilot, lambda c=client: isinstance(c.screen, SummaryScreen), what="result"
            )
            await wait_text(client_pilot, client, "Game over after hand 8")
        await ben.expect("table_info", where=lambda m: m["table"]["state"] == "finished")
        await ben.send({"type": "new_game"})
        update = await ben.expect("update", where=lambda m: m["view"]["hand_number"] == 1)
        # a person is to act: the turn's 30 s and the 4 s pause
        assert update["deadline_ms"] > 30_000, update["deadline_ms"]
        await wait_for(pilot, lambda: on_table(app), what="Ana's result gone by itself")
        await wait_for(wpilot, lambda: on_table(watcher), what="Cy's result gone by itself")
        assert app.model.view["hand_number"] == 1 and app.model.phase == "play"


async def test_while_the_game_waits_for_an_away_player_no_one_is_shown_to_play(
    server: Any, make_app: Any
) -> None:
    """Ana alone with a bot times out: away, nobody plays, the game is on hold
    (protocol §11.4). The bot is next, but the screen says the game is paused
    for her, and marks no seat as playing, until she is back."""
    app = make_app("Ana")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.online, what="connected")
        app.send({"type": "create_table", "name": "solo", "seats": 2, "turn_timeout_ms": 20_000})
        await wait_for(pilot, lambda: "solo" in app.tables, what="the table listed")
        server.tables["solo"].config.turn_timeout = 0.3  # (a test shortcut: a quick timeout)
        # the bot deals, Ana leads: her timeout move is 7♥ (her one non-wild match),
        # after which the bot draws one and is to play (R5, two players)
        script(server.tables["solo"], ["AC", "2C"], deal_order(BEN, ANA, "KH"))
        app.send({"type": "join", "table": "solo", "name": "Ana"})
        await wait_for(pilot, lambda: on_table(app), what="seated")
        app.send({"type": "add_bot"})
        await wait_for(pilot, lambda: app.model.away and app.model.on_hold, what="on hold")
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="her timeout move")
        bot = app.model.to_act
        assert bot == 1 and not app.model.my_turn  # the bot is next
        text = await wait_text(pilot, app, "Paused until you are back (basic-bot-1 plays next).")
        assert "The game waits for you. b: I'm back" in text
        assert "basic-bot-1 to play" not in text
        assert "▶" not in text  # no seat is marked as playing
        assert "paused" in text.replace("Paused", "")  # the bot's seat says it waits
        assert bot is not None and turn_on_hold(app.model, bot)
        await pilot.resize_terminal(80, 24)  # the compact table says the same
        await wait_for(pilot, lambda: app.size == (80, 24), what="80x24")
        await pilot.pause(0.1)
        small = await wait_text(pilot, app, "Paused until you are back")
        assert "▶" not in small and "basic-bot-1 to play" not in small
        server.tables["solo"].config.turn_timeout = 30
        await pilot.press("b")
        await wait_for(pilot, lambda: not app.model.on_hold, what="play on")
        await wait_for(pilot, lambda: "▶" in screen_text(app), what="a turn marked again")
        assert "Paused until" not in screen_text(app)


async def test_the_left_game_notice_is_not_left_over_the_next_table(
    server: Any, connect: Any, make_app: Any
) -> None:
    """ "You left the game…" is said in the lobby; opening another table at once
    takes it away (it was about the table left), and what is said about the new
    table stays."""
    await ben_at_table(server, connect, BEN, ANA, "KH")
    cy = await connect("Cy")
    await cy.send({"type": "create_table", "name": "t2", "seats": 3})
    await cy.expect("table_created")
    await cy.send({"type": "join", "table": "t2", "name": "Cy"})
    await cy.expect("joined")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the game")
        await pilot.press("q", "y")  # leave the game (the seat stays hers)
        await wait_for(pilot, lambda: not on_table(app), what="the lobby")
        await wait_text(pilot, app, "You left the game")
        app.send({"type": "join", "table": "t2", "name": "Ana"})
        await wait_for(pilot, lambda: on_table(app) and app.model.name == "t2", what="t2")
        await pilot.pause(0.2)
        assert "You left the game" not in screen_text(app)


async def test_leaving_mid_game_says_one_thing_that_holds(
    server: Any, connect: Any, make_app: Any
) -> None:
    """Leaving a game, the seat is marked away as the player goes: one notice
    says what happens to it (issue 23: two said opposite things). With another
    person at the table the server plays the seat; alone with a bot the game
    waits."""
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")

    def said() -> list[str]:
        return [str(n.message) for n in app._notifications]

    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the game")
        await pilot.press("q", "y")
        await wait_for(pilot, lambda: not on_table(app), what="the lobby")
        # the notice itself, not its toast on the screen (drawn later on a busy machine)
        await wait_for(pilot, lambda: any("You left" in n for n in said()), what="the notice")
        await ben.expect(
            "table_info", where=lambda m: any(p["away"] for p in m["table"]["players"])
        )
        await pilot.pause(0.2)
        assert [n for n in said() if "left" in n or "away" in n] == [
            "You left the game. The server plays your seat; press r in the lobby to go back."
        ]
        app.clear_notifications()
        app.send({"type": "create_table", "name": "solo", "seats": 2, "turn_timeout_ms": 0})
        await wait_for(pilot, lambda: "solo" in app.tables, what="the table")
        app.send({"type": "join", "table": "solo", "name": "Ana2"})
        await wait_for(pilot, lambda: on_table(app) and app.model.name == "solo", what="solo")
        app.send({"type": "add_bot", "level": "basic"})
        await wait_for(pilot, lambda: app.model.view is not None, what="the game with a bot")
        await pilot.press("q", "y")
        await wait_for(pilot, lambda: not on_table(app), what="the lobby")
        await wait_for(pilot, lambda: any("You left" in n for n in said()), what="the notice")
        await pilot.pause(0.2)
        assert [n for n in said() if "left" in n or "away" in n] == [
            "You left the game. It waits for you (nobody else plays at the table): "
            "press r in the lobby to go back."
        ]


async def test_times_up_notes_come_back_in_the_log_after_a_server_restart(
    config: ServerConfig, tmp_path: Path
) -> None:
    """A move the server played for a timed-out seat is led in the log by "Time's
    up…"; the note is kept with the hand (state.notices, protocol §7.1) in the
    journal, so the log rebuilt after a server restart still has it."""
    config = dataclasses.replace(config, min_turn_timeout=0.0, data_dir=tmp_path / "data")
    srv = Server(config)
    await srv.start()
    try:
        ana, ben = await open_player(srv.port, "Ana"), await open_player(srv.port, "Ben")
        await ana.send({"type": "create_table", "name": "h", "seats": 2, "turn_timeout_ms": 300})
        await ana.expect("table_created")
        for p in (ana, ben):
            await p.send({"type": "join", "table": "h", "name": p.name})
            await p.expect("joined")
        timed = await ana.expect(
            "update", where=lambda m: m.get("notice", {}).get("kind") == "timeout"
        )
        late = timed["notice"]["name"]
        await ana.close()
        await ben.close()
    finally:
        await srv.stop()
    srv = Server(config)
    await srv.start()
    srv.tables["h"].config.turn_timeout = 60.0  # no new timeout while the test looks
    try:
        # the hand's notices, pointing at the timeout move's first event
        watcher = await open_player(srv.port, "Wat")
        await watcher.send({"type": "spectate", "table": "h"})
        state = await watcher.expect("state")
        (first, *_) = [n for n in state["notices"] if n["kind"] == "timeout"]
        assert (first["seat"], first["name"]) == (timed["notice"]["seat"], late)
        assert state["events"][first["at"]]["event"] == timed["events"][0]["event"]
        await watcher.close()
        # Ana's client takes her seat back: the log has the note again
        store = TokenStore(tmp_path / "resume-ana.json")
        assert ana.token is not None and ana.seat is not None
        store.put(f"127.0.0.1:{srv.port} ana", ana.token, "h", "Ana", ana.seat)
        app = CraitsApp("127.0.0.1", srv.port, "Ana", store=store, retry_base=0.05)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
            who = "you" if late == "Ana" else late
            note = f"Time's up — the server played for {who}: "
            await wait_for(pilot, lambda: note in log_text(app), what="the note in the log")
    finally:
        await srv.stop()
