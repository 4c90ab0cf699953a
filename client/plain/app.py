"""``craits-client HOST --plain``: the game as lines of text, for a screen reader
or a braille display (docs/accessibility.md).

:class:`PlainClient` runs the core's :class:`~craits.client.core.session.Session`
(no Textual), says what happens through its :class:`~.output.Speaker` and takes
typed lines through :class:`~.commands.Commands`. Lines are read by a thread with
``input()`` (so GNU readline edits them and keeps their history when standard
input is a terminal, and ``rlwrap`` works too), and handed to the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from typing import TextIO

from craits.protocol.i18n import _

from ..core.model import TableModel
from ..core.news import Severity
from ..core.saved.known_hosts import ServerTrust
from ..core.saved.resume_tokens import TokenStore
from ..core.session import Session
from .commands import Commands
from .output import Speaker

EXIT_ERROR = 1


def quiet_readline() -> None:
    """Load GNU readline for ``input()`` (line editing, history) without the escape
    sequences it may send on its own (bracketed paste, the meta key), so nothing
    but text reaches the screen reader. Nothing when readline is absent."""
    try:
        import readline
    except ImportError:  # (Windows, or a Python built without it)
        return
    readline.parse_and_bind("set enable-bracketed-paste off")
    readline.parse_and_bind("set enable-meta-key off")


class _News:
    """The session's listener: each piece of news to the speaker."""

    def __init__(self, client: PlainClient):
        self.client = client

    @property
    def speaker(self) -> Speaker:
        return self.client.speaker

    def link_changed(self) -> None:
        session = self.client.session
        self.speaker.link(session.link.state, session.shown_address)

    def lobby_changed(self) -> None:
        pass  # said on request (``tables``)

    def table_shown(self) -> None:
        model: TableModel | None = self.client.session.model
        if model is not self.speaker.model:
            self.speaker.show(model)
        self.speaker.changed(True)

    def table_changed(self, new_update: bool) -> None:
        self.speaker.changed(new_update)

    def table_left(self) -> None:
        self.speaker.show(None)
        self.speaker.line(_("You are in the lobby. Type tables to list the tables."))

    def said(self, text: str, severity: Severity, timeout: float, table: str | None) -> None:
        self.speaker.said(text, severity)

    def name_taken(self, table: str, why: str) -> None:
        self.speaker.line(
            _("Cannot sit at table {table}: {why} Start again with another --name.").format(
                table=table, why=why
            )
        )

    def watch_offered(self, table: str, question: str) -> None:
        self.speaker.line(question)
        self.speaker.line(_("Type watch {table} to watch it.").format(table=table))

    def code_needed(self, table: str, watch: bool, why: str) -> None:
        self.speaker.line(
            _("Table {table} is private: type join {table} CODE with its invite code.").format(
                table=table
            )
        )

    def invite_ready(self, table: str, link: str) -> None:
        self.speaker.line(
            _("Your private table {table} is open. Invite friends with this link: {link}").format(
                table=table, link=link
            )
        )

    def failed(self, message: str) -> None:
        self.speaker.failure = message


class PlainClient:
    """The plain client (see the module's notes).

    Args:
        host, port, name: the server and the player's name.
        out: where sentences go (standard output).
        store: the saved seats (by default the user's).
        table, spectate, code: sit at or watch this table at once (its invite code).
        tls: how to trust a TLS server (None: plain TCP).
        brief: say less (whose turn only when it is the player's).
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        *,
        out: TextIO | None = None,
        store: TokenStore | None = None,
        table: str | None = None,
        spectate: str | None = None,
        code: str | None = None,
        tls: ServerTrust | None = None,
        brief: bool = False,
    ):
        self.speaker = Speaker(out if out is not None else sys.stdout, brief=brief)
        self.session = Session(
            host,
            port,
            name,
            _News(self),
            narrator=self.speaker,
            store=store if store is not None else TokenStore(),
            table=table,
            spectate=spectate,
            code=code,
            tls=tls,
        )
        self._stopping = asyncio.Event()
        self.commands = Commands(self.session, self.speaker, self._stopping.set)

    async def run(self, lines: asyncio.Queue[str | None] | None = None) -> int:
        """Play until ``quit``, the end of input, or a first connection that fails;
        returns the exit status. ``lines``: the typed lines (by default read from
        standard input by a thread)."""
        if lines is None:
            lines = self._read_stdin()
        self.speaker.line(
            _("Craits, plain text. Connecting to {address}; type help for the commands.").format(
                address=self.session.shown_address
            )
        )
        linked = asyncio.create_task(self.session.run())
        stopping = asyncio.create_task(self._stopping.wait())
        try:
            while True:
                typed = asyncio.create_task(lines.get())
                done, _pending = await asyncio.wait(
                    {linked, typed, stopping}, return_when=asyncio.FIRST_COMPLETED
                )
                if linked in done or stopping in done:
                    typed.cancel()
                    break
                line = typed.result()
                if line is None:
                    break
                self.commands.take(line)
        finally:
            stopping.cancel()
            self.session.close()
            linked.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await linked
        if self.speaker.failure is not None:
            print(f"craits-client: {self.speaker.failure}", file=sys.stderr)
            return EXIT_ERROR
        self.speaker.line(_("Goodbye."))
        return 0

    @staticmethod
    def _read_stdin() -> asyncio.Queue[str | None]:
        """A queue of the lines typed on standard input (None at its end), read by a
        daemon thread."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        if sys.stdin.isatty():
            quiet_readline()

        def read() -> None:
            while True:
                try:
                    line: str | None = input()
                except (EOFError, OSError, ValueError):
                    line = None
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, line)
                except RuntimeError:  # the loop is closed: the client has ended
                    return
                if line is None:
                    return

        threading.Thread(target=read, name="craits-plain-input", daemon=True).start()
        return queue
