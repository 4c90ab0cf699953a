"""The client's session with a server: what the user asked for, and what the server
said. It imports nothing of Textual.

:class:`Session` holds its collaborators together: the
:class:`~.reconnecting.Link` (the connection, kept up with backoff), whose reports
it answers; the :class:`~.requests.Requests` (what the user asks, and the answer
awaited); the :class:`~.inbox.Inbox` (one handler per message from the server,
errors to :class:`~.refusals.Refusals`); the lobby's list (:class:`~.model.TableList`),
the table shown and the seat saved (:class:`~.place.Place`), the invite codes
(:class:`~.privacy.Privacy`). It tells its owner what changed through a
:class:`~.news.Listener`, and never touches the screen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Unpack

from craits.protocol.address import Target
from craits.protocol.types import ServerMsg

from .account import Account
from .hints import Hints
from .inbox import Inbox, Narration
from .model import TableList, TableModel
from .news import Listener, Severity
from .place import Place
from .privacy import CreatorRequests, Privacy
from .reconnecting import Link, LinkOptions
from .requests import IDLE, Intent, Requests, Want
from .saved.commitments import DIR_NAME, CommitmentStore
from .saved.known_hosts import ServerTrust
from .saved.resume_tokens import SavedSeat, TokenStore

log = logging.getLogger(__name__)


def _first_intent(table: str | None, spectate: str | None, name: str, quick: bool) -> Intent:
    """What a session asks once connected: join ``table``, watch ``spectate``,
    quick play (``quick``, protocol §11.13), or nothing."""
    if quick:
        return Intent(Want.QUICK, None, name)
    if table:
        return Intent(Want.JOIN, table, name)
    return Intent(Want.SPECTATE, spectate) if spectate else IDLE


def _pin(tls: ServerTrust | None, host: str, port: int) -> Callable[[], str | None] | None:
    """The fingerprint pinned for a TLS server, read when an invite link is made."""
    if tls is None:
        return None
    return lambda: tls.fingerprint or tls.known.get(host, port)


class Session:
    """One client's session with a server (see the module's notes).

    Args:
        host: the server's host name or address.
        port: its TCP port.
        name: the player's display name.
        listener: told of every change (:class:`~.news.Listener`).
        narrator: the event log's words (:class:`~.inbox.Narration`).
        store: where resume tokens are kept.
        commitments: where the shuffle commitments received are kept (by default
            in the folder ``commitments`` beside the tokens' file).
        table: join this table once connected (unless a saved seat is taken back).
        spectate: watch this table once connected.
        code: the invite code of that table, if it is private (protocol §11.9).
        quick: quick play once connected (protocol §11.13).
        account_dir: where the device key and the servers registered with are
            kept (:mod:`~.account`); None: no accounts (a guest everywhere).
        link_options: :class:`~.reconnecting.LinkOptions`, passed to :class:`Link`.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        listener: Listener,
        *,
        narrator: Narration,
        store: TokenStore,
        commitments: CommitmentStore | None = None,
        table: str | None = None,
        spectate: str | None = None,
        code: str | None = None,
        quick: bool = False,
        account_dir: Path | None = None,
        **link_options: Unpack[LinkOptions],
    ):
        self.port = port
        self.listener = listener
        self.privacy = Privacy(
            Target(host, port, tls=link_options.get("tls") is not None),
            pin=_pin(link_options.get("tls"), host, port),
        )
        """The invite codes known (:mod:`craits.client.core.privacy`)."""
        if code and (table or spectate):
            self.privacy.code_for(str(table or spectate), code)
        self.address = f"{host}:{port}"
        self.shown_address = self.address
        """The server's address as the player is shown it (craits-web: the page's host)."""
        self.player_name = name
        self.store = store
        self.commitments = commitments or CommitmentStore(store.path.parent / DIR_NAME)
        self.link = Link(self, host, port, name, **link_options)
        self.lobby = TableList()
        self.account = Account(account_dir, self.link, listener)
        """This device's account on the server (protocol §7.5)."""
        self.place = Place(store, f"{self.address} {name.casefold()}", listener)
        """The table shown, and the seat saved for this server and name."""
        self.requests = Requests(self.link, listener, self.privacy, self.lobby, self.place, name)
        """What the user asks of the server (sit, watch, play…)."""
        self.creator = CreatorRequests(self.requests.send)
        """What the table's creator asks (remove, lock, mute…)."""
        self.hints = Hints(self.requests, self.place, listener)
        """The hints asked at the table shown (protocol §7.6)."""
        self.inbox = Inbox(self, narrator)
        self._start = _first_intent(table, spectate, name, quick)

    @property
    def model(self) -> TableModel | None:
        """The table shown (seated or watching), or None in the lobby."""
        return self.place.model

    @property
    def store_key(self) -> str:
        """This server and player's key in the token store."""
        return self.place.key

    @property
    def online(self) -> bool:
        """Whether a connection is up."""
        return self.link.online

    def saved_seat(self) -> SavedSeat | None:
        """The seat saved for this server and name."""
        return self.place.saved()

    def say(
        self,
        text: str,
        severity: Severity = "information",
        timeout: float = 4.0,
        table: str | None = None,
    ) -> None:
        """Tell the user ``text`` (about ``table``: not left up over another table)."""
        self.listener.said(text, severity, timeout, table)

    async def run(self) -> None:
        """Keep the link up and handle what comes, until cancelled (or the first
        connection fails: the listener's ``failed``)."""
        await self.link.run()

    def close(self) -> None:
        """Drop the connection at once (the client is quitting)."""
        self.link.close()

    # ------------------------------------------------- the link's reports

    def link_changed(self) -> None:
        """The link went up or down, or its words changed."""
        self.listener.link_changed()

    def unreachable(self, why: str) -> None:
        """The first connection failed: the client gives up (an address the
        player is not shown is not named: craits-web's game server)."""
        if self.shown_address != self.address:
            why = why.replace(self.address, "the game server")
        self.listener.failed(why)

    def connected(self, first: bool) -> None:
        """After (re)connecting: ask the tables, log in if this device has an account
        here, then take back the seat, or watch again, or do what the command line
        asked (:meth:`_take_place`)."""
        requests = self.requests
        self.privacy.welcomed(self.link.welcome)  # the server's public address, if any
        requests.list_tables()
        # logged in (§7.5) before a seat is asked: a registered name is its account's
        self.account.welcomed(lambda: self._take_place(first))

    def _take_place(self, first: bool) -> None:
        """After (re)connecting and logging in: take back the seat, or watch
        again, or do what the command line asked."""
        requests = self.requests
        if requests.again():  # a redirect brought us here: asked again (§7.4)
            return
        model = self.model
        if model is not None and model.token:
            requests.resume(model.token)
        elif model is not None and model.spectator:
            requests.watch_again(model.name)
        elif first:
            saved = self.saved_seat()
            if saved is not None and self._takes_back(saved):
                requests.resume(saved["token"])
            else:
                self.begin()

    def _takes_back(self, saved: SavedSeat) -> bool:
        """Whether to take back the seat saved, at start: unless the command line
        asks to watch a table, or to sit at another."""
        start = self._start
        if start.want in (Want.SPECTATE, Want.QUICK):
            return False
        return start.table is None or start.table == saved["table"]

    def begin(self) -> None:
        """Do what the command line asked: join or watch a table, or quick play (once)."""
        start, self._start = self._start, IDLE
        if start.want == Want.QUICK:
            self.requests.quick_play()
            return
        if start.table is None:
            return
        if start.want == Want.JOIN:
            self.requests.join(start.table)
        else:
            self.requests.spectate(start.table)

    def received(self, message: ServerMsg) -> None:
        """Act on one message from the server (:class:`~.inbox.Inbox`). A message
        the client fails on is reported and skipped: the connection and the game go on."""
        try:
            self.inbox.take(message)
        except Exception as exc:
            kind = message["type"]
            log.exception("failed on a %r message", kind)
            self.say(f"Could not show a {kind} message: {exc}", "error")
