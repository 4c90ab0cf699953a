"""A table: its seats, spectators, chat, turn timer, and the game it wraps.

The table is the thin shell around the rules engine: every action goes through
:meth:`craits.server.engine.Game.apply`; every message about the game is built
from :func:`~craits.server.engine.view` and
:func:`~craits.server.engine.event_dict_for` (through
:class:`~craits.server.engine.Moment`, which shares their public parts between
members), so each member receives only what its seat (or a spectator) may know.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import sqlite3
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from craits.protocol import wire
from craits.protocol.actions import Action, action_to_wire
from craits.server import bots
from craits.server.engine import (
    Event,
    Game,
    IllegalAction,
    Moment,
    Rules,
    action_from_dict,
    event_to_dict,
    view,
)
from craits.server.engine.events import Announced, Dealt, HandEnded, IdiotCalled
from craits.server.journal import JournalError, RecordingShuffle
from craits.server.records import replay

if TYPE_CHECKING:
    from craits.server.journal import Journal, SavedTable

log = logging.getLogger("craits.server")

ACTION_CACHE = 64
"""Results remembered per seat, by action id, so a resent action is applied once."""
CHAT_HISTORY = 50
"""Chat lines kept per table and sent to newcomers."""


class Member(Protocol):
    """A connection as a table sees it: something to send messages to."""

    name: str

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for sending; never blocks. A message queued while
        journal writes are pending goes out once they are done."""

    def send_frame(self, frame: bytes) -> None:
        """:meth:`send` for a message already encoded and framed (see
        :func:`craits.protocol.wire.encode`)."""

    def discard_from(self, ticket: int) -> None:
        """Drop the queued messages that wait on journal write ``ticket`` or a
        later one (that write failed: they tell of what was not recorded)."""


class TableError(Exception):
    """A lobby or table request refused; ``code`` is the wire error code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class TablePaused(TableError):
    """The journal could not be written: the table paused."""

    def __init__(self, message: str):
        super().__init__("table_paused", message)


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


_EVENTS_KEY = wire.pack("events")
_VIEW_KEY = wire.pack("view")


def _shuffle_entries(shuffles: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [("shuffle", s) for s in shuffles]


def _commitments(shuffles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public part of shuffles: their SHA-256 commitments, never the order or salt."""
    return [{"sha256": s["sha256"]} for s in shuffles]


def token_digest(token: str) -> bytes:
    """The SHA-256 of a resume token: tokens are looked up by digest only."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


@dataclass
class Seat:
    """One seat: its player (a person or a bot) and how it is doing."""

    name: str
    token_digest: bytes | None = None
    member: Member | None = None
    bot: str | None = None
    away: bool = False
    results: OrderedDict[int, dict[str, Any]] = field(default_factory=OrderedDict)
    creator: bool = False
    """The table's creator sits here: whoever resumes the seat is the creator."""

    @property
    def connected(self) -> bool:
        """A bot is always there; a person when a connection holds the seat."""
        return self.bot is not None or self.member is not None

    def info(self, index: int) -> dict[str, Any]:
        """The public description of the seat."""
        return {
            "seat": index,
            "name": self.name,
            "connected": self.connected,
            "away": self.away,
            "bot": self.bot,
        }


@dataclass
class TableConfig:
    """Timings of a table, in seconds."""

    turn_timeout: float = 60.0
    hand_pause: float = 4.0
    bot_delay: float = 0.6
    away_delay: float = 0.3


