"""Pilot test of the rematch (protocol §11.12, issue 27) against a real server:
at the game's end the summary offers ``r`` with a counter, Ben's acceptance
counts, Ana's ``r`` starts the next game with the players one seat on, and
the summary shows the series."""

from __future__ import annotations

from typing import Any

from craits.client.present.results import rematch_offer, series_wins
from craits.client.tui.dialogs.summary import SummaryScreen
from craits.server.table.outcome import Step

from tests.support.client import (
    ANA,
    BEN,
    ben_at_table,
    footer_keys,
    on_table,
    screen_text,
    wait_for,
    wait_text,
)


async def test_the_summary_offers_the_rematch_and_r_starts_it(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        # the last hand of the game, Ana down to one card (test shortcut inside the server)
        table = server.tables["t1"]
        table.game.hand_number = 8
        table.game.hands[1] = ["7H"]
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await wait_text(pilot, app, "r: rematch (0/2 accepted)")
        wins = [(s.name, s.wins) for s in table.seats]
        assert sorted(n for _, n in wins) in ([0, 1], [1, 1])
        series = "Series: " + " · ".join(f"{name} {n}" for name, n in wins)
        assert series in screen_text(app)
        assert "r Rematch" in await footer_keys(pilot, app)
        await ben.send({"type": "rematch"})
        await wait_text(pilot, app, "r: rematch (1/2 accepted)")
        await pilot.press("r")
        # the next game: Ana one seat on (seat 0), the summary gone by itself
        await wait_for(
            pilot,
            lambda: (
                not isinstance(app.screen, SummaryScreen) and app.model.view["phase"] != "game_over"
            ),
            what="the next game",
            timeout=20.0,
        )
        assert app.model.seat == 0 and app.model.name_of(1) == "Ben"
        assert series_wins(app.model) == [wins[1], wins[0]]  # the wins moved with the players
        assert rematch_offer(app.model.info, app.model.seat) is None
