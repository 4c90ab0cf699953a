"""Drawing the card table in character cells: card faces and backs, the seats
around the table, the pile in the middle, and the hand. No Textual: each painter
draws on a :class:`~.canvas.Canvas` (:class:`CardPainter`, :class:`SeatPainter`,
:class:`TablePainter`, :class:`HandPainter`), which the widgets turn into lines.

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

from craits.protocol.i18n import _, _l, pgettext
from craits.protocol.words import count_cards

from .canvas import Canvas, Rect, cell_width, crop, frames
from .card_style import CardStyle, is_red
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


# ------------------------------------------------------------ card faces


class CardPainter:
    """Draws cards of ``size`` on ``canvas``: faces, backs, and empty places.

    Args:
        canvas: what is drawn on.
        style: how cards are written (``ascii``, red underlined without colour).
        size: the faces' size.
    """

    def __init__(self, canvas: Canvas, style: CardStyle, size: FaceSize):
        self.canvas = canvas
        self.style = style
        self.size = size

    def face(
        self,
        x: int,
        y: int,
        card: str,
        *,
        heavy: bool = False,
        dim: bool = False,
        reverse: bool = False,
    ) -> None:
        """A card face at (``x``, ``y``): rank and suit in the corners, the suit in
        the middle (from the full size), red or black (and the suit's own symbol
        or letter, so colour is never alone)."""
        canvas, style, size = self.canvas, self.style, self.size
        plain, strong = frames(style.ascii)
        frame = strong if heavy else plain
        w, h = size.width, size.height
        canvas.fill(Rect(x, y, w, h), FACE_GROUND)
        edge = f"bold {INK}" if heavy else EDGE
        canvas.box(Rect(x, y, w, h), frame, edge)
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

    def back(self, x: int, y: int, label: str = "") -> None:
        """A card's back at (``x``, ``y``), ``label`` (the stock's count) across its middle."""
        canvas, size = self.canvas, self.size
        w, h = size.width, size.height
        plain, _ = frames(self.style.ascii)
        canvas.fill(Rect(x, y, w, h), BACK_GROUND)
        canvas.box(Rect(x, y, w, h), plain, "#e0c0c0")
        fill = "#" if self.style.ascii else "░"
        for row in range(y + 1, y + h - 1):
            canvas.put(x + 1, row, fill * (w - 2), "#c46a6a")
        if label:
            canvas.put(x + 1, y + h // 2, label.center(w - 2)[: w - 2], "bold #ffffff")

    def slot(self, x: int, y: int) -> None:
        """An empty place for a card (the discard pile before its first card)."""
        plain, _ = frames(self.style.ascii)
        self.canvas.box(Rect(x, y, self.size.width, self.size.height), plain, FELT_EDGE)


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
            (str(b.long) if long else str(b.short), "bold reverse" if b.alert else "italic")
            for b in seat.badges
        ]
        if sum(len(w) + 1 for w, _ in words) - 1 <= width or not long:
            return words
    return []


def _seconds(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _name_line(seat: SeatView, style: CardStyle, width: int) -> tuple[str, str]:
    """The seat's first line (``▶``, the name, ``(you)``) cut to ``width``
    cells with a mark, and its look."""
    mark = f"{style.turn_marker} " if seat.to_act else ""
    name = seat.name or _("(empty seat)")
    if seat.me:
        name += " " + _("(you)")
    text = crop(mark + name, width, "~" if style.ascii else "…")
    look = "bold reverse" if seat.to_act else ("bold underline" if seat.me else "bold")
    if not seat.name:
        look = "dim"
    return text, look


def _cards_line(seat: SeatView, style: CardStyle, width: int) -> tuple[str, str]:
    if seat.cards is None:
        return "", ""
    n = seat.cards
    words = count_cards(n)
    backs = min(n, width - len(words) - 1)
    glyph = "#" if style.ascii else "▮"
    return (glyph * backs + " " if backs > 0 else "") + words, ""


def _score_line(seat: SeatView) -> str:
    if seat.score is None:
        return ""
    out = _("{n} pts").format(n=seat.score)
    if seat.penalty:
        out += f" (+{seat.penalty})"
    return out


class SeatPainter:
    """Draws the seats around the table on ``canvas``.

    Args:
        canvas: what is drawn on.
        style: how names, cards and marks are written.
        size: the faces' size (a compact table draws its seats without frames).
    """

    def __init__(self, canvas: Canvas, style: CardStyle, size: FaceSize):
        self.canvas = canvas
        self.style = style
        self.size = size

    def seat(self, rect: Rect, seat: SeatView) -> None:
        """A seat: name (``▶`` and reverse when it is to act), its cards (backs and a
        number), score, the turn timer, and its badges in words."""
        if self.size is FaceSize.COMPACT or rect.h < SEAT_HEIGHT[self.size]:
            self._compact(rect, seat)  # no frame
            return
        canvas, style = self.canvas, self.style
        x, y, w = rect.x, rect.y, rect.w
        timer = _seconds(seat.seconds) if seat.seconds is not None else ""
        plain, strong = frames(style.ascii)
        frame = strong if seat.to_act else plain
        canvas.box(rect, frame, "bold" if seat.to_act or seat.me else "dim")
        name, look = _name_line(seat, style, w - 6)  # "╭─ name ─╮": the corner stays
        canvas.put(x + 2, y, f" {name} ", look)
        inner = w - 4
        cards, cards_look = _cards_line(seat, style, inner)
        canvas.put(x + 2, y + 1, cards, cards_look)
        score = _score_line(seat)
        canvas.put(x + 2, y + 2, score)
        if timer:
            canvas.put(x + w - 2 - len(timer), y + 2, timer, "bold")
        self._words(x + 2, y + 3, _badges(seat, inner), inner)

    def _compact(self, rect: Rect, seat: SeatView) -> None:
        """A seat without a frame: its name, then cards, score and timer, then badges
        (after the name, on a short seat of two rows)."""
        canvas = self.canvas
        x, y, w = rect.x, rect.y, rect.w
        timer = _seconds(seat.seconds) if seat.seconds is not None else ""
        w -= 1  # a column apart from the next seat
        name, look = _name_line(seat, self.style, w)
        canvas.put(x, y, name, look)
        cards = "" if seat.cards is None else count_cards(seat.cards)
        score = "" if seat.score is None else _("{n} pts").format(n=seat.score)
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
        self._words(x, y + 2, words, w)

    def _words(self, x: int, y: int, words: list[tuple[str, str]], width: int) -> None:
        """``words`` (word, style) from (``x``, ``y``), as many as fit ``width``."""
        col = x
        for word, style in words:
            if col + len(word) > x + width:
                break
            self.canvas.put(col, y, word, style)
            col += len(word) + 1


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


def way_lines(way: str, width: int) -> list[str]:
    """The direction of play in words (``way``, e.g. "↺ counter-clockwise") on
    the fewest rows of at most ``width`` columns: one row, else broken after
    the hyphen ("↺ counter-" / "clockwise"); none when even that does not fit."""
    if len(way) <= width:
        return [way]
    head, hyphen, tail = way.partition("-")
    lines = [head + hyphen, tail] if hyphen else []
    return lines if lines and all(len(line) <= width for line in lines) else []


COUNT_NOTES = (_l("A or 2, or draw"), _l("A/2 or draw"))
"""What the player the count reaches may do (R6), from the longest words."""


def _beside(inner: Rect, pile: Rect, width: int) -> tuple[int, int]:
    """Where ``width`` columns of words go next to the ``pile`` inside ``inner``:
    at its right, its left, on the row over it, else over its bottom edge."""
    if pile.x + pile.w + 1 + width <= inner.x + inner.w:
        return pile.x + pile.w + 1, pile.y + pile.h // 2
    if pile.x - 1 - width >= inner.x:
        return pile.x - 1 - width, pile.y + pile.h // 2
    x = inner.x + max(0, (inner.w - width) // 2)
    return x, pile.y - 1 if pile.y > inner.y else pile.y + pile.h - 1


class TablePainter:
    """Draws the whole table on ``canvas`` (:meth:`table`): the seats around
    (:class:`SeatPainter`), the felt in the middle with the direction of play on
    its edges, stock, top card, suit in force, the count; and, over a table drawn,
    its felt again (:meth:`felt`) or a card flying to the pile (:meth:`flight`).

    Args:
        canvas: what is drawn on (the table takes it whole).
        style: how cards and words are written.
        size: the faces' size.
    """

    def __init__(self, canvas: Canvas, style: CardStyle, size: FaceSize):
        self.canvas = canvas
        self.style = style
        self.size = size
        self.cards = CardPainter(canvas, style, size)
        self.seats = SeatPainter(canvas, style, size)

    def table(
        self,
        seats: list[SeatView],
        middle: MiddleView,
        *,
        fresh: bool = False,
        flight: Flight | None = None,
    ) -> TablePlan:
        """The whole table: ``seats`` around, ``middle`` on the felt; where each was
        drawn. ``fresh``: the top card was just played (drawn framed heavy);
        ``flight``: a card still on its way to the pile (drawn between its seat
        and the pile)."""
        width, height, size = self.canvas.width, self.canvas.height, self.size
        rects = _seat_rects(seats, width, height, size)
        for s in seats:
            self.seats.seat(rects[s.seat], s)
        sw = next(iter(rects.values())).w if rects else 0
        has_sides = any(s.side in (Side.LEFT, Side.RIGHT) for s in seats)
        has_top = any(s.side is Side.TOP for s in seats)
        sh = seat_height(seats, height, size)
        left = sw + 1 if has_sides else 1
        top_band = sh if has_top else 0
        felt = Rect(left, top_band, width - 2 * left, height - sh - top_band)
        plan = TablePlan(rects, None, felt)
        plan.top = self.felt(plan, middle, fresh=fresh, flight=flight)
        return plan

    def felt(
        self,
        plan: TablePlan,
        middle: MiddleView,
        *,
        fresh: bool = False,
        flight: Flight | None = None,
    ) -> Rect | None:
        """The felt of a table drawn by :meth:`table` (``plan``) drawn again,
        blanked first, and what lies on it; the seats around are left as they are
        (a card sliding in, or landing, changes nothing else). The top card's
        rectangle (None before the game)."""
        felt = plan.felt
        if felt is None:
            return None
        canvas = self.canvas
        with canvas.clipped(felt):
            canvas.clear(felt)
            top_rect = self._middle(felt, middle, fresh, flight is not None)
            if flight is not None and top_rect is not None:
                self._flying(plan.seats, top_rect, flight)
        return top_rect

    def flight(self, plan: TablePlan, flight: Flight) -> None:
        """``flight`` over a table drawn without it (by :meth:`table` or
        :meth:`felt`, as ``plan`` says): the pile's place left empty, the card
        between its seat and the pile. Cell for cell what drawing the table with
        the flight gives; the drawing without it can then be shown again as it is
        when the card lands, rather than the felt drawn again."""
        felt, top = plan.felt, plan.top
        if felt is None or top is None:
            return
        with self.canvas.clipped(felt):
            self.canvas.fill(top, FELT_GROUND)
            self.cards.slot(top.x, top.y)
            self._flying(plan.seats, top, flight)

    def _flying(self, rects: dict[int, Rect], top: Rect, flight: Flight) -> None:
        """The card sliding in to the pile (``top``) from the side of the seat that
        played it (clipped by the caller to the felt)."""
        if flight.seat not in rects:
            return
        sx, sy = rects[flight.seat].centre
        dx = max(-SLIDE[0], min(SLIDE[0], sx - top.centre[0]))
        dy = max(-SLIDE[1], min(SLIDE[1], sy - top.centre[1]))
        rest = 1.0 - min(max(flight.progress, 0.0), 1.0)
        x, y = top.x + round(dx * rest), top.y + round(dy * rest)
        self.cards.face(x, y, flight.card, heavy=True)

    def _middle(self, felt: Rect, middle: MiddleView, fresh: bool, in_flight: bool) -> Rect | None:
        """The felt and what lies on it; the top card's rectangle (None before the game)."""
        if felt.w < 12 or felt.h < 3:
            return None
        self.canvas.fill(felt, FELT_GROUND)
        if middle.top is None and middle.waiting:
            self._waiting(felt, middle.waiting)
            return None
        framed = felt.h >= self.size.height + 4
        inner = self._edges(felt, middle.direction) if framed else felt
        return self._pile(inner, middle, fresh, in_flight, framed)

    def _waiting(self, felt: Rect, words: str) -> None:
        """The felt before the game: framed, ``words`` in its middle."""
        plain, _ = frames(self.style.ascii)
        self.canvas.box(felt, plain, FELT_EDGE)
        lines = _wrap_words(words, felt.w - 4)
        first = felt.y + (felt.h - len(lines)) // 2
        for i, line in enumerate(lines):
            x = felt.x + (felt.w - len(line)) // 2
            self.canvas.put(x, first + i, line, f"italic {FELT_INK}")

    def _edges(self, felt: Rect, direction: int) -> Rect:
        """The felt's frame, with the direction of play's arrows on its edges; the
        rectangle inside it."""
        canvas = self.canvas
        plain, _ = frames(self.style.ascii)
        canvas.box(felt, plain, FELT_EDGE)
        top, right, bottom, left = _arrows(direction, self.style.ascii)
        mid_x, mid_y = felt.x + felt.w // 2, felt.y + felt.h // 2
        for dx in (-felt.w // 4, felt.w // 4):
            if felt.x < mid_x + dx and mid_x + dx + 3 < felt.x + felt.w:  # clear of the corners
                canvas.put(mid_x + dx, felt.y, f" {top} ", f"bold {FELT_INK}")
                canvas.put(mid_x + dx, felt.y + felt.h - 1, f" {bottom} ", f"bold {FELT_INK}")
        canvas.put(felt.x, mid_y, left, f"bold {FELT_INK}")
        canvas.put(felt.x + felt.w - 1, mid_y, right, f"bold {FELT_INK}")
        return Rect(felt.x + 1, felt.y + 1, felt.w - 2, felt.h - 2)

    def _pile(
        self, inner: Rect, middle: MiddleView, fresh: bool, in_flight: bool, framed: bool
    ) -> Rect:
        """The stock, the top card (or its place, while a card flies in), the suit
        in force, their labels, and under them the count or the way of play; the
        top card's rectangle."""
        canvas, size = self.canvas, self.size
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
            self.cards.back(x0, y0, str(middle.stock))
        tx = x0 + fw + 2 if stock_face else x0
        if middle.top and not in_flight:
            self.cards.face(tx, y0, middle.top, heavy=fresh)
        else:
            self.cards.slot(tx, y0)
        if middle.suit:
            self._suit(tx + fw + 2, y0, min(fh, 5), middle.suit)
        if labels and not stock_face:
            canvas.put(tx, y0 + fh, _("stock {n}").format(n=middle.stock), FELT_LABEL)
        elif labels:
            # (a word under a card may take a column of the gap on each side)
            stock = crop(pgettext("felt", "stock"), fw + 2, "~" if self.style.ascii else "…")
            canvas.put(x0 + (fw - len(stock)) // 2, y0 + fh, stock, FELT_LABEL)
            pile = crop(pgettext("felt", "new!") if fresh else pgettext("felt", "top"), fw + 2)
            look = f"bold {FELT_INK}" if fresh else FELT_LABEL
            canvas.put(tx + (fw - len(pile)) // 2, y0 + fh, pile, look)
        below = y0 + fh + (1 if labels else 0)
        with canvas.clipped(inner):  # the words under the pile never cross the felt's frame
            self._way(inner, middle, below, framed, Rect(x0, y0, row_w, fh))
        return Rect(tx, y0, fw, fh)

    def _way(self, inner: Rect, middle: MiddleView, below: int, framed: bool, pile: Rect) -> None:
        """Under the pile (from row ``below``): the count in progress, else the
        direction of play in words (on one or two rows, as the felt's width allows:
        :func:`way_lines`), at the felt's bottom; beside the pile when the felt has no
        room under it and no edges to carry the arrows. Words that do not fit whole
        are left out (a framed felt's edges still carry the arrows)."""
        if middle.count:
            self._count(inner, below, middle.count, pile)
            return
        canvas, style = self.canvas, self.style
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

    def _suit(self, x: int, y: int, h: int, suit: str) -> None:
        """The suit in force, named by an 8 or 9: a small box saying so."""
        canvas, style = self.canvas, self.style
        _plain, strong = frames(style.ascii)
        # TRANSLATORS: two lines in a box 5 letters wide around the suit an 8 or 9
        # named ("suit / ♥ / named"); each is cut at 5 letters
        above, below = pgettext("named suit, above", "suit"), pgettext("named suit, below", "named")
        ink = f"bold {RED_INK}" if suit in ("H", "D") else f"bold {INK}"
        if style.underline_red and suit in ("H", "D"):
            ink += " underline"
        if h >= 4:
            canvas.fill(Rect(x, y, 7, h), FACE_GROUND)
            canvas.box(Rect(x, y, 7, h), strong, f"bold {INK}")
            canvas.put(x + 1, y + 1, crop(above, 5).center(5), f"italic {INK}")
            canvas.put(x + 1, y + h // 2, style.suit(suit).center(5), ink)
            canvas.put(x + 1, y + h - 2, crop(below, 5).center(5), f"italic {INK}")
            return
        canvas.put(x, y, crop(above, 5), f"italic {FELT_INK}")
        canvas.fill(Rect(x, y + 1, 3, 1), FACE_GROUND)
        canvas.put(x, y + 1, f" {style.suit(suit)} ", ink)
        canvas.put(x, y + 2, crop(below, 5), f"italic {FELT_INK}")

    def _count(self, inner: Rect, y: int, count: int, pile: Rect) -> None:
        """The count in progress (R6), large: a heavy box in reverse video, and
        under it what the next player may do (in as many words as fit)."""
        canvas = self.canvas
        text = " " + _("COUNT {n}").format(n=count) + " "
        room = inner.y + inner.h - y
        notes = [str(n) for n in COUNT_NOTES]
        note = next((n for n in notes if len(n) <= inner.w), "") if room >= 4 else ""
        _plain, strong = frames(self.style.ascii)
        w = max(len(text), len(notes[0])) + 2  # as wide as the note's words, when it fits
        if w > inner.w:
            w = len(text) + 2
        x = inner.x + (inner.w - w) // 2
        if room >= 3 and w <= inner.w:
            canvas.box(Rect(x, y, w, 3), strong, f"bold {FELT_INK}")
            canvas.put(x + 1, y + 1, text.center(w - 2), f"bold {FELT_INK} reverse")
            if note:
                canvas.put(inner.x + (inner.w - len(note)) // 2, y + 3, note, f"bold {FELT_INK}")
        elif room >= 1:
            canvas.put(inner.x + (inner.w - len(text)) // 2, y, text, "bold reverse")
        else:  # no row under the pile: beside it, else over it
            x, y = _beside(inner, pile, len(text))
            canvas.put(x, y, text, "bold reverse")


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


class HandPainter:
    """Draws a hand of card faces on ``canvas`` (its whole width).

    Args:
        canvas: what is drawn on.
        style: how cards are written.
        size: the faces' size.
    """

    def __init__(self, canvas: Canvas, style: CardStyle, size: FaceSize):
        self.canvas = canvas
        self.cards = CardPainter(canvas, style, size)
        self.size = size

    def hand(
        self,
        cards: list[str],
        playable: set[str],
        selected: int | None,
        *,
        new: frozenset[str] = frozenset(),
    ) -> HandPlan:
        """The hand as card faces in a row (overlapped, then wrapped, when they are
        many): playable cards raised a row and framed bold, the others dimmed; the
        chosen one framed heavy, in reverse, with ``^`` under it; under each card
        the last digit of its number for the number keys (1…9, 0, then 1, 2… again
        from the 11th: :func:`~craits.client.present.presenter.digit_choice`); cards
        in ``new`` (just drawn) marked."""
        width = self.canvas.width
        per = _per_row(width, self.size)
        fh = self.size.height
        spots: list[Rect] = []
        for start in range(0, len(cards), per):
            row = cards[start : start + per]
            band = (start // per) * (fh + 2)
            spots += self._row(row, start, band, playable, selected, new)
        return HandPlan(tuple(spots))

    def _row(
        self,
        row: list[str],
        start: int,
        band: int,
        playable: set[str],
        selected: int | None,
        new: frozenset[str],
    ) -> list[Rect]:
        """One row of the hand (its cards from number ``start``), from row ``band``."""
        canvas, width = self.canvas, self.canvas.width
        fw, fh = self.size.width, self.size.height
        n = len(row)
        step = fw + 1 if n * (fw + 1) - 1 <= width else max(4, (width - fw) // max(n - 1, 1))
        used = step * (n - 1) + fw
        left = max(0, (width - used) // 2)
        spots: list[Rect] = []
        for j, card in enumerate(row):
            i = start + j
            x = left + j * step
            up = card in playable
            chosen = i == selected
            y = band + (0 if up else 1)
            self.cards.face(x, y, card, heavy=chosen or up, dim=not up, reverse=chosen)
            if not up:
                canvas.put(x, band, " " * min(step, fw))
                canvas.fill(Rect(x, band, min(step, fw), 1), "")
            else:
                canvas.put(x, band + fh, " " * fw)
                canvas.fill(Rect(x, band + fh, fw, 1), "")
            if card in new:
                mark_row = band if not up else band + fh
                canvas.put(
                    x + 1, mark_row, pgettext("hand", "new")[: max(1, step - 1)], "bold italic"
                )
            digits = band + fh + 1
            key = str((i + 1) % 10)  # 1…9, 0, then 1, 2… again (a digit twice: the next ten)
            mark = "^" if chosen else " "
            canvas.put(x + 1, digits, key, "bold reverse" if chosen else "dim")
            canvas.put(x + 2, digits, mark, "bold")
            spots.append(Rect(x, band, fw if j == n - 1 else step, fh + 2))
        return spots
