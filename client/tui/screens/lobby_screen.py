"""The lobby: the server's tables, kept up to date; open, join or watch one.

What the rows, the status line and the keys say comes from
:mod:`craits.client.present.presenter`; requests go through the session. The columns
are laid out for the lobby's width (:func:`column_widths`) each time the list
or the size changes: the table's name, seats, state and watchers as wide as
they need, the players and the rules sharing the rest, their cells wrapped
(never clipped) when the screen is narrow. So the columns neither bunch up at
the left while the list changes fast nor run off the right edge at 80 columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from craits.protocol.i18n import N_, LazyString, _, lazy_pgettext
from craits.protocol.types import CreateTableMsg, TableInfo
from rich.cells import cell_len
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...core.reconnecting import LinkState
from ...core.session import Session
from ...present import presenter
from ...present.card_style import CardStyle
from ..dialogs.account import AccountDialog
from ..dialogs.base import AskDialog
from ..dialogs.new_table import CreateTableDialog
from ..dialogs.rules import RulesScreen
from ..messages import LanguageChanged, LinkChanged, LobbyChanged, NameTaken, follow_news, reported
from ..widgets.key_footer import KeyFooter
from .leaderboard import LeaderboardScreen

COLUMNS: tuple[tuple[LazyString, str], ...] = (
    # TRANSLATORS: the lobby's column headings
    (lazy_pgettext("lobby column", "Table"), "name"),
    (lazy_pgettext("lobby column", "Seats"), "seats"),
    (lazy_pgettext("lobby column", "State"), "state"),
    (lazy_pgettext("lobby column", "Watching"), "watching"),
    (lazy_pgettext("lobby column", "Players"), "players"),
    (lazy_pgettext("lobby column", "Rules"), "rules"),
)
"""The lobby's columns: label and key, in order."""

PADDING = 1
"""Blank columns on each side of a cell (the DataTable's ``cell_padding``)."""
SHARED = (4, 5)
"""The columns that share the width left (players, rules); the others fit their text."""
NAME_MAX = 24
"""The widest the table's name column gets before it wraps."""
NAME_MIN = 8
"""The narrowest the name column gets (a longer name wraps)."""
SHARED_MIN = 12
"""The narrowest a shared column gets."""
PLAYERS_MIN = 8
"""The narrowest the players column gets when it is the only shared one."""
DROPPED: tuple[tuple[int, ...], ...] = ((), (3,), (3, 5), (3, 5, 4))
"""The columns left out, in turn, of a list too narrow for them all: the
watchers, then the rules, then the players; the name, seats and state stay."""


def _needs(rows: Sequence[Sequence[Text]]) -> list[int]:
    """Each column's widest cell or label (the name's up to :data:`NAME_MAX`)."""
    needs = [len(str(label)) for label, _key in COLUMNS]
    for row in rows:
        for i, cell in enumerate(row[: len(COLUMNS)]):
            widest = max((cell_len(line) for line in cell.plain.split("\n")), default=0)
            needs[i] = max(needs[i], widest)
    needs[0] = min(needs[0], NAME_MAX)
    return needs


