"""Rows handed to the screen again without rendering them anew, cached until Textual
marks them to be painted again (issue 13, "Cost")."""

from __future__ import annotations

from textual.color import Color
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


class CachedLines(Widget):
    """A widget (or screen) that hands the screen the same rows again, without
    rendering them anew, until something marks it to be painted again.

    Why: Textual renders every widget whose container overlaps the rows that
    changed, each whole, in every frame: the table's top line, hand, prompt and
    key bar, and the screen's background, for a sliding card on the felt. Each
    costs a walk of the DOM for its colours and a look-up per row, though none
    of them changed (a third of such a frame's CPU). What is handed out is kept
    per crop, theme and line filters, until Textual marks the widget dirty (a
    refresh, a new size or new styles)."""

    _lines_cached: tuple[object, list[Strip]] | None = None

    def _set_dirty(self, *regions: Region) -> None:
        self._lines_cached = None
        super()._set_dirty(*regions)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop``: those handed out last, when nothing changed."""
        app = self.app
        key = (crop, app.theme, *app.get_line_filters())
        cached = self._lines_cached
        if cached is not None and cached[0] == key:
            return cached[1]
        strips = super().render_lines(crop)
        self._lines_cached = (key, strips)
        return strips


def plain_styles(widget: Widget) -> bool:
    """Whether ``widget``'s styles add nothing around or over its content (no
    border, padding, outline, tint, opacity or hatch): its lines can then be
    handed to the screen as the widget made them, with the app's line filters."""
    styles = widget.styles
    return not (
        styles.gutter
        or any(edge for edge, _ in styles.outline)
        or styles.tint.a
        or widget.opacity != 1.0
        or styles.text_opacity != 1.0
        or (styles.has_rule("hatch") and styles.hatch != "none")
    )


class CachedRows(Widget):
    """A widget, drawn with :func:`plain_styles` and no scroll bar, whose rows
    are handed to the screen as :meth:`render_line` makes them, with the app's
    line filters, each kept until Textual marks its row to be painted again.

    Why: Textual's own rendering makes every row it paints anew, and filters it
    again (true colour, ``NO_COLOR``, ``--ascii``): a log that scrolls paints
    all its rows, though each had been made and filtered before. Textual marks
    rows to paint in one place (``_set_dirty``, a refresh of some rows, or all
    of them), which is where a row kept here is let go of, as its own cache
    of rows does. Other widgets (styled around, or with a scroll bar) are
    rendered by Textual as usual."""

    _rows_cached: list[Strip | None] | None = None
    _rows_cached_for: tuple[object, ...] = ()

    def _set_dirty(self, *regions: Region) -> None:
        cached = self._rows_cached
        if cached is not None:
            if regions:
                for region in regions:
                    for y in region.line_range:
                        if 0 <= y < len(cached):
                            cached[y] = None
            else:
                self._rows_cached = None
        super()._set_dirty(*regions)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop``: those kept, and the others rendered and kept."""
        if self.scrollbar_gutter or not plain_styles(self):
            return super().render_lines(crop)
        size = self.size
        key = (size, self.app.theme, *self.get_line_filters())
        cached = self._rows_cached
        if cached is None or key != self._rows_cached_for:
            cached = self._rows_cached = [None] * size.height
            self._rows_cached_for = key
        filters = key[2:]
        background: Color | None = None  # (looked up when a row needs it: it walks the DOM)
        strips = []
        for y in crop.line_range:
            strip = cached[y] if y < len(cached) else None
            if strip is None:
                strip = self.render_line(y)
                if filters and background is None:
                    background = self.background_colors[1]
                for line_filter in filters:
                    strip = strip.apply_filter(line_filter, background)  # type: ignore[arg-type]
                if y < len(cached):
                    cached[y] = strip
            strips.append(strip)
        if crop.column_span != (0, size.width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips
