"""The leaderboard screen (protocol §7.5 ``leaderboard``): the best players of the
server, best first, asked when the screen opens and drawn when they come
(:class:`~craits.client.core.account.Account` ``watch``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from craits.protocol.i18n import N_, _
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...core.account import Account
from ..widgets.key_footer import KeyFooter


class LeaderboardChanged(Message, bubble=False):
    """The account's leaderboard lines changed."""


class LeaderboardScreen(Screen[None]):
    """The leaderboard's first lines (rank, player, rating, games, last game).

    Args:
        account: the session's account, which asks and keeps the lines.
    """

    DEFAULT_CSS = """
    LeaderboardScreen #leaderboard-title { text-style: bold; padding: 0 1; }
    LeaderboardScreen #leaderboard-note { color: $text-muted; padding: 0 1; }
    LeaderboardScreen DataTable { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("r", "refresh", N_("Refresh")),
    ]

    def __init__(self, account: Account) -> None:
        super().__init__()
        self.account = account
        self._unwatch: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        """Title, the lines, a note, the keys."""
        yield Static(_("Leaderboard"), id="leaderboard-title")
        table: DataTable[Any] = DataTable(id="leaderboard", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="leaderboard-note", markup=False)
        yield KeyFooter(essential=("back",))

    def on_mount(self) -> None:
        """Lay out the columns, follow the account and ask the lines."""
        table = self.query_one("#leaderboard", DataTable)
        table.add_columns(_("Rank"), _("Player"), _("Rating"), _("Games"), _("Last game"))
        self._unwatch = self.account.watch(lambda: self.post_message(LeaderboardChanged()))
        self.account.leaderboard = None
        self.action_refresh()
        table.focus()

    def on_unmount(self) -> None:
        """Stop following the account."""
        if self._unwatch is not None:
            self._unwatch()

    @on(LeaderboardChanged)
    def redraw(self) -> None:
        """Fill the table with the lines known."""
        lines = self.account.leaderboard
        table = self.query_one("#leaderboard", DataTable)
        table.clear()
        for line in lines or []:
            table.add_row(
                str(line["rank"]),
                line["name"],
                str(line["rating"]),
                str(line["games"]),
                line["last_game"][:10],
            )
        if lines is None:
            note = _("Asking the server…")
        elif not lines:
            note = _(
                "No one yet: the leaderboard lists players with 20 rated games or more, "
                "one in the last 14 days."
            )
        else:
            note = _("Players with 20 rated games or more, one in the last 14 days.")
        self.query_one("#leaderboard-note", Static).update(note)

    def action_refresh(self) -> None:
        """Ask the lines again."""
        if not self.account.ask_leaderboard():
            self.notify(_("Not connected to the server."), severity="warning")
        self.redraw()

    def action_back(self) -> None:
        """Back to where the screen was opened."""
        self.dismiss(None)
