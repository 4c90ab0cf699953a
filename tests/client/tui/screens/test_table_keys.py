"""Pilot tests of the table's keys against a real server: the hand has the keys
again after the request for a bigger terminal; the Footer shows only the keys
that can act in the game's phase; every card of a long hand has its digit."""

from __future__ import annotations

import re
from typing import Any

import pytest
from craits.client.present.presenter import digit_choice
from craits.client.tui.dialogs import summary
from craits.client.tui.dialogs.summary import SummaryScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.server.table.outcome import Step

from tests.support.client import (
    ANA,
    BEN,
    ben_at_table,
    footer_keys,
    screen_text,
    shown_in,
    wait_for,
    wait_text,
)

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
        # so also when the terminal comes back narrower (the log under the table)
        await pilot.resize_terminal(50, 15)
        await wait_text(pilot, app, "Make the terminal")
        await pilot.resize_terminal(60, 24)
        await wait_for(pilot, lambda: app.focused is app.screen.query_one("#hand"), what="focus")
        await pilot.resize_terminal(80, 24)
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
        table.publish(Step([]))
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


LONG = ["2S", "3S", "4S", "5S", "6S", "7S", "9S", "TS", "JS", "QS", "5H", "3C"]
"""Twelve cards, in the order shown: ten spades, then 5♥ (the 11th, the one
card that can be played on K♥) and 3♣ (the 12th)."""


async def test_every_card_of_a_long_hand_has_its_digit(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        # Ana holds twelve cards (test shortcut inside the server)
        table = server.tables["t1"]
        table.game.hands[1] = list(LONG)
        table.publish(Step([]))
        await wait_for(pilot, lambda: len(app.model.hand) == 12, what="twelve cards")
        await pilot.pause(0.05)
        assert app.model.hand == LONG
        # under the cards: 1…9, 0, then 1, 2 again (none left without a digit)
        hand = app.screen.query_one("#hand")
        digits = shown_in(app, hand)[4]
        assert re.findall(r"\d", digits) == [*"1234567890", "1", "2"], digits
        # a digit chooses among the ten the chosen card is in; again, the next with it
        await pilot.press("home")
        assert app.screen.selected_card == "2S"
        steps = (("1", "5H"), ("2", "3C"), ("2", "3S"), ("0", "QS"), ("1", "2S"), ("1", "5H"))
        for key, card in steps:
            await pilot.press(key)
            assert app.screen.selected_card == card, (key, app.screen.selected_card)
        rows = shown_in(app, hand)
        assert "5♥" in rows[1], rows  # raised: it can be played
        assert re.findall(r"\d\^?", rows[4])[10] == "1^", rows  # the 11th card chosen
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.model.view["top"] == "5H", what="the play")
        # the help says how the digits go past ten
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: "RulesScreen" in type(app.screen).__name__, what="help")
        text = "".join(screen_text(app).split())
        assert "the11thcard" in text, text


def test_a_digit_chooses_within_the_ten_then_the_next() -> None:
    assert [digit_choice(12, 0, d) for d in range(10)] == [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert digit_choice(12, 10, 0) == 0  # again: the next card with 1, round to the first
    assert digit_choice(12, 10, 1) == 11  # in the second ten
    assert digit_choice(12, 10, 4) == 4  # no 15th card: the 5th
    assert digit_choice(8, 3, 3) == 3  # a short hand: the digit's card, pressed again or not
    assert digit_choice(8, 0, 8) is None  # no 9th card
    assert digit_choice(25, 4, 4) == 14 and digit_choice(25, 14, 4) == 24
    assert digit_choice(25, 24, 4) == 4
