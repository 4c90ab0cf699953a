"""The table drawn: seats, felt, stock, pile (:mod:`craits.client.present.felt`), with a
card just played flying to the pile.
"""

from __future__ import annotations

from typing import Any

from ...present.canvas import Canvas
from ...present.card_style import CardStyle
from ...present.felt import Flight, TablePainter, TablePlan, face_size
from ...present.tableview import MiddleView, SeatView
from .canvas_widget import CanvasWidget


class FeltView(CanvasWidget):
    """The table drawn: the seats around it (this client's at the bottom), the
    felt with the direction of play, the stock, the top card, the suit in force
    and the count. Given :mod:`~craits.client.present.tableview` values by
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
        """The table, sized to the terminal (:func:`~craits.client.present.felt.face_size`).
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
        painter = TablePainter(canvas, self.style, size)
        old, plan = self._canvas, self.plan
        if still == self._still and old is not None and plan is not None:
            canvas.copy_from(old)
            plan.top = painter.felt(plan, self.middle, fresh=self.fresh)
        else:
            self._still = still
            self.plan = plan = painter.table(self.seats, self.middle, fresh=self.fresh)
        if self.flight is not None:  # (drawn over a copy: the landing shows the drawing)
            under = Canvas(canvas.width, canvas.height)
            under.copy_from(canvas)
            self._landed = ((still, self.fresh), under)
            painter.flight(plan, self.flight)
