"""The game log and the chat: lines wrapped to the width once, kept as rows, scrolled
in jumps when they come fast.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .cached import CachedRows
from .motion import call_later


class WrappedLog(ScrollView, CachedRows, can_focus=False):
    """A log of lines (the game's events, the chat), newest at the bottom.

    Each line is wrapped to the width the log has, its continuation rows
    indented under its text (past the bullet); when the width changes (a
    resized terminal, the chat line opening) every kept line is wrapped again,
    so nothing is cut off. Adding a line or a change of size scrolls to the end,
    so the newest line is always in sight.

    Jump scroll, as a terminal does when text comes faster than it is read: a
    full log scrolls up at most once every ``jump_after`` seconds. Scrolling
    paints every row of the log again (Textual has no terminal scroll regions),
    so a line that comes within that time of the last scroll is shown with the
    next one: at the latest ``jump_after`` after it, or with a line that comes
    later than that, in one scroll of several rows. Lines that come slower (a
    game between people) scroll at once; so does anything while the log is not
    full (only the new rows are painted). A scroll that waits is made with the
    first line to come after that time, or on its own a quarter of it later.

    Args:
        indent: columns of the continuation rows' indent (the width of a bullet).
        max_lines: lines kept; older ones are dropped.
        jump_after: seconds (0: every line scrolls at once).
    """

    DEFAULT_CSS = """
    WrappedLog {
        overflow-x: hidden;
        overflow-y: scroll;
    }
    """

    def __init__(
        self, *, indent: int = 0, max_lines: int = 300, jump_after: float = 0.0, **kwargs: Any
    ):
        super().__init__(**kwargs)
        self.indent = indent
        self.jump_after = jump_after
        self._scrolled_at = float("-inf")
        """When the log last scrolled (``time.monotonic``, seconds)."""
        self._jump: asyncio.TimerHandle | None = None
        """The scroll waiting for ``jump_after`` to pass, if any."""
        self.entries: deque[tuple[Text, Text]] = deque(maxlen=max_lines)
        """The kept lines, oldest first: (prefix, text)."""
        self._rows: list[Strip] = []
        self._row_counts: deque[int] = deque()
        self._width = 0
        """The width the rows are wrapped at (0 before the log has a size)."""
        self._base: tuple[str, Style] | None = None

    def add(self, text: Text, prefix: Text | None = None) -> None:
        """Add a line at the bottom: ``prefix`` (a bullet) then ``text``."""
        prefix = prefix if prefix is not None else Text()
        if len(self.entries) == self.entries.maxlen:
            self.entries.popleft()
            if self._row_counts:
                dropped = self._row_counts.popleft()
                del self._rows[:dropped]
                self._dropped(dropped)
        self.entries.append((prefix, text))
        if self._width:
            rows = self._wrap(prefix, text, self._width)
            self._rows.extend(rows)
            self._row_counts.append(len(rows))
            self._sized(len(rows))

    def _dropped(self, rows: int) -> None:
        """``rows`` rows gone from the top: the rows in sight are the same ones,
        that many rows higher up (nothing to paint), unless they were among them."""
        y = self.scroll_offset.y
        if y < rows:
            self.scroll_to(y=0, animate=False, immediate=True)
            self.refresh()
            return
        self.set_reactive(WrappedLog.scroll_y, float(y - rows))
        self.set_reactive(WrappedLog.scroll_target_y, float(y - rows))
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            self.vertical_scrollbar.position = y - rows

    def clear(self) -> None:
        """Forget every line."""
        self._stop_jump()
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

    def _sized(self, added: int | None = None) -> None:
        """Take the rows' count as the virtual size, and show the newest. The
        scroll bar is always there (``overflow-y: scroll``), so a new size needs
        no new layout of the screen: only the scroll bar is told.

        ``added``: the rows just added at the end (None: anything may have
        changed). The log is scrolled to its end at once, in the same frame
        (a deferred scroll painted the log twice per line); when that moved it,
        its rows are painted again (every row shows another line now), else
        only the rows added (the log is not full yet)."""
        size = Size(self._width, len(self._rows))
        if size != self.virtual_size:
            self.set_reactive(WrappedLog.virtual_size, size)
            self._scroll_update(size)
        wait = self._scrolled_at + self.jump_after - time.monotonic()
        if added is not None and self._jump is not None:
            if wait > 0:
                return  # (a scroll is waiting: it shows this line too)
            self._stop_jump()  # its time has come: it scrolls with this line
        before = self.scroll_offset.y
        if added is not None and self.max_scroll_y > before and wait > 0:
            # scrolled a moment ago: this line scrolls with the first to come
            # after the jump time (in the frame that shows that update), or a
            # quarter of it later if none comes (a frame of its own)
            self._jump = call_later(self, wait + self.jump_after / 4, self._jump_now)
            return
        self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
        moved = self.scroll_offset.y != before  # (then Textual refreshed the rows)
        if moved:
            self._scrolled_at = time.monotonic()
        if added is None:
            self.refresh()
        elif added and not moved:
            self.refresh_lines(len(self._rows) - added, added)

    def _jump_now(self) -> None:
        """The scroll that waited: show the newest line."""
        self._jump = None
        self._sized(0)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolled: paint the rows again, and move the scroll bar if it is drawn.
        (A scroll bar of no width, as the game log's, is left alone: told of
        each scroll, it asked Textual to arrange the whole screen again.)"""
        if self.show_vertical_scrollbar and self.styles.scrollbar_size_vertical:
            self.vertical_scrollbar.position = new_value
        if round(old_value) != round(new_value):
            self.refresh(self.size.region)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again for the new width; keep the newest in sight."""
        width = self.scrollable_content_region.width
        if width > 0 and width != self._width:
            self._rewrap(width)
        self._stop_jump()
        self._sized()

    def _stop_jump(self) -> None:
        if self._jump is not None:
            self._jump.cancel()
            self._jump = None

    def render_line(self, y: int) -> Strip:
        """One row of the log, as scrolled."""
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        base = self._base_style()
        if 0 <= index < len(self._rows):
            strip = self._rows[index].crop_extend(0, width, base)
        else:
            strip = Strip.blank(width, base)
        return strip.apply_style(base)

    def _base_style(self) -> Style:
        """The log's own colours, looked up once per theme (a lookup walks the DOM)."""
        theme = self.app.theme
        if self._base is None or self._base[0] != theme:
            self._base = (theme, self.rich_style)
        return self._base[1]
