"""Without colour (NO_COLOR): nothing is drawn dark on dark; attributes carry meaning."""

from __future__ import annotations

from typing import Any

from craits.client.tui.screens.table_screen import TableScreen
from rich.color import ColorType

from tests.support.client import ANA, BEN, ben_at_table, screen_text, segments, wait_for


def coloured(app: Any) -> list[str]:
    """Visible text drawn with an explicit colour or dimmed (none should be, without colour)."""
    bad = []
    for seg in segments(app):
        if not seg.text.strip() or seg.style is None or seg.control:
            continue
        style = seg.style
        for colour in (style.color, style.bgcolor):
            if colour is not None and colour.type is not ColorType.DEFAULT:
                bad.append(f"{seg.text!r} {style}")
                break
        else:
            if style.dim:
                bad.append(f"{seg.text!r} {style}")
    return bad


async def test_no_color_draws_in_the_terminal_colours(
    server: Any, connect: Any, make_app: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.no_color
        await wait_for(pilot, lambda: app.model and app.model.view, what="the deal")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await wait_for(pilot, lambda: "d Draw" in screen_text(app), what="the footer")
        bad = coloured(app)
        assert bad == [], bad[:10]
        segs = [s for s in segments(app) if s.style is not None and not s.control]
        # the chosen card is in reverse, playable ones bold (and raised a row)
        assert any(s.text.startswith("8♠") and s.style.reverse for s in segs)
        assert any(s.text.startswith("7♥") and s.style.bold for s in segs)
        # red and black differ in style too: red cards underlined, black ones not
        assert any(s.text.startswith("7♥") and s.style.underline for s in segs)
        assert not any(s.text.startswith("9♠") and s.style.underline for s in segs)
        # greyed footer keys still differ from active ones: struck through
        assert any("Draw" in s.text and s.style.strike for s in segs)
        assert not any("Play" in s.text and s.style.strike for s in segs)


async def test_no_color_lobby_cursor_is_reversed(
    server: Any, connect: Any, make_app: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: "t1" in screen_text(app), what="the lobby")

        def reversed_row() -> bool:
            segs = [s for s in segments(app) if s.style is not None and not s.control]
            return any("t1" in s.text and s.style.reverse for s in segs)

        await wait_for(pilot, reversed_row, what="the cursor's row reversed")
        assert coloured(app) == []
