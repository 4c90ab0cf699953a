"""A table's clocks.

- :class:`TurnClock`: the turn's deadline, and the one timer that moves the
  game on without a player (protocol §11.4): the next deal after a pause, a
  bot's move, the move played for an away seat, and the turn timeout. It
  decides *when*; what is played comes from :mod:`craits.server.bots` and goes
  through the table's game log like any action.
- :class:`AbandonClock`: how long a table with a game has had no person
  connected at its seats; after the server's abandon time the game ends as
  abandoned and the table closes (protocol §11.1).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from craits.protocol.types import Notice
from craits.protocol.vocab import (
    DEFAULT_BOT_LEVEL,
    AbandonReason,
    BotLevel,
    NoticeKind,
    Phase,
    TableState,
)

from . import bots, logs
from .bots.expert.worker import default_pool
from .engine import IllegalAction, action_from_dict, view
from .interfaces import TablePaused

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("craits.server")


class TurnClock:
    """The turn clock of ``table``; all on the event loop thread.

    Attributes:
        deadline: when the turn in play times out (event loop time), or None
            (no timeout: a bot's or away seat's turn, or no turn timeout).
        next_deal: when the next hand is dealt (event loop time), between
            hands while the clock runs; else None.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.deadline: float | None = None
        self.next_deal: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()
        self._bot_rng = random.Random(secrets.randbits(64))

    # ------------------------------------------------------------- deadline

    def set_deadline(self, extra: float = 0.0) -> None:
        """Start the turn's time: a person's turn, not away, with a turn timeout;
        ``extra`` seconds more (the first turn of a hand after the first: the
        player may still be reading the last hand's summary, protocol §11.4)."""
        table = self.table
        game = table.gamelog.game
        seat = game.to_act if game is not None else None
        timeout = table.config.turn_timeout
        if seat is None or timeout <= 0:
            self.deadline = None
            return
        s = table.seats[seat]
        person = s.bot is None and not s.away
        self.deadline = self._loop.time() + timeout + extra if person else None

    def refresh(self) -> None:
        """After a restart, or a wait with nobody playing, the turn in play gets
        a fresh deadline rather than timing out the moment a player is back."""
        if self.deadline is None or self.deadline <= self._loop.time():
            self.set_deadline()

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

    # ---------------------------------------------------------------- timer

    def cancel(self) -> None:
        """Cancel the table's timer (the table stopped, or the server is shutting down)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def schedule(self) -> None:
        """Set the one timer of the table: the next hand, a bot's or away seat's
        move, or the turn timeout (none while the game is on hold)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.next_deal = None
        table = self.table
        game = table.gamelog.game
        if game is None or not table.moving():
            return  # on hold: no player here; the table waits for one to come back
        config = table.config
        if game.phase == Phase.HAND_OVER:
            self.next_deal = self._loop.time() + config.hand_pause
            self._later(config.hand_pause, self._next_hand)
            return
        seat = game.to_act
        if seat is None:
            return
        s = table.seats[seat]
        if s.bot is not None:
            self._later(config.bot_delay, self._bot_move)
        elif s.away:
            self._later(config.away_delay, self._timeout_move)
        elif self.deadline is not None:
            self._later(max(0.0, self.deadline - self._loop.time()), self._timeout_move)

    def _later(self, delay: float, fn: Callable[[], None]) -> None:
        context = logs.table_context(self.table.name)  # it logs about the table only
        self._timer = self._loop.call_later(delay, self._fire, fn, context=context)

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
            self.table.stop_on_error()

    # ---------------------------------------------------------------- moves

    def _next_hand(self) -> None:
        table = self.table
        game = table.gamelog.game
        if game is not None and game.phase == Phase.HAND_OVER:
            table.play.publish(table.gamelog.next_hand())

    def _bot_move(self) -> None:
        table = self.table
        game = table.gamelog.game
        if game is None or game.phase != Phase.PLAY:
            return
        seat = game.to_act
        assert seat is not None
        level = table.seats[seat].bot or DEFAULT_BOT_LEVEL
        if level == BotLevel.EXPERT:
            self._expert_move(seat)
            return
        choice = bots.choose(level, view(game, seat), self._bot_rng)
        if choice is not None:
            self._play_for(seat, choice)

    def _expert_move(self, seat: int) -> None:
        """Start the expert's search for ``seat`` in a worker process (never on the
        loop); its move is played when it is done, if the game has not moved on."""
        table = self.table
        game = table.gamelog.game
        assert game is not None
        v = view(game, seat)
        events = table.gamelog.hands.events_for(seat)
        seq = table.seq
        future = default_pool().decide(v, events, self._bot_rng.getrandbits(64))
        context = logs.table_context(table.name)
        future.add_done_callback(
            lambda f: self._guard(lambda: self._expert_done(seat, seq, v, f)), context=context
        )

    def _expert_done(
        self, seat: int, seq: int, v: dict[str, Any], future: asyncio.Future[int | None]
    ) -> None:
        """The expert's search for ``seat`` at update ``seq`` is done: play its choice,
        unless the game moved on meanwhile. A failed search falls back on the basic
        bot's move (logged)."""
        table = self.table
        game = table.gamelog.game
        if future.cancelled() or game is None or table.seq != seq or not table.moving():
            return
        if game.phase != Phase.PLAY or game.to_act != seat:
            return
        error = future.exception()
        if error is not None:
            log.warning("table %s: the expert's search failed (%r); basic plays", table.name, error)
            choice = bots.choose(BotLevel.BASIC, v, self._bot_rng)
        else:
            index = future.result()
            choice = None if index is None else v["legal"][index]
        if choice is not None:
            self._play_for(seat, choice)

    def _timeout_move(self) -> None:
        """The turn timed out (or the seat is away): the server plays for the seat."""
        table = self.table
        game = table.gamelog.game
        if game is None or game.phase != Phase.PLAY:
            return
        seat = game.to_act
        assert seat is not None
        self._play_for(seat, bots.timeout_action(view(game, seat)), timed_out=True)

    def _play_for(self, seat: int, choice: dict[str, Any], timed_out: bool = False) -> None:
        """The server plays ``choice`` (an action in dict form) for ``seat``: a
        bot's move, or (``timed_out``) a timeout's, which marks the seat away
        (protocol §11.4).

        Raises:
            IllegalAction: the action is illegal; nothing changed.
            TablePaused: the journal write failed.
        """
        table = self.table
        s = table.seats[seat]
        first = not s.away
        why = NoticeKind.TIMEOUT if first else NoticeKind.AWAY
        action = action_from_dict(choice, seat)
        events = table.gamelog.act(seat, action, None, why if timed_out else None)
        notice: Notice | None = None
        if timed_out:
            s.away = True
            log.info("table %s: played for %s (%s)", table.name, s.name, why)
            if first:
                table.broadcast_info()
            notice = {"kind": why, "seat": seat, "name": s.name}
        table.play.publish(events, notice)

    def bots_off_turn(self) -> None:
        """Bots not to act may announce or call idiot (R7), as their level decides."""
        table = self.table
        game = table.gamelog.game
        if game is None or game.phase != Phase.PLAY or not game.unannounced:
            return
        for i, s in enumerate(table.seats):
            if s.bot is None or i == game.to_act:
                continue
            choice = bots.choose(s.bot, view(game, i), self._bot_rng)
            if choice is not None:
                self._loop.call_later(
                    table.config.bot_delay / 2,
                    self._guard,
                    lambda a=choice, i=i: self._bot_call(i, a),
                    context=logs.table_context(table.name),
                )

    def _bot_call(self, seat: int, data: dict[str, Any]) -> None:
        table = self.table
        game = table.gamelog.game
        if game is None or game.phase != Phase.PLAY or not table.playing:
            return
        try:
            self._play_for(seat, data)
        except IllegalAction:
            return  # the window closed meanwhile


