"""Pilot tests of the hint key against a real server (protocol §7.6): ``t`` is in
the Footer on the player's turn; pressed, the expert's answer shows under the
prompt as a line ("Hint: play … (expected … points; next best …)"), its card is
chosen in the hand (Enter plays it), and the hint goes once the game moves on.
A spectator has no hint key.
"""

from __future__ import annotations

from multiprocessing import resource_tracker
from typing import Any

import pytest
from craits.client.present.hint_text import hint_card

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

pytestmark = pytest.mark.timeout(300)  # the server's expert worker starts on the first hint

WORKER = 120.0
"""Seconds the first hint may take: a worker process to start on a busy machine."""


@pytest.fixture(autouse=True)
def _tracker() -> None:
    """Start multiprocessing's resource tracker now, before an app runs: here the
    server shares the test's process with the Textual app, which replaces stderr
    while it runs, and the tracker, started by the server's first worker pool,
    hands its child stderr's descriptor (a real server runs in a process of its own)."""
    resource_tracker.ensure_running()


async def test_the_hint_key_shows_the_experts_move_and_chooses_its_card(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.my_turn, what="Ana's turn")
        assert "t Hint" in await footer_keys(pilot, app)
        assert "Hint:" not in screen_text(app)
        await pilot.press("t")
        await wait_text(pilot, app, "Hint: ", timeout=WORKER)
        hint = app.session.hints.current(app.model)
        assert hint is not None and hint["kind"] == "play"
        card = hint_card(hint)
        assert card is not None and app.model.playable(card)
        assert app.screen.selected_card == card  # chosen in the hand: Enter plays it
        line = next(row for row in screen_text(app).splitlines() if "Hint: " in row)
        assert "expected" in line and "points" in line and "next best" in line, line
        style = app.screen.style
        assert f"Hint: play {style.label(card)}" in line, line
        # the game moves on (Ana plays another card): the hint is gone with it
        other = next(c for c in app.model.hand if c != card and app.model.playable(c))
        assert app.session.requests.act(app.model.plays(other)[0])
        await wait_for(pilot, lambda: not app.model.my_turn, what="Ana's play")
        await wait_for(pilot, lambda: "Hint:" not in screen_text(app), what="the hint gone")
        assert app.session.hints.current(app.model) is None
    await ben.close()


async def test_a_spectator_has_no_hint_key(server: Any, connect: Any, make_app: Any) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    cy = await connect("Cy")
    await cy.send({"type": "join", "table": "t1", "name": "Cy"})
    await cy.expect("joined")
    app = make_app("Ana", spectate="t1")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the game")
        assert app.model.spectator
        keys = await footer_keys(pilot, app)
        assert "t Hint" not in keys and keys, keys
    await ben.close()
    await cy.close()
