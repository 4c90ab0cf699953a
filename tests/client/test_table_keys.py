"""Pilot tests of the table's keys against a real server: the hand has the keys
again after the request for a bigger terminal; the Footer shows only the keys
that can act in the game's phase; every card of a long hand has its digit."""

from __future__ import annotations

from typing import Any

import pytest
from craits.client import summary
from craits.client.summary import SummaryScreen
from craits.client.table import TableScreen

from tests.client.conftest import footer_keys, wait_for, wait_text
from tests.client.test_table import ANA, BEN, ben_at_table

GAME_KEYS = ("←→ Card", "⏎ Play", "d Draw", "o One card", "i Idiot")
"""The Footer's keys that play, at Ana's turn (no drawn-card option: no ``p``)."""


def said(app: Any) -> list[str]:
    """The notifications shown, oldest first."""
    return [n.message for n in app._notifications]


def on_table(app: Any) -> bool:
    """Whether the table screen is the one shown."""
    return isinstance(app.screen, TableScreen)


async def test_the_hand_has_the_keys_again_after_a_terminal_too_small(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        assert list(GAME_KEYS) == (await footer_keys(pilot, app))[: len(GAME_KEYS)]
        # too small: the request for a bigger terminal, the panels hidden
        await pilot.resize_terminal(50, 15)
        await wait_text(pilot, app, "Make the terminal")
        # big enough again: the hand has the focus, the game's keys are back
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: app.focused is app.screen.query_one("#hand"), what="focus")
        shown = await footer_keys(pilot, app)
        assert list(GAME_KEYS) == shown[: len(GAME_KEYS)], shown
        # and they act: 7♥ (the 4th card) chosen with the arrows, played with Enter
        await pilot.press("right", "right", "right")
        assert app.screen.selected_card == "7H"
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        # the chat line open when the terminal shrinks: it has the keys again after
        await pilot.press("c")
        await pilot.resize_terminal(50, 15)
        await wait_text(pilot, app, "Make the terminal")
        await pilot.resize_terminal(100, 30)
        chat = app.screen.query_one("#chat-input")
        await wait_for(pilot, lambda: app.focused is chat, what="the chat line's focus")
        await pilot.press("h", "i", "enter")
        await wait_for(pilot, lambda: app.model.chat, what="the chat line sent")


@pytest.mark.parametrize("creator", [True, False])
async def test_at_game_over_the_footer_shows_what_can_be_done(
    server: Any, connect: Any, make_app: Any, monkeypatch: Any, creator: bool
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        shown = await footer_keys(pilot, app)
        assert list(GAME_KEYS) == shown[: len(GAME_KEYS)], shown
        assert shown[-2:] == ["? Rules", "q Leave"], shown
        if creator:  # Ben, who opened the table, hands the role to Ana
            await ben.send({"type": "hand_over", "seat": 1})
            await wait_for(pilot, lambda: app.model.is_creator("Ana"), what="Ana the creator")
        assert app.model.is_creator("Ana") is creator
        # the last hand of the game, Ana down to one card (test shortcut inside the server)
        table = server.tables["t1"]
        table.game.hand_number = 8
        table.game.hands[1] = ["7H"]
        table._after([])
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await wait_for(pilot, lambda: app.model.state == "finished", what="game over")
        monkeypatch.setattr(summary, "GRACE", 0.0)
        await pilot.press("enter")
        await wait_for(pilot, lambda: on_table(app), what="back to the table")
        shown = await footer_keys(pilot, app)
        # none of the keys that play: only what can be done, and ? and q whole
        assert not set(GAME_KEYS) & set(shown), shown
        assert shown[-2:] == ["? Rules", "q Leave"], shown
        assert "c Chat" in shown
        if creator:
            assert {"n New game", "x Close table"} <= set(shown), shown
        # a key that plays says why it does nothing, rather than nothing
        await pilot.press("d")
        await wait_for(
            pilot,
            lambda: "The game is over (h: the score sheet)." in said(app),
            what="the refusal",
        )
