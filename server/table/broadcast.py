"""What a table's members receive, each only what it may know, and how it is sent.

:class:`Showing` describes the table: its info as the lobby lists it
(protocol §10, §11.9), the full ``state`` a member gets on arriving (§7.1),
and its row in the journal.
:class:`UpdateFrames` encodes one moment of a game as one framed ``update``
per seat and one for spectators, sharing the encoding of what they get alike;
:class:`Broadcaster` sends those, and messages everyone at a table gets alike.
Every message about the game is built from :func:`~craits.server.engine.view`
and :func:`~craits.server.engine.event_dict_for` (through
:class:`~craits.server.engine.Moment`), so each member receives only what its
seat (or a spectator) may know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from craits.protocol import wire
from craits.protocol.types import (
    Commitment,
    ErrorMsg,
    Notice,
    ScoreSheetRow,
    ServerMsg,
    StateMsg,
    TableClosedMsg,
    TableInfo,
    View,
    WireEvent,
)
from craits.protocol.vocab import ErrorCode, ServerMessage, TableState

from ..engine import Moment, Rules, view
from .access import Access
from .clock import TurnClock
from .gamelog import GameLog
from .membership import Chat
from .ports import TableRow
from .powers import Powers
from .rematch import rematch_fields
from .seating import Seating

if TYPE_CHECKING:
    from .actor import TableConfig

_UPDATE = ServerMessage.UPDATE.value  # a plain str: packed on every move
_EVENTS_KEY = wire.pack("events")
_VIEW_KEY = wire.pack("view")


class Showing:
    """What table ``name`` shows: its info, its members' snapshots and its row
    in the journal, built from its parts.

    Args:
        name: the table's name.
        rules: its house rules.
        config: its timings (its turn timeout is shown).
        seating: its seats and spectators.
        gamelog: its game, the hand's log and the shuffle commitments.
        clock: its turn clock (the deadline, the next deal).
        chat: its chat.
        powers: its creator's powers, whose access (invite code, lock, mutes,
            bars; protocol §11.9) it shows (a restored table's is new).
        countdown: a quick-play table's countdown fields (protocol §11.13).
    """

    def __init__(
        self,
        name: str,
        rules: Rules,
        config: TableConfig,
        seating: Seating,
        gamelog: GameLog,
        clock: TurnClock,
        chat: Chat,
        powers: Powers,
        countdown: Callable[[], TableInfo],
    ) -> None:
        self.name = name
        self.rules = rules
        self.config = config
        self.seating = seating
        self.gamelog = gamelog
        self.clock = clock
        self.chat = chat
        self._powers = powers
        self._countdown = countdown

    def info(self, state: TableState, on_hold: bool) -> TableInfo:
        """The table as the lobby lists it, no cards (protocol §10), in ``state``;
        ``on_hold``: a game runs with nobody playing it (§11.4)."""
        game, creator = self.gamelog.game, self.seating.creator
        info: TableInfo = {
            "name": self.name,
            "seats": self.seating.capacity,
            "players": self.seating.players(),
            "state": state,
            "rules": self.rules.to_dict(),
            "turn_timeout_ms": round(self.config.turn_timeout * 1000),
            "spectators": len(self.seating.spectators),
            "creator": creator.name if creator is not None else None,
            "hand_number": game.hand_number if game else 0,
            "hands_in_game": self.rules.hands,
            "on_hold": on_hold,
            "may_start": self.seating.may_start(),
            "game": self.gamelog.game_id,
        }
        bank = self.config.time_bank
        if bank is not None:  # (§11.10)
            info["time_bank"] = bank.info()
        if self.config.correspondence > 0:  # (§11.11)
            info["correspondence_ms"] = round(self.config.correspondence * 1000)
        return self._privacy(info)

    def _access(self) -> Access:
        """The table's access now (protocol §11.9)."""
        return self._powers.access

    def _privacy(self, info: TableInfo) -> TableInfo:
        """``info`` with the fields of §11.9: seats taken, private, locked,
        muted seats, muted spectators, the names barred; and the seats held by
        people and how many of them are connected (§10: counts, which a
        private table's lobby entry shows too, naming nobody)."""
        access = self._access()
        seats = self.seating.seats
        info["seated"] = len(seats)
        people = [s for s in seats if s.bot is None]
        info["people"] = len(people)
        info["people_connected"] = sum(1 for s in people if s.member is not None)
        info["private"] = access.private
        info["locked"] = access.locked
        info["muted"] = [i for i, s in enumerate(seats) if s.muted]
        info["watchers_muted"] = access.watchers_muted
        info["barred"] = [b.name for b in access.bars]
        if access.rated:
            info["rated"] = True
        info.update(rematch_fields(seats))  # issue 27: the series, the rematch (§11.12)
        info.update(self._countdown())  # a quick-play table's countdown (§11.13)
        return info

    def lobby_info(self, state: TableState, on_hold: bool) -> TableInfo:
        """The table as the lobby shows it to everyone: a private table's entry
        names nobody (no players, creator or bars) and no game."""
        info = self.info(state, on_hold)
        if self._access().private:
            info["players"], info["creator"], info["barred"] = [], None, []
            info["may_start"], info["game"] = [], None
        return info

    def row(self, state: TableState, vacant_since: float | None) -> TableRow:
        """The table's row in ``state``, as the journal keeps it (seats with token
        digests only); ``vacant_since``: its abandon clock's offline count (§11.1)."""
        creator = self.seating.creator
        return TableRow(
            self.name,
            self.seating.capacity,
            self.rules.changed(),
            self.config.turn_timeout,
            creator.name if creator is not None else None,
            state,
            self.seating.rows(),
            self.gamelog.game_id,
            vacant_since,
            self._access().row(),
            self.clock.timing_row(),
        )

    def snapshot(self, seat: int | None, info: TableInfo, seq: int) -> StateMsg:
        """The full ``state`` message for ``seat`` (None: a spectator), filtered
        by the engine, with the table's ``info`` and the ``seq`` of its last update."""
        gamelog, clock = self.gamelog, self.clock
        game = gamelog.game
        state: StateMsg = {
            "type": ServerMessage.STATE,
            "table": info,
            "seat": seat,
            "view": cast(View, view(game, seat)) if game is not None else None,
            "seq": seq,
            "commitments": list(gamelog.commitments.hand),
            "deadline_ms": clock.deadline_ms(),
            "chat": list(self.chat.lines),
            "events": cast(list[WireEvent], gamelog.hands.events_for(seat)),
            "score_sheet": cast(list[ScoreSheetRow], gamelog.hands.score_sheet()),
            "notices": gamelog.hands.notices(self.seating.names()),
        }
        next_ms = clock.next_deal_ms()
        if next_ms is not None:  # between hands (protocol §7.1)
            state["next_hand_ms"] = next_ms
        clocks = clock.clocks()
        if clocks is not None:  # a time bank (§11.10)
            state["clocks"] = clocks
        return state


class UpdateFrames:
    """The framed ``update`` messages of one moment of a game, one per member:
    ``head`` (type, table, seq, deadline…) plus ``events`` and ``view`` as
    :class:`Moment` gives them to each seat (protocol §6.3).

    What every member gets alike (the head, the public part of the view, the
    events when they are all public) is encoded once; per seat only its
    hand, drawn card and legal actions (and events when they differ). Each
    frame decodes to exactly the map ``{**head, "events":
    moment.events(seat), "view": moment.view(seat)}``.
    """

    __slots__ = ("_events", "_head", "_moment", "_view")

    def __init__(self, moment: Moment, head: dict[str, Any]) -> None:
        self._moment = moment
        n, entries = wire.map_entries(wire.pack(head))
        self._head = wire.map_header(n + 2) + entries + _EVENTS_KEY
        self._view: tuple[int, bytes] | None = None
        self._events: tuple[list[dict[str, Any]], bytes] | None = None

    def frame(self, seat: int | None) -> bytes:
        """The framed update for ``seat`` (``None``: a spectator)."""
        moment = self._moment
        public = self._view
        if public is None:
            public = self._view = wire.map_entries(wire.pack(moment.public()))
        k, personal = wire.map_entries(wire.pack(moment.personal(seat)))
        view = wire.map_header(public[0] + k)
        events = moment.events(seat)
        cached = self._events
        if cached is not None and cached[0] is events:  # the list every seat shares
            packed = cached[1]
        else:
            packed = wire.pack(events)
            self._events = (events, packed)
        return wire.frame(b"".join((self._head, packed, _VIEW_KEY, view, public[1], personal)))


class Broadcaster:
    """Sends the messages of table ``table`` to its members: the seats that
    have a connection, and the spectators (as ``seating`` has them); its
    updates carry the turn's time as the table's ``clock`` has it."""

    __slots__ = ("_clock", "_seating", "table")

    def __init__(self, table: str, seating: Seating, clock: TurnClock) -> None:
        self.table = table
        self._seating = seating
        self._clock = clock

    def send_all(self, message: ServerMsg) -> None:
        """Send ``message`` to every member alike."""
        for member, _ in self._seating.members():
            member.send(message)

    def error_all(self, code: ErrorCode, message: str) -> None:
        """Send every member an ``error`` (not an answer to a request of theirs)."""
        error: ErrorMsg = {"type": ServerMessage.ERROR, "code": code, "message": message}
        self.send_all(error)

    def update(
        self,
        moment: Moment,
        seq: int,
        notice: Notice | None,
        commitments: list[Commitment],
        next_hand_ms: int | None = None,
    ) -> None:
        """Send each member the ``update`` numbered ``seq`` for ``moment``: its
        events and view, the turn's ``deadline_ms``, the ``notice`` if any (the
        server played for a seat), the shuffle ``commitments`` made since the
        last update (protocol §6.3) and, when a hand ended and the next is to
        be dealt, ``next_hand_ms`` (milliseconds until then, §7.1); at a table
        with a time bank, each seat's ``clocks`` (§11.10)."""
        clock = self._clock
        head: dict[str, Any] = {
            "type": _UPDATE,
            "table": self.table,
            "seq": seq,
            "deadline_ms": clock.deadline_ms(),
        }
        clocks = clock.clocks()
        if next_hand_ms is not None:
            head["next_hand_ms"] = next_hand_ms
        if notice:
            head["notice"] = notice
        if commitments:
            head["commitments"] = commitments
        if clocks is not None:
            head["clocks"] = clocks
        frames = UpdateFrames(moment, head)
        seating = self._seating
        for seat, s in enumerate(seating.seats):  # Seating.members(), without the list
            if s.member is not None:
                s.member.send_frame(frames.frame(seat))
        for member in seating.spectators:
            member.send_frame(frames.frame(None))

    def close(self) -> None:
        """The table closed: tell every member, and let go of each."""
        message: TableClosedMsg = {"type": ServerMessage.TABLE_CLOSED, "name": self.table}
        for member, _ in self._seating.members():
            member.send(message)
            member.detach()
