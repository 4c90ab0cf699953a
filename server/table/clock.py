"""A table's clocks.

- :class:`TurnClock`: the turn's deadline, and the one timer that moves the
  game on without a player (protocol §11.4): the next deal after a pause, a
  bot's move, the move played for an away seat, and the turn timeout. It
  decides *when*, and says what is due (:class:`Due`); what is played is the
  table's moves' (:class:`~craits.server.table.moves.Moves`), through its game
  log like any action. An expert bot's move is searched in a worker process
  (:meth:`TurnClock.search`) and played when the answer comes.
- :class:`AbandonClock`: how long a table with a game has had no person
  connected at its seats; after the server's abandon time it asks the table
  to end the game as abandoned and close (protocol §11.1).

Both run on the event loop thread and log as about their table
(:func:`craits.server.ops.logs.table_context`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from enum import Enum
from typing import TYPE_CHECKING, Any

from craits.protocol.types import Clocks, DeadlineMsg
from craits.protocol.vocab import AbandonReason, Phase, ServerMessage, TableState

from ..bots.expert.worker import default_pool
from ..engine import Game
from ..ops import logs
from .outcome import Search
from .seating import Seat
from .timing import Banks, Cancellable, LoopTime, Timekeeper

if TYPE_CHECKING:
    from .actor import TableConfig

log = logging.getLogger("craits.server")


class Due(Enum):
    """What the turn clock's timer found due."""

    NEXT_HAND = "next_hand"
    """The pause between hands is over: the next hand is dealt."""
    BOT = "bot"
    """A bot's turn: it moves."""
    TIMEOUT = "timeout"
    """A person's turn timed out, or the seat is away: the server plays for it."""
    CHECKPOINT = "checkpoint"
    """A correspondence turn runs on: its time left is recorded (protocol §11.11)."""


CHECKPOINT = 600.0
"""Seconds between the records of a correspondence turn's time left while it
runs: a server that dies without stopping gives back the time it was down,
and at most this much more (protocol §11.11)."""


