"""A table's time controls beside the fixed turn timeout: the time bank
(chess-clock style; protocol §11.10), and the time the table's clocks read.

- :class:`TimeBank`: the table's option, a bank of time for the game plus an
  increment per turn, checked against the server's ranges (:func:`check_time_bank`).
- :class:`Banks`: each seat's bank during a game: which one runs, what is
  left, and what the journal keeps of them (a restart restores them exactly).
- :class:`Timekeeper`: what the clocks of a table read and set timers on
  (:class:`LoopTime`, the event loop's, by default; tests pass one they move).

Nothing here sends, records or starts a timer of its own: the turn clock
(:class:`~craits.server.table.clock.TurnClock`) runs the banks, the table
(:class:`~craits.server.table.actor.Table`) records them.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from craits.protocol.types import Clocks, TimeBankInfo
from craits.protocol.vocab import ErrorCode

from ..errors import TableError

MIN_BANK_MS = 30_000
"""The smallest bank a table may give each seat for the game: 30 s."""
MAX_BANK_MS = 7_200_000
"""The largest: two hours."""
MAX_INCREMENT_MS = 60_000
"""The largest increment per turn: one minute (0: none)."""


MIN_CORRESPONDENCE_MS = 3_600_000
"""The shortest turn of a correspondence game: one hour (protocol §11.11)."""
MAX_CORRESPONDENCE = 3 * 86_400.0
"""The longest by default, seconds: three days (``craits-server
--max-correspondence-turn``)."""


class Cancellable(Protocol):
    """A timer set on a :class:`Timekeeper`."""

    def cancel(self) -> None:
        """The timer does not fire."""


class Timekeeper(Protocol):
    """The time a table's clocks read, and where they set their timers.

    ``time()`` runs on like the event loop's (seconds, never back), ``wall()``
    is the calendar's (seconds since the epoch): deadlines are kept on the
    first and written to the journal on the second.
    """

    def time(self) -> float:
        """Now, in seconds of a clock that never goes back."""
        ...

    def wall(self) -> float:
        """Now, in seconds since the epoch (UTC)."""
        ...

    def call_later(
        self,
        delay: float,
        callback: Callable[..., object],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> Cancellable:
        """Call ``callback(*args)`` in ``delay`` seconds (in ``context``)."""
        ...


class LoopTime:
    """The running event loop's time and timers, and the system's calendar
    (the loop is found when first needed: a table may be made before it runs)."""

    def __init__(self) -> None:
        self._found: asyncio.AbstractEventLoop | None = None

    @property
    def _loop(self) -> asyncio.AbstractEventLoop:
        if self._found is None:
            self._found = asyncio.get_running_loop()
        return self._found

    def time(self) -> float:
        """The loop's monotonic time, seconds."""
        return self._loop.time()

    def wall(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    def call_later(
        self,
        delay: float,
        callback: Callable[..., object],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> Cancellable:
        """The loop's ``call_later``."""
        return self._loop.call_later(delay, callback, *args, context=context)


@dataclass(frozen=True, slots=True)
class TimeBank:
    """A table's time bank (protocol §11.10): each seat has ``bank`` seconds for
    the game, and ``increment`` seconds more after each of its turns."""

    bank: float
    increment: float

    def info(self) -> TimeBankInfo:
        """As the table info shows it (protocol §10): milliseconds."""
        return {"bank_ms": round(self.bank * 1000), "increment_ms": round(self.increment * 1000)}

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> TimeBank | None:
        """From :meth:`info`'s form (the journal's), or None (a row without a
        time bank: none, or a correspondence game's)."""
        if not data or "bank_ms" not in data:
            return None
        return cls(data["bank_ms"] / 1000, data["increment_ms"] / 1000)


def check_time_bank(asked: TimeBankInfo | None, turn_timeout_ms: int | None) -> TimeBank | None:
    """The time bank ``create_table.time_bank`` asks for (None: none), its
    ranges checked; a table has it instead of a fixed turn timeout, so
    ``turn_timeout_ms`` may not come with it (protocol §5, §11.10).

    Raises:
        TableError: ``bad_time_control``, saying the ranges.
    """
    if asked is None:
        return None
    if turn_timeout_ms is not None:
        raise TableError(
            ErrorCode.BAD_TIME_CONTROL,
            "time_bank replaces turn_timeout_ms: send one or the other",
        )
    bank, increment = asked["bank_ms"], asked["increment_ms"]
    if not MIN_BANK_MS <= bank <= MAX_BANK_MS:
        raise TableError(
            ErrorCode.BAD_TIME_CONTROL,
            f"time_bank.bank_ms {bank} is out of range: "
            f"{MIN_BANK_MS}..{MAX_BANK_MS} ms (30 s to 2 hours)",
        )
    if not 0 <= increment <= MAX_INCREMENT_MS:
        raise TableError(
            ErrorCode.BAD_TIME_CONTROL,
            f"time_bank.increment_ms {increment} is out of range: 0..{MAX_INCREMENT_MS} ms",
        )
    return TimeBank(bank / 1000, increment / 1000)


class Banks:
    """Each seat's bank in the game in play (protocol §11.10); times in seconds
    of a :class:`Timekeeper`'s ``time()``.

    One bank at most runs: the seat to act's, while it is a person's turn, not
    away, and the game is played (not on hold). When it stops, the time it
    ran is taken from it (never below 0) and, unless the game was only put on
    hold (or the server stopped), the increment is added: at the end of each
    turn, and when the server played for the seat because its bank was empty.

    Attributes:
        left: seconds left in each seat's bank when it last stopped (the
            running one's, when it started).
        running: the seat whose bank runs, or None.
        started: when the running bank started (or starts: the pause before
            a hand's first turn is not taken from it).
        dirty: the banks changed since the journal last had them.
    """

    def __init__(self, bank: TimeBank) -> None:
        self.bank = bank
        self.left: list[float] = []
        self.running: int | None = None
        self.started = 0.0
        self.dirty = False

    def reset(self, seats: int) -> None:
        """A new game of ``seats`` players: every bank full, none running."""
        self.left = [self.bank.bank] * seats
        self.running = None
        self.dirty = True

    def time_left(self, seat: int, now: float) -> float:
        """Seconds left in ``seat``'s bank at ``now``."""
        left = self.left[seat]
        if seat == self.running:
            left -= max(0.0, now - self.started)
        return max(0.0, left)

    def run(self, seat: int | None, now: float, extra: float = 0.0, held: bool = False) -> None:
        """From ``now`` ``seat``'s bank runs (None: none), after ``extra``
        seconds; a bank that ran stops (with the increment unless ``held``:
        the game waits for its players, or the server stops). The running seat
        named again goes on, its time running."""
        if seat == self.running:
            return
        if self.running is not None:
            self.stop(now, held)
        if seat is not None and seat < len(self.left):
            self.running, self.started = seat, now + extra
            self.dirty = True

    def stop(self, now: float, held: bool = False) -> None:
        """The running bank stops at ``now`` (see :meth:`run`)."""
        seat = self.running
        if seat is None:
            return
        left = self.time_left(seat, now)
        self.left[seat] = left if held else left + self.bank.increment
        self.running = None
        self.dirty = True

    def deadline(self) -> float | None:
        """When the running bank is empty, or None."""
        if self.running is None:
            return None
        return self.started + self.left[self.running]

    def clocks(self, now: float, wall: float) -> Clocks:
        """The banks as the wire shows them (protocol §11.10): each seat's time
        left at ``wall`` (the server's calendar, milliseconds), and whose runs."""
        return {
            "at_ms": round(wall * 1000),
            "left_ms": [round(self.time_left(s, now) * 1000) for s in range(len(self.left))],
            "running": self.running,
        }

    def row(self, now: float) -> dict[str, Any]:
        """What the journal keeps (``docs/records.md``): the option, and each
        seat's time left at ``now``; no bank runs after a restart until a
        player is back, so none is recorded as running."""
        self.dirty = False
        return {
            **self.bank.info(),
            "left_ms": [round(self.time_left(s, now) * 1000) for s in range(len(self.left))],
        }

    def restore(self, row: dict[str, Any]) -> None:
        """Each seat's bank as :meth:`row` recorded it, none running."""
        self.left = [ms / 1000 for ms in row.get("left_ms", [])]
        self.running = None
        self.dirty = False


def check_correspondence(asked_ms: int | None, others: bool, most: float) -> float | None:
    """The turn time ``create_table.correspondence_ms`` asks for, in seconds
    (None: not a correspondence game): one hour at least, ``most`` seconds
    (the server's longest) at most; ``others``: the request also sets a turn
    timeout or a time bank, which it replaces (protocol §5, §11.11).

    Raises:
        TableError: ``bad_time_control``, saying the range.
    """
    if asked_ms is None:
        return None
    if others:
        raise TableError(
            ErrorCode.BAD_TIME_CONTROL,
            "correspondence_ms replaces turn_timeout_ms and time_bank: send one of them",
        )
    most_ms = round(most * 1000)
    if not MIN_CORRESPONDENCE_MS <= asked_ms <= most_ms:
        raise TableError(
            ErrorCode.BAD_TIME_CONTROL,
            f"correspondence_ms {asked_ms} is out of range: {MIN_CORRESPONDENCE_MS}..{most_ms} ms "
            f"(1 hour to {_span(most)} at this server)",
        )
    return asked_ms / 1000


def _span(seconds: float) -> str:
    """``seconds`` in words: ``3 days``, ``12 hours``, ``90 minutes``."""
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds:g} seconds"
