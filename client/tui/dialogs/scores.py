"""The running score sheet of the game, hand by hand."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ...core.model import TableModel
from ...present.card_style import CardStyle
from ...present.sheet import score_sheet
from .base import Dialog


class ScoreSheetScreen(Dialog[bool]):
    """The running score sheet (:mod:`craits.client.present.sheet`): every hand so far,
    points, shuffle penalties and totals per seat. Escape, Enter, ``h`` or ``q``
    closes it; ``l`` closes it with True, for the last hand's summary.

    Args:
        model: the table (read again by :meth:`sync`, after each change).
        style: how cards are drawn.
    """

    DEFAULT_CSS = """
    #score-sheet { width: 100; max-width: 100%; height: auto; max-height: 100%; }
    """
    BINDINGS = [  # noqa: RUF012
        Binding("escape,enter,h,q", "close", "Close"),
        Binding("l", "last_hand", "Last hand"),
    ]

    def __init__(self, model: TableModel, style: CardStyle):
        super().__init__()
        self.model = model
        self.style = style

    def compose(self) -> ComposeResult:
        """The sheet, scrollable."""
        with VerticalScroll(id="score-sheet", classes="dialog"):
            yield Static(id="score-sheet-body")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Draw the sheet; focus it so the arrows scroll."""
        self.sync()
        self.query_one("#score-sheet").focus()

    def sync(self, model: TableModel | None = None) -> None:
        """Draw the sheet again (``model``: the table's, if it changed)."""
        if model is not None:
            self.model = model
        body = self.query_one("#score-sheet-body", Static)
        body.update(score_sheet(self.model, self.style, self.size.width - 4))
        self.refresh_bindings()

    def on_resize(self) -> None:
        """Lay the sheet out again for the new width."""
        self.sync()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``l`` only once a hand has ended."""
        if action == "last_hand":
            return self.model.last_result is not None
        return True

    def action_close(self) -> None:
        """Back to the table."""
        self.finish(False)

    def action_last_hand(self) -> None:
        """The last hand's summary (every hand revealed, the threes…)."""
        self.finish(True)
