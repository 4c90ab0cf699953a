"""The Craits terminal client: one Textual App that owns the connection.

The App runs the network in one async worker (:meth:`CraitsApp._network`):
it connects, shakes hands, takes back its seat after a drop (resume token,
with backoff between tries), and hands every server message to
:meth:`CraitsApp.handle`. Screens never touch the socket: they call
:meth:`CraitsApp.send`, :meth:`CraitsApp.act` and friends, and read the
:class:`~craits.client.model.TableModel`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from typing import Any

from craits.protocol import (
    VERSION,
    ProtocolError,
    encode,
)
from craits.protocol.client import ConnectError, Connection
from rich.text import Text
from textual.app import App
from textual.binding import Binding
from textual.filter import Monochrome, NoColor
from textual.reactive import reactive
from textual.screen import Screen

from .cards import CardStyle
from .describe import Describer
from .model import LOG_LINES, Action, TableModel, wire_action
from .store import TokenStore

QUIET_ERRORS = frozenset({"stale"})
"""Refusals not worth a notification (the next update explains itself)."""


class CraitsApp(App[None]):
    """The client: a lobby screen, a table screen, and the connection behind them.

    Args:
        host: the server's host name or address.
        port: its TCP port.
        name: the player's display name.
        table: join this table at start.
        spectate: watch this table at start.
        ascii: suits as ``S H D C`` instead of symbols.
        store: where resume tokens are kept (default: the user's state dir).
        connect_timeout: seconds allowed for connecting and the handshake.
        retry_base: the first pause between reconnection tries, in seconds;
            it doubles up to ``retry_max``.
        protocol_version: the version sent in hello (for tests of refusal).
    """

    TITLE = "Craits"
    CSS_PATH = "craits.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [  # noqa: RUF012 (Textual's declared type)
        Binding("ctrl+c", "quit_app", "Quit", show=False, priority=True),
    ]

    link: reactive[str] = reactive("connecting")
    """``connecting`` (first try), ``online``, or ``reconnecting``."""
    link_detail: reactive[str] = reactive("")
    """Words about the link: why it dropped, when the next try is."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        table: str | None = None,
        spectate: str | None = None,
        ascii: bool = False,
        store: TokenStore | None = None,
        connect_timeout: float = 5.0,
        retry_base: float = 0.5,
        retry_max: float = 8.0,
        protocol_version: int = VERSION,
    ):
        super().__init__()
        if self.no_color:
            # NO_COLOR: Textual would draw every colour in grey (red cards and dim
            # text come out dark on dark); draw in the terminal's own colours instead,
            # and let bold, reverse, brackets and strike-through carry the meaning.
            self._filters[:] = [
                NoColor() if isinstance(f, Monochrome) else f for f in self._filters
            ]
        self.host = host
        self.port = port
        self.address = f"{host}:{port}"
        self.player_name = name
        # The saved seat is per server and per player name: two people on one
        # account (or one person playing two names) never take each other's seat.
        self.store_key = f"{self.address} {name.casefold()}"
        self.style = CardStyle(ascii)
        self.store = store if store is not None else TokenStore()
        self.connect_timeout = connect_timeout
        self.retry_base = retry_base
        self.retry_max = retry_max
        self.protocol_version = protocol_version
        self.model: TableModel | None = None
        self.tables: dict[str, dict[str, Any]] = {}
        self.error_message: str | None = None
        self.attempt = 0
        self._start_table = table
        self._start_spectate = spectate
        self._conn: Connection | None = None
        self._connected_once = False
        self._resuming = False
        self._join_after_create: str | None = None
        self._joining: tuple[str, str] | None = None
        self._respectating: str | None = None
        self._closing: str | None = None
        self._next_id = int(time.time() * 1000) * 1000
        self._lobby: Screen[Any] | None = None

    # ------------------------------------------------------------- screens

    def get_default_screen(self) -> Screen[Any]:
        """The lobby is the bottom screen; a table is pushed on top of it."""
        from .lobby import LobbyScreen

        self._lobby = LobbyScreen()
        return self._lobby

    def on_mount(self) -> None:
        """Start the network worker."""
        self.run_worker(self._network(), name="network", group="network", exit_on_error=False)

    @property
    def online(self) -> bool:
        """Whether a connection is up."""
        return self._conn is not None and self.link == "online"

    def table_screen(self) -> Any:
        """The table screen on the stack, or None."""
        from .table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    def watch_link(self, link: str) -> None:
        """Tell every screen the link changed."""
        self._sync_screens()

    def watch_link_detail(self, detail: str) -> None:
        """Tell every screen the link changed."""
        self._sync_screens()

    def _sync_screens(self) -> None:
        for screen in self.screen_stack:
            sync = getattr(screen, "sync", None)
            if sync is not None:
                sync()
            with contextlib.suppress(Exception):
                screen.refresh_bindings()

    def _to_lobby(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self._sync_screens()

    def _show_table(self) -> None:
        from .table import TableScreen

        screen = self.table_screen()
        if screen is None:
            self._to_lobby()
            self.push_screen(TableScreen())
        else:
            screen.sync()

    ASCII_KEYS = {"←→": "<- ->", "⏎": "Enter", "?": "?"}  # noqa: RUF012

    def get_key_display(self, binding: Binding) -> str:
        """Key names for the Footer; plain letters with ``--ascii``."""
        shown = super().get_key_display(binding)
        if self.style.ascii:
            return self.ASCII_KEYS.get(shown, shown)
        return shown

    def action_quit_app(self) -> None:
        """Leave the program at once (a seat in a game can be resumed later)."""
        self._drop_link()
        self.exit()

    def fail(self, message: str) -> None:
        """Exit with a one-line error (printed by the command after the screen is restored)."""
        self.error_message = message
        self._drop_link()
        self.exit(return_code=1)

    def say(self, message: str, *, severity: str = "information", timeout: float = 4.0) -> None:
        """A notification; text from the network is never read as markup."""
        self.notify(message, severity=severity, timeout=timeout, markup=False)  # type: ignore[arg-type]

    # ------------------------------------------------------------- network

    def _drop_link(self) -> None:
        conn = self._conn
        self._conn = None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.writer.transport.abort()

    async def _network(self) -> None:
        """Connect, read, and reconnect with backoff, until the app exits."""
        while True:
            self.link = "reconnecting" if self._connected_once else "connecting"
            try:
                conn = await Connection.open(
                    self.host,
                    self.port,
                    self.player_name,
                    timeout=self.connect_timeout,
                    version=self.protocol_version,
                )
            except ConnectError as exc:
                if not self._connected_once:
                    self.fail(str(exc))
                    return
                await self._backoff(str(exc))
                continue
            first = not self._connected_once
            self._connected_once = True
            self._conn = conn
            self.attempt = 0
            self.link_detail = ""
            self.link = "online"
            heartbeat = conn.welcome.get("heartbeat_ms")
            silence = 3 * heartbeat / 1000 if isinstance(heartbeat, int) and heartbeat > 0 else 60
            why = "the server closed the connection"
            try:
                self._restore(first)
                while True:
                    async with asyncio.timeout(silence):
                        message = await conn.recv_frame()
                    if message is not None:
                        self.handle_safely(message)
            except TimeoutError:
                why = "the server went silent"
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                pass
            except ProtocolError as exc:
                why = f"bad data from the server ({exc.message})"
            finally:
                if self._conn is conn:
                    self._conn = None
                await conn.close()
            await self._backoff(why)

    async def _backoff(self, why: str) -> None:
        """Wait before the next try: 0.5 s, 1 s, 2 s… up to ``retry_max``, with jitter."""
        self.attempt += 1
        delay = min(self.retry_max, self.retry_base * 2 ** (self.attempt - 1))
        delay *= random.uniform(0.8, 1.2)
        self.link = "reconnecting"
        shown = f"{delay:.1f}" if delay < 10 else f"{delay:.0f}"
        self.link_detail = f"{why}; try {self.attempt} in {shown} s"
        await asyncio.sleep(delay)
        self.link_detail = f"{why}; trying again (try {self.attempt})"

    def _restore(self, first: bool) -> None:
        """After (re)connecting: take back the seat, or watch again, or go to the lobby."""
        self.send({"type": "list_tables", "watch": True})
        model = self.model
        if model is not None and model.token:
            self._resume(model.token)
            return
        if model is not None and model.spectator:
            self._respectating = model.name
            self.send({"type": "spectate", "table": model.name})
            return
        if not first:
            return
        saved = self.store.get(self.store_key)
        if saved and not self._start_spectate and self._start_table in (None, saved.get("table")):
            self._resume(saved["token"])
            return
        self._start_intent()

    def _start_intent(self) -> None:
        """Do what the command line asked: join or watch a table (once)."""
        table, self._start_table = self._start_table, None
        watch, self._start_spectate = self._start_spectate, None
        if table:
            self.join(table)
        elif watch:
            self.spectate(watch)

    def _resume(self, token: str) -> None:
        self._resuming = True
        self.send({"type": "resume", "token": token})

    def send(self, message: dict[str, Any]) -> bool:
        """Send a message now; False (and a notice) when there is no connection."""
        conn = self._conn
        if conn is None:
            self.say("Not connected — wait for the connection to come back.", severity="warning")
            return False
        try:
            conn.writer.write(encode(message))
        except (OSError, RuntimeError, TypeError):
            return False
        return True

    # ------------------------------------------------------------ requests

    def act(self, action: Action) -> bool:
        """Send one of the view's legal actions (its ``seat`` removed) with the view's seq."""
        model = self.model
        if model is None:
            return False
        self._next_id += 1
        return self.send(
            {"type": "act", "id": self._next_id, "action": wire_action(action), "seq": model.seq}
        )

    def join(self, table: str, name: str | None = None) -> None:
        """Ask for a seat at ``table``."""
        name = name or self.player_name
        self._joining = (table, name)
        self.send({"type": "join", "table": table, "name": name})

    def spectate(self, table: str) -> None:
        """Ask to watch ``table``."""
        self.send({"type": "spectate", "table": table})

    def create_table(self, request: dict[str, Any]) -> None:
        """Open a table (``create_table`` fields) and take a seat at it once created."""
        self._join_after_create = request["name"]
        self.send({"type": "create_table", **request})

    def rejoin(self) -> None:
        """Take back the seat saved for this server."""
        saved = self.store.get(self.store_key)
        if saved:
            self._resume(saved["token"])

    def close_table(self) -> None:
        """Close the table (its creator, no game running): everyone at it goes
        back to the lobby once the server says it is closed."""
        model = self.model
        if model is not None and self.send({"type": "close_table"}):
            self._closing = model.name

    def leave(self) -> None:
        """Leave the table: back to the lobby once the server confirms."""
        if not self.send({"type": "leave"}):
            # Offline: forget the table here; the seat can still be resumed.
            self.model = None
            self._to_lobby()

    # ------------------------------------------------------------ messages

    def handle_safely(self, message: dict[str, Any]) -> None:
        """:meth:`handle`, but a message the client fails on is reported and skipped:
        the connection and the game go on."""
        try:
            self.handle(message)
        except Exception as exc:
            self.log.error(f"failed on a {message.get('type')!r} message: {exc!r}")
            self.say(f"Could not show a {message.get('type')} message: {exc}", severity="error")

    def handle(self, message: dict[str, Any]) -> None:
        """Act on one message from the server."""
        kind = message.get("type")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(message)

    def _on_tables(self, m: dict[str, Any]) -> None:
        tables = [t for t in m.get("tables") or [] if isinstance(t, dict) and "name" in t]
        offset = m.get("offset") if isinstance(m.get("offset"), int) else 0
        if offset == 0:
            self.tables = {}
        self.tables.update({t["name"]: t for t in tables})
        total = m.get("total")
        if isinstance(total, int) and tables and offset + len(tables) < total:
            # the list comes in pages: ask for the next one
            self.send({"type": "list_tables", "watch": True, "offset": offset + len(tables)})
        self._sync_lobby()

    def _sync_lobby(self) -> None:
        lobby = self._lobby
        if lobby is not None:
            lobby.sync()  # type: ignore[attr-defined]

    def _on_table_info(self, m: dict[str, Any]) -> None:
        info = m.get("table")
        if not isinstance(info, dict) or "name" not in info:
            return
        self.tables[info["name"]] = info
        self._sync_lobby()
        model = self.model
        if model is not None and model.name == info["name"]:
            was_away = model.away
            model.set_info(info)
            if model.away and not was_away:
                self.say(
                    "You are marked away: the game waits for you (b: I'm back)."
                    if model.on_hold
                    else "You are marked away: the server plays your turns for you.",
                    severity="warning",
                    timeout=8,
                )
            screen = self.table_screen()
            if screen is not None:
                screen.sync()

    def _on_table_closed(self, m: dict[str, Any]) -> None:
        name = m.get("name")
        self.tables.pop(name, None)  # type: ignore[arg-type]
        self._sync_lobby()
        model = self.model
        if model is not None and model.name == name:
            if self._closing == name:
                notice = f"You closed table {name}."
            elif model.creator and not model.is_creator(self.player_name):
                notice = f"{model.creator} closed table {name}."
            else:
                notice = f"Table {name} was closed."
            self._closing = None
            self.model = None
            self._forget_seat()
            self.say(notice)
            self._to_lobby()
            self.send({"type": "list_tables", "watch": True})

    def _on_table_created(self, m: dict[str, Any]) -> None:
        info = m.get("table")
        if isinstance(info, dict) and "name" in info:
            self.tables[info["name"]] = info
            self._sync_lobby()
            if self._join_after_create == info["name"]:
                self._join_after_create = None
                self.join(info["name"])

    def _on_joined(self, m: dict[str, Any]) -> None:
        table = str(m.get("table"))
        seat = m.get("seat")
        token = m.get("token")
        name = self._joining[1] if self._joining else self.player_name
        self._joining = None
        self.model = TableModel(
            table, seat=seat, token=token if isinstance(token, str) else None, me=name
        )
        if table in self.tables:
            self.model.set_info(self.tables[table])
        if isinstance(token, str) and isinstance(seat, int):
            self.store.put(self.store_key, token, table, name, seat)
        self._show_table()

    def _on_resumed(self, m: dict[str, Any]) -> None:
        self._resuming = False
        table = str(m.get("table"))
        seat = m.get("seat")
        model = self.model
        if model is None or model.name != table:
            saved = self.store.get(self.store_key)
            token = saved["token"] if saved else None
            self.model = TableModel(table, seat=seat, token=token, resumed=True)
            self.say(f"Back at table {table}.")
        else:
            model.seat = seat
            self.say("Connection back: you are at the table again.")
        self._show_table()

    def _on_state(self, m: dict[str, Any]) -> None:
        info = m.get("table")
        name = info.get("name") if isinstance(info, dict) else None
        if not isinstance(name, str):
            return
        model = self.model
        if self._respectating == name:
            self._respectating = None
        if model is None or model.name != name:
            model = self.model = TableModel(name)
        was = model.phase
        model.apply_state(m)
        self._log_intro(model)
        self._show_table()
        self._maybe_summary(model, was)

    def _log_intro(self, model: TableModel) -> None:
        if not model.log:
            if model.spectator:
                intro = f"You are watching table {model.name}."
            elif model.resumed:
                intro = f"You are back in your seat at table {model.name}."
            else:
                intro = f"You sit at table {model.name}."
            self.log_line(model, Text(intro, style="italic"))

    def _on_update(self, m: dict[str, Any]) -> None:
        model = self.model
        if model is None or m.get("table") != model.name:
            return
        was = model.phase
        model.apply_update(m)
        describer = Describer(self.style, model.name_of, model.seat)
        events = [e for e in m.get("events") or [] if isinstance(e, dict)]
        model.note_events(events)
        lines = describer.update(events)
        notice = m.get("notice")
        if isinstance(notice, dict) and notice.get("kind") == "timeout":
            seat = notice.get("seat")
            if seat == model.seat and seat is not None:
                self.say(
                    "Your turn timed out: the server played for you.",
                    severity="warning",
                    timeout=6,
                )
                prefix = Text("Time's up — the server played for you: ", style="bold")
            else:
                prefix = Text(f"Time's up — the server played for {model.name_of(seat)}: ")
            if lines:
                lines[0] = prefix + lines[0]
            else:
                lines = [prefix]
        for line in lines:
            self.log_line(model, line)
        screen = self.table_screen()
        if screen is not None:
            screen.sync(new_update=True)
        self._maybe_summary(model, was)

    def _maybe_summary(self, model: TableModel, was: str | None) -> None:
        phase = model.phase
        if phase in ("hand_over", "game_over") and was != phase and model.last_result is None:
            result = (model.view or {}).get("result")
            if isinstance(result, dict):
                model.last_result = result
        if phase in ("hand_over", "game_over") and was == "play":
            model.summary_due = True
            screen = self.table_screen()
            if screen is not None:
                screen.sync()

    def log_line(self, model: TableModel, line: Text) -> None:
        """Add a line to the table's event log."""
        model.log.append(line)
        model.logged += 1
        if len(model.log) > LOG_LINES:
            del model.log[: len(model.log) - LOG_LINES]

    def _on_deadline(self, m: dict[str, Any]) -> None:
        """The turn timer restarted without an update (this player came back)."""
        model = self.model
        if model is None or m.get("table") != model.name:
            return
        if m.get("seq") == model.seq:
            model.set_deadline(m.get("deadline_ms"))
            screen = self.table_screen()
            if screen is not None:
                screen.sync()

    def back(self) -> None:
        """Tell the server this player is back (it stops playing the seat)."""
        model = self.model
        if model is not None and model.away and self.online:
            self.send({"type": "back"})

    def _on_chat(self, m: dict[str, Any]) -> None:
        model = self.model
        if model is None or m.get("table") not in (None, model.name):
            return
        line = {k: m.get(k) for k in ("name", "seat", "text")}
        model.chat.append(line)
        screen = self.table_screen()
        if screen is not None:
            screen.sync()

    def _on_left(self, m: dict[str, Any]) -> None:
        model = self.model
        if model is not None and not model.spectator:
            if model.state == "playing":
                self.say(
                    "You left the game. The server plays your seat; press r in the lobby "
                    "to go back.",
                    timeout=8,
                )
            else:
                self._forget_seat()
        self.model = None
        self._to_lobby()
        self.send({"type": "list_tables", "watch": True})

    def _forget_seat(self) -> None:
        self.store.drop(self.store_key)

    def _on_error(self, m: dict[str, Any]) -> None:
        code = str(m.get("code", ""))
        text = str(m.get("message", code))
        if code in QUIET_ERRORS:
            return
        if code == "bad_token":
            self._resuming = False
            had_model = self.model is not None
            if self.model is not None:
                self.say(f"Your seat at {self.model.name} is gone.", severity="warning")
            else:
                self.say("The seat saved for this server is gone.", severity="warning")
            self._forget_seat()
            self.model = None
            self._to_lobby()
            if not had_model:
                self._start_intent()
            return
        if code == "replaced":
            self.say("Your seat was taken back from another window.", severity="warning")
            if self.model is not None:
                self.model.token = None
            self.model = None
            self._to_lobby()
            return
        if code == "name_taken" and self._joining is not None:
            table, _ = self._joining
            self._joining = None
            lobby = self._lobby
            if lobby is not None:
                lobby.ask_name(table, text)  # type: ignore[attr-defined]
            return
        if code == "no_such_table" and self._respectating is not None:
            # watching again after a reconnection, but the table is gone
            name, self._respectating = self._respectating, None
            if self.model is not None and self.model.name == name and self.model.spectator:
                self.model = None
                self._to_lobby()
                self.say(f"Table {name} is gone (the server restarted?).", severity="warning")
                return
        if code == "not_at_table" and self.model is not None:
            # the server no longer counts this client at the table it shows
            name = self.model.name
            self.model = None
            self._to_lobby()
            self.say(f"You are no longer at table {name}.", severity="warning")
            self.send({"type": "list_tables", "watch": True})
            return
        if code in ("not_creator", "game_running"):
            self._closing = None
        if code in ("no_such_table", "table_full", "table_exists", "bad_rules", "too_many_tables"):
            self._join_after_create = None
            self._joining = None
        if code == "shutdown":
            self.say("The server is shutting down.", severity="warning")
            return
        if code == "already_at_table" and self._resuming:
            self._resuming = False
            return
        self.say(text, severity="error" if "id" not in m else "warning")
