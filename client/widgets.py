"""Small widgets of the table screen: the hand and the logs."""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from .cards import CardStyle, is_red

CELL = 6
"""Columns per card in the hand: ``[10♥]`` and a space."""


class HandView(Widget, can_focus=True):
    """This seat's cards in a row (wrapping): playable ones in brackets and bold,
    the others dimmed, the chosen one in reverse; numbers underneath for the
    digit keys. A click chooses a card; a click on the chosen card plays it."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; }
    """

    class Clicked(Message):
        """A card was clicked: ``index`` in the shown order."""

        def __init__(self, index: int):
            super().__init__()
            self.index = index

    def __init__(self, style: CardStyle, **kwargs: Any):
        super().__init__(**kwargs)
        self.style = style
        self.cards: list[str] = []
        self.playable: set[str] = set()
        self.selected: int | None = None
        self.note: Text | None = None

    def show(
        self,
        cards: list[str],
        playable: set[str],
        selected: int | None,
        note: Text | None = None,
    ) -> None:
        """Show ``cards``; ``note`` replaces them when there are none (watching, no game)."""
        self.cards = cards
        self.playable = playable
        self.selected = selected
        self.note = note
        self.refresh(layout=True)

    def per_line(self) -> int:
        """Cards per row at the current width."""
        return max(1, self.content_size.width // CELL) if self.content_size.width else 8

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """Two lines (cards, numbers) per row of cards."""
        if not self.cards:
            return 2
        per = max(1, width // CELL)
        rows = (len(self.cards) + per - 1) // per
        return 2 * rows

    def render(self) -> Text:
        """The cards, in rows of as many as fit."""
        if not self.cards:
            return self.note or Text("")
        per = self.per_line()
        out = Text()
        for start in range(0, len(self.cards), per):
            row = self.cards[start : start + per]
            numbers = Text()
            for i, card in enumerate(row, start):
                playable = card in self.playable
                label = self.style.label(card)
                cell = f"[{label}]" if playable else f" {label} "
                style = "bold" if playable else "dim"
                if is_red(card):
                    style += " red"
                if i == self.selected:
                    style += " reverse"
                out.append(cell, style=style)
                out.append(" " * (CELL - len(cell)))
                key = str(i + 1) if i < 9 else ("0" if i == 9 else "")
                numbers.append(key.center(len(cell)) + " " * (CELL - len(cell)), style="dim")
            out.append("\n")
            out.append_text(numbers)
            if start + per < len(self.cards):
                out.append("\n")
        return out

    def on_click(self, event: events.Click) -> None:
        """Choose (or play) the clicked card."""
        offset = event.get_content_offset(self)
        if offset is None or not self.cards:
            return
        per = self.per_line()
        row = offset.y // 2
        col = offset.x // CELL
        if col >= per:
            return
        index = row * per + col
        if 0 <= index < len(self.cards):
            self.post_message(self.Clicked(index))


class WrappedLog(ScrollView, can_focus=False):
    """A log of lines (the game's events, the chat), newest at the bottom.

    Each line is wrapped to the width the log has, its continuation rows
    indented under its text (past the bullet); when the width changes (a
    resized terminal, the chat line opening) every kept line is wrapped again,
    so nothing is cut off. Adding a line or a change of size scrolls to the end,
    so the newest line is always in sight.

    Args:
        indent: columns of the continuation rows' indent (the width of a bullet).
        max_lines: lines kept; older ones are dropped.
    """

    DEFAULT_CSS = """
    WrappedLog {
        overflow-x: hidden;
        overflow-y: scroll;
    }
    """

    def __init__(self, *, indent: int = 0, max_lines: int = 300, **kwargs: Any):
        super().__init__(**kwargs)
        self.indent = indent
        self.entries: deque[tuple[Text, Text]] = deque(maxlen=max_lines)
        """The kept lines, oldest first: (prefix, text)."""
        self._rows: list[Strip] = []
        self._row_counts: deque[int] = deque()
        self._width = 0
        """The width the rows are wrapped at (0 before the log has a size)."""

    def add(self, text: Text, prefix: Text | None = None) -> None:
        """Add a line at the bottom: ``prefix`` (a bullet) then ``text``."""
        prefix = prefix if prefix is not None else Text()
        if len(self.entries) == self.entries.maxlen:
            self.entries.popleft()
            if self._row_counts:
                del self._rows[: self._row_counts.popleft()]
        self.entries.append((prefix, text))
        if self._width:
            rows = self._wrap(prefix, text, self._width)
            self._rows.extend(rows)
            self._row_counts.append(len(rows))
            self._sized()

    def clear(self) -> None:
        """Forget every line."""
        self.entries.clear()
        self._rows.clear()
        self._row_counts.clear()
        self._sized()

    def _wrap(self, prefix: Text, text: Text, width: int) -> list[Strip]:
        """``text`` wrapped to ``width`` columns: the first row after ``prefix``,
        the others indented."""
        console = self.app.console
        indent = min(self.indent, max(0, width - 1))
        lines = text.wrap(console, max(1, width - indent), overflow="fold")
        rows = []
        for i, line in enumerate(lines or [Text()]):
            row = prefix + line if i == 0 else Text(" " * indent) + line
            row.rstrip()
            strip = Strip(list(row.render(console)), row.cell_len)
            rows.append(strip.adjust_cell_length(width))
        return rows

    def _rewrap(self, width: int) -> None:
        self._width = width
        self._rows = []
        self._row_counts.clear()
        for prefix, text in self.entries:
            rows = self._wrap(prefix, text, width)
            self._rows.extend(rows)
            self._row_counts.append(len(rows))

    def _sized(self) -> None:
        """Take the rows' count as the virtual size, and show the newest."""
        self.virtual_size = Size(self._width, len(self._rows))
        self.refresh()
        self.scroll_end(animate=False, immediate=False, x_axis=False)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again for the new width; keep the newest in sight."""
        width = self.scrollable_content_region.width
        if width > 0 and width != self._width:
            self._rewrap(width)
        self._sized()

    def render_line(self, y: int) -> Strip:
        """One row of the log, as scrolled."""
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if 0 <= index < len(self._rows):
            strip = self._rows[index].crop_extend(0, width, self.rich_style)
        else:
            strip = Strip.blank(width, self.rich_style)
        return strip.apply_style(self.rich_style)
