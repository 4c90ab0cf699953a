"""The table screen's game log and chat, brought up to date with the model."""

from __future__ import annotations

from ...core.model import TableModel
from ...present import presenter
from ...present.card_style import CardStyle
from ..widgets.wrapped_log import WrappedLog


class TableLogs:
    """Writes into the game log and the chat panes what the model added since the
    last time: the event log's new lines (all of them again when a ``state``
    rewrote the hand so far), the new chat lines.

    Args:
        log: the game log's pane.
        chat: the chat's pane.
        style: how cards are written (the log's bullet).
    """

    def __init__(self, log: WrappedLog, chat: WrappedLog, style: CardStyle):
        self.log = log
        self.chat = chat
        self.style = style
        self._log_shown = 0
        self._log_rewrites = 0
        self._chat_shown = 0

    def write(self, model: TableModel) -> None:
        """Add what ``model`` has that the panes do not show yet."""
        log, events = self.log, model.log
        if events.rewrites != self._log_rewrites:  # a state rewrote the hand so far
            self._log_rewrites = events.rewrites
            log.clear()
            self._log_shown = events.added - len(events.lines)
        new = events.added - self._log_shown
        if new > 0:
            bullet = presenter.log_bullet(self.style)
            for line in events.lines[-min(new, len(events.lines)) :]:
                log.add(line, bullet)
            self._log_shown = events.added
        for said in model.chat[self._chat_shown :]:
            self.chat.add(presenter.chat_line(said))
        self._chat_shown = len(model.chat)
