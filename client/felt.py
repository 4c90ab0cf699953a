"""Drawing the card table in character cells: card faces and backs, the seats
around the table, the pile in the middle, and the hand. No Textual: each
function draws on a :class:`Canvas`, which the widgets turn into lines.

Faces come in three sizes (:class:`FaceSize`): compact (5×3 cells) for 80×24,
full (7×5) from ~100×30 and large (9×7) from 160×45. Every mark carries its
meaning in shape or words as well as colour: the seat to act has ``▶`` and a
heavy frame, playable cards in the hand are raised a row and framed in bold,
the chosen card has a heavy frame and a ``^`` under it. With ``ascii`` only
ASCII characters are drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from rich.cells import get_character_cell_size
from rich.style import Style
from rich.text import Text

from .cards import CardStyle, is_red
from .tableview import MiddleView, SeatView, Side


class FaceSize(Enum):
    """A card face's size in cells: (width, height)."""

    COMPACT = (5, 3)
    FULL = (7, 5)
    LARGE = (9, 7)

    @property
    def width(self) -> int:
        """Columns."""
        return self.value[0]

    @property
    def height(self) -> int:
        """Rows."""
        return self.value[1]


def face_size(width: int, height: int) -> FaceSize:
    """The faces for a terminal of ``width`` × ``height`` cells."""
    if width >= 160 and height >= 45:
        return FaceSize.LARGE
    if width >= 100 and height >= 30:
        return FaceSize.FULL
    return FaceSize.COMPACT


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


FELT_GROUND = "on #1b5e3a"
"""The felt: green (a fixed colour, readable in either theme)."""
FELT_INK = "#f1f8e9"
"""Words and arrows on the felt."""
FELT_LABEL = "#a5d6a7"
"""Quieter words on the felt."""
FELT_EDGE = "#66bb6a"
"""The felt's edge."""
FACE_GROUND = "on #f7f4ec"
"""A card's face: off-white, whatever the theme."""
BACK_GROUND = "on #8e2b2b"
"""A card's back: dark red."""
INK = "#151515"
"""Black cards' ink (on the face's white)."""
RED_INK = "#c62828"
"""Red cards' ink."""
EDGE = "#5a5a5a"
"""A face's frame."""

ROUND = Frame("╭", "╮", "╰", "╯", "─", "│")
HEAVY = Frame("┏", "┓", "┗", "┛", "━", "┃")
ASCII = Frame("+", "+", "+", "+", "-", "|")
ASCII_HEAVY = Frame("#", "#", "#", "#", "=", "#")


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
                if row[start] == "":
                    row[start] = " "
                if end - x < n and cells[end - x] == "":
                    row[end - 1] = " "
            self.styles[y][start:end] = [style] * (end - start)

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


# ------------------------------------------------------------------ boxes


def box(canvas: Canvas, rect: Rect, frame: Frame, style: str = "", title: str = "") -> None:
    """A frame around ``rect`` (its outer cells), inside blanked, ``title`` on its
    top edge."""
    x, y, w, h = rect.x, rect.y, rect.w, rect.h
    if w < 2 or h < 2:
        return
    canvas.put(x, y, frame.tl + frame.h * (w - 2) + frame.tr, style)
    for row in range(y + 1, y + h - 1):
        canvas.put(x, row, frame.v, style)
        canvas.put(x + 1, row, " " * (w - 2))
        canvas.put(x + w - 1, row, frame.v, style)
    canvas.put(x, y + h - 1, frame.bl + frame.h * (w - 2) + frame.br, style)
    if title:
        canvas.put(x + 1, y, title[: w - 2], style)


def frames(ascii: bool) -> tuple[Frame, Frame]:
    """The plain and the heavy frame."""
    return (ASCII, ASCII_HEAVY) if ascii else (ROUND, HEAVY)


# ------------------------------------------------------------ card faces


