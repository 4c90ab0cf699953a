"""Narrow screens (a phone's browser, ~44 columns): the Footer keeps the keys
that leave, help and play (:mod:`craits.client.tui.widgets.key_footer`); the lobby keeps the
name, seats and state columns (:func:`craits.client.tui.screens.lobby_screen.lobby_columns`); the
table is stacked down to 40×24 and asks for a bigger terminal below."""

from __future__ import annotations

from typing import Any

import pytest
from craits.client.tui.dialogs.new_table import CreateTableDialog, OptionBox
from craits.client.tui.dialogs.private import InviteDialog
from craits.client.tui.screens.lobby_screen import COLUMNS, PADDING, lobby_columns
from craits.client.tui.screens.table_screen import TableScreen
from craits.client.tui.widgets.key_footer import Key, fit_keys
from craits.server.table.outcome import Step
from rich.text import Text

from tests.client.tui.scenes import (
    config,  # noqa: F401  (the long heartbeat of the snapshots' server)
    listening,
    lobby_with_tables,
    mid_game,
    play_to_mid_game,
    settle,
)
from tests.support.client import footer_keys, screen_text, segments, shown_in, wait_for


def key(
    action: str, word: str, short: str = "", enabled: bool = True, essential: bool = False
) -> Key:
    return Key(action, action[0], word, short, enabled, essential)


KEYS = [
    key("play", "Play", essential=True),
    key("draw", "Draw", enabled=False),
    key("announce", "One card", "One"),
    key("chat", "Chat"),
    key("rules", "Rules", essential=True),
    key("leave", "Leave", essential=True),
]
"""``p Play d Draw a One card c Chat r Rules l Leave``: 48 columns with margins."""


def test_the_footer_keeps_every_key_when_they_fit() -> None:
    assert fit_keys(KEYS, 48).actions == [k.action for k in KEYS]
    assert [w for _, w in fit_keys(KEYS, 48).keys][2] == "One card"
    assert not fit_keys(KEYS, 48).palette
    assert fit_keys(KEYS, 60, palette_width=12).palette  # the palette's key too
    assert not fit_keys(KEYS, 59, palette_width=12).palette  # the palette's key goes first


def test_the_footer_uses_short_words_then_leaves_out_greyed_keys_first() -> None:
    fitted = fit_keys(KEYS, 43)  # short words: "a One" saves 5 columns
    assert fitted.actions == [k.action for k in KEYS]
    assert [w for _, w in fitted.keys][2] == "One"
    fitted = fit_keys(KEYS, 36)  # then the greyed draw key goes
    assert fitted.actions == ["play", "announce", "chat", "rules", "leave"]
    fitted = fit_keys(KEYS, 30)  # then the rightmost that can act, chat
    assert fitted.actions == ["play", "announce", "rules", "leave"]
    fitted = fit_keys(KEYS, 24)
    assert fitted.actions == ["play", "rules", "leave"]


def test_the_essential_keys_stay_without_their_words_at_the_last() -> None:
    fitted = fit_keys(KEYS, 12)
    assert fitted.actions == ["play", "rules", "leave"]
    assert [w for _, w in fitted.keys] == ["Play", "", ""]


ROWS = [
    [Text(t) for t in ("friday night", "2/4", "hand 12/15", "0", "Cleo, Dan", "short; 30 s turns")],
    [Text(t) for t in ("t1", "1/2", "waiting", "3", "Ben (away)", "standard; no timer")],
]


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (120, ["Table", "Seats", "State", "Watching", "Players", "Rules"]),
        (70, ["Table", "Seats", "State", "Players", "Rules"]),
        (60, ["Table", "Seats", "State", "Players"]),
        (42, ["Table", "Seats", "State", "Players"]),
        (36, ["Table", "Seats", "State"]),
    ],
)
def test_a_narrow_lobby_leaves_out_watchers_then_rules_then_players(
    width: int, shown: list[str]
) -> None:
    columns = lobby_columns(width, ROWS)
    assert [str(COLUMNS[i][0]) for i, _ in columns] == shown
    assert sum(w + 2 * PADDING for _, w in columns) <= width


def test_the_lobby_columns_fit_every_width() -> None:
    for width in range(34, 200):
        columns = lobby_columns(width, ROWS)
        assert sum(w + 2 * PADDING for _, w in columns) <= width, width
        assert [i for i, _ in columns][:3] == [0, 1, 2]
        assert all(w >= 3 for _, w in columns), (width, columns)


