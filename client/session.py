"""The client's session with a server: what the user asked for, and what the server
said. It imports nothing of Textual.

:class:`Session` owns the :class:`~craits.client.link.Link` (the connection,
kept up with backoff), the resume-token store, the lobby cache and the
:class:`~craits.client.model.TableModel` of the table shown. What the user
asked for and the server has not answered yet is one :class:`Intent` (join,
create, resume, spectate, watch again, close, leave): the server's replies move
it on, and an error that answers it ends it (:data:`ENDED_BY`); what an error
means beyond its words is in :data:`REACTIONS`.

The session tells its owner what changed by calling ``listener`` with
:data:`News` (plain dataclasses); the App posts each as a Textual message and
redraws, so the session never touches the screen.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, Unpack, cast

from craits.protocol.actions import Action, action_to_wire
from craits.protocol.address import Target
from craits.protocol.redirect import ANSWERS, MAX_REDIRECTS, redirect_target
from craits.protocol.types import (
    ActionMap,
    ActMsg,
    AddBotMsg,
    BackMsg,
    ChatLine,
    ChatMsg,
    ChatSendMsg,
    ClientMsg,
    CloseTableMsg,
    Commitment,
    CreateTableMsg,
    DeadlineMsg,
    ErrorMsg,
    JoinedMsg,
    JoinMsg,
    LeaveMsg,
    LeftMsg,
    ListTablesMsg,
    NewGameMsg,
    RedirectMsg,
    ResumedMsg,
    ResumeMsg,
    ServerMsg,
    SpectateMsg,
    StartMsg,
    StateMsg,
    TableClosedMsg,
    TableCreatedMsg,
    TableInfoMsg,
    TablesMsg,
    UpdateMsg,
)
from craits.protocol.vocab import (
    BotLevel,
    ClientMessage,
    ErrorCode,
    EventKind,
    NoticeKind,
    ServerMessage,
    TableState,
)
from rich.text import Text

from . import privacy
from .cards import CardStyle
from .commitments import DIR_NAME, CommitmentStore
from .describe import Describer
from .known_hosts import ServerTrust
from .link import Link, LinkOptions
from .model import Lobby, TableModel
from .privacy import CodeNeeded, InviteReady
from .store import SavedSeat, TokenStore

log = logging.getLogger(__name__)

Severity = Literal["information", "warning", "error"]
"""How a notice is shown (Textual's notification severities)."""

_ERROR_CODES = frozenset(ErrorCode)

_HAND_STARTS = frozenset({EventKind.CUT, EventKind.DEALT})

QUIET_ERRORS = frozenset({ErrorCode.STALE})
"""Refusals not worth a notification (the next update explains itself)."""


# ------------------------------------------------------------------- news


@dataclass(frozen=True, slots=True)
class LinkChanged:
    """The link's state (:attr:`Session.link`) or the words about it changed."""


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """The list of tables changed."""


@dataclass(frozen=True, slots=True)
class TableShown:
    """A table to show: joined, resumed, watching, or a fresh full state."""


@dataclass(frozen=True, slots=True)
class TableChanged:
    """The table shown changed; ``new_update`` when it is a move of the game."""

    new_update: bool = False


@dataclass(frozen=True, slots=True)
class TableLeft:
    """No table any more (left, closed, gone): back to the lobby."""


@dataclass(frozen=True, slots=True)
class Notice:
    """A line to tell the user (never read as markup); ``table``: the table it is
    about, if it must not be left up over another (it goes when one is shown)."""

    text: str
    severity: Severity = "information"
    timeout: float = 4.0
    table: str | None = None


@dataclass(frozen=True, slots=True)
class NameTaken:
    """Joining ``table`` failed, its name taken: ask for another (``why`` is the server's)."""

    table: str
    why: str


@dataclass(frozen=True, slots=True)
class WatchOffered:
    """Joining ``table`` failed, no seat there for this player (its game is
    playing, or every seat is taken): offer to watch it (``question`` says why)."""

    table: str
    question: str


@dataclass(frozen=True, slots=True)
class Failed:
    """The first connection failed: the client exits with ``message``."""

    message: str


News = (
    LinkChanged
    | LobbyChanged
    | TableShown
    | TableChanged
    | TableLeft
    | Notice
    | NameTaken
    | WatchOffered
    | Failed
    | CodeNeeded
    | InviteReady
)
"""Everything the session tells its owner."""


# ----------------------------------------------------------------- intent


class Want(StrEnum):
    """What the user asked for and the server has not answered yet."""

    NOTHING = "nothing"
    CREATE = "create"
    """Sent ``create_table``: join the table once it is created."""
    JOIN = "join"
    """Sent ``join``."""
    RESUME = "resume"
    """Sent ``resume`` with a token (saved, or the seat's after a reconnection)."""
    SPECTATE = "spectate"
    """Sent ``spectate``."""
    WATCH_AGAIN = "watch_again"
    """Sent ``spectate`` after a reconnection, for the table being watched."""
    CLOSE = "close"
    """Sent ``close_table``."""
    LEAVE = "leave"
    """Sent ``leave``."""


@dataclass(frozen=True, slots=True)
class Intent:
    """One request waiting for its answer: what, at which table, under which name."""

    want: Want = Want.NOTHING
    table: str | None = None
    name: str | None = None


IDLE = Intent()
"""Nothing asked."""

_JOIN_ERRORS = (
    frozenset(
        {
            ErrorCode.ALREADY_AT_TABLE,
            ErrorCode.NO_SUCH_TABLE,
            ErrorCode.TABLE_FULL,
            ErrorCode.NAME_TAKEN,
            ErrorCode.TABLE_STOPPED,
        }
    )
    | privacy.REQUEST_ERRORS
)

ENDED_BY: dict[Want, frozenset[ErrorCode]] = {
    Want.NOTHING: frozenset(),
    Want.CREATE: _JOIN_ERRORS
    | {
        ErrorCode.BAD_RULES,
        ErrorCode.BAD_TURN_TIMEOUT,
        ErrorCode.TABLE_EXISTS,
        ErrorCode.TOO_MANY_TABLES,
    },
    Want.JOIN: _JOIN_ERRORS,
    Want.RESUME: frozenset({ErrorCode.BAD_TOKEN, ErrorCode.ALREADY_AT_TABLE, ErrorCode.KICKED}),
    Want.SPECTATE: frozenset({ErrorCode.ALREADY_AT_TABLE, ErrorCode.NO_SUCH_TABLE})
    | privacy.REQUEST_ERRORS,
    Want.WATCH_AGAIN: frozenset({ErrorCode.ALREADY_AT_TABLE, ErrorCode.NO_SUCH_TABLE})
    | privacy.REQUEST_ERRORS,
    Want.CLOSE: frozenset({ErrorCode.NOT_AT_TABLE, ErrorCode.NOT_CREATOR, ErrorCode.GAME_RUNNING}),
    Want.LEAVE: frozenset({ErrorCode.NOT_AT_TABLE}),
}
"""The errors that answer each request (protocol §5, "Replies and errors"): such an
error ends the intent. Other errors leave it waiting."""


def _first_intent(table: str | None, spectate: str | None, name: str) -> Intent:
    """What a session asks once connected: join ``table``, watch ``spectate``, or nothing."""
    if table:
        return Intent(Want.JOIN, table, name)
    return Intent(Want.SPECTATE, spectate) if spectate else IDLE


def _pin(tls: ServerTrust | None, host: str, port: int) -> Callable[[], str | None] | None:
    """The fingerprint pinned for a TLS server, read when an invite link is made."""
    if tls is None:
        return None
    return lambda: tls.fingerprint or tls.known.get(host, port)


class Requests:
    """What the user asks of the server at a table: sit, watch, open, leave,
    play, start, seat a bot, chat (protocol §5). Mixed into :class:`Session`,
    which holds the link, the lobby, the table shown and the codes known; each
    request is sent with the :class:`Intent` it answers (``_request``)."""

    model: TableModel | None
    lobby: Lobby
    privacy: privacy.Privacy
    player_name: str
    _next_id: int

    @property
    def online(self) -> bool:
        """Whether a connection is up (the session's)."""
        raise NotImplementedError

    def send(self, message: ClientMsg) -> bool:
        """Send a message now (the session's)."""
        raise NotImplementedError

    def _request(self, intent: Intent, message: ClientMsg, hops: int = 0) -> bool:
        raise NotImplementedError

    def _resume(self, token: str) -> None:
        raise NotImplementedError

    def tell(self, news: News) -> None:
        """Report ``news`` to the listener (the session's)."""
        raise NotImplementedError

    def saved_seat(self) -> SavedSeat | None:
        """The seat saved for this server and name (the session's)."""
        raise NotImplementedError

    def drop_table(self) -> None:
        """Forget the table shown (the session's)."""
        raise NotImplementedError

    def act(self, action: Action) -> bool:
        """Send one of the view's legal actions with the view's seq (and a new id)."""
        model = self.model
        if model is None:
            return False
        self._next_id += 1
        form = cast(ActionMap, action_to_wire(action))  # (the map form of an action)
        return self.send(
            ActMsg(type=ClientMessage.ACT, id=self._next_id, action=form, seq=model.seq)
        )

    def join(self, table: str, name: str | None = None, code: str | None = None) -> None:
        """Ask for a seat at ``table`` (as ``name``, by default the player's),
        with its invite ``code`` if it is private (or the code known); a
        private table whose code is not known (or was refused) is asked for
        its code first (:meth:`_needs_code`)."""
        name = name or self.player_name
        message = JoinMsg(type=ClientMessage.JOIN, table=table, name=name)
        known = self.privacy.code_for(table, code)
        if known:
            message["code"] = known
        elif self._needs_code(table, code, watch=False):
            return
        self._request(Intent(Want.JOIN, table, name), message)

    def spectate(self, table: str, code: str | None = None) -> None:
        """Ask to watch ``table`` (with its invite ``code``, or the code known;
        asked for first, as for :meth:`join`)."""
        if not self.privacy.code_for(table, code) and self._needs_code(table, code, watch=True):
            return
        self._request(Intent(Want.SPECTATE, table), self._spectate_msg(table))

    def _needs_code(self, table: str, code: str | None, watch: bool) -> bool:
        """No code to send to ``table``: when the lobby lists it as private, or
        ``code`` was refused there already, ask for one (:class:`CodeNeeded`)
        rather than ask the server (issue 23: never send a refused code again)."""
        info = self.lobby.tables.get(table)
        if code and self.privacy.was_refused(table, code):
            why = "that invite code was refused already"
        elif info is not None and info.get("private"):
            why = "it needs its invite code"
        else:
            return False
        self.tell(CodeNeeded(table, watch, why))
        return True

    def _spectate_msg(self, table: str) -> SpectateMsg:
        message = SpectateMsg(type=ClientMessage.SPECTATE, table=table)
        known = self.privacy.code_for(table)
        if known:
            message["code"] = known
        return message

    def create_table(self, request: CreateTableMsg) -> None:
        """Open a table and take a seat at it once created."""
        self._request(Intent(Want.CREATE, request["name"]), request)

    def rejoin(self) -> None:
        """Take back the seat saved for this server."""
        saved = self.saved_seat()
        if saved:
            self._resume(saved["token"])

    def close_table(self, end_game: bool = False) -> None:
        """Close the table (its creator): everyone at it goes back to the lobby
        once the server says it is closed. During a game only with ``end_game``
        (the user said yes to ending it): the game ends, recorded as abandoned."""
        if self.model is not None:
            message = CloseTableMsg(type=ClientMessage.CLOSE_TABLE)
            if end_game:
                message["end_game"] = True
            self._request(Intent(Want.CLOSE, self.model.name), message)

    def leave(self) -> None:
        """Leave the table: back to the lobby once the server confirms."""
        if not self._request(Intent(Want.LEAVE), LeaveMsg(type=ClientMessage.LEAVE)):
            # Offline: forget the table here; the seat can still be resumed.
            self.drop_table()

    def back(self) -> None:
        """Tell the server this player is back (it stops playing the seat)."""
        if self.model is not None and self.model.away and self.online:
            self.send(BackMsg(type=ClientMessage.BACK))

    def start_game(self) -> None:
        """Start the game with the players seated."""
        self.send(StartMsg(type=ClientMessage.START))

    def new_game(self) -> bool:
        """Start a new game at a table whose game is over; False when offline."""
        return self.send(NewGameMsg(type=ClientMessage.NEW_GAME))

    def add_bot(self, level: BotLevel) -> None:
        """Seat a computer player of ``level``."""
        self.send(AddBotMsg(type=ClientMessage.ADD_BOT, level=level))

    def chat(self, text: str) -> None:
        """Say ``text`` to everyone at the table."""
        self.send(ChatSendMsg(type=ClientMessage.CHAT, text=text))


class Session(Requests):
    """One client's session with a server (see the module's notes); its
    requests are :class:`Requests`'.

    Args:
        host: the server's host name or address.
        port: its TCP port.
        name: the player's display name.
        listener: called with each piece of :data:`News`.
        style: how cards are written in the event log.
        store: where resume tokens are kept.
        commitments: where the shuffle commitments received are kept (by default
            in the folder ``commitments`` beside the tokens' file).
        table: join this table once connected (unless a saved seat is taken back).
        spectate: watch this table once connected.
        code: the invite code of that table, if it is private (protocol §11.9).
        link_options: :class:`~craits.client.link.LinkOptions`, passed to :class:`Link`.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        listener: Callable[[News], None],
        *,
        style: CardStyle,
        store: TokenStore,
        commitments: CommitmentStore | None = None,
        table: str | None = None,
        spectate: str | None = None,
        code: str | None = None,
        **link_options: Unpack[LinkOptions],
    ):
        self.port = port
        self.privacy = privacy.Privacy(
            Target(host, port, tls=link_options.get("tls") is not None),
            pin=_pin(link_options.get("tls"), host, port),
        )
        """The invite codes known (:mod:`craits.client.privacy`)."""
        if code and (table or spectate):
            self.privacy.code_for(str(table or spectate), code)
        self.address = f"{host}:{port}"
        self.shown_address = self.address
        """The server's address as the player is shown it (craits-web: the page's host)."""
        self.player_name = name
        # The saved seat is per server and per player name: two people on one
        # account (or one person playing two names) never take each other's seat.
        self.store_key = f"{self.address} {name.casefold()}"
        self.store = store
        self.commitments = commitments or CommitmentStore(store.path.parent / DIR_NAME)
        self.style = style
        self.link = Link(self, host, port, name, **link_options)
        self.model: TableModel | None = None
        """The table shown (seated or watching), or None in the lobby."""
        self.lobby = Lobby()
        self.intent = IDLE
        self._listener = listener
        self._start = _first_intent(table, spectate, name)
        self._next_id = int(time.time() * 1000) * 1000
        # the last request a cluster may redirect (§7.4), the redirects it had,
        # whether to send it again once connected (see _on_redirect)
        self.asked: tuple[Intent, ClientMsg] | None = None
        self.hops = 0
        self.repeat = False

    @property
    def online(self) -> bool:
        """Whether a connection is up."""
        return self.link.online

    def saved_seat(self) -> SavedSeat | None:
        """The seat saved for this server and name."""
        return self.store.get(self.store_key)

    def tell(self, news: News) -> None:
        """Report ``news`` to the listener."""
        self._listener(news)

    def say(
        self,
        text: str,
        severity: Severity = "information",
        timeout: float = 4.0,
        table: str | None = None,
    ) -> None:
        """Tell the user ``text`` (about ``table``: not left up over another table)."""
        self.tell(Notice(text, severity, timeout, table))

    async def run(self) -> None:
        """Keep the link up and handle what comes, until cancelled (or the first
        connection fails: :class:`Failed`)."""
        await self.link.run()

    def close(self) -> None:
        """Drop the connection at once (the client is quitting)."""
        self.link.close()

    # ------------------------------------------------- the link's reports

    def link_changed(self) -> None:
        """The link went up or down, or its words changed."""
        self.tell(LinkChanged())

    def unreachable(self, why: str) -> None:
        """The first connection failed: the client gives up (an address the
        player is not shown is not named: craits-web's game server)."""
        if self.shown_address != self.address:
            why = why.replace(self.address, "the game server")
        self.tell(Failed(why))

    def connected(self, first: bool) -> None:
        """After (re)connecting: take back the seat, or watch again, or do what the
        command line asked."""
        self.privacy.welcomed(self.link.welcome)  # the server's public address, if any
        self.list_tables()
        if self.repeat and self.asked is not None:
            self.repeat = False  # a redirect brought us here: ask again (§7.4)
            self._request(*self.asked, hops=self.hops)
            return
        model = self.model
        if model is not None and model.token:
            self._resume(model.token)
        elif model is not None and model.spectator:
            again = Intent(Want.WATCH_AGAIN, model.name)
            self._request(again, self._spectate_msg(model.name))
        elif first:
            saved = self.saved_seat()
            if saved is not None and self._takes_back(saved):
                self._resume(saved["token"])
            else:
                self.begin()

    def _takes_back(self, saved: SavedSeat) -> bool:
        """Whether to take back the seat saved, at start: unless the command line
        asks to watch a table, or to sit at another."""
        start = self._start
        if start.want == Want.SPECTATE:
            return False
        return start.table is None or start.table == saved["table"]

    def begin(self) -> None:
        """Do what the command line asked: join or watch a table (once)."""
        start, self._start = self._start, IDLE
        if start.table is None:
            return
        if start.want == Want.JOIN:
            self.join(start.table)
        else:
            self.spectate(start.table)

    def received(self, message: ServerMsg) -> None:
        """Act on one message from the server. A message the client fails on is
        reported and skipped: the connection and the game go on."""
        try:
            dispatch(self, message)
        except Exception as exc:
            kind = message["type"]
            log.exception("failed on a %r message", kind)
            self.say(f"Could not show a {kind} message: {exc}", "error")

    # ------------------------------------------------------------- requests

    def send(self, message: ClientMsg) -> bool:
        """Send a message now; False (and a notice) when there is no connection."""
        if self.link.send(message):
            return True
        if not self.online:
            self.say("Not connected — wait for the connection to come back.", "warning")
        return False

    def _request(self, intent: Intent, message: ClientMsg, hops: int = 0) -> bool:
        """Send a request and remember what it is for (nothing is asked when
        offline); ``hops``: the redirects it had (§7.4)."""
        sent = self.send(message)
        if sent:
            self.intent = intent
            if message["type"] in ANSWERS:
                self.asked, self.hops = (intent, message), hops
        return sent

    def list_tables(self, offset: int = 0) -> None:
        """Ask for the list of tables from ``offset`` on, and for lobby updates."""
        message = ListTablesMsg(type=ClientMessage.LIST_TABLES, watch=True)
        if offset:
            message["offset"] = offset
        self.send(message)

    def _resume(self, token: str) -> None:
        self._request(Intent(Want.RESUME), ResumeMsg(type=ClientMessage.RESUME, token=token))

    # ---------------------------------------------------- the table shown

    def at(self, table: str | None) -> TableModel | None:
        """The model, if it is of ``table``."""
        model = self.model
        return model if model is not None and model.name == table else None

    def drop_table(self) -> None:
        """Forget the table shown: back to the lobby."""
        self.model = None
        self.tell(TableLeft())

    def forget_seat(self) -> None:
        """Forget the seat saved for this server and name."""
        self.store.drop(self.store_key)

    def seated(self, table: str, seat: int, token: str, name: str) -> None:
        """Sit at ``table`` (``joined``): a new model, and the seat saved."""
        self.model = TableModel(table, seat=seat, token=token, me=name)
        info = self.lobby.tables.get(table)
        if info is not None:
            self.model.set_info(info)
        self.model.log_intro()
        self.store.put(self.store_key, token, table, name, seat)
        self.tell(TableShown())

    def timed_out(self, model: TableModel, seat: int, lines: list[Text]) -> list[Text]:
        """The log lines of a timeout move, led by whom the server played for."""
        if seat == model.seat:
            self.say("Your turn timed out: the server played for you.", "warning", 6)
        return timeout_lines(model, seat, lines)


def timeout_lines(model: TableModel, seat: int, lines: list[Text]) -> list[Text]:
    """``lines`` (a timeout move's, in words) led by whom the server played for."""
    if seat == model.seat:
        prefix = Text("Time's up — the server played for you: ", style="bold")
    else:
        prefix = Text(f"Time's up — the server played for {model.name_of(seat)}: ")
    if lines:
        return [prefix + lines[0], *lines[1:]]
    return [prefix]


def hand_so_far(session: Session, model: TableModel, m: StateMsg) -> list[Text]:
    """A ``state``'s events in words, each timeout move led by "Time's up…" as
    its update's was (the ``state``'s ``notices``, protocol §7.1)."""
    events = m["events"]
    describer = Describer(session.style, model.name_of, model.seat)
    notices: object = m.get("notices")  # (none from a server before round 2)
    cuts = sorted(
        (n["at"], n["seat"])
        for n in (notices if isinstance(notices, list) else [])
        if n.get("kind") == NoticeKind.TIMEOUT and 0 <= n.get("at", -1) < len(events)
    )
    lines: list[Text] = []
    done = 0
    for n, (at, seat) in enumerate(cuts):
        lines += describer.update(events[done:at])
        end = cuts[n + 1][0] if n + 1 < len(cuts) else len(events)
        lines += timeout_lines(model, seat, describer.update(events[at:end]))
        done = end
    return lines + describer.update(events[done:])


# ----------------------------------------------------------- lobby messages


def _on_tables(session: Session, m: TablesMsg) -> None:
    more = session.lobby.take_page(m)
    if more is not None:
        session.list_tables(more)  # the list comes in pages: ask for the next one
    session.tell(LobbyChanged())


def _on_table_created(session: Session, m: TableCreatedMsg) -> None:
    info = m["table"]
    if "creator_token" in m:  # proves the creator for its games' records (§7.3)
        session.store.record_keys().keep(session.address, m["creator_token"], info["name"])
    session.lobby.put(info)
    session.tell(LobbyChanged())
    if session.intent == Intent(Want.CREATE, info["name"]):
        session.privacy.code_for(info["name"], m.get("code"))  # its creator's (§11.9)
        session.join(info["name"])


def _on_table_closed(session: Session, m: TableClosedMsg) -> None:
    name = m["name"]
    session.lobby.drop(name)
    session.tell(LobbyChanged())
    model = session.at(name)
    if model is None:
        return
    if session.intent == Intent(Want.CLOSE, name):
        session.intent = IDLE
        notice = f"You closed table {name}."
    elif model.creator and not model.is_creator(session.player_name):
        notice = f"{model.creator} closed table {name}."
    else:
        notice = f"Table {name} was closed."
    if model.state == TableState.PLAYING:
        notice += " The game ended unfinished (its record says abandoned)."
    session.forget_seat()
    session.say(notice)
    session.drop_table()
    session.list_tables()


# ------------------------------------------------------------ seat messages


def _on_joined(session: Session, m: JoinedMsg) -> None:
    intent, session.intent = session.intent, IDLE
    name = intent.name if intent.want == Want.JOIN and intent.name else session.player_name
    session.seated(m["table"], m["seat"], m["token"], name)


def _on_resumed(session: Session, m: ResumedMsg) -> None:
    if session.intent.want == Want.RESUME:
        session.intent = IDLE
    table = m["table"]
    model = session.at(table)
    if model is None:
        saved = session.saved_seat()
        token = saved["token"] if saved else None
        session.model = TableModel(table, seat=m["seat"], token=token, resumed=True)
        session.say(f"Back at table {table}.")
    else:
        model.seat = m["seat"]
        session.say("Connection back: you are at the table again.")
    session.tell(TableShown())


def _on_left(session: Session, m: LeftMsg) -> None:
    if session.intent.want == Want.LEAVE:
        session.intent = IDLE
    model = session.model
    if model is not None and not model.spectator:
        if model.state == TableState.PLAYING:
            session.say(
                "You left the game. It waits for you (nobody else plays at the table): "
                "press r in the lobby to go back."
                if model.on_hold
                else "You left the game. The server plays your seat; "
                "press r in the lobby to go back.",
                timeout=8,
                table=model.name,  # said in the lobby; not over the next table opened
            )
        else:
            session.forget_seat()
    session.drop_table()
    session.list_tables()


# ----------------------------------------------------------- table messages


def _on_table_info(session: Session, m: TableInfoMsg) -> None:
    info = m["table"]
    session.lobby.put(info)
    session.tell(LobbyChanged())
    model = session.at(info["name"])
    if model is None:
        return
    was_away = model.away
    model.set_info(info)
    leaving = session.intent.want == Want.LEAVE  # (marked away as it goes: told by _on_left)
    if model.away and not was_away and not leaving:
        session.say(
            "You are marked away: the game waits for you (b: I'm back)."
            if model.on_hold
            else "You are marked away: the server plays your turns for you.",
            "warning",
            8,
        )
    session.tell(TableChanged())


def _on_state(session: Session, m: StateMsg) -> None:
    name = m["table"]["name"]
    if session.intent.table == name and session.intent.want in (Want.SPECTATE, Want.WATCH_AGAIN):
        session.intent = IDLE
    model = session.at(name)
    if model is None:
        model = session.model = TableModel(name)
    was = model.phase
    model.apply_state(m)
    _keep_commitments(session, model, m["commitments"])
    if not _holds(m, "events"):  # a server from before round 2: no hand so far
        model.log_intro()
    else:
        model.restore_log(hand_so_far(session, model, m))
    model.check_hand_end(was)
    session.tell(TableShown())


def _holds(message: Mapping[str, object], key: str) -> bool:
    """Whether ``message`` holds ``key`` (a field an older server may not send)."""
    return key in message


def _on_update(session: Session, m: UpdateMsg) -> None:
    model = session.at(m["table"])
    if model is None:
        return
    was = model.phase
    model.apply_update(m)
    events = m["events"]
    if "commitments" in m:
        first = any(e["event"] == EventKind.CUT for e in events)
        _keep_commitments(session, model, m["commitments"], first)
    model.note_events(events)
    describer = Describer(session.style, model.name_of, model.seat)
    # a cut or a deal starts the hand in play's lines (a state rewrites them)
    start = next((i for i, e in enumerate(events) if e["event"] in _HAND_STARTS), None)
    before = describer.update(events if start is None else events[:start])
    after = [] if start is None else describer.update(events[start:])
    notice = m.get("notice")
    if notice is not None and notice["kind"] == NoticeKind.TIMEOUT:
        if before:
            before = session.timed_out(model, notice["seat"], before)
        else:
            after = session.timed_out(model, notice["seat"], after)
    for line in before:
        model.add_log(line)
    if start is not None:
        model.mark_hand_start()
    for line in after:
        model.add_log(line)
    model.check_hand_end(was)
    session.tell(TableChanged(new_update=True))


def _keep_commitments(
    session: Session, model: TableModel, commitments: list[Commitment], first: bool = False
) -> None:
    """Keep the shuffle commitments received for the table's game (a file per
    game, :mod:`craits.client.commitments`); ``first``: with its first update."""
    info = model.info
    game = info.get("game") if info is not None else None
    names = [p["name"] for p in model.players]
    session.commitments.received(session.address, model.name, game, names, commitments, first)


def _on_deadline(session: Session, m: DeadlineMsg) -> None:
    """The turn timer restarted without an update (this player came back)."""
    model = session.at(m["table"])
    if model is not None and m["seq"] == model.seq:
        model.set_deadline(m["deadline_ms"])
        session.tell(TableChanged())


def _on_chat(session: Session, m: ChatMsg) -> None:
    model = session.model
    if model is None or m["table"] != model.name:
        return
    model.chat.append(ChatLine(name=m["name"], seat=m["seat"], text=m["text"]))
    session.tell(TableChanged())


# ------------------------------------------------------------------- errors


def _on_error(session: Session, m: ErrorMsg) -> None:
    code = m["code"] if m["code"] in _ERROR_CODES else None
    text = m["message"]
    if code in QUIET_ERRORS:
        return
    intent = session.intent
    if code is not None and code in ENDED_BY[intent.want]:
        session.intent = IDLE
    reaction = REACTIONS.get(code) if code is not None else None
    if reaction is not None and reaction(session, intent, text):
        return
    private = privacy.REACTIONS.get(code) if code is not None else None
    if private is not None and private(session, intent.want, intent.table, text):
        return
    session.say(text, "error" if "id" not in m else "warning")


def _bad_token(session: Session, intent: Intent, text: str) -> bool:
    model = session.model
    if model is not None:
        session.say(f"Your seat at {model.name} is gone.", "warning")
    else:
        session.say("The seat saved for this server is gone.", "warning")
    session.forget_seat()
    session.drop_table()
    if model is None:
        session.begin()
    return True


def _replaced(session: Session, intent: Intent, text: str) -> bool:
    session.say("Your seat was taken back from another window.", "warning")
    if session.model is not None:
        session.model.token = None
    session.drop_table()
    return True


def _name_taken(session: Session, intent: Intent, text: str) -> bool:
    if intent.want != Want.JOIN or intent.table is None:
        return False
    session.tell(NameTaken(intent.table, text))
    return True


def _table_full(session: Session, intent: Intent, text: str) -> bool:
    # no seat for this player (a link or --table to a table whose game runs): watch?
    if intent.want != Want.JOIN or intent.table is None:
        return False
    table = intent.table
    info = session.lobby.tables.get(table)
    if info is not None and info["state"] != TableState.WAITING:
        why = f"The game at table {table} is already {info['state']}: no seat is free."
    elif info is not None:
        why = f"Table {table} is full: all {info['seats']} seats are taken."
    else:
        why = f"You cannot sit at table {table}: {text}."
    session.tell(WatchOffered(table, f"{why} Watch it instead?"))
    return True


def _no_such_table(session: Session, intent: Intent, text: str) -> bool:
    # watching again after a reconnection, but the table is gone
    model = session.at(intent.table)
    if intent.want != Want.WATCH_AGAIN or model is None or not model.spectator:
        return False
    session.drop_table()
    session.say(f"Table {intent.table} is gone (the server restarted?).", "warning")
    return True


def _not_at_table(session: Session, intent: Intent, text: str) -> bool:
    # the server no longer counts this client at the table it shows
    model = session.model
    if model is None:
        return False
    session.drop_table()
    session.say(f"You are no longer at table {model.name}.", "warning")
    session.list_tables()
    return True


def _shutdown(session: Session, intent: Intent, text: str) -> bool:
    session.say("The server is shutting down.", "warning")
    return True


def _already_at_table(session: Session, intent: Intent, text: str) -> bool:
    return intent.want == Want.RESUME  # (a resume raced a join: nothing to say)


REACTIONS: dict[ErrorCode, Callable[[Session, Intent, str], bool]] = {
    ErrorCode.BAD_TOKEN: _bad_token,
    ErrorCode.REPLACED: _replaced,
    ErrorCode.NAME_TAKEN: _name_taken,
    ErrorCode.TABLE_FULL: _table_full,
    ErrorCode.NO_SUCH_TABLE: _no_such_table,
    ErrorCode.NOT_AT_TABLE: _not_at_table,
    ErrorCode.SHUTDOWN: _shutdown,
    ErrorCode.ALREADY_AT_TABLE: _already_at_table,
}
"""What an error means beyond its words, given the intent it answered: each
reaction returns True when nothing more is to be said (else the server's words
are shown)."""


def _on_redirect(session: Session, m: RedirectMsg) -> None:
    """A cluster's node sent the last request to another node (protocol §7.4):
    connect there and ask again (the session's ``connected``), at most
    :data:`~craits.protocol.redirect.MAX_REDIRECTS` times."""
    if session.asked is None or session.hops >= MAX_REDIRECTS:
        session.say("The servers kept sending this request elsewhere; try again.", "error")
        return
    try:
        host, port = redirect_target(m)
    except (KeyError, ValueError):
        session.say(f"The server sent a bad address: {m.get('address')!r}.", "error")
        return
    session.hops += 1
    session.repeat = True
    intent, message = session.asked
    if message["type"] == ClientMessage.CREATE_TABLE:
        session.asked = (intent, {**message, "placed": True})  # created where it lands
    session.link.move(host, port)


def dispatch(session: Session, m: ServerMsg) -> None:
    """Hand a server message to its handler (the messages the client does not act
    on, ``welcome``, ``ok``, ``pong``, ``records``…, are let go)."""
    match m["type"]:
        case ServerMessage.TABLES:
            _on_tables(session, m)
        case ServerMessage.TABLE_INFO:
            _on_table_info(session, m)
        case ServerMessage.TABLE_CLOSED:
            _on_table_closed(session, m)
        case ServerMessage.TABLE_CREATED:
            _on_table_created(session, m)
        case ServerMessage.JOINED:
            _on_joined(session, m)
        case ServerMessage.RESUMED:
            _on_resumed(session, m)
        case ServerMessage.LEFT:
            _on_left(session, m)
        case ServerMessage.STATE:
            _on_state(session, m)
        case ServerMessage.UPDATE:
            _on_update(session, m)
        case ServerMessage.DEADLINE:
            _on_deadline(session, m)
        case ServerMessage.CHAT:
            _on_chat(session, m)
        case ServerMessage.ERROR:
            _on_error(session, m)
        case ServerMessage.REDIRECT:
            _on_redirect(session, m)
        case ServerMessage.INVITE:
            privacy.on_invite(session, m)