class TurnClock:
    """The turn clock of table ``name``; all on the event loop thread.

    It reads the table's ``seats``, ``game`` and whether the game is
    ``moving`` (a person plays it), and calls ``due`` with what is due when its
    timer fires (the table guards that call: an error stops that table only).

    Attributes:
        deadline: when the turn in play times out (event loop time), or None
            (no timeout: a bot's or away seat's turn, or no turn timeout).
        next_deal: when the next hand is dealt (event loop time), between
            hands while the clock runs; else None.
        banks: each seat's time bank, at a table that has one (protocol
            §11.10): the deadline is then when the running bank is empty.

    Its time is ``config.timekeeper``'s (the event loop's by default).
    """

    def __init__(
        self,
        name: str,
        config: TableConfig,
        seats: list[Seat],
        game: Callable[[], Game | None],
        moving: Callable[[], bool],
        due: Callable[[Due], None],
    ) -> None:
        self.name = name
        self.config = config
        self.deadline: float | None = None
        self.next_deal: float | None = None
        self._seats = seats
        self._game = game
        self._moving = moving
        self._due = due
        self._timer: Cancellable | None = None
        self._loop: Timekeeper = config.timekeeper or LoopTime()
        self.banks = Banks(config.time_bank) if config.time_bank is not None else None
        self._bank_game: Game | None = None
        """The game the banks are of: a new one fills them again."""
        self._turn_dirty = False
        """A correspondence game's deadline changed since the journal had it."""

    # ------------------------------------------------------------- deadline

    def set_deadline(self, extra: float = 0.0) -> None:
        """Start the turn's time: a person's turn, not away, with a turn timeout;
        ``extra`` seconds more (the first turn of a hand after the first: the
        player may still be reading the last hand's summary, protocol §11.4).
        At a table with a time bank, the banks run as :meth:`run_banks` says."""
        if self.banks is not None:
            self.run_banks(extra)
            return
        self._turn_dirty = self.config.correspondence > 0
        game = self._game()
        seat = game.to_act if game is not None else None
        timeout = self.config.turn_timeout
        if seat is None or timeout <= 0:
            self.deadline = None
            return
        s = self._seats[seat]
        person = s.bot is None and not s.away
        self.deadline = self._loop.time() + timeout + extra if person else None

    def refresh(self) -> None:
        """After a restart, or a wait with nobody playing, the turn in play gets
        a fresh deadline rather than timing out the moment a player is back
        (a time bank goes on from what it had)."""
        if self.banks is not None:
            self.run_banks()
            return
        if self.deadline is None or self.deadline <= self._loop.time():
            self.set_deadline()

    def deadline_message(self, seq: int) -> DeadlineMsg:
        """The ``deadline`` message of the turn in play, answering update
        ``seq`` (protocol §11.4), with the time banks if any (§11.10)."""
        deadline: DeadlineMsg = {
            "type": ServerMessage.DEADLINE,
            "table": self.name,
            "seq": seq,
            "deadline_ms": self.deadline_ms(),
        }
        clocks = self.clocks()
        if clocks is not None:
            deadline["clocks"] = clocks
        return deadline

    def deadline_ms(self) -> int | None:
        """Milliseconds left of the turn, or None."""
        if self.deadline is None:
            return None
        return max(0, round((self.deadline - self._loop.time()) * 1000))

    def next_deal_ms(self) -> int | None:
        """Milliseconds until the next hand is dealt (between hands, while the
        game is not on hold), or None."""
        if self.next_deal is None or self._timer is None:
            return None
        return max(0, round((self.next_deal - self._loop.time()) * 1000))

    def run_banks(self, extra: float = 0.0) -> None:
        """The time banks follow the game (protocol §11.10): the bank of the
        seat to act runs while it is a person's turn, not away, and the game
        is played (after ``extra`` seconds, for a hand's first turn); any other
        stops, with the increment unless the game only went on hold (a seat
        played for gets it even then: its player comes back with that much). A
        new game fills every bank. The deadline is when the running bank is empty."""
        banks = self.banks
        assert banks is not None
        game = self._game()
        now = self._loop.time()
        if game is not None and game is not self._bank_game:
            self._bank_game = game
            banks.reset(game.players)
        moving = self._moving()
        seat = game.to_act if game is not None and game.phase == Phase.PLAY else None
        if seat is not None:
            s = self._seats[seat]
            seat = seat if s.bot is None and not s.away and moving else None
        ran = banks.running
        played_for = ran is not None and self._seats[ran].away  # it ran out, or its player left
        banks.run(seat, now, extra, held=not moving and game is not None and not played_for)
        self.deadline = banks.deadline()

    def restore_timing(self, row: dict[str, Any] | None) -> None:
        """A restored table's banks, as the journal had them (none running),
        for the game just replayed; or a correspondence game's turn in play,
        with the time it had left when last recorded (protocol §11.10, §11.11)."""
        game = self._game()
        if self.banks is None:
            left = row.get("left_ms") if row else None
            if self.config.correspondence > 0:
                if left is not None and game is not None:
                    self.deadline = self._loop.time() + left / 1000
                else:
                    self.set_deadline()  # none recorded: a person's turn starts afresh
                self.schedule()  # it goes on with nobody connected: a bot's turn too (§11.11)
            return
        self._bank_game = game
        if row:
            self.banks.restore(row)
        elif game is not None:
            self.banks.reset(game.players)

    @property
    def dirty(self) -> bool:
        """The banks, or a correspondence game's deadline, changed since the
        journal had them (:meth:`timing_row`)."""
        return self._turn_dirty or (self.banks is not None and self.banks.dirty)

    def clocks(self) -> Clocks | None:
        """The banks as the wire shows them (protocol §11.10), or None (no time
        bank, or no game yet)."""
        if self.banks is None or self._bank_game is None:
            return None
        return self.banks.clocks(self._loop.time(), self._loop.wall())

    def timing_row(self) -> dict[str, Any] | None:
        """What the journal keeps of the banks now (none running; protocol
        §11.10), or of a correspondence game's turn: its turn time, the time
        left on the turn in play and its deadline on the calendar, in ms
        (§11.11); None at any other table."""
        if self.banks is not None:
            return self.banks.row(self._loop.time())
        turn = self.config.correspondence
        if turn <= 0:
            return None
        self._turn_dirty = False
        row: dict[str, Any] = {"correspondence_ms": round(turn * 1000), "left_ms": None}
        if self.deadline is not None:
            left = max(0.0, self.deadline - self._loop.time())
            row["left_ms"] = round(left * 1000)
            row["deadline_at_ms"] = round((self._loop.wall() + left) * 1000)
        return row

    def deadline_at_ms(self) -> int | None:
        """When the turn in play times out on the calendar (ms since the epoch), or None."""
        if self.deadline is None:
            return None
        return round((self._loop.wall() + self.deadline - self._loop.time()) * 1000)

    def stop_banks(self) -> None:
        """The server stops: the running bank stops now, the increment not
        added, so a restart gives the seat back the time the server was down;
        a correspondence game's time left is to be recorded as it stands."""
        if self.banks is not None:
            self.banks.stop(self._loop.time(), held=True)
        self._turn_dirty = self.config.correspondence > 0

    # ---------------------------------------------------------------- timer

    def cancel(self) -> None:
        """Cancel the table's timer (the table stopped or closed, or the server is
        shutting down): nothing of the turn's time is left to record."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._turn_dirty = False
        if self.banks is not None:
            self.banks.dirty = False

    def schedule(self) -> None:
        """Set the one timer of the table: the next hand, a bot's or away seat's
        move, or the turn timeout (none while the game is on hold)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.next_deal = None
        if self.banks is not None:
            self.run_banks()
        game = self._game()
        if game is None or not self._moving():
            return  # on hold: no player here; the table waits for one to come back
        config = self.config
        if game.phase == Phase.HAND_OVER:
            self.next_deal = self._loop.time() + config.hand_pause
            self._set(config.hand_pause, Due.NEXT_HAND)
            return
        seat = game.to_act
        if seat is None:
            return
        s = self._seats[seat]
        if s.bot is not None:
            self._set(config.bot_delay, Due.BOT)
        elif s.away:
            self._set(config.away_delay, Due.TIMEOUT)
        elif self.deadline is not None:
            left = max(0.0, self.deadline - self._loop.time())
            if config.correspondence > 0 and left > CHECKPOINT:
                self._set(CHECKPOINT, Due.CHECKPOINT)  # the time left, recorded now and then
            else:
                self._set(left, Due.TIMEOUT)

    def _set(self, delay: float, due: Due) -> None:
        context = logs.table_context(self.name)  # it logs about the table only
        self._timer = self._loop.call_later(delay, self._fire, due, context=context)

    def _fire(self, due: Due) -> None:
        """The table's timer is up: say what is due (a checkpoint: the turn's
        time left is to be recorded, and the timer is set again)."""
        self._timer = None
        if due is Due.CHECKPOINT:
            self._turn_dirty = True
            self.schedule()
        self._due(due)

    def later(self, delay: float, fn: Callable[[], None]) -> None:
        """Call ``fn`` in ``delay`` seconds, beside the main timer (a bot's call
        off its turn, R7), logging as about the table."""
        self._loop.call_later(delay, fn, context=logs.table_context(self.name))

    def search(self, search: Search, then: Callable[[asyncio.Future[int | None]], None]) -> None:
        """Start an expert bot's ``search`` in the server's worker processes (never
        on the event loop, :mod:`craits.server.bots.expert.worker`); call ``then``
        with its answer when it is done, if a person still plays the game (the
        clock runs only then), logging as about the table."""
        answer = default_pool().decide(search.view, search.events, search.seed)

        def done(answer: asyncio.Future[int | None]) -> None:
            if self._moving():
                then(answer)

        answer.add_done_callback(done, context=logs.table_context(self.name))


