"""The key bar lets go of the keys it showed before: a visitor's client (and a
terminal's) does not grow with every change of the keys on offer."""

from __future__ import annotations

import gc
from typing import ClassVar

from craits.client.tui.widgets.key_footer import KeyFooter
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets._footer import FooterKey


class KeysApp(App[None]):
    """A screen with three keys and the client's key bar."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "Draw"),
        Binding("p", "play", "Play"),
        Binding("q", "leave", "Leave"),
    ]

    def compose(self) -> ComposeResult:
        yield KeyFooter(essential=("leave",))

    def action_draw(self) -> None:
        """Nothing (a key to show)."""

    def action_play(self) -> None:
        """Nothing (a key to show)."""

    def action_leave(self) -> None:
        """Nothing (a key to show)."""


def keys_alive() -> int:
    gc.collect()
    return sum(isinstance(o, FooterKey) for o in gc.get_objects())


async def test_a_key_bar_shown_anew_keeps_no_old_keys() -> None:
    app = KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        footer = app.query_one(KeyFooter)
        await pilot.pause()
        shown = len(footer.query(FooterKey))
        assert shown >= 3  # (and the command palette's key, when it fits)
        before = keys_alive()
        # What a player's keys do all game: the keys on offer change (a card
        # selected, a turn begins), and the bar is made anew each time.
        for _ in range(40):
            first = footer.query(FooterKey).first()
            app.screen.refresh_bindings()
            await pilot.pause()
            await pilot.pause()
            assert footer.query(FooterKey).first() is not first  # made anew
        assert len(footer.query(FooterKey)) == shown
        # Textual's data binding kept every key ever made in the bar's watchers
        # (120 more here): only the keys shown now may be alive.
        assert keys_alive() <= before + shown
