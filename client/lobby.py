"""The lobby: the server's tables, kept up to date; open, join or watch one."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from .cards import CardStyle
from .dialogs import AskDialog, CreateTableDialog, RulesScreen
from .link import LinkState
from .options import describe_rules
from .session import Session


def status_text(session: Session) -> Text:
    """The link in a line: where we are connected, or that we are trying."""
    if session.link.state == LinkState.ONLINE:
        return Text.assemble(
            ("Craits", "bold"), f" at {session.address} — you are ", (session.player_name, "bold")
        )
    if session.link.state == LinkState.CONNECTING:
        return Text(f"Connecting to {session.address}… (q quits)", style="bold")
    detail = f" — {session.link.detail}" if session.link.detail else ""
    return Text(f"Connection lost: reconnecting to {session.address}…{detail}", style="bold")


def table_state(info: dict[str, Any]) -> str:
    """A table's state in words: waiting, playing hand n/15, finished."""
    state = str(info.get("state", "?"))
    if state == "playing":
        return f"hand {info.get('hand_number', '?')}/{info.get('hands_in_game', '?')}"
    return state


def players_text(info: dict[str, Any]) -> Text:
    """The players at a table: people by name, marked when away or disconnected,
    then the bots counted ("2 bots"), so a full table's line stays short."""
    out = Text()
    players = [p for p in info.get("players") or [] if isinstance(p, dict)]
    people = [p for p in players if not p.get("bot")]
    bots = len(players) - len(people)
    for i, p in enumerate(people):
        if i:
            out.append(", ")
        out.append(str(p.get("name", "?")))
        if not p.get("connected"):
            out.append(" (offline)", style="dim")
        elif p.get("away"):
            out.append(" (away)", style="dim")
    if bots:
        out.append(", " if people else "")
        out.append(f"{bots} bot" if bots == 1 else f"{bots} bots", style="dim")
    if not players:
        out.append("—", style="dim")
    return out


class LobbyScreen(Screen[None]):
    """The list of tables; keys open, join and watch them."""

    BINDINGS = [  # noqa: RUF012
        Binding("j", "join", "Join"),
        Binding("s", "spectate", "Watch"),
        Binding("n", "create", "New table"),
        Binding("r", "rejoin", "Rejoin"),
        Binding("question_mark", "rules", "Rules", key_display="?"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: Session, style: CardStyle):
        super().__init__()
        self.session = session
        self.style = style
        self._ready = False

    def compose(self) -> ComposeResult:
        """Status line, the tables, a hint, and the keys."""
        yield Static(id="lobby-status")
        table: DataTable[Any] = DataTable(id="tables", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(id="lobby-hint")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Set the columns and show what is known."""
        table = self.query_one("#tables", DataTable)
        table.add_column("Table", key="name")
        table.add_column("Seats", key="seats")
        table.add_column("State", key="state")
        table.add_column("Watching", key="watching")
        table.add_column("Players", key="players")
        table.add_column("Rules", key="rules")
        table.focus()
        self._ready = True
        self.sync()

    def on_screen_resume(self) -> None:
        """Back from a table: show the list as it is now."""
        self.sync()

    def sync(self) -> None:
        """Show the link state and the tables as the app knows them now."""
        if not self._ready:
            return
        session = self.session
        tables = session.lobby.tables
        self.query_one("#lobby-status", Static).update(status_text(session))
        self.query_one("#lobby-status").set_class(not session.online, "-offline")
        table = self.query_one("#tables", DataTable)
        selected = self.selected_table()
        table.clear()
        for name in sorted(tables):
            info = tables[name]
            taken = len(info.get("players") or [])
            timeout = info.get("turn_timeout_ms")
            rules = describe_rules(info.get("rules"))
            if isinstance(timeout, int):
                rules += f"; {timeout // 1000} s turns" if timeout else "; no timer"
            table.add_row(
                Text(name, style="bold"),
                Text(f"{taken}/{info.get('seats', '?')}"),
                Text(table_state(info)),
                Text(str(info.get("spectators", 0))),
                players_text(info),
                Text(rules),
                key=name,
            )
        if selected is not None and selected in tables:
            table.move_cursor(row=table.get_row_index(selected))
        hint = self.query_one("#lobby-hint", Static)
        saved = session.saved_seat()
        if saved and session.model is None:
            hint.update(
                Text(
                    f"Your seat at {saved.get('table')} is kept: press r to go back to it.",
                    style="bold",
                )
            )
        elif not tables:
            hint.update("No tables yet: press n to open one.")
        else:
            hint.update("j: take a seat · s: watch · Enter: either · n: open a new table")
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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out what cannot be done now."""
        session = self.session
        if action in ("join", "spectate"):
            name = self.selected_table()
            if not session.online or name is None:
                return None
            info = session.lobby.tables.get(name, {})
            if action == "join" and (
                info.get("state") != "waiting"
                or len(info.get("players") or []) >= int(info.get("seats") or 0)
            ):
                return None
            return True
        if action == "create":
            return True if session.online else None
        if action == "rejoin":
            if session.saved_seat() is None:
                return False
            return True if session.online else None
        return True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter or a click on a table: take a seat (or watch, once its game runs)."""
        if self.check_action("join", ()):
            self.action_join()
        elif self.check_action("spectate", ()):
            self.action_spectate()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The keys that apply depend on the table under the cursor."""
        self.refresh_bindings()

    def on_key(self, event: Any) -> None:
        """``j`` where it does nothing (its key greyed out): say why."""
        if event.key != "j" or self.check_action("join", ()) is True:
            return
        event.stop()
        name = self.selected_table()
        if not self.session.online:
            why = "Not connected — wait for the connection to come back."
        elif name is None:
            why = "No table to join: n opens one."
        else:
            info = self.session.lobby.tables.get(name, {})
            if len(info.get("players") or []) >= int(info.get("seats") or 0):
                why = f"Table {name} is full: no seat to take (s watches it)."
            else:
                why = f"Table {name} is already playing: s watches it."
        self.notify(why, severity="warning", timeout=4, markup=False)

    def action_join(self) -> None:
        """Take a seat at the table under the cursor."""
        name = self.selected_table()
        if name and self.session.online:
            self.session.join(name)

    def action_spectate(self) -> None:
        """Watch the table under the cursor."""
        name = self.selected_table()
        if name and self.session.online:
            self.session.spectate(name)

    def action_rejoin(self) -> None:
        """Take back the seat kept for this server."""
        self.session.rejoin()

    def action_create(self) -> None:
        """Open the new-table dialog."""

        def done(request: dict[str, Any] | None) -> None:
            if request is not None:
                self.session.create_table(request)

        player = self.session.player_name
        default = f"{player}'s table"[:24]
        taken = set(self.session.lobby.tables)
        n = 2
        while default in taken:
            default = f"{player[:18]}'s {n}"
            n += 1
        self.app.push_screen(CreateTableDialog(default), done)

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
                self.session.join(table, name)

        self.app.push_screen(
            AskDialog(f"{why}. Join {table} as:", f"{self.session.player_name[:22]}2"), done
        )