async def test_the_lobby_at_a_phones_width_keeps_its_keys(
    server: Any, connect: Any, make_app: Any
) -> None:
    players = await lobby_with_tables(connect)
    app = make_app("Ana")
    async with app.run_test(size=(40, 24)) as pilot, listening(*players):
        await wait_for(pilot, lambda: "quiet" in screen_text(app), what="the lobby's list")
        for width in (40, 44, 50, 60, 79):
            await pilot.resize_terminal(width, 24)
            await pilot.pause(0.1)
            keys = await footer_keys(pilot, app)
            assert {"j Join", "? Rules", "q Quit"} <= set(keys), (width, keys)
            lines = screen_text(app).splitlines()
            header = next(line.split() for line in lines if line.split()[:1] == ["Table"])
            assert header[:3] == ["Table", "Seats", "State"], (width, header)
            status = "".join(lines[: lines.index(next(x for x in lines if "Table" in x))])
            assert "you are Ana" in " ".join(status.split()), (width, status)
            assert "friday" in screen_text(app)
        # the new-table dialog: its rule options one under another, each whole
        await pilot.resize_terminal(44, 30)
        await pilot.press("n")
        await wait_for(pilot, lambda: "Open a table" in screen_text(app), what="the dialog")
        await pilot.pause(0.1)
        text = screen_text(app)
        for label in ("Short game: hands 1–8 (R2)", "Face cards act: J Q♠ K (R11)"):
            assert label in text, text


def first_row(app: Any, widget: Any) -> str:
    """The first row of ``widget`` as the screen shows it now ("" when out of sight)."""
    rows = shown_in(app, widget)
    return rows[0].strip() if rows else ""


