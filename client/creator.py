"""The dialogs of private tables and the creator's powers (protocol §11.9).

- :class:`InviteDialog`: a private table's invite link, shown to its creator
  as text (selectable) with a key that copies it to the clipboard;
- :class:`CodeDialog`: a private table asks for its invite code (or a whole
  invite link, pasted);
- :func:`open_creator_menu`: the creator's menu — remove (or replace by a
  bot), lock, mute, hand over, let back, show the invite — as dialogs;
- :func:`show_news`: what the App does with the session's
  :class:`~craits.client.privacy.CodeNeeded`,
  :class:`~craits.client.privacy.InviteReady` and
  :class:`~craits.client.session.WatchOffered` (no seat: watch instead?).

The requests go through :mod:`craits.client.privacy`; nothing here decides
what the server allows (it answers in plain words when it refuses).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from craits.protocol import DEFAULT_PORT
from craits.protocol.address import parse_target
from craits.protocol.vocab import TableState
from rich.text import Text
from textual import on
from textual.app import App
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Footer, Input, Label, Static

from . import privacy
from .dialogs import ChoiceDialog, ConfirmDialog, Dialog
from .model import TableModel
from .privacy import CodeNeeded, InviteReady
from .session import Session, WatchOffered

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
        Binding("c", "copy", "Copy the link"),
        Binding("escape,enter", "close", "Close"),
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
        yield Footer(compact=True)

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

    BINDINGS = [Binding("escape", "cancel", "Cancel")]  # noqa: RUF012

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


def show_news(
    app: App[Any], session: Session, news: CodeNeeded | InviteReady | WatchOffered
) -> None:
    """Show news about coming to a table: a private table's (ask for its code,
    or show its invite link), or no seat there (offer to watch it instead)."""
    if isinstance(news, InviteReady):
        app.push_screen(InviteDialog(news.table, news.link))
        return
    if isinstance(news, WatchOffered):
        table = news.table

        def watch(yes: bool | None) -> None:
            if yes and session.model is None:
                session.spectate(table)  # (with its invite code, if it is private)

        app.push_screen(ConfirmDialog(news.question, yes_first=True), watch)
        return

    def done(code: str | None) -> None:
        if not code:
            return
        if news.watch:
            session.spectate(news.table, code)
        else:
            session.join(news.table, code=code)

    app.push_screen(CodeDialog(news.table, news.why), done)


# ------------------------------------------------------------ the creator's menu


def _pick_seat(
    app: App[Any], title: str, seats: list[tuple[int, str]], then: Callable[[int], object]
) -> None:
    """Choose one of ``seats`` (seat, name), then ``then(seat)``."""
    if not seats:
        app.notify("There is no one to choose.", severity="warning", timeout=4, markup=False)
        return
    choices = [
        (str(i + 1), Text(f"{name} (seat {seat + 1})"), seat)
        for i, (seat, name) in enumerate(seats)
    ]

    def done(seat: int | None) -> None:
        if seat is not None:
            then(seat)

    app.push_screen(ChoiceDialog(title, choices), done)


def _kick(app: App[Any], session: Session, model: TableModel) -> None:
    """Choose whom to remove (a bot takes the seat once a game was played), and confirm."""
    title = "Replace whom by a bot?" if model.state != TableState.WAITING else "Remove whom?"

    def confirm(seat: int) -> None:
        question = (
            f"Remove {model.name_of(seat)} from the table? "
            "They cannot come back unless you let them."
        )

        def yes(answer: bool | None) -> None:
            if answer:
                privacy.kick(session, seat)

        app.push_screen(ConfirmDialog(question), yes)

    _pick_seat(app, title, privacy.others(model), confirm)


def _mute(app: App[Any], session: Session, model: TableModel) -> None:
    """Choose whose chat to mute or unmute."""
    info = model.info
    muted = set(info.get("muted", [])) if info is not None else set()
    seats = [(s, n + (" (muted)" if s in muted else "")) for s, n in privacy.others(model)]

    def then(seat: int) -> None:
        privacy.mute(session, seat, seat not in muted)

    _pick_seat(app, "Mute or unmute whom?", seats, then)


def _hand_over(app: App[Any], session: Session, model: TableModel) -> None:
    """Choose the next creator among the players connected."""
    seats = privacy.others(model, connected=True)

    def then(seat: int) -> None:
        privacy.hand_over(session, seat)

    _pick_seat(app, "Who is to be the creator?", seats, then)


def open_creator_menu(app: App[Any], session: Session) -> None:
    """The creator's menu at the table shown (protocol §11.9)."""
    model = session.model
    if model is None:
        return
    link = session.privacy.link(model.name)
    items = privacy.menu_choices(model, link is not None)
    choices = [(key, Text(words), what) for key, words, what in items]

    def chosen(what: str | None) -> None:
        model = session.model
        if what is None or model is None:
            return
        info = model.info
        locked = bool(info is not None and info.get("locked"))
        watchers_muted = bool(info is not None and info.get("watchers_muted"))
        if what == "kick":
            _kick(app, session, model)
        elif what == "mute":
            _mute(app, session, model)
        elif what == "hand_over":
            _hand_over(app, session, model)
        elif what == "lock":
            privacy.lock(session, not locked)
        elif what == "watchers":
            privacy.mute(session, None, not watchers_muted)
        elif what == "unbar":
            privacy.unbar(session)
        elif what == "invite" and link is not None:
            app.push_screen(InviteDialog(model.name, link))

    app.push_screen(ChoiceDialog("The creator's menu", choices), chosen)
