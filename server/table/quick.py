"""A quick-play table's countdown: bots take its free seats when it ends,
unless people took them first (protocol §11.13; issue 27).

:class:`BotCountdown` is a clock like the table's abandon clock
(:mod:`craits.server.table.clock`): it holds its timer, and when it ends it
calls the table back, which asks it what is due (:meth:`BotCountdown.due`, an
:class:`~craits.server.table.outcome.Outcome` that seats the bots and starts
the game) and publishes that. The countdown is not in the journal: a
restored table waits for its players as any waiting table does.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable

from craits.protocol.types import TableInfo
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, TableState

from ..ops import logs
from .membership import Membership
from .outcome import Outcome
from .seating import Seating

log = logging.getLogger("craits.server")


class BotCountdown:
    """The countdown of table ``name``, opened by quick play (§11.13): when it
    ends, bots of ``DEFAULT_BOT_LEVEL`` take the free ``seating`` through its
    ``membership`` (as ``add_bot`` does) and the full table starts.

    Args:
        name: the table's name.
        seating: its seats.
        membership: what seats its bots.
        state: the table's state now.
        request: what hands the table a request when the countdown ends
            (:meth:`Table.request <craits.server.table.actor.Table.request>`,
            which publishes its outcome; called with ``reraise=False``):
            :meth:`due`, for that countdown.
        clock: the monotonic clock, seconds (tests give their own).
    """

    def __init__(
        self,
        name: str,
        seating: Seating,
        membership: Membership,
        state: Callable[[], TableState],
        request: Callable[..., None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.seating = seating
        self.membership = membership
        self._state = state
        self._request = request
        self._clock = clock
        self._timer: asyncio.TimerHandle | None = None
        self.until: float | None = None
        """When the countdown ends (``clock``'s seconds), or None: none runs."""

    def start(self, seconds: float) -> None:
        """The countdown starts (on the event loop): it ends in ``seconds``."""
        self.cancel()
        self.until = until = self._clock() + max(0.0, seconds)
        loop, context = asyncio.get_running_loop(), logs.table_context(self.name)
        due = functools.partial(self.due, until)
        request = functools.partial(self._request, due, reraise=False)
        self._timer = loop.call_later(seconds, request, context=context)
        log.info("table %s: bots take the free seats in %gs", self.name, seconds)

    def running(self) -> bool:
        """A countdown runs: the table waits, a seat is free, and it has not
        ended. Once the table no longer waits (its game started) the countdown
        is over for good: stopped here, so a table waiting again later (a
        rematch's seat freed, protocol §11.12) gets no bots from it."""
        if self.until is None:
            return False
        if self._state() is not TableState.WAITING:
            self.cancel()
            return False
        return not self.seating.full()

    def fields(self) -> TableInfo:
        """The table info's ``bots_in_ms`` (§10), while the countdown runs (a
        partial info, to merge): milliseconds until it ends, 0 or more."""
        if not self.running():
            return {}  # type: ignore[typeddict-item]  # a partial info
        assert self.until is not None
        left = max(0, round((self.until - self._clock()) * 1000))
        fields: TableInfo = {"bots_in_ms": left}  # type: ignore[typeddict-item]  # partial
        return fields

    def due(self, until: float) -> Outcome:
        """The countdown that was to end at ``until`` ended: bots take the free
        seats and the table starts (nothing if people filled it first, it no
        longer waits, or that countdown was stopped or replaced)."""
        if until != self.until:
            return Outcome()
        running = self.running()
        self.until = None
        if not running:
            return Outcome()
        seated = 0
        while not self.seating.full():
            self.membership.add_bot(DEFAULT_BOT_LEVEL)
            seated += 1
        log.info("table %s: the countdown ended; %d bot(s) seated", self.name, seated)
        return Outcome(changed=True, start=True)

    def cancel(self) -> None:
        """The countdown no longer runs (the table closes, the server stops)."""
        self.until = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