async def test_the_new_table_dialog_at_a_phones_width_shows_every_choice_whole(
    server: Any, make_app: Any
) -> None:
    """At 44 and 50 columns by 24 rows (a phone's browser, ~400 px; issue 23)
    every choice of the new-table dialog reads whole, its box saying on or off
    in plain text (``[X]``, ``[ ]``); the form scrolls to what has the focus,
    down to the Create button."""
    app = make_app("Ana")
    async with app.run_test(size=(44, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="the form")
        for width in (44, 50):
            await pilot.resize_terminal(width, 24)
            await pilot.pause(0.1)
            boxes = list(app.screen.query(OptionBox))
            assert boxes[-1].id == "private"
            for box in boxes:
                box.focus()
                label = str(box.label)
                assert "Private" not in label or label == "Private: by invite only"
                await wait_for(
                    pilot,
                    lambda b=box, text=label: first_row(app, b) == f"[ ] {text}",  # type: ignore[misc]
                    what=f"{label!r} whole at {width} columns",
                )
                await pilot.press("space")
                await wait_for(
                    pilot,
                    lambda b=box, text=label: first_row(app, b) == f"[X] {text}",  # type: ignore[misc]
                    what="the choice on",
                )
                await pilot.press("space")
                await wait_for(pilot, lambda b=box: not b.value, what="off")  # type: ignore[misc]
            turn = app.screen.query_one("#timeout")
            turn.focus()
            await wait_for(pilot, lambda t=turn: "1 min" in first_row(app, t), what="turn time")  # type: ignore[misc]
            assert turn.region.right <= width
        create = app.screen.query_one("#do-create")
        create.focus()
        await wait_for(pilot, lambda: "Create" in first_row(app, create), what="Create in sight")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Ana's table" in server.tables, what="the table")


async def test_the_invite_dialog_at_a_phones_width_says_every_key_whole(
    server: Any, make_app: Any
) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(44, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        app.session.requests.create_table(
            {"type": "create_table", "name": "secret", "seats": 2, "private": True}
        )
        await wait_for(pilot, lambda: isinstance(app.screen, InviteDialog), what="the invite")
        await pilot.pause(0.1)
        keys = " ".join(" ".join(shown_in(app, app.screen.query_one("#invite-keys"))).split())
        assert keys == "c: copy the link · Enter: close · at the table, m: the creator's menu"


async def test_the_table_at_phone_widths_keeps_leave_help_and_play(
    server: Any, connect: Any, make_app: Any
) -> None:
    app, ben = await mid_game(server, connect, make_app)
    async with app.run_test(size=(80, 30)) as pilot:
        await play_to_mid_game(pilot, app, ben)
        async with listening(ben):
            for width in (40, 44, 52, 60, 79):
                await pilot.resize_terminal(width, 30)
                await pilot.pause(0.1)
                keys = await footer_keys(pilot, app)
                assert {"⏎ Play", "? Rules", "q Leave"} <= set(keys), (width, keys)
                assert app.screen.has_class("-narrow")
                text = screen_text(app)
                assert "Make the terminal" not in text, text
                assert "Your turn" in text and "7♥" in text, text  # the prompt, the pile
                assert text.splitlines()[0].strip() == "t1 · hand 1/15 · 0 watching · Ana"
            # a tall phone: the log under the table gets half the rows over 30
            await pilot.resize_terminal(44, 50)
            await pilot.pause(0.1)
            # (#right itself is hidden, out of every frame: its children fill it)
            log, chat = (app.screen.query_one(x).region for x in ("#log", "#chatlog"))
            assert chat.bottom - log.y == 9 + 10
            # below 40×24: the request for a bigger terminal
            for size in ((39, 30), (60, 23)):
                await pilot.resize_terminal(*size)
                await pilot.pause(0.1)
                squeezed = "".join(screen_text(app).split())
                assert "(or40×24,thelogunderthetable)" in squeezed, squeezed
                assert isinstance(app.screen, TableScreen)


async def test_at_the_least_stacked_size_the_prompt_stays(
    server: Any, connect: Any, make_app: Any
) -> None:
    """At 40×24 (the least stacked terminal) the player keeps the prompt and the
    hand's digits (issue 23: they were pushed off the screen): the log and chat
    under the table get what is left, one line each, and give way to a hand of
    two rows of cards; "b: I'm back" shows when the seat is away."""
    app, ben = await mid_game(server, connect, make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_mid_game(pilot, app, ben)
        async with listening(ben):
            await pilot.resize_terminal(40, 24)
            await wait_for(pilot, lambda: app.screen.has_class("-narrow"), what="stacked")
            screen = app.screen

            async def prompt() -> str:
                await pilot.pause(0.1)
                return " ".join(" ".join(shown_in(app, screen.query_one("#prompt"))).split())

            assert "Your turn" in await prompt()
            hand_rows = shown_in(app, screen.query_one("#hand"))
            assert hand_rows[-1].split() == ["1", "2", "3^", "4", "5", "6", "7"], hand_rows
            text = screen_text(app)
            assert "Ben drew a card" in text and "Ben: nice one" in text  # log and chat
            table = server.tables["t1"]
            table.seats[1].away = True  # (a test shortcut inside the server)
            table.info_changed()
            await wait_for(pilot, lambda: app.model.away, what="away")
            assert "b: I'm back" in await prompt()
            # twelve cards: two rows of them, the prompt still there, the log gives way
            # (the server may play one of them for her at once: she is away)
            table.game.hands[1] = [*ANA_TWELVE]
            table.publish(Step([]))
            await wait_for(pilot, lambda: len(app.model.hand) >= 11, what="twelve cards")
            await wait_for(
                pilot,
                lambda: screen.query_one("#hand").size.height > 7,
                what="the second row",
            )
            assert "b: I'm back" in await prompt()
            prompt_region = screen.query_one("#prompt").region
            assert prompt_region.bottom <= 23, prompt_region  # above the keys' line
            hand = screen.query_one("#hand").region
            felt = screen.query_one("#felt").region
            assert felt.height >= 7 and felt.bottom <= hand.y and hand.bottom <= prompt_region.y


ANA_TWELVE = ["2S", "3S", "5S", "6S", "3H", "5H", "6H", "2D", "5D", "6D", "2C", "5C"]
"""A hand of twelve cards (more than a row of faces holds at 40 columns)."""


def luminance(rgb: tuple[int, int, int]) -> float:
    """A colour's relative luminance (WCAG 2)."""

    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c / 255) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours: 1 (the same) to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


LEAST_CONTRAST = 2.0
"""The least contrast of anything drawn (text, frames) with its background: the
greyed keys and the cards that cannot be played are about 2.1, on purpose."""


def faint(app: Any) -> list[str]:
    """What is drawn with less than :data:`LEAST_CONTRAST` on its background."""
    out = []
    for seg in segments(app):
        style = seg.style
        if not seg.text.strip() or style is None or seg.control:
            continue
        if style.color is None or style.bgcolor is None:
            continue
        ratio = contrast(style.color.get_truecolor(), style.bgcolor.get_truecolor())
        if ratio < LEAST_CONTRAST:
            out.append(f"{seg.text.strip()[:20]!r} {ratio:.2f}")
    return out


async def test_the_table_sizes_and_both_themes_are_readable(
    server: Any, connect: Any, make_app: Any
) -> None:
    """Compact faces at 80×24, full ones from 100×30, large ones and a wider log
    from 160×45; in the light and the dark theme nothing (text, the panels'
    frames) is drawn too faint to read on its background."""
    app, ben = await mid_game(server, connect, make_app)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_mid_game(pilot, app, ben)
        async with listening(ben):
            widest_log = tallest = 0
            for size in ((80, 24), (100, 30), (200, 50)):
                await settle(pilot, app, size)
                card = app.screen.query_one("#hand").plan.spots[0]
                assert card.h > tallest, size  # the faces grow with the screen
                tallest = card.h
                log = app.screen.query_one("#log").region.width
                assert log > widest_log, size  # the log grows with the screen
                widest_log = log
                for theme in ("textual-light", "textual-dark"):
                    app.theme = theme
                    await pilot.pause(0.1)
                    assert faint(app) == [], (size, theme, faint(app)[:10])
            assert widest_log > 64  # beyond the side panel's width below 160×45
