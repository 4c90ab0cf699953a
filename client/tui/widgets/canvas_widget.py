"""A widget drawn on a canvas (:class:`~craits.client.present.canvas.Canvas`): the drawing
made once per change, its rows handed out as made, only those that changed refreshed.
"""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region
from textual.strip import Strip

from ...present.canvas import Canvas, rich_style
from ...present.card_style import CardStyle
from .cached import CachedLines, CachedRows


class CanvasWidget(CachedRows, CachedLines):
    """A widget drawn on a :class:`~craits.client.present.canvas.Canvas`: the drawing is
    made once per change (:meth:`draw`, given the content size), kept as strips,
    and each line handed out as it is; a change redraws without a new layout.

    What it costs is kept small, as an update comes several times a second: a
    :meth:`redraw` with the same :meth:`drawing_key` as the last (and the same
    size and theme) does nothing; otherwise only the rows whose cells changed
    get new strips and are refreshed (a turn changes a few rows of the table).
    Each row is handed to the screen as made and filtered until it changes
    (:class:`CachedRows`)."""

    def __init__(self, style: CardStyle, **kwargs: Any):
        super().__init__(**kwargs)
        self.style = style
        self._strips: list[Strip] = []
        self._canvas: Canvas | None = None
        self._drawn_for: tuple[int, int] = (0, 0)
        self._drawn_key: object = None
        self._base: tuple[str, Style] | None = None
        self._styles: dict[str, Style] = {}
        """Each canvas style spec over the widget's own colours."""

    def draw(self, canvas: Canvas) -> None:
        """Draw onto ``canvas`` (the content's size); subclasses say what."""

    def drawing_key(self) -> object:
        """What the drawing is made from (compared with ``==``); None: always draw."""
        return None

    def redraw(self) -> None:
        """Draw again from what the widget holds, and show the rows that changed
        (only those are rendered again)."""
        width, height = self.content_size
        resized = (width, height) != self._drawn_for
        key = self.drawing_key()
        if not resized and key is not None and key == self._drawn_key:
            return
        self._drawn_for, self._drawn_key = (width, height), key
        if width <= 0 or height <= 0:
            self._strips, self._canvas = [], None
            return
        canvas = Canvas(width, height)
        self.draw(canvas)
        old = None if resized else self._canvas
        self._canvas = canvas
        if old is None:
            self._strips = [self._strip(canvas.runs(y), width) for y in range(height)]
            self.refresh()
            return
        changed = [
            y
            for y in range(height)
            if canvas.chars[y] != old.chars[y]
            or canvas.styles[y] != old.styles[y]
            or canvas.grounds[y] != old.grounds[y]
        ]
        for y in changed:
            self._strips[y] = self._strip(canvas.runs(y), width)
        if len(changed) > height // 2:
            self.refresh()
        else:
            regions = []  # (one region per run of adjacent rows, one refresh for all)
            start = 0
            for i in range(1, len(changed) + 1):
                if i == len(changed) or changed[i] != changed[i - 1] + 1:
                    regions.append(Region(0, changed[start], width, i - start))
                    start = i
            if regions:
                self.refresh(*regions)

    def text(self) -> str:
        """The drawing as plain text, one line per row (empty before it is drawn)."""
        return self._canvas.text() if self._canvas is not None else ""

    def _strip(self, runs: list[tuple[str, str]], width: int) -> Strip:
        base = self._base_style()
        styles = self._styles
        segments = []
        for text, spec in runs:
            style = styles.get(spec)
            if style is None:
                style = styles[spec] = base + rich_style(spec)
            segments.append(Segment(text, style))
        return Strip(segments, width)

    def _base_style(self) -> Style:
        """The widget's own colours (looked up once per theme: a lookup walks the
        DOM), and each canvas style over them is kept until the theme changes."""
        theme = self.app.theme
        if self._base is None or self._base[0] != theme:
            self._base = (theme, self.rich_style)
            self._styles = {}
        return self._base[1]

    def on_resize(self, event: events.Resize) -> None:
        """A new size: draw again for it."""
        self.redraw()

    def notify_style_update(self) -> None:
        """New styles (a theme, a class): draw again in the widget's new colours
        when next asked for a row (a theme can be set, and a row asked for, before
        the styles of a screen under a dialog follow it)."""
        super().notify_style_update()
        self._base = None
        self._drawn_for = (0, 0)

    def render_line(self, y: int) -> Strip:
        """One row of the drawing."""
        width, height = self.content_size
        if (width, height) != self._drawn_for or (
            self._base is not None and self._base[0] != self.app.theme
        ):
            self._base = None
            self._drawn_for = (0, 0)
            self.redraw()
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(width, self.rich_style)
