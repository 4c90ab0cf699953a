"""Small widgets of the table screen: the drawn table, the hand and the logs."""

from __future__ import annotations

import asyncio
import gc
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from .cards import CardStyle
from .felt import (
    Canvas,
    FaceSize,
    Flight,
    HandPlan,
    TablePlan,
    draw_felt,
    draw_flight,
    draw_hand,
    draw_table,
    face_size,
    hand_height,
    rich_style,
)
from .kept import KeptLines, KeptRows
from .model import TableModel
from .tableview import MiddleView, SeatView


def call_later(widget: Widget, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
    """Call ``callback`` in ``delay`` seconds if ``widget`` is still in the app
    then; cancel with the handle's ``cancel()``. A plain event-loop timer: the
    table starts and cancels its motion's timers at every update, and a Textual
    ``Timer`` is an asyncio task of its own (started, and cancelled by an
    exception thrown into it)."""

    def run() -> None:
        if widget.is_attached:
            callback()

    return asyncio.get_running_loop().call_later(delay, run)


class CanvasWidget(KeptRows, KeptLines):
    """A widget drawn on a :class:`~craits.client.felt.Canvas`: the drawing is
    made once per change (:meth:`draw`, given the content size), kept as strips,
    and each line handed out as it is; a change redraws without a new layout.

    What it costs is kept small, as an update comes several times a second: a
    :meth:`redraw` with the same :meth:`drawing_key` as the last (and the same
    size and theme) does nothing; otherwise only the rows whose cells changed
    get new strips and are refreshed (a turn changes a few rows of the table).
    ``rows_refreshed`` counts those rows, for the tests. Each row is handed to
    the screen as made and filtered until it changes (:class:`KeptRows`)."""

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
        self.rows_refreshed = 0
        """Rows refreshed so far (a whole refresh counts every row)."""

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
            self.rows_refreshed += height
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
            self.rows_refreshed += height
            self.refresh()
        else:
            self.rows_refreshed += len(changed)
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


class FixedText(KeptLines):
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


class FeltView(CanvasWidget):
    """The table drawn: the seats around it (this client's at the bottom), the
    felt with the direction of play, the stock, the top card, the suit in force
    and the count. Given :mod:`~craits.client.tableview` values by
    :meth:`show`; a card just played flies to the pile (unless motion is
    reduced) and stays framed heavy for a moment."""

    def __init__(self, style: CardStyle, **kwargs: Any):
        super().__init__(style, **kwargs)
        self.seats: list[SeatView] = []
        self.middle = MiddleView()
        self.fresh = False
        self.flight: Flight | None = None
        self.flights = 0
        """Cards that slid in so far."""
        self.plan: TablePlan | None = None
        self._still: object = None
        """What the last whole drawing was made from, but for the motion."""
        self._landed: tuple[object, Canvas] | None = None
        """While a card slides in: the table drawn without it, and what from."""

    def show(self, seats: list[SeatView], middle: MiddleView) -> None:
        """Draw ``seats`` and ``middle``."""
        self.seats = seats
        self.middle = middle
        self.redraw()

    def drawing_key(self) -> object:
        """The seats, the middle, the motion and the faces' size."""
        size = face_size(self.app.size.width, self.app.size.height)
        return (tuple(self.seats), self.middle, self.fresh, self.flight, size, self.style)

    def draw(self, canvas: Canvas) -> None:
        """The table, sized to the terminal (:func:`~craits.client.felt.face_size`).
        When only the motion changed (a card sliding in, or its frame going back
        to plain), the last drawing is copied and only its felt drawn again; a
        card sliding in is drawn over a copy of the table drawn without it, which
        is shown as it is when the card lands."""
        size = face_size(self.app.size.width, self.app.size.height)
        still = (tuple(self.seats), self.middle, size, self.style, canvas.width, canvas.height)
        landed, self._landed = self._landed, None
        if self.flight is None and landed is not None and landed[0] == (still, self.fresh):
            canvas.copy_from(landed[1])  # the card lands: the drawing made under it
            return
        old, plan = self._canvas, self.plan
        if still == self._still and old is not None and plan is not None:
            canvas.copy_from(old)
            plan.top = draw_felt(canvas, plan, self.middle, self.style, size, fresh=self.fresh)
        else:
            self._still = still
            self.plan = plan = draw_table(
                canvas, self.seats, self.middle, self.style, size, fresh=self.fresh
            )
        if self.flight is not None:  # (drawn over a copy: the landing shows the drawing)
            under = Canvas(canvas.width, canvas.height)
            under.copy_from(canvas)
            self._landed = ((still, self.fresh), under)
            draw_flight(canvas, plan, self.flight, size, self.style)


class HandView(CanvasWidget, can_focus=True):
    """This seat's cards as faces in a row (overlapped, then wrapped, when many):
    playable ones raised and framed bold, the others dimmed and lower, the
    chosen one framed heavy in reverse with ``^`` under it, a digit under each
    for the number keys, and cards just drawn marked "new". A click chooses a
    card; a click on the chosen card plays it."""

    DEFAULT_CSS = """
    HandView { height: 5; }
    """

    class Clicked(Message):
        """A card was clicked: ``index`` in the shown order."""

        def __init__(self, index: int):
            super().__init__()
            self.index = index

    class Grown(Message):
        """The hand took another height (a row of cards more or less, other faces)."""

    def __init__(self, style: CardStyle, **kwargs: Any):
        super().__init__(style, **kwargs)
        self.cards: list[str] = []
        self.playable: set[str] = set()
        self.selected: int | None = None
        self.note: Text | None = None
        self.new: frozenset[str] = frozenset()
        self.plan: HandPlan | None = None

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
        self.fit()
        self.redraw()

    def face(self) -> FaceSize:
        """The faces' size for the terminal's size."""
        return face_size(self.app.size.width, self.app.size.height)

    def fit(self) -> None:
        """Take the height the hand needs (a new layout only when it changes)."""
        width = self.content_size.width or max(1, self.app.size.width // 2)
        rows = hand_height(len(self.cards), width, self.face()) if self.cards else 1
        rows += self.styles.gutter.height
        if self.styles.height is None or self.styles.height.value != rows:
            self.styles.height = rows
            self.post_message(self.Grown())

    def on_resize(self, event: events.Resize) -> None:
        """A new size: refit and draw again."""
        self.fit()
        self.redraw()

    def drawing_key(self) -> object:
        """The cards and their marks, the note and the faces' size."""
        note = self.note.plain if self.note is not None else ""
        cards = tuple(self.cards)
        return (
            cards,
            frozenset(self.playable),
            self.selected,
            note,
            self.new,
            self.face(),
            self.style,
        )

    def draw(self, canvas: Canvas) -> None:
        """The cards, or the note."""
        if not self.cards:
            self.plan = None
            note = self.note.plain if self.note is not None else ""
            canvas.put(1, 0, note, "italic")
            return
        self.plan = draw_hand(
            canvas,
            self.cards,
            self.playable,
            self.selected,
            self.style,
            self.face(),
            new=self.new,
        )

    def on_click(self, event: events.Click) -> None:
        """Choose (or play) the clicked card: the topmost card under the pointer."""
        offset = event.get_content_offset(self)
        if offset is None or self.plan is None:
            return
        for index in range(len(self.plan.spots) - 1, -1, -1):
            spot = self.plan.spots[index]
            if spot.x <= offset.x < spot.x + spot.w and spot.y <= offset.y < spot.y + spot.h:
                self.post_message(self.Clicked(index))
                return


class WrappedLog(ScrollView, KeptRows, can_focus=False):
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
        self.rows_refreshed = 0
        """Rows of the log painted again so far (for the tests)."""

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
            self.rows_refreshed += self.size.height
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
            self.rows_refreshed += self.size.height
        elif moved:
            self.rows_refreshed += self.size.height
        elif added:
            self.refresh_lines(len(self._rows) - added, added)
            self.rows_refreshed += added

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


_heap_frozen = False


def freeze_heap_once() -> None:
    """Once per process (the first table shown): collect, then move every object
    alive now (Textual, the app, its screens and widgets) out of the garbage
    collector's reach (``gc.freeze``). The oldest generation's collections then
    walk only what came after, not those ~60,000 objects: they took ~60 ms each,
    every 30 or so updates of a game watched."""
    global _heap_frozen
    if not _heap_frozen:
        _heap_frozen = True
        gc.collect()
        gc.freeze()


FRESH_SECONDS = 1.5
"""How long the card just played stays framed heavy, and drawn cards marked "new"."""
FLIGHT_SECONDS = 0.15
"""How long a played card takes to slide onto the pile (full motion)."""
FLIGHT_FRAMES = 1
"""Frames of that flight."""


class Motion:
    """What changed on the table since the last update, shown for a moment: the
    card just played flies from its seat to the pile (Textual's animation level
    ``full``), then stays framed heavy; cards just drawn into the hand are
    marked "new" (levels ``basic`` and ``full``). At level ``none`` (reduced
    motion off entirely, and the snapshot tests) nothing moves or blinks.

    The seat that played is the one that was to act before the update: the
    client reads it from the views, and decides nothing."""

    def __init__(self) -> None:
        self._top: str | None = None
        self._hand_number = 0
        self._to_act: int | None = None
        self._hand: list[str] = []
        self._timers: list[asyncio.TimerHandle] = []

    def seen(self, model: TableModel, felt: FeltView, hand: HandView) -> None:
        """Compare ``model`` with the last update seen; start what shows the change."""
        view = model.view
        if view is None:
            self._top, self._to_act, self._hand = None, None, []
            return
        same_hand = view["hand_number"] == self._hand_number
        played = same_hand and view["top"] != self._top and self._to_act is not None
        drawn = [c for c in model.hand if c not in self._hand] if same_hand else []
        level = felt.app.animation_level
        if level != "none" and (played or drawn):
            self._stop()
            if played and view["top"] and self._to_act is not None:
                felt.fresh = True
                if level == "full":
                    self._fly(felt, view["top"], self._to_act)
            hand.new = frozenset(drawn)
            settle = call_later(felt, FRESH_SECONDS, lambda: self._settle(felt, hand))
            self._timers.append(settle)
        self._top, self._hand_number = view["top"], view["hand_number"]
        self._to_act, self._hand = view["to_act"], list(model.hand)

    def forget(self) -> None:
        """Show no motion for the next update seen (the table was not drawn for a
        while: who played what since is not known from one view)."""
        self._hand_number = -1

    def _fly(self, felt: FeltView, card: str, seat: int) -> None:
        def step(frame: int) -> None:
            progress = frame / FLIGHT_FRAMES
            felt.flight = Flight(card, seat, progress) if progress < 1 else None
            felt.redraw()

        felt.flight = Flight(card, seat, 0.0)
        felt.flights += 1
        for frame in range(1, FLIGHT_FRAMES + 1):
            delay = FLIGHT_SECONDS * frame / FLIGHT_FRAMES
            self._timers.append(call_later(felt, delay, partial(step, frame)))

    def _settle(self, felt: FeltView, hand: HandView) -> None:
        felt.fresh, felt.flight = False, None
        hand.new = frozenset()
        felt.redraw()
        hand.redraw()

    def _stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()


ASCII_PUNCTUATION = {
    "—": "-",
    "–": "-",
    "·": ".",
    "…": ".",
    "•": "*",
    "▶": ">",
    "◀": "<",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "↻": "@",
    "↺": "@",
    "×": "x",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "⏎": "E",
    "✓": "v",
    "✗": "x",
    "\u00a0": " ",
}
"""Single-cell ASCII stand-ins for the characters the client and Textual draw."""


@lru_cache(maxsize=4096)
def ascii_char(ch: str) -> str:
    """An ASCII stand-in for ``ch`` as wide as it (in cells): box drawing to
    ``+ - | = #``, blocks (scroll bars) to ``#``, letters to their base letter,
    anything else to ``?``."""
    if ch.isascii():
        return ch
    if ch in ASCII_PUNCTUATION:
        return ASCII_PUNCTUATION[ch]
    width = cell_len(ch)
    if width == 0:
        return ""
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):
        heavy = "HEAVY" in name or "DOUBLE" in name
        if "HORIZONTAL" in name and "VERTICAL" not in name:
            return "=" if heavy else "-"
        if "VERTICAL" in name and "HORIZONTAL" not in name:
            return "#" if heavy else "|"
        return "#" if heavy else "+"
    if 0x2580 <= ord(ch) <= 0x259F or 0x25A0 <= ord(ch) <= 0x25FF:
        return "#" * width
    base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    if len(base) == width:
        return base
    return "?" * width


@lru_cache(maxsize=8192)
def ascii_text(text: str) -> str:
    """``text`` with every character made ASCII (:func:`ascii_char`), as wide."""
    if text.isascii():
        return text
    return "".join(ascii_char(ch) for ch in text)


class AsciiFilter(LineFilter):
    """``--ascii``: whatever is drawn (our widgets', Textual's borders, scroll
    bars, punctuation from the network) reaches the terminal as ASCII only."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """Each segment's text made ASCII, as wide as it was."""
        return [
            seg if seg.text.isascii() else Segment(ascii_text(seg.text), seg.style, seg.control)
            for seg in segments
        ]
