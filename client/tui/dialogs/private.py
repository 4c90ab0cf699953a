"""The dialogs of private tables and the creator's powers (protocol §11.9).

- :class:`InviteDialog`: a private table's invite link, shown to its creator
  as text (selectable) with a key that copies it to the clipboard;
- :class:`CodeDialog`: a private table asks for its invite code (or a whole
  invite link, pasted);
- :class:`CreatorMenu`: the creator's menu — remove (or replace by a bot),
  lock, mute, hand over, let back, show the invite — as dialogs.

The App shows the first two when the session says so (its
:class:`~craits.client.tui.messages.InviteReady` and
:class:`~craits.client.tui.messages.CodeNeeded`). The requests go through the
session's :class:`~craits.client.core.privacy.CreatorRequests`; nothing here
decides what the server allows (it answers in plain words when it refuses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from craits.protocol import DEFAULT_PORT
from craits.protocol.address import parse_target
from craits.protocol.i18n import N_
from craits.protocol.vocab import TableState
from rich.text import Text
from textual import on
from textual.app import App
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Label, Static

from ...core import privacy
from ...core.model import TableModel
from ...core.session import Session
from ..widgets.key_footer import KeyFooter
from .base import ChoiceDialog, ConfirmDialog, Dialog

MAX_CODE_TEXT = 300
"""Longest text the code field takes (a whole link may be pasted)."""


LOOPBACK_HINT = (
    "This link names this machine: friends elsewhere cannot reach it. The server's "
    "operator gives the address they can reach with craits-server --public-address "
    "HOST[:PORT] (public-address in its config file, CRAITS_PUBLIC_ADDRESS), and "
    "--host 0.0.0.0 to let them in."
)
"""What the invite dialog adds when its link names a loopback host (``localhost``)."""


class InviteDialog(Dialog[None]):
    """A private table's invite link, to send to friends: shown as text that
    can be selected, and copied with ``c``. Enter or Escape closes it."""

    BINDINGS = [  # noqa: RUF012
        Binding("c", "copy", N_("Copy the link")),
        Binding("escape,enter", "close", N_("Close")),
    ]

    def __init__(self, table: str, link: str):
        super().__init__()
        self.table = table
        self.link = link
        self.copied = False
        """Whether the link was copied (for tests: the terminal's clipboard is not readable)."""

    def compose(self) -> Any:
        """What to do with the link, and the link."""
        with VerticalScroll(classes="dialog small invite"):  # (scrolls on a low screen)
            yield Label(f"Table {self.table} is private", classes="dialog-title")
            yield Static(
                Text(
                    "Only people with this invite can join or watch. Send it to your "
                    "friends; they start the client with it: craits-client LINK"
                )
            )
            yield Static(Text(self.link, style="bold"), id="invite-link")
            if privacy.loopback(self.link):
                yield Static(Text(LOOPBACK_HINT, style="italic"), id="invite-loopback")
            yield Static(
                Text(
                    "c: copy the link · Enter: close · at the table, m: the creator's menu",
                    style="dim",
                ),
                id="invite-keys",
            )
        yield KeyFooter()

    def action_copy(self) -> None:
        """Copy the link to the clipboard (through the terminal)."""
        self.app.copy_to_clipboard(self.link)
        self.copied = True
        self.notify("Invite link copied.", timeout=3, markup=False)

    def action_close(self) -> None:
        """Close the dialog."""
        self.finish(None)


def code_from(text: str) -> str | None:
    """The invite code in what was typed: the code itself, or a pasted link's ``code``."""
    text = text.strip()
    if "://" in text:
        try:
            return parse_target(text, DEFAULT_PORT).code
        except ValueError:
            return None
    return text or None


class CodeDialog(Dialog[str | None]):
    """Ask for a private table's invite code (a pasted invite link will do);
    dismissed with the code, or None."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012

    def __init__(self, table: str, why: str):
        super().__init__()
        self.table = table
        self.why = why

    def compose(self) -> Any:
        """Why, and the field."""
        with Vertical(classes="dialog small"):
            yield Static(
                Text(
                    f"Table {self.table} is private ({self.why}). "
                    "Type its invite code, or paste the invite link:"
                )
            )
            yield Input(max_length=MAX_CODE_TEXT, compact=True, id="code")
            yield Label(Text("Enter: join · Escape: cancel", style="dim"))

    def on_mount(self) -> None:
        """Focus the field."""
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.finish(code_from(event.value))

    def action_cancel(self) -> None:
        """Close without a code."""
        self.finish(None)


class CreatorMenu:
    """The creator's menu at the table shown (protocol §11.9), as dialogs over
    ``screen``: choose what, then whom, then confirm.

    Args:
        screen: the table screen the dialogs come over.
        session: the table shown, its invite link, and the creator's requests.
    """

    def __init__(self, screen: Screen[Any], session: Session):
        self.screen = screen
        self.session = session

    @property
    def app(self) -> App[Any]:
        """The client (where the dialogs are pushed)."""
        return self.screen.app

    def open(self) -> None:
        """The menu's choices, as the table stands."""
        session = self.session
        model = session.model
        if model is None:
            return
        link = session.privacy.link(model.name)
        items = privacy.menu_choices(model, link is not None)
        choices = [(key, Text(words), what) for key, words, what in items]

        def chosen(what: str | None) -> None:
            model = session.model
            if what is not None and model is not None:
                self._do(what, model, link)

        self.app.push_screen(ChoiceDialog("The creator's menu", choices), chosen)

    def _do(self, what: str, model: TableModel, link: str | None) -> None:
        """Do the menu's choice ``what`` at ``model``'s table."""
        creator = self.session.creator
        info = model.info
        locked = bool(info is not None and info.get("locked"))
        watchers_muted = bool(info is not None and info.get("watchers_muted"))
        if what == "kick":
            self._kick(model)
        elif what == "mute":
            self._mute(model)
        elif what == "hand_over":
            self._pick_seat(
                "Who is to be the creator?",
                privacy.others(model, connected=True),
                creator.hand_over,
            )
        elif what == "lock":
            creator.lock(not locked)
        elif what == "watchers":
            creator.mute(None, not watchers_muted)
        elif what == "unbar":
            creator.unbar()
        elif what == "invite" and link is not None:
            self.app.push_screen(InviteDialog(model.name, link))

    def _pick_seat(
        self, title: str, seats: list[tuple[int, str]], then: Callable[[int], object]
    ) -> None:
        """Choose one of ``seats`` (seat, name), then ``then(seat)``."""
        if not seats:
            self.app.notify(
                "There is no one to choose.", severity="warning", timeout=4, markup=False
            )
            return
        choices = [
            (str(i + 1), Text(f"{name} (seat {seat + 1})"), seat)
            for i, (seat, name) in enumerate(seats)
        ]

        def done(seat: int | None) -> None:
            if seat is not None:
                then(seat)

        self.app.push_screen(ChoiceDialog(title, choices), done)

    def _kick(self, model: TableModel) -> None:
        """Choose whom to remove (a bot takes the seat once a game was played), and confirm."""
        title = "Replace whom by a bot?" if model.state != TableState.WAITING else "Remove whom?"
        creator = self.session.creator

        def confirm(seat: int) -> None:
            question = (
                f"Remove {model.name_of(seat)} from the table? "
                "They cannot come back unless you let them."
            )

            def yes(answer: bool | None) -> None:
                if answer:
                    creator.kick(seat)

            self.app.push_screen(ConfirmDialog(question), yes)

        self._pick_seat(title, privacy.others(model), confirm)

    def _mute(self, model: TableModel) -> None:
        """Choose whose chat to mute or unmute."""
        info = model.info
        muted = set(info.get("muted", [])) if info is not None else set()
        seats = [(s, n + (" (muted)" if s in muted else "")) for s, n in privacy.others(model)]

        def then(seat: int) -> None:
            self.session.creator.mute(seat, seat not in muted)

        self._pick_seat("Mute or unmute whom?", seats, then)
