"""A grid of character cells to draw on (:class:`Canvas`), and what a drawing is made of:
rectangles, box frames, and text cut to the cells a terminal draws it in. No Textual:
the table's widgets turn a canvas's rows into lines (:mod:`craits.client.tui.widgets`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from rich.cells import get_character_cell_size
from rich.style import Style
from rich.text import Text


@dataclass(frozen=True, slots=True)
class Frame:
    """The characters of a box: corners (top-left, top-right, bottom-left,
    bottom-right), horizontal, vertical."""

    tl: str
    tr: str
    bl: str
    br: str
    h: str
    v: str


ROUND = Frame("╭", "╮", "╰", "╯", "─", "│")
HEAVY = Frame("┏", "┓", "┗", "┛", "━", "┃")
ASCII = Frame("+", "+", "+", "+", "-", "|")
ASCII_HEAVY = Frame("#", "#", "#", "#", "=", "#")


def frames(ascii: bool) -> tuple[Frame, Frame]:
    """The plain and the heavy frame."""
    return (ASCII, ASCII_HEAVY) if ascii else (ROUND, HEAVY)


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle of cells."""

    x: int
    y: int
    w: int
    h: int

    @property
    def centre(self) -> tuple[int, int]:
        """The cell at its middle."""
        return self.x + self.w // 2, self.y + self.h // 2


class Canvas:
    """A grid of character cells, each with a style; drawn into, then read as
    lines of rich :class:`~rich.text.Text` or of (text, style) runs.

    Args:
        width: columns.
        height: rows.
    """

    def __init__(self, width: int, height: int):
        self.width = max(0, width)
        self.height = max(0, height)
        self.chars = [[" "] * self.width for _ in range(self.height)]
        self.styles = [[""] * self.width for _ in range(self.height)]
        self.grounds = [[""] * self.width for _ in range(self.height)]
        """Each cell's background style (``on COLOUR``), under whatever is written."""
        self.clip: Rect | None = None
        """While set, only cells inside it are written."""

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        """Write ``text`` from column ``x`` of row ``y``, clipped to the canvas:
        a character in as many cells as the terminal draws it (:func:`cells_of`:
        a wide one, CJK or an emoji, in two), one cut by the clip left blank,
        as is the half left of one written over."""
        # (slices, and comparisons rather than min and max: a drawing writes
        # some 2,000 cells in 200 calls, twice an update)
        if y < 0 or y >= self.height:
            return
        lo, hi = 0, self.width
        clip = self.clip
        if clip is not None:
            if y < clip.y or y >= clip.y + clip.h:
                return
            if clip.x > lo:
                lo = clip.x
            if clip.x + clip.w < hi:
                hi = clip.x + clip.w
        cells = text if text.isascii() else cells_of(text)
        n = len(cells)
        start = x if x > lo else lo
        end = x + n
        if end > hi:
            end = hi
        if start < end:
            row = self.chars[y]
            if row[start] == "" and start > 0:  # the right half of a wide character
                row[start - 1] = " "
            if end < self.width and row[end] == "":  # and the left half
                row[end] = " "
            row[start:end] = cells if start == x and end - x == n else cells[start - x : end - x]
            if cells is not text:  # a wide character cut by the clip: blank
                _blank_cut_halves(row, start, end, cells[end - x] if end - x < n else None)
            self.styles[y][start:end] = [style] * (end - start)

    @contextmanager
    def clipped(self, rect: Rect) -> Iterator[None]:
        """While the ``with`` block runs, only cells inside ``rect`` are written
        (the clip before is set again after it)."""
        before, self.clip = self.clip, rect
        try:
            yield
        finally:
            self.clip = before

    def box(self, rect: Rect, frame: Frame, style: str = "", title: str = "") -> None:
        """A frame around ``rect`` (its outer cells), inside blanked, ``title`` on its
        top edge."""
        x, y, w, h = rect.x, rect.y, rect.w, rect.h
        if w < 2 or h < 2:
            return
        self.put(x, y, frame.tl + frame.h * (w - 2) + frame.tr, style)
        for row in range(y + 1, y + h - 1):
            self.put(x, row, frame.v, style)
            self.put(x + 1, row, " " * (w - 2))
            self.put(x + w - 1, row, frame.v, style)
        self.put(x, y + h - 1, frame.bl + frame.h * (w - 2) + frame.br, style)
        if title:
            self.put(x + 1, y, title[: w - 2], style)

    def style(self, x: int, y: int, w: int, style: str) -> None:
        """Add ``style`` to ``w`` cells from (``x``, ``y``)."""
        if not 0 <= y < self.height:
            return
        styles = self.styles[y]
        for cx in range(max(0, x), min(self.width, x + w)):
            styles[cx] = f"{styles[cx]} {style}".strip()

    def copy_from(self, other: Canvas) -> None:
        """Take every cell of ``other`` (a canvas of the same size)."""
        self.chars = [row[:] for row in other.chars]
        self.styles = [row[:] for row in other.styles]
        self.grounds = [row[:] for row in other.grounds]

    def clear(self, rect: Rect) -> None:
        """Blank the cells of ``rect``."""
        for y in range(rect.y, rect.y + rect.h):
            self.put(rect.x, y, " " * rect.w)

    def fill(self, rect: Rect, ground: str) -> None:
        """Lay the background ``ground`` (``on COLOUR``) under the cells of
        ``rect`` (inside the clip, when one is set)."""
        top, bottom = max(0, rect.y), min(self.height, rect.y + rect.h)
        start, end = max(0, rect.x), min(self.width, rect.x + rect.w)
        clip = self.clip
        if clip is not None:  # (as for what is written: a card sliding in stays on the felt)
            top, bottom = max(top, clip.y), min(bottom, clip.y + clip.h)
            start, end = max(start, clip.x), min(end, clip.x + clip.w)
        if start >= end:
            return
        cells = [ground] * (end - start)
        for y in range(top, bottom):
            self.grounds[y][start:end] = cells

    def runs(self, y: int) -> list[tuple[str, str]]:
        """Row ``y`` as runs of (text, style)."""
        out: list[tuple[str, str]] = []
        chars, styles, grounds = self.chars[y], self.styles[y], self.grounds[y]
        start = 0
        for x in range(1, self.width + 1):
            if x == self.width or styles[x] != styles[start] or grounds[x] != grounds[start]:
                spec = f"{styles[start]} {grounds[start]}" if grounds[start] else styles[start]
                out.append(("".join(chars[start:x]), spec))
                start = x
        return out

    def line(self, y: int) -> Text:
        """Row ``y`` as rich text."""
        text = Text()
        for chunk, style in self.runs(y):
            text.append(chunk, style=_style(style))
        return text

    def text(self) -> str:
        """The whole canvas as plain text, rows ending in newlines."""
        return "".join("".join(row).rstrip() + "\n" for row in self.chars)