def draw_face(
    canvas: Canvas,
    x: int,
    y: int,
    card: str,
    size: FaceSize,
    style: CardStyle,
    *,
    heavy: bool = False,
    dim: bool = False,
    reverse: bool = False,
) -> None:
    """A card face at (``x``, ``y``): rank and suit in the corners, the suit in
    the middle (from the full size), red or black (and the suit's own symbol
    or letter, so colour is never alone)."""
    plain, strong = frames(style.ascii)
    frame = strong if heavy else plain
    w, h = size.width, size.height
    canvas.fill(Rect(x, y, w, h), FACE_GROUND)
    edge = f"bold {INK}" if heavy else EDGE
    box(canvas, Rect(x, y, w, h), frame, edge)
    red = is_red(card)
    ink = f"bold {RED_INK}" if red else f"bold {INK}"
    if red and style.underline_red:
        ink += " underline"
    if dim:
        ink += " dim"
    if reverse:
        ink += " reverse"
    label = style.label(card)
    suit = style.suit(card[-1:])
    inner = w - 2
    if reverse:
        for row in range(y + 1, y + h - 1):
            canvas.put(x + 1, row, " " * inner, ink)
    canvas.put(x + 1, y + 1, label.ljust(inner)[:inner], ink)
    if size is FaceSize.COMPACT:
        return
    canvas.put(x + 1, y + h // 2, suit.center(inner), ink)
    canvas.put(x + 1, y + h - 2, label.rjust(inner)[-inner:], ink)


def draw_back(
    canvas: Canvas, x: int, y: int, size: FaceSize, style: CardStyle, label: str = ""
) -> None:
    """A card's back at (``x``, ``y``), ``label`` (the stock's count) across its middle."""
    w, h = size.width, size.height
    plain, _ = frames(style.ascii)
    canvas.fill(Rect(x, y, w, h), BACK_GROUND)
    box(canvas, Rect(x, y, w, h), plain, "#e0c0c0")
    fill = "#" if style.ascii else "░"
    for row in range(y + 1, y + h - 1):
        canvas.put(x + 1, row, fill * (w - 2), "#c46a6a")
    if label:
        canvas.put(x + 1, y + h // 2, label.center(w - 2)[: w - 2], "bold #ffffff")


def draw_slot(canvas: Canvas, x: int, y: int, size: FaceSize, style: CardStyle) -> None:
    """An empty place for a card (the discard pile before its first card)."""
    plain, _ = frames(style.ascii)
    box(canvas, Rect(x, y, size.width, size.height), plain, FELT_EDGE)


# ------------------------------------------------------------------ seats


SEAT_WIDTH = {FaceSize.COMPACT: 16, FaceSize.FULL: 20, FaceSize.LARGE: 26}
"""The widest a seat is drawn, in columns."""
SEAT_HEIGHT = {FaceSize.COMPACT: 3, FaceSize.FULL: 5, FaceSize.LARGE: 5}
"""A seat's rows (compact: no frame)."""
SHORT_SEAT = 2
"""A seat's rows when the table is too low for the pile between compact seats
(a long hand takes the rows): name and badges, cards and score."""


def _badges(seat: SeatView, width: int) -> list[tuple[str, str]]:
    """The seat's badges as (word, style), long words when they all fit."""
    for long in (True, False):
        words = [
            (b.long if long else b.short, "bold reverse" if b.alert else "italic")
            for b in seat.badges
        ]
        if sum(len(w) + 1 for w, _ in words) - 1 <= width or not long:
            return words
    return []


def _put_words(canvas: Canvas, x: int, y: int, words: list[tuple[str, str]], width: int) -> None:
    col = x
    for word, style in words:
        if col + len(word) > x + width:
            break
        canvas.put(col, y, word, style)
        col += len(word) + 1


def _seconds(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _name_line(seat: SeatView, style: CardStyle, width: int) -> tuple[str, str]:
    """The seat's first line (``▶``, the name, ``(you)``) cut to ``width``
    cells with a mark, and its look."""
    mark = f"{style.turn_marker} " if seat.to_act else ""
    name = seat.name or "(empty seat)"
    if seat.me:
        name += " (you)"
    text = crop(mark + name, width, "~" if style.ascii else "…")
    look = "bold reverse" if seat.to_act else ("bold underline" if seat.me else "bold")
    if not seat.name:
        look = "dim"
    return text, look


def _cards_line(seat: SeatView, style: CardStyle, width: int) -> tuple[str, str]:
    if seat.cards is None:
        return "", ""
    n = seat.cards
    words = f"{n} card" + ("" if n == 1 else "s")
    backs = min(n, width - len(words) - 1)
    glyph = "#" if style.ascii else "▮"
    return (glyph * backs + " " if backs > 0 else "") + words, ""


def _score_line(seat: SeatView) -> str:
    if seat.score is None:
        return ""
    out = f"{seat.score} pts"
    if seat.penalty:
        out += f" (+{seat.penalty})"
    return out


def draw_seat(canvas: Canvas, rect: Rect, seat: SeatView, style: CardStyle, size: FaceSize) -> None:
    """A seat: name (``▶`` and reverse when it is to act), its cards (backs and a
    number), score, the turn timer, and its badges in words."""
    x, y, w = rect.x, rect.y, rect.w
    timer = _seconds(seat.seconds) if seat.seconds is not None else ""
    if size is FaceSize.COMPACT or rect.h < SEAT_HEIGHT[size]:  # no frame: compact
        w -= 1  # a column apart from the next seat
        name, look = _name_line(seat, style, w)
        canvas.put(x, y, name, look)
        cards = "" if seat.cards is None else f"{seat.cards} card{'' if seat.cards == 1 else 's'}"
        score = "" if seat.score is None else f"{seat.score} pts"
        line = f"{cards}  {score}".strip() if cards else ""
        if len(line) > w:
            line = f"{cards} {score}".strip()
        canvas.put(x, y + 1, line[:w])
        if timer and len(line) + len(timer) + 1 <= w:
            canvas.put(x + w - len(timer), y + 1, timer, "bold")
            timer = ""
        if rect.h < 3:  # a short seat (a cramped table): the badges after the name
            used = cell_width(name) + 1
            x, w, y = x + used, w - used, y - 2
        words = _badges(seat, w - (len(timer) + 1 if timer else 0))
        if timer:
            words = [(timer, "bold"), *words]
        _put_words(canvas, x, y + 2, words, w)
        return
    plain, strong = frames(style.ascii)
    frame = strong if seat.to_act else plain
    box(canvas, rect, frame, "bold" if seat.to_act or seat.me else "dim")
    name, look = _name_line(seat, style, w - 6)  # "╭─ name ─╮": the corner stays
    canvas.put(x + 2, y, f" {name} ", look)
    inner = w - 4
    cards, cards_look = _cards_line(seat, style, inner)
    canvas.put(x + 2, y + 1, cards, cards_look)
    score = _score_line(seat)
    canvas.put(x + 2, y + 2, score)
    if timer:
        canvas.put(x + w - 2 - len(timer), y + 2, timer, "bold")
    _put_words(canvas, x + 2, y + 3, _badges(seat, inner), inner)


# ------------------------------------------------------------- the table


SLIDE = (8, 2)
"""How far (columns, rows) from the pile a card played starts its slide."""


@dataclass(frozen=True, slots=True)
class Flight:
    """A card on its way from a seat to the discard pile (``progress`` 0 to 1)."""

    card: str
    seat: int
    progress: float


@dataclass(slots=True)
class TablePlan:
    """Where things were drawn: each seat's rectangle, the top card's, and the
    felt's (its frame, when it has one, on the felt's outer cells)."""

    seats: dict[int, Rect]
    top: Rect | None
    felt: Rect | None = None


def seat_height(seats: list[SeatView], height: int, size: FaceSize) -> int:
    """A seat's rows on a table ``height`` rows high: :data:`SEAT_HEIGHT`, or
    fewer when the pile (and a row under it) would not fit between the top and
    the bottom seats: a compact seat's 3 rows, else :data:`SHORT_SEAT`."""
    bands = 2 if any(s.side is Side.TOP for s in seats) else 1
    for sh in (SEAT_HEIGHT[size], SEAT_HEIGHT[FaceSize.COMPACT]):
        if height - bands * sh >= size.height + 1:
            return sh
    return SHORT_SEAT


def _seat_rects(seats: list[SeatView], width: int, height: int, size: FaceSize) -> dict[int, Rect]:
    """Each seat's rectangle: the bottom one centred at the bottom, the others
    along the left (upwards), the top (left to right) and the right (downwards)."""
    sh = seat_height(seats, height, size)
    tops = [s for s in seats if s.side is Side.TOP]
    lefts = [s for s in seats if s.side is Side.LEFT]
    rights = [s for s in seats if s.side is Side.RIGHT]
    across = max(len(tops), 1 + (1 if lefts else 0) + (1 if rights else 0))
    sw = min(SEAT_WIDTH[size], max(8, (width - (across - 1)) // max(across, 1)))
    if lefts or rights:
        sw = min(sw, max(8, (width - 8) // 2))
    rects: dict[int, Rect] = {}
    for s in seats:
        if s.side is Side.BOTTOM:
            rects[s.seat] = Rect((width - sw) // 2, height - sh, sw, sh)
    if tops:
        gap = (width - len(tops) * sw) // (len(tops) + 1)
        for i, s in enumerate(tops):
            rects[s.seat] = Rect(gap + i * (sw + gap), 0, sw, sh)
    top_band = sh if tops else 0
    for column, x in ((lefts, 0), (rights, width - sw)):
        ordered = list(reversed(column)) if column is lefts else column
        span = height - top_band - sh
        step = max(sh, span // max(len(ordered), 1))
        for i, s in enumerate(ordered):
            y = top_band + i * step + max(0, (step - sh) // 2)
            if len(ordered) == 1:
                y = top_band + max(0, (span - sh) // 2)
            rects[s.seat] = Rect(x, min(y, height - sh), sw, sh)
    return rects


def draw_table(
    canvas: Canvas,
    seats: list[SeatView],
    middle: MiddleView,
    style: CardStyle,
    size: FaceSize,
    *,
    fresh: bool = False,
    flight: Flight | None = None,
) -> TablePlan:
    """The whole table on ``canvas``: seats around, the felt in the middle with
    the direction of play on its edges, stock, top card, suit in force, count.

    ``fresh``: the top card was just played (drawn framed heavy); ``flight``: a
    card still on its way to the pile (drawn between its seat and the pile)."""
    width, height = canvas.width, canvas.height
    rects = _seat_rects(seats, width, height, size)
    for s in seats:
        draw_seat(canvas, rects[s.seat], s, style, size)
    sw = next(iter(rects.values())).w if rects else 0
    has_sides = any(s.side in (Side.LEFT, Side.RIGHT) for s in seats)
    has_top = any(s.side is Side.TOP for s in seats)
    sh = seat_height(seats, height, size)
    left = sw + 1 if has_sides else 1
    felt = Rect(left, sh if has_top else 0, width - 2 * left, height - sh - (sh if has_top else 0))
    plan = TablePlan(rects, None, felt)
    plan.top = draw_felt(canvas, plan, middle, style, size, fresh=fresh, flight=flight)
    return plan


def draw_felt(
    canvas: Canvas,
    plan: TablePlan,
    middle: MiddleView,
    style: CardStyle,
    size: FaceSize,
    *,
    fresh: bool = False,
    flight: Flight | None = None,
) -> Rect | None:
    """The felt of a table drawn by :func:`draw_table` (``plan``) drawn again,
    blanked first, and what lies on it; the seats around are left as they are
    (a card sliding in, or landing, changes nothing else). The top card's
    rectangle (None before the game)."""
    felt = plan.felt
    if felt is None:
        return None
    rects = plan.seats
    canvas.clip = felt
    canvas.clear(felt)
    top_rect = _draw_middle(canvas, felt, middle, style, size, fresh, flight is not None)
    if flight is not None and top_rect is not None:
        _draw_flying(canvas, rects, top_rect, flight, size, style)
    canvas.clip = None
    return top_rect


def draw_flight(
    canvas: Canvas, plan: TablePlan, flight: Flight, size: FaceSize, style: CardStyle
) -> None:
    """``flight`` over a table drawn without it (by :func:`draw_table` or
    :func:`draw_felt`, as ``plan`` says): the pile's place left empty, the card
    between its seat and the pile. Cell for cell what drawing the table with
    the flight gives; the drawing without it can then be shown again as it is
    when the card lands, rather than the felt drawn again."""
    felt, top = plan.felt, plan.top
    if felt is None or top is None:
        return
    canvas.clip = felt
    canvas.fill(top, FELT_GROUND)
    draw_slot(canvas, top.x, top.y, size, style)
    _draw_flying(canvas, plan.seats, top, flight, size, style)
    canvas.clip = None


def _draw_flying(
    canvas: Canvas,
    rects: dict[int, Rect],
    top: Rect,
    flight: Flight,
    size: FaceSize,
    style: CardStyle,
) -> None:
    """The card sliding in to the pile (``top``) from the side of the seat that
    played it (clipped by the caller to the felt)."""
    if flight.seat not in rects:
        return
    sx, sy = rects[flight.seat].centre
    dx = max(-SLIDE[0], min(SLIDE[0], sx - top.centre[0]))
    dy = max(-SLIDE[1], min(SLIDE[1], sy - top.centre[1]))
    rest = 1.0 - min(max(flight.progress, 0.0), 1.0)
    x, y = top.x + round(dx * rest), top.y + round(dy * rest)
    draw_face(canvas, x, y, flight.card, size, style, heavy=True)


def _wrap_words(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines


def _arrows(direction: int, ascii: bool) -> tuple[str, str, str, str]:
    """The arrows on the felt's top, right, bottom and left edges for ``direction``
    (clockwise: rightwards along the top, down the right…)."""
    right, left, up, down = (">", "<", "^", "v") if ascii else ("→", "←", "↑", "↓")
    if direction >= 0:
        return right, down, left, up
    return left, up, right, down


def _draw_middle(
    canvas: Canvas,
    felt: Rect,
    middle: MiddleView,
    style: CardStyle,
    size: FaceSize,
    fresh: bool,
    in_flight: bool,
) -> Rect | None:
    """The felt and what lies on it; the top card's rectangle (None before the game)."""
    if felt.w < 12 or felt.h < 3:
        return None
    plain, _ = frames(style.ascii)
    canvas.fill(felt, FELT_GROUND)
    if middle.top is None and middle.waiting:
        box(canvas, felt, plain, FELT_EDGE)
        lines = _wrap_words(middle.waiting, felt.w - 4)
        first = felt.y + (felt.h - len(lines)) // 2
        for i, line in enumerate(lines):
            canvas.put(felt.x + (felt.w - len(line)) // 2, first + i, line, f"italic {FELT_INK}")
        return None
    framed = felt.h >= size.height + 4
    if framed:
        box(canvas, felt, plain, FELT_EDGE)
        top, right, bottom, left = _arrows(middle.direction, style.ascii)
        mid_x, mid_y = felt.x + felt.w // 2, felt.y + felt.h // 2
        for dx in (-felt.w // 4, felt.w // 4):
            if felt.x < mid_x + dx and mid_x + dx + 3 < felt.x + felt.w:  # clear of the corners
                canvas.put(mid_x + dx, felt.y, f" {top} ", f"bold {FELT_INK}")
                canvas.put(mid_x + dx, felt.y + felt.h - 1, f" {bottom} ", f"bold {FELT_INK}")
        canvas.put(felt.x, mid_y, left, f"bold {FELT_INK}")
        canvas.put(felt.x + felt.w - 1, mid_y, right, f"bold {FELT_INK}")
        inner = Rect(felt.x + 1, felt.y + 1, felt.w - 2, felt.h - 2)
    else:
        inner = felt
    fw, fh = size.width, size.height
    suit_w = (7 if size is not FaceSize.COMPACT else 5) if middle.suit else 0
    row_w = fw * 2 + 2 + (suit_w + 2 if suit_w else 0)
    stock_face = row_w <= inner.w  # too narrow: the stock in words under the pile
    if not stock_face:
        row_w -= fw + 2
    x0 = inner.x + max(0, (inner.w - row_w) // 2)
    labels = inner.h >= fh + 2
    y0 = inner.y + max(0, (inner.h - fh - (2 if labels else 0)) // 2)
    if stock_face:
        draw_back(canvas, x0, y0, size, style, str(middle.stock))
    tx = x0 + fw + 2 if stock_face else x0
    top_rect = Rect(tx, y0, fw, fh)
    if middle.top and not in_flight:
        draw_face(canvas, tx, y0, middle.top, size, style, heavy=fresh)
    else:
        draw_slot(canvas, tx, y0, size, style)
    if middle.suit:
        _draw_suit(canvas, tx + fw + 2, y0, min(fh, 5), middle.suit, style)
    if labels and not stock_face:
        canvas.put(tx, y0 + fh, f"stock {middle.stock}", FELT_LABEL)
    elif labels:
        canvas.put(x0 + (fw - 5) // 2, y0 + fh, "stock", FELT_LABEL)
        pile = "new!" if fresh else "top"
        canvas.put(
            tx + (fw - len(pile)) // 2, y0 + fh, pile, f"bold {FELT_INK}" if fresh else FELT_LABEL
        )
    below = y0 + fh + (1 if labels else 0)
    canvas.clip = inner  # the words under the pile never cross the felt's frame
    _draw_way(canvas, inner, middle, style, below, framed, Rect(x0, y0, row_w, fh))
    canvas.clip = felt
    return top_rect


def _draw_way(
    canvas: Canvas,
    inner: Rect,
    middle: MiddleView,
    style: CardStyle,
    below: int,
    framed: bool,
    pile: Rect,
) -> None:
    """Under the pile (from row ``below``): the count in progress, else the
    direction of play in words (on one or two rows, as the felt's width allows:
    :func:`way_lines`), at the felt's bottom; beside the pile when the felt has no
    room under it and no edges to carry the arrows. Words that do not fit whole
    are left out (a framed felt's edges still carry the arrows)."""
    if middle.count:
        _draw_count(canvas, inner, below, middle.count, style, pile)
        return
    lines = way_lines(style.direction(middle.direction), inner.w)
    bottom = inner.y + inner.h
    if lines and bottom - len(lines) > below:  # a blank row between the pile and the words
        for i, line in enumerate(lines):
            row = bottom - len(lines) + i
            canvas.put(inner.x + (inner.w - len(line)) // 2, row, line, FELT_LABEL)
    elif not framed:
        way = style.direction(middle.direction)
        right = pile.x + pile.w + 2
        if right + len(way) <= inner.x + inner.w:
            canvas.put(right, pile.y + pile.h // 2, way, FELT_LABEL)


def way_lines(way: str, width: int) -> list[str]:
    """The direction of play in words (``way``, e.g. "↺ counter-clockwise") on
    the fewest rows of at most ``width`` columns: one row, else broken after
    the hyphen ("↺ counter-" / "clockwise"); none when even that does not fit."""
    if len(way) <= width:
        return [way]
    head, hyphen, tail = way.partition("-")
    lines = [head + hyphen, tail] if hyphen else []
    return lines if lines and all(len(line) <= width for line in lines) else []


def _draw_suit(canvas: Canvas, x: int, y: int, h: int, suit: str, style: CardStyle) -> None:
    """The suit in force, named by an 8 or 9: a small box saying so."""
    _, strong = frames(style.ascii)
    ink = f"bold {RED_INK}" if suit in ("H", "D") else f"bold {INK}"
    if style.underline_red and suit in ("H", "D"):
        ink += " underline"
    if h >= 4:
        canvas.fill(Rect(x, y, 7, h), FACE_GROUND)
        box(canvas, Rect(x, y, 7, h), strong, f"bold {INK}")
        canvas.put(x + 1, y + 1, "suit".center(5), f"italic {INK}")
        canvas.put(x + 1, y + h // 2, style.suit(suit).center(5), ink)
        canvas.put(x + 1, y + h - 2, "named", f"italic {INK}")
        return
    canvas.put(x, y, "suit", f"italic {FELT_INK}")
    canvas.fill(Rect(x, y + 1, 3, 1), FACE_GROUND)
    canvas.put(x, y + 1, f" {style.suit(suit)} ", ink)
    canvas.put(x, y + 2, "named", f"italic {FELT_INK}")


COUNT_NOTES = ("A or 2, or draw", "A/2 or draw")
"""What the player the count reaches may do (R6), from the longest words."""


def _draw_count(
    canvas: Canvas, inner: Rect, y: int, count: int, style: CardStyle, pile: Rect
) -> None:
    """The count in progress (R6), large: a heavy box in reverse video, and
    under it what the next player may do (in as many words as fit)."""
    text = f" COUNT {count} "
    room = inner.y + inner.h - y
    note = next((n for n in COUNT_NOTES if len(n) <= inner.w), "") if room >= 4 else ""
    _, strong = frames(style.ascii)
    w = max(len(text), len(COUNT_NOTES[0])) + 2  # as wide as the note's words, when it fits
    if w > inner.w:
        w = len(text) + 2
    x = inner.x + (inner.w - w) // 2
    if room >= 3 and w <= inner.w:
        box(canvas, Rect(x, y, w, 3), strong, f"bold {FELT_INK}")
        canvas.put(x + 1, y + 1, text.center(w - 2), f"bold {FELT_INK} reverse")
        if note:
            canvas.put(inner.x + (inner.w - len(note)) // 2, y + 3, note, f"bold {FELT_INK}")
    elif room >= 1:
        canvas.put(inner.x + (inner.w - len(text)) // 2, y, text, "bold reverse")
    else:  # no row under the pile: beside it, else over it
        x, y = _beside(inner, pile, len(text))
        canvas.put(x, y, text, "bold reverse")


def _beside(inner: Rect, pile: Rect, width: int) -> tuple[int, int]:
    """Where ``width`` columns of words go next to the ``pile`` inside ``inner``:
    at its right, its left, on the row over it, else over its bottom edge."""
    if pile.x + pile.w + 1 + width <= inner.x + inner.w:
        return pile.x + pile.w + 1, pile.y + pile.h // 2
    if pile.x - 1 - width >= inner.x:
        return pile.x - 1 - width, pile.y + pile.h // 2
    x = inner.x + max(0, (inner.w - width) // 2)
    return x, pile.y - 1 if pile.y > inner.y else pile.y + pile.h - 1


# ------------------------------------------------------------------ the hand


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Where each card of the hand was drawn: its columns and rows, to map clicks."""

    spots: tuple[Rect, ...]


def hand_rows(count: int, width: int, size: FaceSize) -> int:
    """Rows of cards a hand of ``count`` needs at ``width`` (cards overlap first)."""
    per = _per_row(width, size)
    return max(1, (count + per - 1) // per)


def _per_row(width: int, size: FaceSize) -> int:
    """The most cards a row holds, overlapped to the fewest columns that still
    show rank and suit (4)."""
    return max(1, (width - size.width) // 4 + 1)


def hand_height(count: int, width: int, size: FaceSize) -> int:
    """The hand's rows: per row of cards, one to raise the playable ones, the
    faces, and one for the digits."""
    return hand_rows(count, width, size) * (size.height + 2)


def draw_hand(
    canvas: Canvas,
    cards: list[str],
    playable: set[str],
    selected: int | None,
    style: CardStyle,
    size: FaceSize,
    *,
    new: frozenset[str] = frozenset(),
) -> HandPlan:
    """The hand as card faces in a row (overlapped, then wrapped, when they are
    many): playable cards raised a row and framed bold, the others dimmed; the
    chosen one framed heavy, in reverse, with ``^`` under it; under each card
    the last digit of its number for the number keys (1…9, 0, then 1, 2… again
    from the 11th: :func:`~craits.client.presenter.digit_choice`); cards in
    ``new`` (just drawn) marked."""
    width = canvas.width
    per = _per_row(width, size)
    fw, fh = size.width, size.height
    spots: list[Rect] = []
    for start in range(0, len(cards), per):
        row = cards[start : start + per]
        band = (start // per) * (fh + 2)
        n = len(row)
        step = fw + 1 if n * (fw + 1) - 1 <= width else max(4, (width - fw) // max(n - 1, 1))
        used = step * (n - 1) + fw
        left = max(0, (width - used) // 2)
        for j, card in enumerate(row):
            i = start + j
            x = left + j * step
            up = card in playable
            chosen = i == selected
            y = band + (0 if up else 1)
            draw_face(
                canvas, x, y, card, size, style, heavy=chosen or up, dim=not up, reverse=chosen
            )
            if not up:
                canvas.put(x, band, " " * min(step, fw))
                canvas.fill(Rect(x, band, min(step, fw), 1), "")
            else:
                canvas.put(x, band + fh, " " * fw)
                canvas.fill(Rect(x, band + fh, fw, 1), "")
            if card in new:
                canvas.put(
                    x + 1, band if not up else band + fh, "new"[: max(1, step - 1)], "bold italic"
                )
            digits = band + fh + 1
            key = str((i + 1) % 10)  # 1…9, 0, then 1, 2… again (a digit twice: the next ten)
            mark = "^" if chosen else " "
            canvas.put(x + 1, digits, key, "bold reverse" if chosen else "dim")
            canvas.put(x + 2, digits, mark, "bold")
            spots.append(Rect(x, band, fw if j == n - 1 else step, fh + 2))
    return HandPlan(tuple(spots))