def column_widths(available: int, rows: Sequence[Sequence[Text]]) -> list[int]:
    """The text width of each lobby column for a list ``available`` columns wide:
    the name (up to :data:`NAME_MAX`), seats, state and watchers as wide as their
    widest cell or label; players and rules share what is left, each given what
    it needs when both fit (the rules take any extra), else in proportion to
    their needs (each at least :data:`SHARED_MIN`, wrapping)."""
    needs = _needs(rows)
    widths = list(needs)
    fixed = sum(w for i, w in enumerate(widths) if i not in SHARED)
    left = available - fixed - 2 * PADDING * len(COLUMNS)
    players, rules = SHARED
    want = needs[players] + needs[rules]
    if left >= want:
        widths[rules] += left - want  # the last column reaches the right edge
    else:
        share = max(2 * SHARED_MIN, left)
        widths[players] = max(SHARED_MIN, share * needs[players] // max(1, want))
        widths[rules] = max(SHARED_MIN, share - widths[players])
    return widths


def _narrow_widths(available: int, needs: list[int], columns: list[int]) -> list[int] | None:
    """The widths of ``columns`` (without the rules, or without the players too)
    in ``available`` columns: the name wraps down to :data:`NAME_MIN`, the players
    down to :data:`PLAYERS_MIN`; the last column takes what is left. None when
    even that does not fit."""
    room = available - 2 * PADDING * len(columns)
    fixed = sum(needs[i] for i in columns if i not in (0, 4))
    least = min(needs[0], NAME_MIN) + (min(needs[4], PLAYERS_MIN) if 4 in columns else 0)
    if fixed + least > room:
        return None
    widths = {i: needs[i] for i in columns}
    players = min(needs[4], PLAYERS_MIN) if 4 in columns else 0
    widths[0] = min(needs[0], room - fixed - players)
    if 4 in columns:
        widths[4] = room - fixed - widths[0]
    else:
        widths[columns[-1]] += room - fixed - widths[0]
    return [widths[i] for i in columns]


def lobby_columns(available: int, rows: Sequence[Sequence[Text]]) -> list[tuple[int, int]]:
    """The columns shown in a list ``available`` columns wide, each as (index in
    :data:`COLUMNS`, text width): all of them as :func:`column_widths` lays them
    out when the players and rules get :data:`SHARED_MIN` each; on a narrower
    screen (a phone's browser) the watchers, then the rules, then the players are
    left out (:data:`DROPPED`), never the name, seats and state."""
    needs = _needs(rows)
    fixed = sum(w for i, w in enumerate(needs) if i not in SHARED)
    if fixed + 2 * SHARED_MIN + 2 * PADDING * len(COLUMNS) <= available:
        return list(enumerate(column_widths(available, rows)))
    for dropped in DROPPED[1:]:
        columns = [i for i in range(len(COLUMNS)) if i not in dropped]
        if dropped == (3,):  # the rules still shared with the players
            room = available - sum(needs[i] for i in (0, 1, 2)) - 2 * PADDING * len(columns)
            if room >= 2 * SHARED_MIN:
                players = max(SHARED_MIN, room * needs[4] // max(1, needs[4] + needs[5]))
                players = min(players, room - SHARED_MIN)
                return [*((i, needs[i]) for i in (0, 1, 2)), (4, players), (5, room - players)]
            continue
        widths = _narrow_widths(available, needs, columns)
        if widths is not None:
            return list(zip(columns, widths, strict=True))
    columns = [0, 1, 2]
    return list(zip(columns, [NAME_MIN, needs[1], needs[2]], strict=True))


LOBBY_ESSENTIAL = ("quick", "join", "rules", "quit")
"""The lobby's keys the Footer never leaves out, however narrow (:mod:`..widgets.key_footer`)."""
LOBBY_SHORT = {"create": N_("New"), "rejoin": N_("Back"), "quick": N_("Quick")}
"""Shorter words for the lobby's keys on a narrow screen."""


class LobbyScreen(Screen[None]):
    """The list of tables; keys open, join and watch them.

    Args:
        session: the session (the list of tables, and where requests go).
        style: how cards are drawn (the rules page with ``--ascii``).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "quick", N_("Quick play")),
        Binding("j", "join", N_("Join")),
        Binding("s", "spectate", N_("Watch")),
        Binding("n", "create", N_("New table")),
        Binding("r", "rejoin", N_("Rejoin")),
        Binding("a", "account", N_("Account")),
        Binding("question_mark", "rules", N_("Rules"), key_display="?"),
        Binding("q", "quit", N_("Quit")),
    ]

    def __init__(self, session: Session, style: CardStyle):
        super().__init__()
        self.session = session
        self.style = style
        self._ready = False

    def compose(self) -> ComposeResult:
        """Status line, the tables, a hint, and the keys."""
        yield Static(id="lobby-status")
        yield Static(presenter.quick_line(), id="lobby-quick")  # issue 27 (protocol §11.13)
        table: DataTable[Any] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="lobby-hint")
        yield KeyFooter(essential=LOBBY_ESSENTIAL, short=LOBBY_SHORT)

    def on_mount(self) -> None:
        """Follow the session's news and show what is known (the columns are laid
        out by :meth:`sync`)."""
        self.query_one("#tables", DataTable).focus()
        self._ready = True
        follow_news(self)
        self.sync()

    def on_resize(self) -> None:
        """Lay the columns out again for the new width."""
        self.sync()

    def on_screen_resume(self) -> None:
        """Back from a table: show the list as it is now."""
        self.sync()

    def hidden(self) -> bool:
        """Whether a table covers the lobby (the session shows one): then the list
        is drawn again only when the lobby is shown again."""
        return self.session.model is not None

    @on(LinkChanged)
    @on(LobbyChanged)
    @on(LanguageChanged)
    @reported
    def _changed(self, message: LinkChanged | LobbyChanged | LanguageChanged) -> None:
        """The link or the list changed: show them as they are now."""
        self.sync()

    @on(NameTaken)
    def _name_taken(self, message: NameTaken) -> None:
        """The name was taken at a table: ask for another."""
        self.ask_name(message.table, message.why)

    def sync(self) -> None:
        """Show the link state and the tables as the session knows them now (not
        while a table covers the lobby: it is drawn when shown again)."""
        if not self._ready or self.hidden():
            return
        session = self.session
        link = session.link
        tables = session.lobby.tables
        status = presenter.status_text(
            session.online,
            link.state == LinkState.CONNECTING,
            link.detail,
            session.shown_address,
            session.player_name,
        )
        self.query_one("#lobby-status", Static).update(status)
        self.query_one("#lobby-quick", Static).update(presenter.quick_line())  # the language now
        self.query_one("#lobby-status").set_class(not session.online, "-offline")
        table = self.query_one("#tables", DataTable)
        selected = self.selected_table()
        names = presenter.lobby_order(tables)  # the tables whose people are all offline last
        rows = [presenter.lobby_row(tables[name]) for name in names]
        # the columns again, each time, as wide as this width and these rows want
        # (a DataTable's own column widths only ever grow, and lag behind a
        # list that changes fast)
        width = (table.size.width or self.size.width or self.app.size.width) - 2
        table.clear(columns=True)
        shown = lobby_columns(width, rows)
        for i, w in shown:
            label, key = COLUMNS[i]
            table.add_column(str(label), key=key, width=w)
        for name, row in zip(names, rows, strict=True):
            table.add_row(*(row[i] for i, _width in shown), key=name, height=None)
        if selected is not None and selected in tables:
            table.move_cursor(row=table.get_row_index(selected))
        hint = presenter.lobby_hint(session.saved_seat(), session.model is not None, len(tables))
        self.query_one("#lobby-hint", Static).update(hint)
        self.refresh_bindings()

    def selected_table(self) -> str | None:
        """The name of the table under the cursor."""
        table = self.query_one("#tables", DataTable)
        if table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:
            return None
        return None if key.value is None else str(key.value)

    def _selected_info(self) -> TableInfo | None:
        name = self.selected_table()
        return None if name is None else self.session.lobby.tables.get(name)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out what cannot be done now."""
        session = self.session
        saved = session.saved_seat() is not None
        return presenter.lobby_key(
            action, self._selected_info(), online=session.online, saved=saved
        )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter or a click on a table: take a seat (or watch, once its game runs)."""
        if self.check_action("join", ()):
            self.action_join()
        elif self.check_action("spectate", ()):
            self.action_spectate()
        elif (info := self._selected_info()) is not None and presenter.unavailable(info):
            why = presenter.join_refusal(info, online=self.session.online)  # why, in a line
            self.notify(why, severity="warning", timeout=4, markup=False)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The keys that apply depend on the table under the cursor."""
        self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        """``j`` where it does nothing (its key greyed out): say why."""
        if event.key != "j" or self.check_action("join", ()) is True:
            return
        event.stop()
        why = presenter.join_refusal(self._selected_info(), online=self.session.online)
        self.notify(why, severity="warning", timeout=4, markup=False)

    def action_quick(self) -> None:
        """Quick play: a seat at the table that starts soonest (protocol §11.13)."""
        if self.session.online:
            self.session.requests.quick_play()

    def action_join(self) -> None:
        """Take a seat at the table under the cursor."""
        name = self.selected_table()
        if name and self.session.online:
            self.session.requests.join(name)

    def action_spectate(self) -> None:
        """Watch the table under the cursor."""
        name = self.selected_table()
        if name and self.session.online:
            self.session.requests.spectate(name)

    def action_rejoin(self) -> None:
        """Take back the seat kept for this server."""
        self.session.requests.rejoin()

    def action_create(self) -> None:
        """Open the new-table dialog."""

        def done(request: CreateTableMsg | None) -> None:
            if request is not None:
                self.session.requests.create_table(request)

        player = self.session.player_name
        default = _("{player}'s table").format(player=player)[:24]
        taken = set(self.session.lobby.tables)
        n = 2
        while default in taken:
            default = f"{player[:18]}'s {n}"
            n += 1
        self.app.push_screen(CreateTableDialog(default), done)

    def action_account(self) -> None:
        """Open the account dialog: register, or who you are and the leaderboard (§7.5)."""
        account = self.session.account

        def done(leaderboard: bool | None) -> None:
            if leaderboard:
                self.app.push_screen(LeaderboardScreen(account))

        self.app.push_screen(AccountDialog(account), done)

    def action_rules(self) -> None:
        """Show the rules."""
        self.app.push_screen(RulesScreen(self.style.ascii))

    def action_quit(self) -> None:
        """Leave the program."""
        self.session.close()
        self.app.exit()

    def ask_name(self, table: str, why: str) -> None:
        """The name was taken at ``table``: ask for another, then join with it."""

        def done(name: str | None) -> None:
            if name:
                self.session.requests.join(table, name)

        default = f"{self.session.player_name[:22]}2"
        ask = _("{why}. Join {table} as:").format(why=why, table=table)
        self.app.push_screen(AskDialog(ask, default), done)
