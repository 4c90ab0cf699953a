"""A table: one small actor that plays a game (RULES.md R2) for its members.

The table holds its state and hands each job to a collaborator, all on the
event loop thread:

- :class:`~craits.server.table.seating.Seating`: seats, resume tokens, spectators, the creator;
- :class:`~craits.server.table.membership.Membership`: joining, leaving, resuming, chat;
- :class:`~craits.server.table.moves.Play`: starting a game, actions, the update after each step;
- :class:`~craits.server.table.gamelog.GameLog`: the game, applied → journaled → replayed,
  with the hand's shuffle commitments (:mod:`craits.server.table.fairness`);
- :class:`~craits.server.table.clock.TurnClock`: deadlines, timeouts, bot moves;
- :class:`~craits.server.table.clock.AbandonClock`: how long nobody has been at a
  table with a game; then the game ends as abandoned and the table closes;
- :class:`~craits.server.table.broadcast.Broadcaster`: what each member receives;
- :class:`~craits.server.table.powers.Powers`: the invite code, lock, bars, muting
  and the creator's requests (protocol §11.9);
- :class:`Chat`: the table's chat lines.

Its state is a :class:`~craits.protocol.vocab.TableState`, changed only by
:meth:`Table.become` (protocol §11.1).
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from craits.protocol.types import (
    ChatLine,
    ErrorMsg,
    Notice,
    ScoreSheetRow,
    StateMsg,
    TableInfo,
    TableInfoMsg,
    View,
    WireEvent,
)
from craits.protocol.vocab import AbandonReason, ErrorCode, Phase, ServerMessage, TableState

from ..engine import Event, Game, Rules, view
from ..errors import JournalError, TableError, TablePaused
from .broadcast import Broadcaster
from .clock import AbandonClock, TurnClock
from .fairness import RecordingShuffle
from .gamelog import GameLog
from .membership import Membership
from .moves import Play
from .ports import Lobby, Member, TableJournal
from .powers import Powers
from .seating import Seat, Seating

if TYPE_CHECKING:
    from ..journal.journal import SavedTable

log = logging.getLogger("craits.server")

CHAT_HISTORY = 50
"""Chat lines kept per table and sent to newcomers."""
PLAYING, WAITING, FINISHED = TableState.PLAYING, TableState.WAITING, TableState.FINISHED
STOPPED, PAUSED = TableState.STOPPED, TableState.PAUSED
_NEXT: dict[TableState, frozenset[TableState]] = {
    WAITING: frozenset(TableState),  # a new table, or one restored as the journal has it
    PLAYING: frozenset({FINISHED, STOPPED, PAUSED}),
    FINISHED: frozenset({PLAYING, STOPPED, PAUSED}),
    STOPPED: frozenset({STOPPED, PAUSED}),
    PAUSED: frozenset({PAUSED, STOPPED}),
}
"""The state changes allowed (protocol §11.1)."""


ABANDON_AFTER = 1800.0
"""Seconds a running game may go with nobody playing it (every person's seat
away or disconnected) before it ends as abandoned and the table closes
(protocol §11.1; ``craits-server --abandon-after``)."""
ABANDON_OFFLINE_AFTER = 600.0
"""Seconds a table with a game may go with no person connected at its seats
before the same happens: the shorter grace of a table whose people are all
gone (protocol §11.1; ``craits-server --abandon-offline-after``)."""

MIN_TURN_TIMEOUT = 10.0
"""The shortest turn timeout a table may have by default, seconds (0, no
timeout, is always allowed): a shorter one marks people away before they
can read the table (protocol §5; ``craits-server --min-turn-timeout``)."""


def check_turn_timeout(least: float, turn_timeout_ms: int | None) -> None:
    """Refuse a ``create_table.turn_timeout_ms`` shorter than ``least`` seconds,
    the server's shortest (0, no timeout, and None, the server's default, pass;
    protocol §5).

    Raises:
        TableError: ``bad_turn_timeout``.
    """
    ms = round(least * 1000)
    if turn_timeout_ms is None or turn_timeout_ms == 0 or turn_timeout_ms >= ms:
        return
    raise TableError(
        ErrorCode.BAD_TURN_TIMEOUT,
        f"turn_timeout_ms {turn_timeout_ms} is too short: the shortest turn at "
        f"this server is {least:g} s ({ms} ms); 0 means no timeout",
    )


@dataclass
class TableConfig:
    """Timings of a table, in seconds (``abandon_after`` 0: never abandoned;
    ``abandon_offline_after`` 0: no shorter grace than ``abandon_after``)."""

    turn_timeout: float = 60.0
    hand_pause: float = 4.0
    bot_delay: float = 0.6
    away_delay: float = 0.3
    abandon_after: float = ABANDON_AFTER
    abandon_offline_after: float = ABANDON_OFFLINE_AFTER


class Chat:
    """A table's chat: its last :data:`CHAT_HISTORY` lines, sent to newcomers."""

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=CHAT_HISTORY)

    def say(self, name: str, seat: int | None, text: str) -> ChatLine:
        """Keep a line from ``name`` (at ``seat``, None: a spectator); returns it."""
        line: ChatLine = {"name": name, "seat": seat, "text": text}
        self.lines.append(line)
        return line


