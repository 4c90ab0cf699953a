"""The Craits terminal client: one Textual App over a :class:`~craits.client.core.session.Session`.

The session (no Textual) owns the connection and everything the server said; it
runs in one async worker and tells each change to a
:class:`~.messages.NewsRelay`, which posts it as a message (:mod:`.messages`) to
the App and to every screen that follows the news (from its ``on_mount``). Each
reacts with ``@on`` to what concerns it: the
App shows the table (pushed over the lobby, the bottom screen) or the lobby
again, says the session's lines and asks what coming to a table needs (an invite
code, whether to watch: :class:`~.dialogs.arrival.ArrivalQuestions`, in the
order the news came); the screens redraw themselves. Screens are given the
session and the card style; they never import the App, and send requests
through the session's requests.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from craits.protocol import VERSION
from craits.protocol.i18n import N_
from craits.protocol.tls import UntrustedCertificate
from craits.protocol.types import ClientMsg, TableInfo
from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from ..core.model import TableModel
from ..core.news import Severity
from ..core.reconnecting import LinkState
from ..core.saved.known_hosts import ServerTrust
from ..core.saved.prefs import PrefsStore
from ..core.saved.resume_tokens import TokenStore
from ..core.session import Session
from ..present.card_style import CardStyle
from ..present.describe import Narrator
from .appearance import Appearance
from .dialogs.arrival import ArrivalQuestions
from .dialogs.problem import ProblemScreen
from .dialogs.trust import TrustDialog
from .messages import (
    CodeNeeded,
    Failed,
    InviteReady,
    NewsRelay,
    Said,
    TableLeft,
    TableShown,
    WatchOffered,
    reported,
)
from .screens.lobby_screen import LobbyScreen
from .screens.table_screen import TableScreen
from .screenshot import Screenshots
from .widgets.ascii_filter import AsciiFilter

log = logging.getLogger(__name__)

EXIT_INTERRUPTED = 130
"""The exit status after Ctrl+C (128 + SIGINT, as a shell reports an interrupted command)."""

NARROW = 80
"""Below this many columns the App has the class ``-narrow`` (dialogs one column wide)."""


class CraitsApp(App[None]):
    """The client: a lobby screen, a table screen, and the session behind them.

    Args:
        host: the server's host name or address.
        port: its TCP port.
        name: the player's display name.
        table: join this table at start.
        spectate: watch this table at start.
        quick: quick play at start: seated at the table that starts soonest
            (protocol §11.13).
        code: the invite code of that table, if private (protocol §11.9).
        ascii: suits as ``S H D C`` instead of symbols.
        store: where resume tokens are kept (default: the user's state dir).
        connect_timeout: seconds allowed for connecting and the handshake.
        retry_base: the first pause between reconnection tries, in seconds;
            it doubles up to ``retry_max``.
        protocol_version: the version sent in hello (for tests of refusal).
        tls: connect with TLS, trusting the server as this says (a certificate
            that does not verify is shown in a :class:`TrustDialog`); None: plain TCP.
        web: running in a browser (``craits-web``): a failure to connect is shown
            in the app with a retry instead of ending it, and Ctrl+C copies the
            selection instead of quitting (leaving is the lobby's ``q``).
        forwarded_for: in ``craits-web``, the visitor's address, sent in the hello
            (the server counts its limits per address against it; protocol §4.1).
        shown_address: the server's address as shown to the player, if not the
            one connected to (in ``craits-web``: the page's host).
        account_dir: where the device key and the servers registered with are
            kept (the command passes the platform's config directory); None:
            no accounts, a guest everywhere (protocol §7.5).
    """

    TITLE = "Craits"
    language_given = False
    """Whether the command line chose the language (``--lang``): then a language
    kept in the preferences does not replace it at start."""
    CSS_PATH = "craits.tcss"
    ENABLE_COMMAND_PALETTE = True  # Ctrl+P: the theme (dark, light) and motion
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "quit_app", N_("Quit"), show=False, priority=True),
    ]
    ASCII_KEYS: ClassVar[dict[str, str]] = {"←→": "<- ->", "⏎": "Enter", "?": "?"}
    """Key names shown with ``--ascii``."""

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        table: str | None = None,
        spectate: str | None = None,
        code: str | None = None,
        quick: bool = False,
        ascii: bool = False,
        store: TokenStore | None = None,
        connect_timeout: float = 5.0,
        retry_base: float = 0.5,
        retry_max: float = 8.0,
        protocol_version: int = VERSION,
        tls: ServerTrust | None = None,
        web: bool = False,
        forwarded_for: str | None = None,
        shown_address: str | None = None,
        account_dir: Path | None = None,
    ):
        super().__init__()
        self.web = web
        if self.no_color:
            # NO_COLOR: Textual would draw every colour in grey (red cards and dim
            # text come out dark on dark); draw in the terminal's own colours instead,
            # and let bold, reverse, brackets and strike-through carry the meaning.
            self._filters[:] = [
                NoColor() if isinstance(f, Monochrome) else f for f in self._filters
            ]
        self.style = CardStyle(ascii, underline_red=self.no_color)
        if ascii:
            self._filters.append(AsciiFilter())  # nothing but ASCII reaches the terminal
        self.news = NewsRelay(self)
        """The session's news, posted as messages to the App and the screens that follow it."""
        self.session = Session(
            host,
            port,
            name,
            self.news,
            narrator=Narrator(self.style),
            store=store if store is not None else TokenStore(),
            table=table,
            spectate=spectate,
            code=code,
            quick=quick,
            connect_timeout=connect_timeout,
            retry_base=retry_base,
            retry_max=retry_max,
            protocol_version=protocol_version,
            tls=tls,
            forwarded_for=forwarded_for,
            account_dir=account_dir,
        )
        if shown_address:
            self.session.shown_address = shown_address
        if tls is not None and tls.ask is None:
            tls.ask = self.ask_trust
        self.error_message: str | None = None
        """Why the client gave up (printed by the command once the screen is restored)."""
        self._table: TableScreen | None = None
        self._notice_about: tuple[str, float] | None = None  # (table, until: monotonic)
        prefs = PrefsStore(self.session.store.path.parent)
        self.appearance = Appearance(self, prefs, on_language=self.news.language_changed)
        self.arrival = ArrivalQuestions(self, self.session)

    # ------------------------------------------------ the session, in short

    @property
    def link(self) -> LinkState:
        """``connecting`` (first try), ``online``, or ``reconnecting``."""
        return self.session.link.state

    @property
    def online(self) -> bool:
        """Whether a connection is up."""
        return self.session.online

    @property
    def model(self) -> TableModel | None:
        """The table shown, or None in the lobby."""
        return self.session.model

    @property
    def tables(self) -> dict[str, TableInfo]:
        """The server's tables by name, as the lobby lists them."""
        return self.session.lobby.tables

    def send(self, message: ClientMsg) -> bool:
        """Send a message now; False (and a notice) when there is no connection."""
        return self.session.requests.send(message)

    # ------------------------------------------------------------- screens

    def get_default_screen(self) -> Screen[Any]:
        """The lobby is the bottom screen; a table is pushed on top of it."""
        return LobbyScreen(self.session, self.style)

    def on_mount(self) -> None:
        """Follow the session's news, and start the session in a worker (in the kept
        theme and motion)."""
        self.news.follow(self)
        self.appearance.apply()
        self.run_worker(self.session.run(), name="network", group="network", exit_on_error=False)

    def on_resize(self, event: events.Resize) -> None:
        """Below 80 columns (a phone's browser) the style sheet's ``-narrow``
        rules lay the dialogs out one column wide."""
        self.set_class(event.size.width < NARROW, "-narrow")

    async def ask_trust(self, untrusted: UntrustedCertificate, pins: Path) -> bool:
        """Ask the user, in a :class:`TrustDialog`, whether to trust a certificate
        that did not verify (trust on first use); True to trust and pin it."""
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def answered(yes: bool | None) -> None:
            if not answer.done():
                answer.set_result(bool(yes))

        self.push_screen(TrustDialog(untrusted, pins), answered)
        return await answer

    def table_screen(self) -> TableScreen | None:
        """The table screen the App pushed (over the lobby), or None."""
        return self._table

    # ------------------------------------------------------- the session's news

    @on(TableShown)
    @reported
    def _table_shown(self, message: TableShown) -> None:
        """A table to show: push its screen over the lobby (the screen shown draws itself)."""
        self._drop_notice_about_another_table()
        if self._table is None:
            self._to_lobby()
            self._table = TableScreen(self.session, self.style)
            self.push_screen(self._table)

    @on(TableLeft)
    @reported
    def _table_left(self, message: TableLeft) -> None:
        """No table any more: back to the lobby."""
        self._to_lobby()

    @on(Said)
    def _said(self, message: Said) -> None:
        """Say the session's line; one about a table is not left over another."""
        self.say(message.text, severity=message.severity, timeout=message.timeout)
        if message.table is not None:
            self._notice_about = (message.table, time.monotonic() + message.timeout)

    @on(Failed)
    def _failed(self, message: Failed) -> None:
        """The first connection failed."""
        self.fail(message.message)

    @on(InviteReady)
    def _invite_ready(self, message: InviteReady) -> None:
        """This client's private table: its invite link (:class:`ArrivalQuestions`)."""
        self.arrival.invite_ready(message.table, message.link)

    @on(CodeNeeded)
    def _code_needed(self, message: CodeNeeded) -> None:
        """A private table needs its code: ask for it."""
        self.arrival.code_needed(message.table, message.watch, message.why)

    @on(WatchOffered)
    def _watch_offered(self, message: WatchOffered) -> None:
        """No seat at a table for this player: watch it instead?"""
        self.arrival.watch_offered(message.table, message.question)

    def _drop_notice_about_another_table(self) -> None:
        """A table is shown: a notice still up about another table (``You left
        the game…``) goes, with the other notices up then (Textual removes them
        all at once); the notices said from now on, about this table, stay."""
        about = self._notice_about
        model = self.session.model
        if about is None or model is None:
            return
        self._notice_about = None
        if about[0] != model.name and time.monotonic() < about[1]:
            self.clear_notifications()

    def _to_lobby(self) -> None:
        """Every screen over the lobby goes (the lobby, shown again, draws itself)."""
        self._table = None
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette: Textual's commands (in a terminal, its Screenshot
        saved where it can be: :mod:`~craits.client.tui.screenshot`), then the looks
        (theme, motion)."""
        textual = super().get_system_commands(screen)
        yield from textual if self.web else Screenshots(self).commands(textual)
        yield from self.appearance.commands(screen)

    def get_key_display(self, binding: Binding) -> str:
        """Key names for the Footer; plain letters with ``--ascii``."""
        shown = super().get_key_display(binding)
        if self.style.ascii:
            return self.ASCII_KEYS.get(shown, shown)
        return shown

    def action_quit_app(self) -> None:
        """Leave the program at once (a seat in a game can be resumed later),
        with exit status 130, as an interrupted command.

        In a browser Ctrl+C means copy: it copies the selected text, if any, and
        says how to leave; it never quits.
        """
        if self.web:
            selected = self.screen.get_selected_text()
            if selected:
                self.copy_to_clipboard(selected)
                self.say("Copied.")
            else:
                self.say("Ctrl+C does not leave the game here: press q in the lobby to leave.")
            return
        self.session.close()
        self.exit(return_code=EXIT_INTERRUPTED)

    def fail(self, message: str) -> None:
        """Exit with a one-line error (printed by the command after the screen is
        restored); in a browser, show it with a retry (:class:`ProblemScreen`)."""
        self.session.close()
        if self.web:
            self.push_screen(ProblemScreen(message), self._after_problem)
            return
        self.error_message = message
        self.exit(return_code=1)

    def _after_problem(self, retry: bool | None) -> None:
        if retry:
            self.run_worker(
                self.session.run(), name="network", group="network", exit_on_error=False
            )
        else:
            self.exit()

    def say(
        self, message: str, *, severity: Severity = "information", timeout: float = 4.0
    ) -> None:
        """A notification; text from the network is never read as markup."""
        self.notify(message, severity=severity, timeout=timeout, markup=False)
