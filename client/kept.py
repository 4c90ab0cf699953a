"""Rows handed to the screen again without rendering them anew (issue 13, "Cost")."""

from __future__ import annotations

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


class KeptLines(Widget):
    """A widget (or screen) that hands the screen the same rows again, without
    rendering them anew, until something marks it to be painted again.

    Why: Textual renders every widget whose container overlaps the rows that
    changed, each whole, in every frame: the table's top line, hand, prompt and
    key bar, and the screen's background, for a sliding card on the felt. Each
    costs a walk of the DOM for its colours and a look-up per row, though none
    of them changed (a third of such a frame's CPU). What is handed out is kept
    per crop, theme and line filters, until Textual marks the widget dirty (a
    refresh, a new size or new styles)."""

    _kept: tuple[object, list[Strip]] | None = None

    def _set_dirty(self, *regions: Region) -> None:
        self._kept = None
        super()._set_dirty(*regions)

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop``: those handed out last, when nothing changed."""
        app = self.app
        key = (crop, app.theme, *app.get_line_filters())
        kept = self._kept
        if kept is not None and kept[0] == key:
            return kept[1]
        strips = super().render_lines(crop)
        self._kept = (key, strips)
        return strips
