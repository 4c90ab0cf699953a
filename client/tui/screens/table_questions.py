"""The questions the table screen asks before it acts (protocol §11.2, §11.3): close
the table, end the game by closing it, leave a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from craits.protocol.i18n import _
from craits.protocol.vocab import TableState
from textual.screen import Screen

from ...core.session import Session
from ..dialogs.base import ConfirmDialog


class TableQuestions:
    """Asks, in a :class:`~..dialogs.base.ConfirmDialog` over ``screen``, before a
    request that sends everyone away or leaves a game; sends it on yes.

    Args:
        screen: the table screen the dialog comes over.
        session: where the requests go.
    """

    def __init__(self, screen: Screen[Any], session: Session):
        self.screen = screen
        self.session = session

    def close_table(self) -> None:
        """Close the table, once confirmed: everyone at it goes back to the lobby."""
        model = self.session.model
        if model is not None:
            question = _(
                "Close table {table}? Everyone at it goes back to the lobby, "
                "and it is gone from the list."
            ).format(table=model.name)
            self._confirm(question, self.session.requests.close_table)

    def end_game(self) -> None:
        """Close the table during its game, once confirmed: the game ends,
        recorded as abandoned, and everyone goes back to the lobby."""
        model = self.session.model
        if model is not None:
            question = _(
                "Close table {table} and end the game? The game stops where it "
                "stands (its record keeps it, marked abandoned), and everyone at the "
                "table goes back to the lobby."
            ).format(table=model.name)
            self._confirm(question, lambda: self.session.requests.close_table(end_game=True))

    def leave(self) -> None:
        """Leave the table (asking first in the middle of a game)."""
        model = self.session.model
        requests = self.session.requests
        if model is None or model.spectator or model.state != TableState.PLAYING:
            requests.leave()
            return
        self._confirm(
            _(
                "Leave the game? Your seat stays yours: the server plays it while "
                "others play on (with nobody else playing, the game waits for you). "
                "Come back with r in the lobby, or start craits-client again."
            ),
            requests.leave,
        )

    def _confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask ``question`` in a dialog; on yes, call ``then``."""
        self.screen.app.push_screen(ConfirmDialog(question), lambda yes: then() if yes else None)
