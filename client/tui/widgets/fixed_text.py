"""A few lines of rich text in a box of fixed size (the table's top line, the prompt),
repainted without a new layout of the screen.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip

from .cached import CachedLines


class FixedText(CachedLines):
    """A line or a few of rich text in a box of fixed size: a new text repaints
    it without a new layout of the screen (a Static's update lays out again),
    wrapped here once per change rather than at every paint."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.text = Text()
        self._strips: list[Strip] = []
        self._made_for: tuple[int, str] = (0, "")

    def update(self, text: Text) -> None:
        """Show ``text`` (nothing is done when it is the text shown); once shown,
        only the rows that changed are painted again (a prompt's first line
        often stays)."""
        if text == self.text:
            return
        self.text = text
        width = self.content_size.width
        if self._made_for != (width, self.app.theme) or width <= 0:
            self._made_for = (0, "")
            self.refresh()
            return
        old = self._strips
        self._make(width)
        for y in range(max(len(old), len(self._strips))):
            before = list(old[y]) if y < len(old) else None
            after = list(self._strips[y]) if y < len(self._strips) else None
            if before != after:
                self.refresh(Region(0, y, width, 1))

    def _make(self, width: int) -> None:
        console = self.app.console
        base = self.rich_style
        lines = self.text.wrap(console, max(1, width), overflow="fold")
        self._strips = [
            Strip(list(line.render(console)), line.cell_len)
            .adjust_cell_length(width)
            .apply_style(base)
            for line in lines
        ]
        self._made_for = (width, self.app.theme)

    def render_line(self, y: int) -> Strip:
        """One row of the wrapped text."""
        width = self.content_size.width
        if self._made_for != (width, self.app.theme):
            self._make(width)
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self.rich_style)
