"""The hand drawn as card faces; a click chooses a card."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message

from ...present.canvas import Canvas
from ...present.card_style import CardStyle
from ...present.felt import FaceSize, HandPainter, HandPlan, face_size, hand_height
from .canvas_widget import CanvasWidget


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
        painter = HandPainter(canvas, self.style, self.face())
        self.plan = painter.hand(self.cards, self.playable, self.selected, new=self.new)

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
