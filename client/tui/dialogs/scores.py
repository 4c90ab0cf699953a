"""The running score sheet of the game, hand by hand."""

from __future__ import annotations

from craits.protocol.i18n import N_
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core.model import TableModel
from ...core.session import Session
from ...present.card_style import CardStyle
from ...present.sheet import score_sheet
from ..messages import LanguageChanged, TableChanged, TableShown, follow_news, reported
from ..widgets.key_footer import KeyFooter
from .base import Dialog


class ScoreSheetScreen(Dialog[bool]):
    """The running score sheet (:mod:`craits.client.present.sheet`): every hand so far,
    points, shuffle penalties and totals per seat. Escape, Enter, ``h`` or ``q``
    closes it; ``l`` closes it with True, for the last hand's summary.

    It follows the game: drawn again as the table changes.

    Args:
        session: the table shown (read again after each change).
        style: how cards are drawn.
    """

    DEFAULT_CSS = """
    #score-sheet { width: 100; max-width: 100%; height: auto; max-height: 100%; }
    """
    BINDINGS = [  # noqa: RUF012
        Binding("escape,enter,h,q", "close", N_("Close")),
        Binding("l", "last_hand", N_("Last hand")),
    ]

    def __init__(self, session: Session, style: CardStyle):
        super().__init__()
        self.session = session
        self.style = style
        self._model = session.model

    @property
    def model(self) -> TableModel | None:
        """The table shown (the last one, once the session shows none)."""
        if self.session.model is not None:
            self._model = self.session.model
        return self._model

    def compose(self) -> ComposeResult:
        """The sheet, scrollable."""
        with VerticalScroll(id="score-sheet", classes="dialog"):
            yield Static(id="score-sheet-body")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Draw the sheet, follow the game (the session's news); focus it so the
        arrows scroll."""
        follow_news(self)
        self.sync()
        self.query_one("#score-sheet").focus()

    @on(TableShown)
    @on(TableChanged)
    @on(LanguageChanged)
    @reported
    def _changed(self, message: TableShown | TableChanged | LanguageChanged) -> None:
        """The game moved on: the sheet follows."""
        self.sync()

    def sync(self) -> None:
        """Draw the sheet again."""
        model = self.model
        if model is None or not self.is_mounted:
            return
        body = self.query_one("#score-sheet-body", Static)
        body.update(score_sheet(model, self.style, self.size.width - 4))
        self.refresh_bindings()

    def on_resize(self) -> None:
        """Lay the sheet out again for the new width."""
        self.sync()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``l`` only once a hand has ended."""
        if action == "last_hand":
            model = self.model
            return model is not None and model.last_result is not None
        return True

    def action_close(self) -> None:
        """Back to the table."""
        self.finish(False)

    def action_last_hand(self) -> None:
        """The last hand's summary (every hand revealed, the threes…)."""
        self.finish(True)
