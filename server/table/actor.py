"""A table: one small actor that plays a game (RULES.md R2) for its members.

The table holds its state and hands each job to a part, all on the event loop
thread. Its parts change what they own and answer with an
:class:`~craits.server.table.outcome.Outcome`; the table alone publishes (what
each member is sent, and when) and persists (its row in the journal):

- :class:`~craits.server.table.seating.Seating`: seats, resume tokens, spectators, the creator;
- :class:`~craits.server.table.membership.Membership`: joining, leaving, resuming, chat;
- :class:`~craits.server.table.moves.Moves`: starting a game, the players'
  actions, and the moves the server makes itself;
- :class:`~craits.server.table.powers.Powers`: the invite code, lock, bars, muting
  and the creator's requests (protocol §11.9);
- :class:`~craits.server.table.rematch.Rematch`: the rematch offered after a
  game, and the series (protocol §11.12);
- :class:`~craits.server.table.quick.BotCountdown`: a quick-play table's
  countdown, after which bots take its free seats (protocol §11.13);
- :class:`~craits.server.table.gamelog.GameLog`: the game, applied → journaled → replayed,
  with the hand's shuffle commitments (:mod:`craits.server.table.fairness`);
- :class:`~craits.server.table.clock.TurnClock`: deadlines, and when the server moves;
- :class:`~craits.server.table.clock.AbandonClock`: how long nobody has been at a
  table with a game; then the game ends as abandoned and the table closes;
- :class:`~craits.server.table.broadcast.Showing` and
  :class:`~craits.server.table.broadcast.Broadcaster`: what each member receives.

Its state is a :class:`~craits.protocol.vocab.TableState`, held by its
:class:`TableStatus` and changed only by :meth:`TableStatus.become` (protocol §11.1).
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVarTuple

from craits.protocol.types import StateMsg, TableInfo, TableInfoMsg
from craits.protocol.vocab import ErrorCode, Phase, ServerMessage, TableState

from ..engine import Game, Moment, Rules
from ..errors import JournalError, TableError, TablePaused
from .broadcast import Broadcaster, Showing
from .clock import AbandonClock, TurnClock
from .finisher import Finisher
from .gamelog import GameLog
from .membership import Chat, Membership
from .moves import Moves
from .outcome import Deadline, Outcome, Reply, Snapshot, Step, TurnDeadline
from .ports import Member, TableHost, TableJournal, TokenBook
from .powers import Powers
from .quick import BotCountdown
from .rematch import Rematch
from .seating import Seat, Seating
from .timing import TimeBank, Timekeeper

if TYPE_CHECKING:
    from ..journal.journal import SavedTable

log = logging.getLogger("craits.server")

PLAYING, WAITING, FINISHED = TableState.PLAYING, TableState.WAITING, TableState.FINISHED
STOPPED, PAUSED = TableState.STOPPED, TableState.PAUSED
_NEXT: dict[TableState, frozenset[TableState]] = {
    WAITING: frozenset(TableState),  # a new table, or one restored as the journal has it
    PLAYING: frozenset({FINISHED, STOPPED, PAUSED}),
    FINISHED: frozenset({PLAYING, STOPPED, PAUSED, WAITING}),  # WAITING: a rematch seat freed
    STOPPED: frozenset({STOPPED, PAUSED}),
    PAUSED: frozenset({PAUSED, STOPPED}),
}
"""The state changes allowed (protocol §11.1)."""
Ts = TypeVarTuple("Ts")


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


def _paused(table: str) -> str:
    """What the members of ``table`` are told when it pauses (protocol §11.1)."""
    return f"table {table!r} is paused: the server could not record the game"


@dataclass
class TableConfig:
    """Timings of a table, in seconds (``abandon_after`` 0: never abandoned;
    ``abandon_offline_after`` 0: no shorter grace than ``abandon_after``);
    ``time_bank``: its time bank in place of the turn timeout (protocol
    §11.10), or None; ``correspondence``: a correspondence game's turn time
    (its ``turn_timeout`` too; protocol §11.11), 0 for any other table;
    ``timekeeper``: the time its clocks read (None: the event loop's; tests
    give one they move)."""

    turn_timeout: float = 60.0
    hand_pause: float = 4.0
    bot_delay: float = 0.6
    away_delay: float = 0.3
    abandon_after: float = ABANDON_AFTER
    abandon_offline_after: float = ABANDON_OFFLINE_AFTER
    time_bank: TimeBank | None = None
    timekeeper: Timekeeper | None = None
    correspondence: float = 0.0


class TableStatus:
    """A table's state (protocol §11.1), changed only by :meth:`become`, and what
    it means for the table called ``name`` whose ``seats`` are given: whether
    seats may be taken, a game runs, nobody plays it (§11.4). ``halting`` is
    called when the table stops or pauses (its timers stop). ``correspondence``:
    a correspondence game's turn time (§11.11; 0: none): such a game is
    played on while its people are offline (:attr:`keeps_seats`)."""

    def __init__(
        self,
        name: str,
        seats: list[Seat],
        halting: Callable[[TableState], None],
        correspondence: float = 0.0,
    ) -> None:
        self.name = name
        self._seats = seats
        self._halting = halting
        self._state = WAITING
        self.keeps_seats = correspondence > 0

    @property
    def state(self) -> TableState:
        """The table's state (protocol §11.1)."""
        return self._state

    def become(self, state: TableState) -> None:
        """The one way the state changes.

        Raises:
            RuntimeError: protocol §11.1 draws no way from the state to ``state``.
        """
        if state not in _NEXT[self._state]:
            raise RuntimeError(f"table {self.name}: no way from {self._state} to {state}")
        self._state = state
        if state is STOPPED or state is PAUSED:
            self._halting(state)

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
        """A person holds a seat and is not away (protocol §11.4); in a
        correspondence game, a person's seat is not away, connected or not (§11.11)."""
        if self.keeps_seats:
            return any(s.bot is None and not s.away for s in self._seats)
        return any(s.member is not None and not s.away for s in self._seats)