_COUNTED = frozenset({TableState.PLAYING, TableState.FINISHED, TableState.STOPPED})
"""The states in which a table with no person connected is counted as left:
it holds a game, running or over (a waiting table closes as its seats empty;
a paused one waits for a restart, its journal broken)."""


class AbandonClock:
    """The abandon clock of ``table`` (protocol §11.1); on the event loop thread.

    Two counts run, and the first to reach its time ends a running game as
    abandoned (its record kept, ``docs/records.md``) and closes the table
    (:meth:`Table.abandon <craits.server.table.Table.abandon>`):

    - *offline* (:attr:`since`): the table holds a game (running, over, or
      stopped by an error) and no person holds a seat with a connection (bots
      and spectators do not count); after ``table.config.abandon_offline_after``
      seconds (the shorter grace; 0: the same as ``abandon_after``). Its record
      says ``nobody_connected``;
    - *on hold* (:attr:`held_since`): a game runs and nobody plays it, every
      person's seat away or disconnected (protocol §11.4), someone connected
      perhaps but idle; after ``table.config.abandon_after`` seconds. Its record
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

    def __init__(self, table: Table) -> None:
        self.table = table
        self.since: float | None = None
        self.held_since: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._armed: tuple[float | None, float | None] = (None, None)
        """The counts the timer was set for: set again only when they change."""

    def vacant(self) -> bool:
        """The table holds a game and no person holds a seat with a connection."""
        table = self.table
        return table.state in _COUNTED and all(s.member is None for s in table.seats)

    def graces(self) -> tuple[float, float]:
        """Seconds of each count: offline (never more than on hold), on hold."""
        config = self.table.config
        after, offline = config.abandon_after, config.abandon_offline_after
        return (min(offline, after) if offline > 0 else after), after

    def check(self) -> None:
        """After a change of the seats or the state: start the counts, or stop them."""
        if self.table.config.abandon_after <= 0:
            self.since = self.held_since = None
            self.cancel()
            return
        now = time.time()
        if not self.vacant():
            self.since = None
        elif self.since is None:
            self.since = now
        if not self.table.on_hold():
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
        now = time.time()
        waits = [held]
        if self.since is not None:
            waits.append(min(offline, max(0.0, min(self.since, now) + offline - now)))
        if self.held_since is not None:
            waits.append(max(0.0, min(self.held_since, now) + held - now))
        return min(waits)

    def _start(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        context = logs.table_context(self.table.name)
        self._timer = loop.call_later(self.left(), self._fire, context=context)
        self._armed = (self.since, self.held_since)

    def _fire(self) -> None:
        """A count is up: end the game as abandoned and close the table; an
        error stops this table only."""
        self._timer = None
        self._armed = (None, None)
        table = self.table
        offline, held = self.graces()
        if self.vacant():
            reason, why = AbandonReason.NOBODY_CONNECTED, f"no person connected for {offline:g}s"
        elif table.on_hold():
            reason, why = AbandonReason.NOBODY_PLAYING, f"nobody playing for {held:g}s"
        else:
            return
        if self.left() > 0:  # (a count that began again since the timer was set)
            self._start()
            return
        log.info("table %s: %s: abandoned", table.name, why)
        try:
            table.abandon(reason)
        except TablePaused:
            pass  # already paused and reported; a restart brings it back
        except Exception:
            table.stop_on_error()