_COUNTED = frozenset({TableState.PLAYING, TableState.FINISHED, TableState.STOPPED})
"""The states in which a table with no person connected is counted as left:
it holds a game, running or over (a waiting table closes as its seats empty;
a paused one waits for a restart, its journal broken)."""


class AbandonClock:
    """The abandon clock of table ``name`` (protocol §11.1); on the event loop thread.

    It reads the table's ``seats``, its ``state`` and whether its game is
    ``on_hold``. Two counts run, and the first to reach its time calls
    ``abandon`` with the reason: the table ends a running game as abandoned
    (its record kept, ``docs/records.md``) and closes (:meth:`Finisher.abandon
    <craits.server.table.finisher.Finisher.abandon>`):

    - *offline* (:attr:`since`): the table holds a game (running, over, or
      stopped by an error) and no person holds a seat with a connection (bots
      and spectators do not count); after ``config.abandon_offline_after``
      seconds (the shorter grace; 0: the same as ``abandon_after``). Its record
      says ``nobody_connected``;
    - *on hold* (:attr:`held_since`): a game runs and nobody plays it, every
      person's seat away or disconnected (protocol §11.4), someone connected
      perhaps but idle; after ``config.abandon_after`` seconds. Its record
      says ``nobody_playing`` (or ``nobody_connected`` if nobody is connected by then).

    ``abandon_after`` 0: never abandoned. A person back (``resume``, ``back``,
    a move) stops the counts that no longer hold.

    The offline count survives restarts: when it started (:attr:`since`,
    wall-clock seconds since the epoch) is written with the table's row, and a
    restored table counts on from it. A table restored with no time recorded
    (its people were still there when the server stopped) counts from its
    restoration. Either way it gets the full time at most from the moment it is
    restored (a clock set back gives no more). The on-hold count is not
    written: after a restart nobody is connected, so the offline count, never
    the longer one, is what runs.

    Attributes:
        since: when the last person's connection left a seat (seconds since
            the epoch), or None while the offline count does not run.
        held_since: when the game was last left with nobody playing (seconds
            since the epoch), or None while it is played.
    """

    def __init__(
        self,
        name: str,
        config: TableConfig,
        seats: list[Seat],
        state: Callable[[], TableState],
        on_hold: Callable[[], bool],
        abandon: Callable[[AbandonReason], None],
    ) -> None:
        self.name = name
        self.config = config
        self._seats = seats
        self._state = state
        self._on_hold = on_hold
        self._abandon = abandon
        self.since: float | None = None
        self.held_since: float | None = None
        self._timer: Cancellable | None = None
        self._time: Timekeeper = config.timekeeper or LoopTime()
        self._armed: tuple[float | None, float | None] = (None, None)
        """The counts the timer was set for: set again only when they change."""

    def vacant(self) -> bool:
        """The table holds a game and no person holds a seat with a connection
        (not counted while a correspondence game runs: its people come and go, §11.11)."""
        if self.config.correspondence > 0 and self._state() is TableState.PLAYING:
            return False
        return self._state() in _COUNTED and all(s.member is None for s in self._seats)

    def graces(self) -> tuple[float, float]:
        """Seconds of each count: offline (never more than on hold), on hold (at
        a correspondence game's table, each at least its turn time: its players
        come back to a game over, or to a game nobody played, in their time, §11.11)."""
        config = self.config
        after, offline = config.abandon_after, config.abandon_offline_after
        offline = min(offline, after) if offline > 0 else after
        turn = config.correspondence
        return max(offline, turn), max(after, turn)

    def check(self) -> None:
        """After a change of the seats or the state: start the counts, or stop them."""
        if self.config.abandon_after <= 0:
            self.since = self.held_since = None
            self.cancel()
            return
        now = self._time.wall()
        if not self.vacant():
            self.since = None
        elif self.since is None:
            self.since = now
        if not self._on_hold():
            self.held_since = None
        elif self.held_since is None:
            self.held_since = now
        counts = (self.since, self.held_since)
        if counts == (None, None):
            self.cancel()
        elif self._timer is None or counts != self._armed:
            self._start()

    def restored(self, since: float | None) -> bool:
        """The table was restored from the journal, every seat disconnected:
        count on from ``since`` (the time its row holds; None: from now).
        Returns whether the count starts now (a time for the row to record)."""
        self.since = since
        self.check()
        return since is None and self.since is not None

    def cancel(self) -> None:
        """Stop the timer (the table paused or closed, or the server is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._armed = (None, None)

    def left(self) -> float:
        """Seconds until the table is abandoned: the first count to end (the
        offline count from :attr:`since`, never more than its full time from
        now; the on-hold count from :attr:`held_since`)."""
        offline, held = self.graces()
        now = self._time.wall()
        waits = [held]
        if self.since is not None:
            waits.append(min(offline, max(0.0, min(self.since, now) + offline - now)))
        if self.held_since is not None:
            waits.append(max(0.0, min(self.held_since, now) + held - now))
        return min(waits)

    def _start(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        context = logs.table_context(self.name)
        self._timer = self._time.call_later(self.left(), self._fire, context=context)
        self._armed = (self.since, self.held_since)

    def _fire(self) -> None:
        """A count is up: the game ends as abandoned and the table closes (the
        table guards the call: an error stops that table only)."""
        self._timer = None
        self._armed = (None, None)
        offline, held = self.graces()
        if self.vacant():
            reason, why = AbandonReason.NOBODY_CONNECTED, f"no person connected for {offline:g}s"
        elif self._on_hold():
            reason, why = AbandonReason.NOBODY_PLAYING, f"nobody playing for {held:g}s"
        else:
            return
        if self.left() > 0:  # (a count that began again since the timer was set)
            self._start()
            return
        log.info("table %s: %s: abandoned", self.name, why)
        self._abandon(reason)
