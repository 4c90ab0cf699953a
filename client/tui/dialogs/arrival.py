"""What coming to a table may ask of the user, in dialogs over whatever is shown."""

from __future__ import annotations

from typing import Any

from textual.app import App

from ...core.session import Session
from .base import ConfirmDialog
from .private import CodeDialog, InviteDialog


class ArrivalQuestions:
    """Asks what coming to a table needs (protocol §11.9): a private table's invite
    code, whether to watch a table with no seat free for this player; and shows a
    new private table's invite link to its creator. The App calls it in the order
    the session's news came, with the table shown or the lobby (so a dialog is
    never popped by the table that comes after it).

    Args:
        app: the client (where the dialogs are pushed).
        session: where the answers go (join, watch).
    """

    def __init__(self, app: App[Any], session: Session):
        self.app = app
        self.session = session

    def invite_ready(self, table: str, link: str) -> None:
        """This client's private ``table``: show its invite link."""
        self.app.push_screen(InviteDialog(table, link))

    def code_needed(self, table: str, watch: bool, why: str) -> None:
        """The private ``table`` needs its code: ask for it, then join (or watch) with it."""
        requests = self.session.requests

        def done(code: str | None) -> None:
            if not code:
                return
            if watch:
                requests.spectate(table, code)
            else:
                requests.join(table, code=code)

        self.app.push_screen(CodeDialog(table, why), done)

    def watch_offered(self, table: str, question: str) -> None:
        """No seat at ``table`` for this player: offer to watch it instead."""
        session = self.session

        def watch(yes: bool | None) -> None:
            if yes and session.model is None:
                session.requests.spectate(table)  # (with its invite code, if private)

        self.app.push_screen(ConfirmDialog(question, yes_first=True), watch)