class Table:
    """One table: seats, spectators, chat and the game it plays.

    A member's requests go to the collaborator whose job they are:
    ``table.membership.join(...)``, ``table.play.act(...)``…; the table holds
    what they share (its state, ``seq``) and does what concerns it whole:
    describing itself (:meth:`info`, :meth:`snapshot`), recording its row
    (:meth:`persist`), restoring, pausing, stopping and closing. ``seats``
    and ``spectators`` are the seating's own list and set.

    All methods run on the event loop thread; none blocks. Requests that cannot
    be met raise :class:`~craits.server.table.ports.TableError`.
    """

    def __init__(
        self,
        name: str,
        capacity: int,
        rules: Rules,
        config: TableConfig,
        creator: Member | None,
        lobby: Lobby,
        journal: TableJournal | None = None,
    ):
        self.name, self.rules, self.config = name, rules, config
        self.seating = Seating(self, capacity, creator, lobby)
        self.seats: list[Seat] = self.seating.seats
        self.spectators: set[Member] = self.seating.spectators
        self.gamelog = GameLog(name, rules, journal, self.seating.answered, self.pause)
        self.clock = TurnClock(self)
        self.abandon_clock = AbandonClock(self)
        self.broadcaster = Broadcaster(name, self.seating)
        self.chat = Chat()
        self.membership = Membership(self)
        self.play = Play(self)
        self.powers = Powers(self)  # the invite code, lock, bars, creator's requests
        self.journal = journal
        self.seq = 0  # updates sent at this table; an action may name the one it answers
        self._state = WAITING
        self.lobby = lobby

    # ------------------------------------------------------------------ state

    @property
    def state(self) -> TableState:
        """The table's state (protocol §11.1)."""
        return self._state

    def become(self, state: TableState) -> None:
        """The one way the state changes; a stopped or paused table's timer stops."""
        if state not in _NEXT[self._state]:
            raise RuntimeError(f"table {self.name}: no way from {self._state} to {state}")
        self._state = state
        if state is STOPPED or state is PAUSED:
            self.clock.cancel()
        if state is PAUSED:
            self.abandon_clock.cancel()  # nothing can be recorded until a restart

    @property
    def waiting(self) -> bool:
        """Seats can be taken; no game yet."""
        return self._state is WAITING

    @property
    def playing(self) -> bool:
        """A game is in play."""
        return self._state is PLAYING

    @property
    def halted(self) -> bool:
        """Stopped by an error or paused by the journal: nothing more is played."""
        return self._state is STOPPED or self._state is PAUSED

    @property
    def holds_game(self) -> bool:
        """A game is running or paused: the table stays, even with nobody at it."""
        return self._state is PLAYING or self._state is PAUSED

    @property
    def ended(self) -> bool:
        """The game is over, or an error stopped the table: nothing is running."""
        return self._state is FINISHED or self._state is STOPPED

    def on_hold(self) -> bool:
        """A game is running but no person is playing (every person's seat is away
        or disconnected): it waits until a player is back (protocol §11.4)."""
        return self._state is PLAYING and not self._someone_playing()

    def moving(self) -> bool:
        """A game is running and a person is playing it: its clock runs."""
        return self._state is PLAYING and self._someone_playing()

    def _someone_playing(self) -> bool:
        """A person holds a seat and is not away (protocol §11.4)."""
        return any(s.member is not None and not s.away for s in self.seats)

    # ---------------------------------------------- the collaborators' parts

    @property
    def game(self) -> Game | None:
        """The game, or None before the first."""
        return self.gamelog.game

    @game.setter
    def game(self, game: Game | None) -> None:
        self.gamelog.game = game

    @property
    def _rng(self) -> RecordingShuffle:
        """The shuffle source of the next game (tests seed it)."""
        return self.gamelog.rng

    @_rng.setter
    def _rng(self, rng: RecordingShuffle) -> None:
        self.gamelog.rng = rng

    @property
    def capacity(self) -> int:
        """The number of seats."""
        return self.seating.capacity

    @property
    def deadline(self) -> float | None:
        """When the turn in play times out (event loop time), or None."""
        return self.clock.deadline

    def close_timers(self) -> None:
        """Cancel the table's timers (server shutdown)."""
        self.clock.cancel()
        self.abandon_clock.cancel()

    def _after(self, events: list[Event], notice: Notice | None = None) -> None:
        """:meth:`Play.publish` (tests drive the table by this name)."""
        self.play.publish(events, notice)

    # ------------------------------------------------------------- describing

    def info(self) -> TableInfo:
        """The table as the lobby lists it, no cards (protocol §10)."""
        game, creator = self.gamelog.game, self.seating.creator
        info: TableInfo = {
            "name": self.name,
            "seats": self.seating.capacity,
            "players": self.seating.players(),
            "state": self._state,
            "rules": self.rules.to_dict(),
            "turn_timeout_ms": round(self.config.turn_timeout * 1000),
            "spectators": len(self.spectators),
            "creator": creator.name if creator is not None else None,
            "hand_number": game.hand_number if game else 0,
            "hands_in_game": self.rules.hands,
            "on_hold": self.on_hold(),
            "may_start": self.seating.may_start(),
            "game": self.gamelog.game_id,
        }
        return self.powers.describe(info)

    def snapshot(self, seat: int | None) -> StateMsg:
        """The full ``state`` message for ``seat`` (None: a spectator), filtered by the engine."""
        game = self.gamelog.game
        state: StateMsg = {
            "type": ServerMessage.STATE,
            "table": self.info(),
            "seat": seat,
            "view": cast(View, view(game, seat)) if game is not None else None,
            "seq": self.seq,
            "commitments": list(self.gamelog.commitments.hand),
            "deadline_ms": self.clock.deadline_ms(),
            "chat": list(self.chat.lines),
            "events": cast(list[WireEvent], self.gamelog.hands.events_for(seat)),
            "score_sheet": cast(list[ScoreSheetRow], self.gamelog.hands.score_sheet()),
            "notices": self.gamelog.hands.notices([s.name for s in self.seats]),
        }
        if self.clock.next_deal_ms() is not None:  # between hands (protocol §7.1)
            state["next_hand_ms"] = cast(int, self.clock.next_deal_ms())
        return state

    def persist(self) -> None:
        """Write the table's row to the journal (seats with token digests only).

        Raises:
            TablePaused: the write failed; the table is paused.
        """
        if self.journal is None:
            return
        creator = self.seating.creator
        try:
            self.journal.save_table(
                self.name,
                self.seating.capacity,
                self.rules.changed(),
                self.config.turn_timeout,
                creator.name if creator is not None else None,
                self._state,
                self.seating.rows(),
                self.gamelog.game_id,
                self.abandon_clock.since,
                self.powers.access.row(),
            )
        except JournalError as exc:
            self.pause(str(exc))
            raise TablePaused(str(exc)) from None

    def broadcast_info(self) -> None:
        """The table changed: check its abandon clock, record its row (unless
        paused) and send its info to its members and the lobby's watchers."""
        self.abandon_clock.check()
        if self._state is not PAUSED:
            self.persist()
        message: TableInfoMsg = {"type": ServerMessage.TABLE_INFO, "table": self.info()}
        self.broadcaster.send_all(message)
        self.lobby.table_changed(self)

    # -------------------------------------------------------------- lifecycle

    def restore(self, saved: SavedTable) -> None:
        """Rebuild this table from its journal row and its game's log.

        Seats keep their names, bots and token digests, all disconnected; the
        game is replayed from the recorded shuffles and actions, so hands, stock
        order, count, scores and shuffle penalties are exactly as they were.

        Raises:
            JournalError: the log does not replay (a corrupt journal).
        """
        self.seating.restore(saved.seats)
        self.powers.restore(saved.access)
        state = TableState(saved.state)
        if saved.game is not None:
            self.gamelog.game_id = saved.game.id
            game = self.gamelog.replay(saved.game.entries, len(saved.game.players))
            self.seq = max(self.seq, len(saved.game.entries))
            if game.phase == Phase.GAME_OVER:
                state = FINISHED
        elif state is PLAYING:
            state = STOPPED
        self.become(state)
        if self.abandon_clock.restored(saved.vacant_since):
            self.persist()  # the count started now: a second restart goes on from here

    def write_failed(self, ticket: int, reason: str) -> None:
        """Journal write ``ticket`` (this table's) failed: drop every message
        queued since that tells of what was not recorded, rebuild the game from
        the journal, answer the actions not recorded with ``table_paused``, and
        pause."""
        if self._state is PAUSED:
            return
        for member, _ in self.seating.members():
            member.discard_from(ticket)
        self.gamelog.reload()
        failed = self.gamelog.unwritten_since(ticket)
        self.pause(reason)
        for seat, action_id in failed:
            reply: ErrorMsg = {
                "type": ServerMessage.ERROR,
                "id": action_id,
                "code": ErrorCode.TABLE_PAUSED,
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
        self.become(PAUSED)
        message = f"table {self.name!r} is paused: the server could not record the game"
        self.broadcaster.error_all(ErrorCode.TABLE_PAUSED, message)

    def stop_on_error(self) -> None:
        """An unexpected error inside this table: stop it, report it, keep the server going."""
        log.exception("table %s: stopped by an internal error", self.name)
        self.become(STOPPED)
        message = f"table {self.name!r} was stopped by a server error"
        self.broadcaster.error_all(ErrorCode.TABLE_STOPPED, message)
        self.broadcast_info()

    def abandon(self, reason: AbandonReason) -> None:
        """End the game in play as abandoned, if one is running (its record is
        kept, marked with ``reason``: ``docs/records.md``), and close the
        table (protocol §11.1, §11.2).

        Raises:
            TablePaused: the journal write failed; the table is paused, not closed.
        """
        if self._state is PLAYING:
            self.gamelog.abandon(reason)
            log.info("table %s: game %s abandoned (%s)", self.name, self.gamelog.game_id, reason)
        self.lobby.close_table(self)

    def close(self) -> None:
        """Close the table: drop its timers and its seats' tokens, and let its members go."""
        self.clock.cancel()
        self.abandon_clock.cancel()
        self.seating.drop_tokens()
        self.broadcaster.close()
        log.info("table %s: closed", self.name)
