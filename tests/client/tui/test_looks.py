"""The looks, chosen from the command palette and kept between runs: the light
and dark themes, reduced motion; and the motion itself: the card just played
is marked (and slides in, at full motion), cards drawn are marked "new"."""

from __future__ import annotations

from typing import Any

from craits.client.present.canvas import Canvas
from craits.client.present.felt import TablePainter, face_size
from craits.client.tui.screens.table_screen import TableScreen

from tests.client.tui.scenes import mid_game
from tests.support.client import ANA, BEN, ben_at_table, shown_in, wait_for


async def palette(pilot: Any, app: Any, command: str) -> None:
    """Run ``command`` from the command palette (Ctrl+P), as a player would."""
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: "CommandPalette" in type(app.screen).__name__, what="palette")
    await pilot.press(*command)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await wait_for(pilot, lambda: "CommandPalette" not in type(app.screen).__name__)


async def test_the_theme_and_motion_are_chosen_from_the_palette_and_kept(
    server: Any, make_app: Any, monkeypatch: Any
) -> None:
    monkeypatch.delenv("TEXTUAL_ANIMATIONS", raising=False)
    app = make_app("Ana")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        assert app.theme == "textual-dark"
        await palette(pilot, app, "Light theme")
        await wait_for(pilot, lambda: app.theme == "textual-light", what="the light theme")
        await palette(pilot, app, "Motion: reduced")
        assert app.animation_level == "basic"
    again = make_app("Ana")  # the same state folder: the next run
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: again.link == "online", what="the connection")
        assert again.theme == "textual-light"
        assert again.animation_level == "basic"


async def test_the_card_just_played_is_marked(server: Any, connect: Any, make_app: Any) -> None:
    app, _ = await mid_game(server, connect, make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        app.animation_level = "basic"  # reduced motion: marked, not moved
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        await pilot.press("4", "enter")  # 7♥
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        await pilot.pause(0.05)
        felt = app.screen.query_one("#felt")
        assert felt.fresh and felt.flight is None
        assert "new!" in "".join(shown_in(app, felt))  # said in words, not colour alone
        await wait_for(pilot, lambda: not felt.fresh, timeout=10, what="the mark to go")
        assert "new!" not in "".join(shown_in(app, felt))


async def test_at_full_motion_the_card_slides_in(server: Any, connect: Any, make_app: Any) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(120, 40)) as pilot:
        app.animation_level = "full"
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        await pilot.press("4", "enter")
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        felt = app.screen.query_one("#felt")
        await wait_for(pilot, lambda: felt.flights == 1, what="the slide")
        await wait_for(pilot, lambda: felt.flight is None, what="the card to land")
        assert "7♥" in "".join(shown_in(app, felt))
        # landed, the table shown is the table drawn whole (the drawing made
        # under the sliding card is shown again, not the felt drawn anew)
        whole = Canvas(*felt.content_size)
        size = face_size(*app.size)
        TablePainter(whole, felt.style, size).table(felt.seats, felt.middle, fresh=felt.fresh)
        assert felt.text() == whole.text()
        shown = [row.rstrip() for row in shown_in(app, felt)]
        assert shown == [row.rstrip() for row in whole.text().splitlines()], (shown, whole.text())


async def test_no_motion_marks_nothing(server: Any, connect: Any, make_app: Any) -> None:
    app, _ = await mid_game(server, connect, make_app)
    async with app.run_test(size=(120, 40)) as pilot:
        app.animation_level = "none"
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        await pilot.press("4", "enter")
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        await pilot.pause(0.05)
        felt = app.screen.query_one("#felt")
        assert not felt.fresh and felt.flight is None


async def test_the_palettes_screenshot_is_saved_where_it_can_be_and_says_where(
    server: Any, make_app: Any, monkeypatch: Any, tmp_path: Any
) -> None:
    """No ``~/Downloads`` (issue 23: a bare "Failed to save screenshot"): the
    screenshot goes to the home folder, and the notice names the file."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # (no user-dirs.dirs)
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    app = make_app("Ana")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await palette(pilot, app, "Screenshot")

        def said() -> str:
            return "\n".join(str(n.message) for n in app._notifications)

        await wait_for(pilot, lambda: "creenshot" in said(), what="the notice")
        saved = list(home.glob("*.svg"))
        assert len(saved) == 1 and "<svg" in saved[0].read_text(encoding="utf-8")
        assert str(saved[0]) in said() and "Failed" not in said()
