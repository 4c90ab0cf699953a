"""What the client does with each message from the server: the :class:`Inbox`, a
table of one handler per message type (protocol §7–§11). The handlers update the
lobby's list and the table shown, end the request a reply answers, keep what must
be kept (seats, commitments, record keys), and tell the listener what changed; an
``error`` goes to :class:`~.refusals.Refusals`, a ``redirect`` to the requests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from craits.protocol.types import (
    ChatLine,
    ChatMsg,
    Commitment,
    DeadlineMsg,
    InviteMsg,
    JoinedMsg,
    LeftMsg,
    ResumedMsg,
    ServerMsg,
    StateMsg,
    TableClosedMsg,
    TableCreatedMsg,
    TableInfoMsg,
    TablesMsg,
    UpdateMsg,
    WireEvent,
)
from craits.protocol.vocab import EventKind, NoticeKind, ServerMessage, TableState
from rich.text import Text

from .model import TableModel
from .refusals import Refusals
from .requests import Intent, Want

if TYPE_CHECKING:
    from .session import Session

_HAND_STARTS = frozenset({EventKind.CUT, EventKind.DEALT})


class Narration(Protocol):
    """Puts a table's events in words for its event log (the presentation's
    :class:`~craits.client.present.describe.Narrator`); the inbox decides when, never how."""

    def events(self, model: TableModel, events: Sequence[WireEvent]) -> list[Text]:
        """``events`` in lines of words, for ``model``'s seat (or a spectator)."""
        ...

    def timed_out(self, model: TableModel, seat: int, lines: list[Text]) -> list[Text]:
        """``lines`` (a timeout move's) led by whom the server played for."""
        ...


def _holds(message: Mapping[str, object], key: str) -> bool:
    """Whether ``message`` holds ``key`` (a field an older server may not send)."""
    return key in message


