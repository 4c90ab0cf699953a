"""The account dialog, opened from the lobby (protocol §7.5, docs/accounts.md): a
guest registers a name here and is shown the ten recovery codes once, to write
down and confirm; a logged-in player sees the name, the rating (``?`` while
provisional) and a key for the leaderboard: the dialog closes with True, and the
lobby shows :class:`~craits.client.tui.screens.leaderboard.LeaderboardScreen`
(dialogs sit under screens in the import layers).

The dialog follows :class:`~craits.client.core.account.Account` (``watch``): each
change posts :class:`AccountChanged` to it, which redraws it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from craits.protocol.i18n import N_, _
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from ...core.account import Account


class AccountChanged(Message, bubble=False):
    """The account changed (logged in, registered, refused, a profile came)."""


def codes_text(codes: list[str]) -> str:
    """The recovery codes, two to a line, numbered."""
    cells = [f"{i:>2}. {code}" for i, code in enumerate(codes, 1)]
    return "\n".join("    ".join(cells[i : i + 2]) for i in range(0, len(cells), 2))


class AccountDialog(ModalScreen[bool]):
    """Register, or see who you are and open the leaderboard (dismissed with True:
    show the leaderboard; False: closed).

    Args:
        account: the session's :class:`~craits.client.core.account.Account`.
    """

    DEFAULT_CSS = """
    AccountDialog { align: center middle; }
    AccountDialog > Vertical {
        width: 64; max-width: 100%; height: auto; max-height: 100%;
        padding: 1 2; border: thick $primary; background: $surface;
    }
    AccountDialog #account-title { text-style: bold; }
    AccountDialog #account-text { margin: 1 0 0 0; }
    AccountDialog #account-codes { margin: 1 0 0 0; text-style: bold; color: $warning; }
    AccountDialog #account-problem { color: $error; margin: 1 0 0 0; }
    AccountDialog Input { margin: 1 0 0 0; }
    AccountDialog Horizontal { height: auto; margin: 1 0 0 0; }
    AccountDialog Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Close")),
        Binding("l", "leaderboard", N_("Leaderboard")),
    ]

    def __init__(self, account: Account) -> None:
        super().__init__()
        self.account = account
        self._unwatch: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        """Title, words, the codes, the name field, the buttons."""
        with Vertical():
            yield Static(id="account-title", markup=False)
            yield Static(id="account-text", markup=False)
            yield Static(id="account-codes", markup=False)
            yield Static(id="account-problem", markup=False)
            yield Input(placeholder=_("Name to register"), max_length=24, id="account-name")
            with Horizontal():
                yield Button(_("Register"), id="register", variant="primary")
                yield Button(_("I have written them down"), id="codes-done", variant="warning")
                yield Button(_("Leaderboard"), id="leaderboard")
                yield Button(_("Close"), id="close")

    def on_mount(self) -> None:
        """Follow the account, and draw it."""
        self._unwatch = self.account.watch(lambda: self.post_message(AccountChanged()))
        self.redraw()

    def on_unmount(self) -> None:
        """Stop following the account."""
        if self._unwatch is not None:
            self._unwatch()

    @on(AccountChanged)
    def redraw(self) -> None:
        """Show the account as it is now: the codes first while they are there."""
        account = self.account
        codes, guest = account.recovery_codes, account.name is None
        title, text = self._words()
        self.query_one("#account-title", Static).update(title)
        self.query_one("#account-text", Static).update(text)
        self.query_one("#account-codes", Static).update(codes_text(codes))
        self.query_one("#account-problem", Static).update(account.problem)
        shown = {
            "#account-codes": bool(codes),
            "#account-problem": bool(account.problem) and guest,
            "#account-name": guest and account.enabled,
            "#register": guest and account.enabled,
            "#codes-done": bool(codes),
            "#leaderboard": not codes,
            "#close": not codes,
        }
        for selector, show in shown.items():
            self.query_one(selector).display = show
        self.query_one("#register", Button).disabled = account.busy
        focus = "#codes-done" if codes else "#account-name" if guest and account.enabled else None
        if focus is not None and self.focused is not self.query_one(focus):
            self.query_one(focus).focus()

    def _words(self) -> tuple[str, str]:
        """The title and the words under it."""
        account = self.account
        if account.recovery_codes:
            return (
                _("Registered as {name}: your recovery codes").format(name=account.name),
                _(
                    "Write these down now: they are shown only this once. Each one, "
                    "with your name, gets your account back on a new device if you "
                    "lose this one (and works once)."
                ),
            )
        if account.name is not None:
            return _("Logged in as {name}").format(name=account.name), self._rating()
        if not account.enabled:
            return _("Account"), _("This client plays as a guest: it keeps no account.")
        return (
            _("You play as a guest"),
            _(
                "Register a name on this server: this device keeps a key, and logs "
                "in with it each time (no password). Registered players can sit at "
                "rated tables, and their games and rating are kept."
            ),
        )

    def _rating(self) -> str:
        """The rating line (``?`` while provisional, said why), or a wait."""
        profile = self.account.profile
        if profile is None:
            return _("Rating: …")
        line = _("Rating: {rating}  ·  rated games: {games}").format(
            rating=profile["rating"], games=profile["games"]
        )
        if profile["provisional"]:
            why = _('("?" while your rating is provisional: too few rated games yet)')
            return f"{line}\n{why}"
        if "completion_pct" in profile:
            pct = _("Games played to their end: {pct}%").format(pct=profile["completion_pct"])
            return f"{line}\n{pct}"
        return line

    @on(Button.Pressed, "#register")
    @on(Input.Submitted, "#account-name")
    def _register(self) -> None:
        name = self.query_one("#account-name", Input).value.strip()
        if not name:
            self.app.bell()
            return
        self.account.register(name)
        self.redraw()

    @on(Button.Pressed, "#codes-done")
    def _codes_done(self) -> None:
        self.account.codes_shown()

    @on(Button.Pressed, "#leaderboard")
    def _leaderboard_pressed(self) -> None:
        self.action_leaderboard()

    @on(Button.Pressed, "#close")
    def _close_pressed(self) -> None:
        self.action_close()

    def action_leaderboard(self) -> None:
        """Show the leaderboard (not while the codes wait to be confirmed)."""
        if not self.account.recovery_codes:
            self.dismiss(True)

    def action_close(self) -> None:
        """Close the dialog (not while the codes wait to be confirmed)."""
        if self.account.recovery_codes:
            self.notify(_("Write the codes down, then confirm."), severity="warning")
            return
        self.dismiss(False)
