"""What the user asks of the server, and the answer awaited (protocol §5).

What the user asked for and the server has not answered yet is one :class:`Intent`
(join, create, resume, spectate, watch again, close, leave): the server's replies
end it, as does an error that answers it (:data:`ENDED_BY`); :class:`Requests` sends
each request with its intent, and keeps the last one a cluster may redirect (§7.4).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from craits.protocol.actions import Action, action_to_wire
from craits.protocol.redirect import ANSWERS, MAX_REDIRECTS, redirect_target
from craits.protocol.types import (
    ActionMap,
    ActMsg,
    AddBotMsg,
    BackMsg,
    ChatSendMsg,
    ClientMsg,
    CloseTableMsg,
    CreateTableMsg,
    JoinMsg,
    LeaveMsg,
    ListTablesMsg,
    NewGameMsg,
    QuickPlayMsg,
    RedirectMsg,
    RematchMsg,
    ResumeMsg,
    SpectateMsg,
    StartMsg,
)
from craits.protocol.vocab import BotLevel, ClientMessage, ErrorCode

from .model import TableList
from .news import Listener
from .place import Place
from .privacy import REQUEST_ERRORS, Privacy
from .reconnecting import Link


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
    QUICK = "quick"
    """Sent ``quick_play``: the ``joined`` that answers is the seat (protocol §11.13)."""


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
    | REQUEST_ERRORS
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
    | REQUEST_ERRORS,
    Want.WATCH_AGAIN: frozenset({ErrorCode.ALREADY_AT_TABLE, ErrorCode.NO_SUCH_TABLE})
    | REQUEST_ERRORS,
    Want.CLOSE: frozenset({ErrorCode.NOT_AT_TABLE, ErrorCode.NOT_CREATOR, ErrorCode.GAME_RUNNING}),
    Want.LEAVE: frozenset({ErrorCode.NOT_AT_TABLE}),
    Want.QUICK: _JOIN_ERRORS | {ErrorCode.BAD_RULES, ErrorCode.TOO_MANY_TABLES},
}
"""The errors that answer each request (protocol §5, "Replies and errors"): such an
error ends the intent. Other errors leave it waiting."""


class Requests:
    """What the user asks of the server at a table: sit, watch, open, leave, play,
    start, seat a bot, chat (protocol §5); each request sent with the
    :class:`Intent` it answers (:attr:`intent`).

    Args:
        link: the connection (requests go nowhere while it is down: the user is told).
        listener: told what the user must hear, and when a code is needed.
        privacy: the invite codes known.
        lobby: the tables as the lobby lists them (a private one asks for its code).
        place: the table shown, and the seat saved.
        player_name: the player's name, the seat's by default.
    """

    def __init__(
        self,
        link: Link,
        listener: Listener,
        privacy: Privacy,
        lobby: TableList,
        place: Place,
        player_name: str,
    ):
        self.link = link
        self.listener = listener
        self.privacy = privacy
        self.lobby = lobby
        self.place = place
        self.player_name = player_name
        self.intent = IDLE
        """What was asked and is not answered yet."""
        self.asked: tuple[Intent, ClientMsg] | None = None
        """The last request a cluster may redirect (§7.4), to ask again elsewhere."""
        self.hops = 0
        """The redirects :attr:`asked` had."""
        self.repeat = False
        """Whether to send :attr:`asked` again once connected (a redirect moved the link)."""
        self._next_id = int(time.time() * 1000) * 1000

    # ----------------------------------------------------------- sending

    def send(self, message: ClientMsg) -> bool:
        """Send a message now; False (and a notice) when there is no connection."""
        if self.link.send(message):
            return True
        if not self.link.online:
            text = "Not connected — wait for the connection to come back."
            self.listener.said(text, "warning", 4.0, None)
        return False

    def request(self, intent: Intent, message: ClientMsg, hops: int = 0) -> bool:
        """Send a request and remember what it is for (nothing is asked when
        offline); ``hops``: the redirects it had (§7.4)."""
        sent = self.send(message)
        if sent:
            self.intent = intent
            if message["type"] in ANSWERS:
                self.asked, self.hops = (intent, message), hops
        return sent

    # ----------------------------------------------------------- answers

    def take(self) -> Intent:
        """The intent an answer ends (it is answered: nothing is asked any more)."""
        intent, self.intent = self.intent, IDLE
        return intent

    def answer(self, *wants: Want, table: str | None = None) -> bool:
        """End the intent if it wants one of ``wants`` (at ``table``, if given);
        whether it did."""
        intent = self.intent
        if intent.want not in wants or (table is not None and intent.table != table):
            return False
        self.intent = IDLE
        return True

    def refused(self, code: ErrorCode | None) -> Intent:
        """The intent an error of ``code`` came to; ended if the error answers it
        (:data:`ENDED_BY`)."""
        intent = self.intent
        if code is not None and code in ENDED_BY[intent.want]:
            self.intent = IDLE
        return intent

    def redirected(self, m: RedirectMsg) -> None:
        """A cluster's node sent the last request to another node (protocol §7.4):
        connect there and ask again (:meth:`again`), at most
        :data:`~craits.protocol.redirect.MAX_REDIRECTS` times."""
        if self.asked is None or self.hops >= MAX_REDIRECTS:
            text = "The servers kept sending this request elsewhere; try again."
            self.listener.said(text, "error", 4.0, None)
            return
        try:
            host, port = redirect_target(m)
        except (KeyError, ValueError):
            self.listener.said(
                f"The server sent a bad address: {m.get('address')!r}.", "error", 4.0, None
            )
            return
        self.hops += 1
        self.repeat = True
        intent, message = self.asked
        if message["type"] == ClientMessage.CREATE_TABLE:
            self.asked = (intent, {**message, "placed": True})  # created where it lands
        elif message["type"] == ClientMessage.QUICK_PLAY:
            self.asked = (intent, {**message, "table": m["table"]})  # that table first (§11.13)
        self.link.move(host, port)

    def again(self) -> bool:
        """Once connected after a redirect: ask the redirected request again; whether it did."""
        if not self.repeat or self.asked is None:
            return False
        self.repeat = False
        self.request(*self.asked, hops=self.hops)
        return True

    # ---------------------------------------------------------- requests

    def list_tables(self, offset: int = 0) -> None:
        """Ask for the list of tables from ``offset`` on, and for lobby updates."""
        message = ListTablesMsg(type=ClientMessage.LIST_TABLES, watch=True)
        if offset:
            message["offset"] = offset
        self.send(message)

    def resume(self, token: str) -> None:
        """Take back the seat of ``token`` (protocol §11.7)."""
        self.request(Intent(Want.RESUME), ResumeMsg(type=ClientMessage.RESUME, token=token))

    def act(self, action: Action) -> bool:
        """Send one of the view's legal actions with the view's seq (and a new id)."""
        model = self.place.model
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
        self.request(Intent(Want.JOIN, table, name), message)

    def spectate(self, table: str, code: str | None = None) -> None:
        """Ask to watch ``table`` (with its invite ``code``, or the code known;
        asked for first, as for :meth:`join`)."""
        if not self.privacy.code_for(table, code) and self._needs_code(table, code, watch=True):
            return
        self.request(Intent(Want.SPECTATE, table), self._spectate_msg(table))

    def watch_again(self, table: str) -> None:
        """Watch ``table`` again after a reconnection."""
        self.request(Intent(Want.WATCH_AGAIN, table), self._spectate_msg(table))

    def _needs_code(self, table: str, code: str | None, watch: bool) -> bool:
        """No code to send to ``table``: when the lobby lists it as private, or
        ``code`` was refused there already, ask for one (the listener's
        ``code_needed``) rather than ask the server (issue 23: never send a
        refused code again)."""
        info = self.lobby.tables.get(table)
        if code and self.privacy.was_refused(table, code):
            why = "that invite code was refused already"
        elif info is not None and info.get("private"):
            why = "it needs its invite code"
        else:
            return False
        self.listener.code_needed(table, watch, why)
        return True

    def _spectate_msg(self, table: str) -> SpectateMsg:
        message = SpectateMsg(type=ClientMessage.SPECTATE, table=table)
        known = self.privacy.code_for(table)
        if known:
            message["code"] = known
        return message

    def create_table(self, request: CreateTableMsg) -> None:
        """Open a table and take a seat at it once created."""
        self.request(Intent(Want.CREATE, request["name"]), request)

    def rejoin(self) -> None:
        """Take back the seat saved for this server."""
        saved = self.place.saved()
        if saved:
            self.resume(saved["token"])

    def close_table(self, end_game: bool = False) -> None:
        """Close the table (its creator): everyone at it goes back to the lobby
        once the server says it is closed. During a game only with ``end_game``
        (the user said yes to ending it): the game ends, recorded as abandoned."""
        model = self.place.model
        if model is not None:
            message = CloseTableMsg(type=ClientMessage.CLOSE_TABLE)
            if end_game:
                message["end_game"] = True
            self.request(Intent(Want.CLOSE, model.name), message)

    def leave(self) -> None:
        """Leave the table: back to the lobby once the server confirms."""
        if not self.request(Intent(Want.LEAVE), LeaveMsg(type=ClientMessage.LEAVE)):
            # Offline: forget the table here; the seat can still be resumed.
            self.place.drop()

    def back(self) -> None:
        """Tell the server this player is back (it stops playing the seat)."""
        model = self.place.model
        if model is not None and model.away and self.link.online:
            self.send(BackMsg(type=ClientMessage.BACK))

    def start_game(self) -> None:
        """Start the game with the players seated."""
        self.send(StartMsg(type=ClientMessage.START))

    def new_game(self) -> bool:
        """Start a new game at a table whose game is over; False when offline."""
        return self.send(NewGameMsg(type=ClientMessage.NEW_GAME))

    def quick_play(self) -> None:
        """Be seated at the table that starts soonest, or at a new one that bots
        fill after a countdown (protocol §11.13)."""
        name = self.player_name
        message = QuickPlayMsg(type=ClientMessage.QUICK_PLAY, name=name)
        self.request(Intent(Want.QUICK, None, name), message)

    def rematch(self, accept: bool = True) -> bool:
        """Accept the rematch offered after a game (protocol §11.12); False when offline."""
        return self.send(RematchMsg(type=ClientMessage.REMATCH, accept=accept))

    def add_bot(self, level: BotLevel) -> None:
        """Seat a computer player of ``level``."""
        self.send(AddBotMsg(type=ClientMessage.ADD_BOT, level=level))

    def chat(self, text: str) -> None:
        """Say ``text`` to everyone at the table."""
        self.send(ChatSendMsg(type=ClientMessage.CHAT, text=text))