@lru_cache(maxsize=2048)
def cells_of(text: str) -> str | tuple[str, ...]:
    """``text`` as the canvas's cells: ``text`` itself when each character
    takes one cell; else a cell per character, a wide one (CJK, an emoji) in
    two (itself, then ``""``), and those that take none (a joiner, a mark
    that did not compose) left out, so that a row is drawn as wide as counted.
    Widths are Rich's, the terminal's (:func:`rich.cells.get_character_cell_size`)."""
    out: list[str] = []
    for ch in text:
        size = get_character_cell_size(ch)
        if size == 1:
            out.append(ch)
        elif size == 2:
            out += (ch, "")
    if len(out) == len(text) and "" not in out:
        return text
    return tuple(out)


def cell_width(text: str) -> int:
    """The cells ``text`` takes on the canvas (:func:`cells_of`)."""
    return len(text) if text.isascii() else len(cells_of(text))


def crop(text: str, width: int, mark: str = "…") -> str:
    """``text`` cut to ``width`` cells on the canvas, ending in ``mark`` when
    cut (a name too long for its seat); as it is when it fits."""
    if cell_width(text) <= width:
        return text
    room = max(0, width - cell_width(mark))
    out, used = "", 0
    for ch in text:
        size = cell_width(ch)
        if used + size > room:
            break
        out += ch
        used += size
    return out + mark if width >= cell_width(mark) else out


_STYLES: dict[str, Style] = {}


def _style(spec: str) -> Style:
    """A parsed style, kept (a few dozen specs recur in every drawing)."""
    style = _STYLES.get(spec)
    if style is None:
        style = _STYLES[spec] = Style.parse(spec) if spec else Style()
    return style


def rich_style(spec: str) -> Style:
    """The rich :class:`Style` of a canvas style ``spec`` (parsed once)."""
    return _style(spec)


def _blank_cut_halves(row: list[str], start: int, end: int, after: str | None) -> None:
    """Blank the halves of wide characters left in ``row[start:end]`` just written
    (``after``: the cell of the text right after what was written, if it was cut)."""
    if row[start] == "":
        row[start] = " "
    if after == "":
        row[end - 1] = " "
