"""Pilot tests of quick play (protocol §11.13, issue 27) against a real
server: the lobby's ``k`` seats the player at a new table whose top bar
counts down to the bots, who then take the free seats; ``--quick`` (the
app's ``quick``) seats the player at the table that starts soonest."""

from __future__ import annotations

from typing import Any

from craits.server.app import ServerConfig

from tests.support.client import on_table, screen_text, wait_for, wait_text


async def test_the_lobby_s_k_seats_the_player_and_bots_come_after_the_countdown(
    server: Any, config: ServerConfig, make_app: Any
) -> None:
    config.quick_play_bots_after = 3.0
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_text(pilot, app, "Quick play")
        await wait_for(pilot, lambda: app.session.online, what="online")
        await pilot.press("k")
        await wait_for(pilot, lambda: on_table(app), what="the table")
        text = await wait_text(pilot, app, "bots in")
        assert "quick-1" in text and "waiting" in text
        await wait_for(pilot, lambda: app.model.view is not None, what="the bots' game", timeout=20)
        table = server.tables["quick-1"]
        assert [s.bot for s in table.seats] == [None, "basic", "basic", "basic"]
        assert "bots in" not in screen_text(app)


async def test_quick_takes_a_seat_at_the_table_that_starts_soonest(
    server: Any, config: ServerConfig, connect: Any, make_app: Any
) -> None:
    config.quick_play_bots_after = 600.0
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    app = make_app("Ana", quick=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the game at t1")
        assert app.model.name == "t1" and app.model.seat == 1
