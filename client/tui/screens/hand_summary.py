"""The last hand's summary over the table screen, and the questions about the game
that a new move makes pointless."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from ...core.session import Session
from ...present.card_style import CardStyle
from ...present.results import overtaken
from ..dialogs.base import ChoiceDialog
from ..dialogs.summary import SummaryScreen


class HandSummary:
    """Shows the last hand's summary (a :class:`~..dialogs.summary.SummaryScreen`)
    over ``screen``: at the hand's end when it is due, or when asked for; and closes
    a question about the game (a suit, whom to call idiot) an update made pointless.

    Args:
        screen: the table screen the summary comes over.
        session: the table shown (its last result), and the summary's requests.
        style: how cards are drawn.
    """

    def __init__(self, screen: Screen[Any], session: Session, style: CardStyle):
        self.screen = screen
        self.session = session
        self.style = style
        self._open: SummaryScreen | None = None

    def close_stale_questions(self, all_game: bool = False) -> None:
        """Close a question about the game that an update made pointless (``all_game``:
        any question about the game, pointless or not)."""
        top = self.screen.app.screen
        if not isinstance(top, ChoiceDialog) or top.still_valid is None:
            return
        if all_game or not top.still_valid():
            top.finish(None)

    def show(self, auto: bool = False) -> None:
        """Show the summary of the last hand (or put it in the one open). A question
        about the game is closed first; another dialog (the rules, say) is left
        open, and the summary comes when it closes, unless what comes after
        it has come by then (``auto``: shown at the hand's end, not asked for;
        :func:`~craits.client.present.results.overtaken`)."""
        model = self.session.model
        if model is None or model.last_result is None:
            return
        if self._open is not None:  # the one open takes the result
            model.summary_due = False
            self._open.result = model.last_result
            self._open.sync()
            return
        if auto and overtaken(model.last_result, model):
            model.summary_due = False  # the next hand (or game) is on: no summary now
            return
        self.close_stale_questions(all_game=True)
        app = self.screen.app
        top = app.screen
        if top is not self.screen and not (isinstance(top, ChoiceDialog) and top.still_valid):
            model.summary_due = True
            return
        model.summary_due = False
        self._open = SummaryScreen(self.session, self.style, model.last_result, auto=auto)
        app.push_screen(self._open, self._closed)

    def _closed(self, result: None) -> None:
        self._open = None