class Table:
    """One table: seats, spectators, chat and the game (RULES.md R2) it plays.

    All methods run on the event loop thread; none blocks. Lobby requests that
    cannot be met raise :class:`TableError`.
    """

    def __init__(
        self,
        name: str,
        capacity: int,
        rules: Rules,
        config: TableConfig,
        creator: Member | None,
        on_change: Callable[[Table], None],
        register_token: Callable[[bytes, Table, int], None],
        drop_token: Callable[[bytes], None],
        journal: Journal | None = None,
    ):
        self.name = name
        self.capacity = capacity
        self.rules = rules
        self.config = config
        self.creator = creator
        self.seats: list[Seat] = []
        self.spectators: set[Member] = set()
        self.game: Game | None = None
        self.state = "waiting"  # waiting | playing | finished | stopped | paused
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_HISTORY)
        self.deadline: float | None = None
        self.seq = 0  # updates sent at this table; an action may name the one it answers
        self._timer: asyncio.TimerHandle | None = None
        self._on_change = on_change
        self._register_token = register_token
        self._drop_token = drop_token
        self._rng = RecordingShuffle()
        self.journal = journal
        self.game_id: int | None = None
        # accepted actions whose journal write is not done yet: (ticket, seat, id)
        self._in_flight: deque[tuple[int, int, int]] = deque()
        self.commitments: list[dict[str, Any]] = []  # of the hand in play (docs/records.md)
        self._new_commitments: list[dict[str, Any]] = []
        self._bot_rng = random.Random(secrets.randbits(64))
        self._loop = asyncio.get_running_loop()

    # ------------------------------------------------------------- describing

    def info(self) -> dict[str, Any]:
        """The table as the lobby lists it (no cards)."""
        game = self.game
        return {
            "name": self.name,
            "seats": self.capacity,
            "players": [s.info(i) for i, s in enumerate(self.seats)],
            "state": self.state,
            "rules": self.rules.to_dict(),
            "turn_timeout_ms": round(self.config.turn_timeout * 1000),
            "spectators": len(self.spectators),
            "creator": getattr(self.creator, "name", None),
            "hand_number": game.hand_number if game else 0,
            "hands_in_game": self.rules.hands,
            "on_hold": self.on_hold(),
            "may_start": self.may_start(),
        }

    def may_start(self) -> list[int]:
        """The seats whose players may start the game, seat bots or start a new
        game right now (protocol §11.2): the creator's seat while the creator
        is at the table; once the creator is gone, every seat a connection
        holds. Seats without a connection (bots, players gone) are never in it."""
        return [
            i for i, s in enumerate(self.seats) if s.member is not None and self.can_start(s.member)
        ]

    def on_hold(self) -> bool:
        """A game is running but no player is playing (every person's seat is
        away or disconnected): the server does not play it out alone; it waits
        until a player is back (``back`` or ``resume``)."""
        return self.state == "playing" and not any(
            s.member is not None and not s.away for s in self.seats
        )

    def _seat_of(self, member: Member) -> int | None:
        for i, s in enumerate(self.seats):
            if s.member is member:
                return i
        return None

    def _deadline_ms(self) -> int | None:
        if self.deadline is None:
            return None
        return max(0, round((self.deadline - self._loop.time()) * 1000))

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The full state message for ``seat`` (``None``: a spectator): filtered by the engine."""
        return {
            "type": "state",
            "table": self.info(),
            "seat": seat,
            "view": view(self.game, seat) if self.game is not None else None,
            "seq": self.seq,
            "commitments": list(self.commitments),
            "deadline_ms": self._deadline_ms(),
            "chat": list(self.chat),
        }

    def members(self) -> list[tuple[Member, int | None]]:
        """Every connection at the table with its seat (``None``: spectating)."""
        out: list[tuple[Member, int | None]] = [
            (s.member, i) for i, s in enumerate(self.seats) if s.member is not None
        ]
        out.extend((m, None) for m in self.spectators)
        return out

    def persist(self) -> None:
        """Write the table's row to the journal (seats with token digests only).

        Raises:
            TablePaused: the write failed; the table is paused.
        """
        if self.journal is None:
            return
        seats = [
            {
                "name": s.name,
                "token": s.token_digest.hex() if s.token_digest else None,
                "bot": s.bot,
            }
            for s in self.seats
        ]
        try:
            self.journal.save_table(
                self.name,
                self.capacity,
                self.rules.changed(),
                self.config.turn_timeout,
                getattr(self.creator, "name", None),
                self.state,
                seats,
                self.game_id,
            )
        except JournalError as exc:
            self.pause(str(exc))
            raise TablePaused(str(exc)) from None

    def _broadcast_info(self) -> None:
        if self.state != "paused":
            self.persist()
        message = {"type": "table_info", "table": self.info()}
        for member, _ in self.members():
            member.send(message)
        self._on_change(self)

    # ---------------------------------------------------------------- seating

    def join(self, member: Member, name: str) -> tuple[int, str]:
        """Seat ``member`` as ``name``; returns ``(seat, resume token)``.

        A full table starts by itself.

        Raises:
            TableError: ``table_full`` (or the game has started), ``name_taken``,
                ``table_stopped``.
        """
        if self.state in ("stopped", "paused"):
            raise TableError("table_stopped", f"table {self.name!r} was stopped")
        if self.state != "waiting":
            raise TableError(
                "table_full", f"the game is {self.state}: spectate, or resume your seat"
            )
        if len(self.seats) >= self.capacity:
            raise TableError("table_full", f"all {self.capacity} seats are taken")
        if any(s.name.casefold() == name.casefold() for s in self.seats):
            raise TableError("name_taken", f"someone at this table is called {name!r}")
        token = secrets.token_urlsafe(24)
        digest = token_digest(token)
        self.seats.append(Seat(name, digest, member, creator=member is self.creator))
        seat = len(self.seats) - 1
        self._register_token(digest, self, seat)
        log.info("table %s: %s took seat %d", self.name, name, seat)
        member.send({"type": "joined", "table": self.name, "seat": seat, "token": token})
        self._broadcast_info()
        if len(self.seats) == self.capacity:
            self.start(None)
        else:
            member.send(self.snapshot(seat))
        return seat, token

    def add_bot(self, level: str) -> int:
        """Seat a bot of ``level`` (see :mod:`craits.server.bots`); a full table starts.

        Raises:
            TableError: ``table_full``, ``bad_message`` (unknown level).
        """
        if level not in bots.LEVELS:
            raise TableError("bad_message", f"bot level must be one of {', '.join(bots.LEVELS)}")
        if self.state != "waiting" or len(self.seats) >= self.capacity:
            raise TableError("table_full", "no free seat for a bot")
        taken = {s.name for s in self.seats}
        n = 1
        while f"{level}-bot-{n}" in taken:
            n += 1
        self.seats.append(Seat(f"{level}-bot-{n}", bot=level))
        seat = len(self.seats) - 1
        log.info("table %s: a %s bot took seat %d", self.name, level, seat)
        self._broadcast_info()
        if len(self.seats) == self.capacity:
            self.start(None)
        return seat

    def spectate(self, member: Member) -> None:
        """Add ``member`` as a spectator and send it the spectator's snapshot."""
        self.spectators.add(member)
        member.send(self.snapshot(None))
        self._broadcast_info()

    def resume(self, member: Member, seat: int) -> None:
        """Give ``seat`` back to ``member`` (a resume token matched); the older
        connection, if any, is told it was replaced."""
        s = self.seats[seat]
        old = s.member
        s.member = member
        if s.creator:
            self.creator = member  # the creator, back on another connection
        s.away = False  # the player is back: its turns wait for it again
        self.spectators.discard(member)
        if old is not None and old is not member:
            old.send({"type": "error", "code": "replaced", "message": "resumed elsewhere"})
            detach = getattr(old, "detach", None)
            if detach is not None:
                detach()
        log.info("table %s: %s resumed seat %d", self.name, s.name, seat)
        if self.deadline is None or self.deadline <= self._loop.time():
            # after a restart, or a wait with nobody playing, the turn in play
            # gets a fresh timer rather than timing out the moment they are back
            self._set_deadline()
        member.send({"type": "resumed", "table": self.name, "seat": seat})
        member.send(self.snapshot(seat))
        self._broadcast_info()
        self._schedule()

    def leave(self, member: Member) -> None:
        """``member`` leaves. Before the game its seat is freed; during it the
        seat stays in the game, marked away, and can be resumed with its token."""
        if member in self.spectators:
            self.spectators.discard(member)
            self._broadcast_info()
            return
        seat = self._seat_of(member)
        if seat is None:
            return
        s = self.seats[seat]
        if self.state == "waiting":
            del self.seats[seat]
            if s.token_digest is not None:
                self._drop_token(s.token_digest)
            # Seats after it move down one: re-register their tokens, tell their players.
            for i in range(seat, len(self.seats)):
                moved = self.seats[i]
                if moved.token_digest is not None:
                    self._register_token(moved.token_digest, self, i)
                if moved.member is not None:
                    moved.member.send(self.snapshot(i))
            log.info("table %s: %s left", self.name, s.name)
        else:
            s.member = None
            s.away = True
            log.info(
                "table %s: %s left the game (seat %d played by the server)", self.name, s.name, seat
            )
        self._broadcast_info()
        self._schedule()

    def back(self, member: Member) -> None:
        """``member``'s player is back at its seat: the server stops playing for it.

        Raises:
            TableError: ``not_seated``.
        """
        seat = self._seat_of(member)
        if seat is None:
            raise TableError("not_seated", "you have no seat at this table")
        s = self.seats[seat]
        if s.away:
            s.away = False
            log.info("table %s: %s is back", self.name, s.name)
            self._set_deadline()
            self._broadcast_info()
            self._schedule()
            if self.game is not None and self.game.to_act == seat:
                member.send(
                    {
                        "type": "deadline",
                        "table": self.name,
                        "seq": self.seq,
                        "deadline_ms": self._deadline_ms(),
                    }
                )

    def disconnected(self, member: Member) -> None:
        """``member``'s connection dropped: a spectator, or a seat before the game,
        leaves; a seat in a game stays, shown disconnected, its turns covered by
        the turn timeout."""
        seat = self._seat_of(member)
        if seat is None or self.state == "waiting":
            self.leave(member)
            return
        self.seats[seat].member = None
        log.info("table %s: %s disconnected", self.name, self.seats[seat].name)
        self._broadcast_info()
        self._schedule()

    def is_empty(self) -> bool:
        """No person seated or watching (bots do not count)."""
        return not self.spectators and all(s.member is None for s in self.seats)

    # ------------------------------------------------------------------- chat

    def say(self, member: Member, text: str) -> None:
        """Send a chat line from ``member`` to everyone at the table."""
        seat = self._seat_of(member)
        line = {"name": member.name, "seat": seat, "text": text}
        self.chat.append(line)
        message = {"type": "chat", "table": self.name, **line}
        for m, _ in self.members():
            m.send(message)

    # ------------------------------------------------------------------- game

    def can_start(self, member: Member | None) -> bool:
        """Whether ``member`` may start the game: the creator, or (once the
        creator is gone) any seated player."""
        if member is None:
            return True
        if member is self.creator:
            return True
        creator_here = self.creator is not None and (
            self._seat_of(self.creator) is not None or self.creator in self.spectators
        )
        return not creator_here and self._seat_of(member) is not None

    def start(self, member: Member | None) -> None:
        """Start a game with the players seated (R2: the cut, then hand 1).

        Raises:
            TableError: ``not_creator``, ``cannot_start`` (fewer than two
                seated, or a game running), ``table_stopped``.
        """
        if self.state in ("stopped", "paused"):
            raise TableError("table_stopped", f"table {self.name!r} was stopped")
        if not self.can_start(member):
            raise TableError("not_creator", "only the table's creator may start the game")
        if self.state == "playing":
            raise TableError("cannot_start", "the game is already running")
        if len(self.seats) < 2:
            raise TableError("cannot_start", "two or more players are needed")
        self.capacity = max(self.capacity, len(self.seats))
        self._rng.take()
        game, events = Game.start(len(self.seats), self.rules, self._rng)
        shuffles = self._rng.take()
        if self.journal is not None:
            try:
                self.game_id = self.journal.start_game(
                    self.name,
                    [s.name for s in self.seats],
                    self.rules.changed(),
                    [*_shuffle_entries(shuffles), ("start", {})],
                )
            except JournalError as exc:
                self.pause(str(exc))
                raise TablePaused(str(exc)) from None
        self.game = game
        self.commitments = _commitments(shuffles)
        self._new_commitments = list(self.commitments)
        for s in self.seats:
            s.results.clear()
            s.away = False
        self.state = "playing"
        log.info(
            "table %s: game started, %d players, %s deals",
            self.name,
            len(self.seats),
            self.seats[self.game.dealer].name,
        )
        self._broadcast_info()
        self._after(events)

    def act(self, member: Member, action_id: int, action: Action, seq: int | None = None) -> None:
        """Apply ``member``'s action; reply ``ok`` or an error, and update everyone.

        An ``action_id`` already seen for this seat is answered with its first
        result and not applied again. With ``seq`` (the ``seq`` of the update
        the action answers), an action made against an older state is refused
        as ``stale``: so an action racing the turn timeout is applied only if
        the timeout did not act first.

        Raises:
            TableError: ``spectator``, ``not_seated``, ``game_not_running``.
        """
        seat = self._seat_of(member)
        if seat is None:
            if member in self.spectators:
                raise TableError("spectator", "a spectator cannot act")
            raise TableError("not_seated", "you have no seat at this table")
        s = self.seats[seat]
        cached = s.results.get(action_id)
        if cached is not None:
            member.send(cached)
            return
        game = self.game
        if game is None or self.state != "playing" or game.phase != "play":
            raise TableError("game_not_running", "no hand is being played")
        try:
            if seq is not None and seq != self.seq:
                raise TableError("stale", "the game moved on since that update")
            mine = action._replace(seat=seat)
            events = self._commit(
                lambda g: g.apply(mine),
                ("action", {"seat": seat, "id": action_id, "action": action_to_wire(mine)}),
            )
        except (IllegalAction, TableError) as exc:
            code = exc.code
            reply = {"type": "error", "id": action_id, "code": code, "message": str(exc)}
            self._remember(s, action_id, reply)
            member.send(reply)
            return
        reply = {"type": "ok", "id": action_id}
        self._remember(s, action_id, reply)
        member.send(reply)
        journal = self.journal
        if journal is not None and journal.processed < journal.submitted:
            flight = self._in_flight
            while flight and flight[0][0] <= journal.processed:
                flight.popleft()
            flight.append((journal.submitted, seat, action_id))
        if s.away:
            s.away = False
            self._broadcast_info()
        self._after(events)

    def _commit(
        self, step: Callable[[Game], list[Event]], entry: tuple[str, dict[str, Any]]
    ) -> list[Event]:
        """Validate and apply, then journal: run ``step`` on the game; if it is
        legal, write it (and the shuffles it made) to the journal. Nothing about
        it is sent before the write is done (the caller sends after this returns).

        The engine refuses an illegal step before changing anything (R4; the
        property tests hold it to that), so the game is applied in place, with no
        copy: copies made on every move were most of what the garbage collector
        had to walk. If the write fails, the game is rebuilt from what the
        journal holds, so the table shows only what was recorded.

        Raises:
            IllegalAction: the step is illegal; nothing changed.
            TablePaused: the journal write failed; the table pauses at its last
                recorded state.
        """
        game = self.game
        assert game is not None
        try:
            events = step(game)
        except IllegalAction:
            self._rng.take()
            raise
        except Exception:
            self._rng.take()
            self._reload()  # an engine error mid-step: back to the recorded state
            raise
        shuffles = self._rng.take()
        if self.journal is not None and self.game_id is not None:
            entries = [*_shuffle_entries(shuffles), entry]
            over = game.phase == "game_over" and game.result is not None
            try:
                self.journal.append(
                    self.game_id,
                    entries,
                    event_to_dict(game.result) if over and game.result is not None else None,
                )
            except JournalError as exc:
                self._reload()
                self.pause(str(exc))
                raise TablePaused(str(exc)) from None
        if any(type(e) is Dealt for e in events):
            self.commitments = []
        self._new_commitments = _commitments(shuffles)
        self.commitments.extend(self._new_commitments)
        return events

    def _reload(self) -> None:
        """Rebuild the game from the journal (after a failed write or an engine
        error); if the journal cannot be read, drop the game (the journal still
        holds it for a restart)."""
        if self.journal is None or self.game_id is None or self.game is None:
            return  # nothing to rebuild from: the caller stops the table
        try:
            self._replay(self.journal.entries(self.game_id), self.game.players)
        except (JournalError, sqlite3.Error) as exc:
            log.error("table %s: cannot rebuild the game from the journal: %s", self.name, exc)
            self.game = None

    @staticmethod
    def _remember(seat: Seat, action_id: int, reply: dict[str, Any]) -> None:
        seat.results[action_id] = reply
        if len(seat.results) > ACTION_CACHE:
            seat.results.popitem(last=False)

    def _after(self, events: list[Event], notice: dict[str, Any] | None = None) -> None:
        """Send each member its filtered events and view, then set the next timer."""
        game = self.game
        assert game is not None
        self.seq += 1
        fresh, self._new_commitments = self._new_commitments, []
        if not events or type(events[0]) not in (Announced, IdiotCalled):
            self._set_deadline()  # calls off the turn do not give the player more time
        head: dict[str, Any] = {
            "type": "update",
            "table": self.name,
            "seq": self.seq,
            "deadline_ms": self._deadline_ms(),
        }
        if notice:
            head["notice"] = notice
        if fresh:
            head["commitments"] = fresh
        frames = UpdateFrames(Moment(game, events), head)
        for member, seat in self.members():
            member.send_frame(frames.frame(seat))
        for e in events:
            if type(e) is Dealt:
                log.info("table %s: hand %d dealt", self.name, e.hand_number)
            elif type(e) is HandEnded:
                log.info(
                    "table %s: hand %d over; totals %s",
                    self.name,
                    e.hand_number,
                    ", ".join(f"{self.seats[i].name} {v}" for i, v in enumerate(e.scores)),
                )
                if e.game_over:
                    self.state = "finished"
                    log.info(
                        "table %s: game over; won by %s",
                        self.name,
                        ", ".join(self.seats[i].name for i in e.winners),
                    )
                self._broadcast_info()
        self._schedule()
        self._bots_off_turn()

    # ----------------------------------------------------------------- timing

    def _set_deadline(self) -> None:
        game = self.game
        seat = game.to_act if game is not None else None
        if seat is None or self.config.turn_timeout <= 0:
            self.deadline = None
            return
        s = self.seats[seat]
        if s.bot is None and not s.away:
            self.deadline = self._loop.time() + self.config.turn_timeout
        else:
            self.deadline = None

    def _schedule(self) -> None:
        """Set the one timer of the table: the next hand, a bot's or away seat's
        move, or the turn timeout."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        game = self.game
        if game is None or self.state != "playing":
            return
        if self.on_hold():
            return  # no player here and playing: the table waits for one to come back
        if game.phase == "hand_over":
            self._timer = self._loop.call_later(self.config.hand_pause, self._fire, self._next_hand)
            return
        seat = game.to_act
        if seat is None:
            return
        s = self.seats[seat]
        if s.bot is not None:
            self._timer = self._loop.call_later(self.config.bot_delay, self._fire, self._bot_move)
        elif s.away:
            self._timer = self._loop.call_later(
                self.config.away_delay, self._fire, self._timeout_move
            )
        elif self.deadline is not None:
            delay = max(0.0, self.deadline - self._loop.time())
            self._timer = self._loop.call_later(delay, self._fire, self._timeout_move)

    def _fire(self, fn: Callable[[], None]) -> None:
        """Run the table's main timer callback."""
        self._timer = None
        self._guard(fn)

    def _guard(self, fn: Callable[[], None]) -> None:
        """Run a timer callback; an exception stops this table only."""
        try:
            fn()
        except TablePaused:
            pass  # already paused and reported
        except Exception:
            self.stop_on_error()

    def _next_hand(self) -> None:
        game = self.game
        if game is None or game.phase != "hand_over":
            return
        self._after(self._commit(lambda g: g.next_hand(), ("next_hand", {})))

    def _bot_move(self) -> None:
        game = self.game
        if game is None or game.phase != "play":
            return
        seat = game.to_act
        assert seat is not None
        level = self.seats[seat].bot or "basic"
        choice = bots.choose(level, view(game, seat), self._bot_rng)
        if choice is None:
            return
        self._after(self._act_for(seat, choice))

    def _timeout_move(self) -> None:
        """The turn timed out (or the seat is away): the server plays for the seat."""
        game = self.game
        if game is None or game.phase != "play":
            return
        seat = game.to_act
        assert seat is not None
        s = self.seats[seat]
        choice = bots.timeout_action(view(game, seat))
        events = self._act_for(seat, choice)
        first = not s.away
        s.away = True
        log.info("table %s: played for %s (%s)", self.name, s.name, "timeout" if first else "away")
        if first:
            self._broadcast_info()
        self._after(events, {"kind": "timeout" if first else "away", "seat": seat, "name": s.name})

    def _bots_off_turn(self) -> None:
        """Bots not to act may announce or call idiot (R7), as their level decides."""
        game = self.game
        if game is None or game.phase != "play" or not game.unannounced:
            return
        for i, s in enumerate(self.seats):
            if s.bot is None or i == game.to_act:
                continue
            choice = bots.choose(s.bot, view(game, i), self._bot_rng)
            if choice is not None:
                self._loop.call_later(
                    self.config.bot_delay / 2,
                    self._guard,
                    lambda a=choice, i=i: self._bot_call(i, a),
                )

    def _bot_call(self, seat: int, data: dict[str, Any]) -> None:
        game = self.game
        if game is None or game.phase != "play":
            return
        try:
            events = self._act_for(seat, data)
        except IllegalAction:
            return  # the window closed meanwhile
        self._after(events)

    def _act_for(self, seat: int, data: dict[str, Any]) -> list[Event]:
        """Apply an action the server chose for ``seat`` (a bot, a timeout)."""
        action = action_from_dict(data, seat)
        clean = {k: v for k, v in data.items() if k != "seat"}
        return self._commit(
            lambda g: g.apply(action), ("action", {"seat": seat, "id": None, "action": clean})
        )

    # -------------------------------------------------------------- lifecycle

    def restore(self, saved: SavedTable) -> None:
        """Rebuild this table from its journal row and its game's log.

        Seats keep their names, bots and token digests, all disconnected; the
        game is replayed from the recorded shuffles and actions, so hands, stock
        order, count, scores and shuffle penalties are exactly as they were.

        Raises:
            JournalError: the log does not replay (a corrupt journal).
        """
        self.state = saved.state
        for i, s in enumerate(saved.seats):
            digest = bytes.fromhex(s["token"]) if s.get("token") else None
            self.seats.append(Seat(s["name"], digest, bot=s.get("bot")))
            if digest is not None:
                self._register_token(digest, self, i)
        if saved.game is None:
            if self.state == "playing":
                self.state = "stopped"
            return
        self.game_id = saved.game.id
        game = self._replay(saved.game.entries, len(saved.game.players))
        if game.phase == "game_over":
            self.state = "finished"

    def _replay(self, entries: list[tuple[str, dict[str, Any]]], players: int) -> Game:
        """Set the game (and the shuffle commitments of its hand) from its
        journaled log; answered action ids are remembered again.

        Raises:
            JournalError: the log does not replay (a corrupt journal).
        """
        hand_shuffles: list[dict[str, Any]] = []
        seq = 0

        def track(kind: str, data: dict[str, Any], game: Game | None, events: list[Event]) -> None:
            nonlocal hand_shuffles, seq
            if kind == "shuffle":
                hand_shuffles.append(data)
            elif kind == "next_hand":
                hand_shuffles = hand_shuffles[-1:]  # the shuffle of this deal
            elif kind == "action" and data.get("id") is not None:
                ok = {"type": "ok", "id": data["id"]}
                self._remember(self.seats[data["seat"]], data["id"], ok)
            seq += 1

        try:
            game = replay(players, self.rules, entries, track)
        except ValueError as exc:
            raise JournalError(f"table {self.name}: the journal does not replay: {exc}") from None
        game.rng = self._rng
        self.game = game
        self.seq = max(self.seq, seq)
        self.commitments = _commitments(hand_shuffles)
        return game

    def new_game(self, member: Member) -> None:
        """Start a new game at a finished table, same seats.

        Raises:
            TableError: ``not_creator``, ``cannot_start``.
        """
        if self.state != "finished":
            raise TableError("cannot_start", "the game is not over")
        self.start(member)

    def write_failed(self, ticket: int, reason: str) -> None:
        """Journal write ``ticket`` (this table's) failed: drop every message
        queued since that tells of what was not recorded, rebuild the game from
        the journal, answer the actions not recorded with ``table_paused``, and
        pause."""
        if self.state == "paused":
            return
        for member, _ in self.members():
            member.discard_from(ticket)
        self._reload()
        failed = [(seat, i) for t, seat, i in self._in_flight if t >= ticket]
        self._in_flight.clear()
        self.pause(reason)
        for seat, action_id in failed:
            reply = {
                "type": "error",
                "id": action_id,
                "code": "table_paused",
                "message": f"table {self.name!r} is paused: the server could not record the game",
            }
            s = self.seats[seat]
            s.results[action_id] = reply
            if s.member is not None:
                s.member.send(reply)

    def pause(self, reason: str) -> None:
        """The journal failed: pause the table (nothing more is played or sent
        about the game) and tell its members why."""
        log.error("table %s: paused: %s", self.name, reason)
        self.state = "paused"
        self.close_timers()
        message = {
            "type": "error",
            "code": "table_paused",
            "message": f"table {self.name!r} is paused: the server could not record the game",
        }
        for member, _ in self.members():
            member.send(message)

    def stop_on_error(self) -> None:
        """An unexpected error inside this table: stop it, report it, keep the server going."""
        log.exception("table %s: stopped by an internal error", self.name)
        self.state = "stopped"
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        message = {
            "type": "error",
            "code": "table_stopped",
            "message": f"table {self.name!r} was stopped by a server error",
        }
        for member, _ in self.members():
            member.send(message)
        self._broadcast_info()

    def close_timers(self) -> None:
        """Cancel the table's timer (server shutdown)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def close(self) -> None:
        """Close the table: drop its timer and its seats' tokens."""
        self.close_timers()
        for s in self.seats:
            if s.token_digest is not None:
                self._drop_token(s.token_digest)
        message = {"type": "table_closed", "name": self.name}
        for member, _ in self.members():
            member.send(message)
            detach = getattr(member, "detach", None)
            if detach is not None:
                detach()
        log.info("table %s: closed", self.name)
