"""A clock the tests move: a :class:`~craits.server.table.timing.Timekeeper`
whose time stands still until :meth:`ManualTime.advance` moves it on, firing
the timers that come due on the way, in order. A timer set for now (no
delay) fires on the event loop's next pass, as the loop's own would."""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
from collections.abc import Callable
from typing import Any

START_WALL = 1_800_000_000.0
"""The calendar at the start of a test: 2027-01-15 08:00 UTC."""


class Timer:
    """A timer of a :class:`ManualTime`."""

    def __init__(
        self, due: float, fn: Callable[..., object], args: tuple[Any, ...], context: Any
    ) -> None:
        self.due, self.fn, self.args, self.context = due, fn, args, context
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        if self.cancelled:
            return
        self.cancelled = True
        if self.context is not None:
            self.context.run(self.fn, *self.args)
        else:
            self.fn(*self.args)


class ManualTime:
    """Time that moves only when a test says (seconds; ``wall`` from :data:`START_WALL`)."""

    def __init__(self, wall: float = START_WALL) -> None:
        self.now = 1000.0
        self._wall_at_start = wall - self.now
        self._timers: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()

    def time(self) -> float:
        return self.now

    def wall(self) -> float:
        return self._wall_at_start + self.now

    def call_later(
        self,
        delay: float,
        callback: Callable[..., object],
        *args: Any,
        context: contextvars.Context | None = None,
    ) -> Timer:
        timer = Timer(self.now + max(0.0, delay), callback, args, context)
        if delay <= 0:
            asyncio.get_running_loop().call_soon(timer.fire)
        else:
            heapq.heappush(self._timers, (timer.due, next(self._order), timer))
        return timer

    def pending(self) -> list[float]:
        """When the timers still to fire are due, soonest first."""
        return sorted(due for due, _, t in self._timers if not t.cancelled)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, firing each timer due by then at its time."""
        until = self.now + seconds
        while self._timers and self._timers[0][0] <= until:
            due, _, timer = heapq.heappop(self._timers)
            self.now = max(self.now, due)
            timer.fire()
        self.now = until