class Inbox:
    """The server's messages, each to its handler (the messages the client does not
    act on, ``welcome``, ``ok``, ``pong``, ``records``…, are let go).

    Args:
        session: the session the messages come to: its lobby, table shown,
            requests, codes and stores.
        narrator: the event log's words.
    """

    def __init__(self, session: Session, narrator: Narration):
        self.session = session
        self.narrator = narrator
        self.refusals = Refusals(session)
        handlers: dict[str, Callable[[Any], None]] = {
            ServerMessage.TABLES: self._tables,
            ServerMessage.TABLE_INFO: self._table_info,
            ServerMessage.TABLE_CLOSED: self._table_closed,
            ServerMessage.TABLE_CREATED: self._table_created,
            ServerMessage.JOINED: self._joined,
            ServerMessage.RESUMED: self._resumed,
            ServerMessage.LEFT: self._left,
            ServerMessage.STATE: self._state,
            ServerMessage.UPDATE: self._update,
            ServerMessage.DEADLINE: self._deadline,
            ServerMessage.CHAT: self._chat,
            ServerMessage.ERROR: self.refusals.take,
            ServerMessage.REDIRECT: session.requests.redirected,
            ServerMessage.INVITE: self._invite,
            ServerMessage.HINT: session.hints.take,
            ServerMessage.CHALLENGE: session.account.take_challenge,
            ServerMessage.REGISTERED: session.account.take_registered,
            ServerMessage.LOGGED_IN: session.account.take_logged_in,
            ServerMessage.PROFILE: session.account.take_profile,
            ServerMessage.LEADERBOARD: session.account.take_leaderboard,
        }
        self._handlers = handlers

    def take(self, message: ServerMsg) -> None:
        """Hand ``message`` to its handler, if the client acts on its type."""
        handler = self._handlers.get(message["type"])
        if handler is not None:
            handler(message)

    # ------------------------------------------------------------- lobby

    def _tables(self, m: TablesMsg) -> None:
        session = self.session
        more = session.lobby.take_page(m)
        if more is not None:
            session.requests.list_tables(more)  # the list comes in pages: ask for the next
        session.listener.lobby_changed()

    def _table_created(self, m: TableCreatedMsg) -> None:
        session = self.session
        info = m["table"]
        if "creator_token" in m:  # proves the creator for its games' records (§7.3)
            session.store.record_keys().keep(session.address, m["creator_token"], info["name"])
        session.lobby.put(info)
        session.listener.lobby_changed()
        if session.requests.intent == Intent(Want.CREATE, info["name"]):
            session.privacy.code_for(info["name"], m.get("code"))  # its creator's (§11.9)
            session.requests.join(info["name"])

    def _table_closed(self, m: TableClosedMsg) -> None:
        session = self.session
        name = m["name"]
        session.lobby.drop(name)
        session.listener.lobby_changed()
        model = session.place.at(name)
        if model is None:
            return
        if session.requests.answer(Want.CLOSE, table=name):
            notice = f"You closed table {name}."
        elif model.creator and not model.is_creator(session.player_name):
            notice = f"{model.creator} closed table {name}."
        else:
            notice = f"Table {name} was closed."
        if model.state == TableState.PLAYING:
            notice += " The game ended unfinished (its record says abandoned)."
        session.place.forget()
        session.say(notice)
        session.place.drop()
        session.requests.list_tables()

    def _invite(self, m: InviteMsg) -> None:
        """The server sent this client (the creator) a private table's code: keep it,
        and show the invite link the first time."""
        table, code = m["table"], m["code"]
        privacy = self.session.privacy
        privacy.codes[table] = code
        if table not in privacy.shown:
            privacy.shown.add(table)
            link = privacy.link(table)
            assert link is not None
            self.session.listener.invite_ready(table, link)

    # ------------------------------------------------------------- seats

    def _joined(self, m: JoinedMsg) -> None:
        session = self.session
        intent = session.requests.take()
        joining = intent.want in (Want.JOIN, Want.QUICK)
        name = intent.name if joining and intent.name else session.player_name
        table, seat, token = m["table"], m["seat"], m["token"]
        model = TableModel(table, seat=seat, token=token, me=name)
        info = session.lobby.tables.get(table)
        if info is not None:
            model.set_info(info)
        model.log_intro()
        session.place.save(token, table, name, seat)
        session.place.show(model)

    def _resumed(self, m: ResumedMsg) -> None:
        session = self.session
        session.requests.answer(Want.RESUME)
        table = m["table"]
        model = session.place.at(table)
        if model is None:
            saved = session.place.saved()
            token = saved["token"] if saved else None
            model = TableModel(table, seat=m["seat"], token=token, resumed=True)
            session.say(f"Back at table {table}.")
        else:
            model.seat = m["seat"]
            session.say("Connection back: you are at the table again.")
        session.place.show(model)

    def _left(self, m: LeftMsg) -> None:
        session = self.session
        session.requests.answer(Want.LEAVE)
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
                session.place.forget()
        session.place.drop()
        session.requests.list_tables()

    # ------------------------------------------------------------- table

    def _table_info(self, m: TableInfoMsg) -> None:
        session = self.session
        info = m["table"]
        session.lobby.put(info)
        session.listener.lobby_changed()
        model = session.place.at(info["name"])
        if model is None:
            return
        was_away = model.away
        model.set_info(info)
        leaving = session.requests.intent.want == Want.LEAVE  # (marked away as it goes)
        if model.away and not was_away and not leaving:
            session.say(
                "You are marked away: the game waits for you (b: I'm back)."
                if model.on_hold
                else "You are marked away: the server plays your turns for you.",
                "warning",
                8,
            )
        session.listener.table_changed(False)

    def _state(self, m: StateMsg) -> None:
        session = self.session
        name = m["table"]["name"]
        session.requests.answer(Want.SPECTATE, Want.WATCH_AGAIN, table=name)
        model = session.place.at(name)
        if model is None:
            model = TableModel(name)
        was = model.phase
        model.apply_state(m)
        self._keep_commitments(model, m["commitments"])
        if not _holds(m, "events"):  # a server from before round 2: no hand so far
            model.log_intro()
        else:
            model.restore_log(self.hand_so_far(model, m))
        model.check_hand_end(was)
        session.place.show(model)

    def hand_so_far(self, model: TableModel, m: StateMsg) -> list[Text]:
        """A ``state``'s events in words, each timeout move led by "Time's up…" as
        its update's was (the ``state``'s ``notices``, protocol §7.1)."""
        events = m["events"]
        narrator = self.narrator
        notices: object = m.get("notices")  # (none from a server before round 2)
        cuts = sorted(
            (n["at"], n["seat"])
            for n in (notices if isinstance(notices, list) else [])
            if n.get("kind") == NoticeKind.TIMEOUT and 0 <= n.get("at", -1) < len(events)
        )
        lines: list[Text] = []
        done = 0
        for n, (at, seat) in enumerate(cuts):
            lines += narrator.events(model, events[done:at])
            end = cuts[n + 1][0] if n + 1 < len(cuts) else len(events)
            lines += narrator.timed_out(model, seat, narrator.events(model, events[at:end]))
            done = end
        return lines + narrator.events(model, events[done:])

    def _update(self, m: UpdateMsg) -> None:
        model = self.session.place.at(m["table"])
        if model is None:
            return
        was = model.phase
        model.apply_update(m)
        events = m["events"]
        if "commitments" in m:
            first = any(e["event"] == EventKind.CUT for e in events)
            self._keep_commitments(model, m["commitments"], first)
        model.note_events(events)
        narrator = self.narrator
        # a cut or a deal starts the hand in play's lines (a state rewrites them)
        start = next((i for i, e in enumerate(events) if e["event"] in _HAND_STARTS), None)
        before = narrator.events(model, events if start is None else events[:start])
        after = [] if start is None else narrator.events(model, events[start:])
        notice = m.get("notice")
        if notice is not None and notice["kind"] == NoticeKind.TIMEOUT:
            if before:
                before = self._timed_out(model, notice["seat"], before)
            else:
                after = self._timed_out(model, notice["seat"], after)
        for line in before:
            model.log.add(line)
        if start is not None:
            model.log.mark_hand_start()
        for line in after:
            model.log.add(line)
        model.check_hand_end(was)
        self.session.listener.table_changed(True)

    def _timed_out(self, model: TableModel, seat: int, lines: list[Text]) -> list[Text]:
        """The log lines of a timeout move, led by whom the server played for."""
        if seat == model.seat:
            self.session.say("Your turn timed out: the server played for you.", "warning", 6)
        return self.narrator.timed_out(model, seat, lines)

    def _keep_commitments(
        self, model: TableModel, commitments: list[Commitment], first: bool = False
    ) -> None:
        """Keep the shuffle commitments received for the table's game (a file per
        game, :mod:`craits.client.core.saved.commitments`); ``first``: with its
        first update."""
        info = model.info
        game = info.get("game") if info is not None else None
        names = [p["name"] for p in model.players]
        session = self.session
        session.commitments.received(session.address, model.name, game, names, commitments, first)

    def _deadline(self, m: DeadlineMsg) -> None:
        """The turn timer restarted without an update (this player came back)."""
        model = self.session.place.at(m["table"])
        if model is not None and m["seq"] == model.seq:
            model.set_deadline(m["deadline_ms"])
            self.session.listener.table_changed(False)

    def _chat(self, m: ChatMsg) -> None:
        model = self.session.model
        if model is None or m["table"] != model.name:
            return
        model.chat.append(ChatLine(name=m["name"], seat=m["seat"], text=m["text"]))
        self.session.listener.table_changed(False)