class Table:
    """One table: seats, spectators, chat and the game it plays.

    A member's requests go to the part whose job they are, through
    :meth:`request`: ``table.request(table.membership.join, member, name)``,
    ``table.request(table.moves.act, ...)``…; the part answers with an
    :class:`~craits.server.table.outcome.Outcome`, which the table publishes.
    The table holds what its parts share (its :attr:`status`, ``seq``) and does
    what concerns it whole: describing itself (:meth:`info`, :meth:`snapshot`),
    recording its row (:meth:`persist`), restoring, pausing, stopping and
    closing. ``seats`` and ``spectators`` are the seating's own list and set.
    All on the event loop thread; nothing blocks.

    Args:
        name: the table's name.
        capacity: its number of seats.
        rules: its house rules.
        config: its timings.
        creator: the connection that creates it (None: the server's own table).
        host: the server holding it (told when its info changes).
        tokens: the book its seats' resume tokens are issued from.
        journal: where it records itself (None: a server without a journal).
    """

    def __init__(
        self,
        name: str,
        capacity: int,
        rules: Rules,
        config: TableConfig,
        creator: Member | None,
        host: TableHost,
        tokens: TokenBook,
        journal: TableJournal | None = None,
    ):
        self.name, self.rules, self.config = name, rules, config
        self.host, self.journal = host, journal
        self.seq = 0  # updates sent at this table; an action may name the one it answers
        self.seating = seating = Seating(self, capacity, creator, tokens)
        self.seats: list[Seat] = seating.seats
        self.spectators: set[Member] = seating.spectators
        self.status = status = TableStatus(name, self.seats, self._halting, config.correspondence)
        self.gamelog = gamelog = GameLog(name, rules, journal, seating.answered, self.pause)
        self.chat = Chat()
        state, game = (lambda: status.state), (lambda: gamelog.game)
        self.powers = Powers(name, seating, tokens, state, game)
        muted = lambda: self.powers.access.watchers_muted  # noqa: E731 (the access is renewed)
        self.membership = Membership(name, seating, self.chat, state, game, muted)
        self.membership.keeps_seats = status.keeps_seats  # a correspondence game (§11.11)
        self.moves = moves = Moves(
            name, config.hand_pause, seating, gamelog, state, lambda: self.seq, self.powers.readers
        )
        self.rematch = Rematch(name, seating, gamelog, moves, self.membership, state)
        self.quick = quick = BotCountdown(name, seating, self.membership, state, self.request)
        self.clock = TurnClock(
            name, config, self.seats, game, status.moving,
            lambda due: self.request(moves.due, due, reraise=False),
        )  # fmt: skip
        self.abandon_clock = AbandonClock(
            name, config, self.seats, state, status.on_hold,
            lambda reason: self.request(self.finisher.abandon, reason, reraise=False),
        )  # fmt: skip
        self.showing = Showing(
            name, rules, config, seating, gamelog, self.clock, self.chat, self.powers, quick.fields
        )
        self.broadcaster = Broadcaster(name, seating, self.clock)
        over, close = (lambda: host.game_over(self)), (lambda: host.close_table(self))
        self.finisher = Finisher(name, status, gamelog, self.rematch, over, close)

    def _halting(self, state: TableState) -> None:
        """The table stops or pauses: its timer stops (and, paused, its abandon clock:
        nothing can be recorded until a restart)."""
        self.clock.cancel()
        if state is PAUSED:
            self.abandon_clock.cancel()

    @property
    def game(self) -> Game | None:
        """The game, or None before the first."""
        return self.gamelog.game

    def close_timers(self) -> None:
        """Cancel the table's timers (server shutdown); the turn's time is
        recorded as it stands: the time the server is down is not taken."""
        self.clock.cancel()
        self.abandon_clock.cancel()
        self.clock.stop_banks()
        with contextlib.suppress(TablePaused):  # logged; it comes back as last recorded
            self._record_time()
        self.quick.cancel()

    # --------------------------------------------------- requests, published

    def request(
        self, fn: Callable[[*Ts], Outcome | None], *args: *Ts, reraise: bool = True
    ) -> None:
        """Call ``fn`` (a part's request, or a method of the table) and publish
        the outcome it answers; an unexpected exception stops this table only.

        Raises:
            TableError: with ``reraise``, a refused request (for the caller to
                answer); without, it is dropped.
        """
        try:
            outcome = fn(*args)
            if outcome is not None:
                self._apply(outcome)
                self._record_time()
        except TableError:
            if reraise:
                raise
        except Exception:
            self.stop_on_error()

    def _apply(self, outcome: Outcome) -> None:
        """Publish ``outcome``, in the order :class:`Outcome` gives."""
        if outcome.state is not None:
            self.status.become(outcome.state)
        if outcome.deadline is Deadline.RESTART:
            self.clock.set_deadline()
        elif outcome.deadline is Deadline.REFRESH:
            self.clock.refresh()
        for member, reply in outcome.tell:
            self._send(member, reply)
        for message in outcome.everyone:
            self.broadcaster.send_all(message)
        for member in outcome.let_go:
            member.detach()
        if outcome.changed:
            self.info_changed()
        if outcome.start:  # unless a person is still to answer a rematch (§11.12)
            self._apply(self.rematch.start_full())
        if outcome.step is not None:
            self.publish(outcome.step)
        if outcome.reschedule:
            self.clock.schedule()
        for member, reply in outcome.then:
            self._send(member, reply)
        if outcome.search is not None:  # played when it is done, through the part again
            search, searched = outcome.search, self.moves.searched
            self.clock.search(search, lambda a: self.request(searched, search, a, reraise=False))

    def _record_time(self) -> None:
        """The turn's time changed (a time bank, a correspondence game's deadline):
        the journal gets it, for a restart to restore (protocol §11.10, §11.11)."""
        if self.clock.dirty and not self.status.halted:
            self.persist()

    def _send(self, member: Member, reply: Reply) -> None:
        if isinstance(reply, Snapshot):
            member.send(self.snapshot(reply.seat))
        elif isinstance(reply, TurnDeadline):
            member.send(self.clock.deadline_message(self.seq))
        else:
            member.send(reply)

    def publish(self, step: Step) -> None:
        """After a step of the game: send each member its filtered events and
        view (protocol §6.3), then set the next timer. The hand's end is told to
        the lobby too, and the last hand's end finishes the game (§11.1)."""
        game = self.gamelog.game
        assert game is not None
        self.seq += 1
        clock = self.clock
        if step.deadline_extra is not None:
            clock.set_deadline(step.deadline_extra)
        fresh = self.gamelog.commitments.take_fresh()
        ended = step.ended
        pause = self.config.hand_pause if ended is not None and not ended.game_over else None
        next_ms = round(pause * 1000) if pause is not None and self.status.moving() else None
        moment = Moment(game, step.events)
        self.broadcaster.update(moment, self.seq, step.notice, fresh, next_ms)
        if ended is not None:
            if ended.game_over:  # finished, recorded with the accounts, a rematch offered
                self.finisher.finished(ended.winners)
            self.info_changed()
        clock.schedule()
        for seat, choice in self.moves.bot_calls():  # bots off their turn may call (R7)
            call = functools.partial(self.request, self.moves.bot_call, seat, choice, reraise=False)
            clock.later(self.config.bot_delay / 2, call)

    def info_changed(self) -> None:
        """The table changed: check its abandon clock, record its row (unless
        paused) and send its info to its members and the lobby's watchers."""
        self.abandon_clock.check()
        if self.status.state is not PAUSED:
            self.persist()
        message: TableInfoMsg = {"type": ServerMessage.TABLE_INFO, "table": self.info()}
        self.broadcaster.send_all(message)
        self.host.table_changed(self)

    # ------------------------------------------------------------- describing

    def info(self) -> TableInfo:
        """The table as the lobby lists it to its members, no cards (protocol §10)."""
        return self.showing.info(self.status.state, self.status.on_hold())

    def lobby_info(self) -> TableInfo:
        """The table as the lobby shows it to everyone: a private table's entry
        names nobody (protocol §11.9)."""
        return self.showing.lobby_info(self.status.state, self.status.on_hold())

    def snapshot(self, seat: int | None) -> StateMsg:
        """The full ``state`` message for ``seat`` (None: a spectator), filtered by the engine."""
        return self.showing.snapshot(seat, self.info(), self.seq)

    def persist(self) -> None:
        """Write the table's row to the journal (:meth:`Showing.row
        <craits.server.table.broadcast.Showing.row>`).

        Raises:
            TablePaused: the write failed; the table is paused.
        """
        if self.journal is None:
            return
        try:
            self.journal.save_table(self.showing.row(self.status.state, self.abandon_clock.since))
        except JournalError as exc:
            self.pause(str(exc))
            raise TablePaused(str(exc)) from None

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
        self.status.become(state)
        self.clock.restore_timing(saved.timing)
        if self.abandon_clock.restored(saved.vacant_since):
            self.persist()  # the count started now: a second restart goes on from here

    def write_failed(self, ticket: int, reason: str) -> None:
        """Journal write ``ticket`` (this table's) failed: drop every message
        queued since that tells of what was not recorded, rebuild the game from
        the journal, answer the actions not recorded with ``table_paused``, and
        pause."""
        if self.status.state is PAUSED:
            return
        for member, _ in self.seating.members():
            member.discard_from(ticket)
        self.gamelog.reload()
        failed = self.gamelog.unwritten_since(ticket)
        self.pause(reason)
        for seat, action_id in failed:
            told, reply = self.seating.unrecorded(seat, action_id, _paused(self.name))
            if told is not None:
                told.send(reply)

    def pause(self, reason: str) -> None:
        """The journal failed: pause the table (nothing more is played or sent
        about the game) and tell its members why."""
        log.error("table %s: paused: %s", self.name, reason)
        self.status.become(PAUSED)
        self.broadcaster.error_all(ErrorCode.TABLE_PAUSED, _paused(self.name))

    def stop_on_error(self) -> None:
        """An unexpected error inside this table: stop it, report it, keep the server going."""
        log.exception("table %s: stopped by an internal error", self.name)
        self.status.become(STOPPED)
        message = f"table {self.name!r} was stopped by a server error"
        self.broadcaster.error_all(ErrorCode.TABLE_STOPPED, message)
        self.info_changed()

    def close(self) -> None:
        """Close the table: drop its timers and its seats' tokens, and let its members go."""
        for cancel in (self.clock.cancel, self.abandon_clock.cancel, self.quick.cancel):
            cancel()
        self.seating.drop_tokens()
        self.broadcaster.close()
        log.info("table %s: closed", self.name)
