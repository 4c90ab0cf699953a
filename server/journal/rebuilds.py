"""The time a server may spend rebuilding finished games (protocol §7.3).

``get_record`` and ``get_replay`` replay a finished game from the journal on
the server's event loop: tens of milliseconds for a long game, a hundred for a
long eight-seat hand under load. The per-connection rate limit (a hundred
messages a second) would let one client keep the loop busy with such requests
and slow every table. So the server keeps one budget of *time* for them: the
rebuilds may take :attr:`ServerConfig.records_share
<craits.server.app.ServerConfig.records_share>` of the server's time on
average, and :attr:`~craits.server.app.ServerConfig.records_burst` seconds at
once. When the budget is spent, such a request is answered ``records_busy``
with the seconds to wait; it costs the connection nothing else (it is not an
error of the connection), and the tables never wait. A hand whose frames are
kept (:func:`craits.server.journal.replay_frames.cached_frames`) costs nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from weakref import WeakKeyDictionary

from craits.protocol.vocab import ErrorCode

from ..errors import TableError


class RebuildBudget:
    """A token bucket counted in seconds of rebuilding: it fills at ``share``
    seconds per second, up to ``burst`` seconds; a rebuild may start while
    anything is left, and what it took is then spent (the bucket may go below
    zero, and the next rebuild waits until it is above again).

    Times are :func:`time.perf_counter` seconds (``clock``, for tests).
    """

    __slots__ = ("_clock", "_filled_at", "_left", "burst", "share")

    def __init__(
        self, share: float, burst: float, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self.share, self.burst, self._clock = share, burst, clock
        self._left = burst
        self._filled_at = clock()

    def _fill(self) -> float:
        now = self._clock()
        self._left = min(self.burst, self._left + (now - self._filled_at) * self.share)
        self._filled_at = now
        return now

    def wait(self) -> float:
        """Seconds until a rebuild may start (0: now; always 0 with a ``share``
        of 0, which means no limit)."""
        if self.share <= 0:
            return 0.0
        self._fill()
        return 0.0 if self._left > 0 else -self._left / self.share

    def spend(self, seconds: float) -> None:
        """Count a rebuild that took ``seconds``."""
        self._fill()
        self._left -= seconds


_budgets: WeakKeyDictionary[object, RebuildBudget] = WeakKeyDictionary()


def budget_of(server: object, share: float, burst: float) -> RebuildBudget:
    """The one budget of ``server`` (made on first use with ``share`` and ``burst``)."""
    budget = _budgets.get(server)
    if budget is None:
        budget = _budgets[server] = RebuildBudget(share, burst)
    return budget


def seconds(wait: float) -> str:
    """``wait`` seconds as the message says them, never less: tenths under ten
    seconds (``0.3``, ``2.5``), whole seconds above (``12``)."""
    if wait < 10:
        return f"{math.ceil(wait * 10) / 10:.1f}"
    return str(math.ceil(wait))


@contextmanager
def rebuilding(budget: RebuildBudget) -> Iterator[None]:
    """Around a rebuild: refused if the budget is spent; what it took is spent.

    Raises:
        TableError: ``records_busy``, with the seconds to wait in the message.
    """
    wait = budget.wait()
    if wait > 0:
        raise TableError(
            ErrorCode.RECORDS_BUSY,
            f"the server is busy rebuilding finished games: ask again in {seconds(wait)} s",
        )
    started = time.perf_counter()
    try:
        yield
    finally:
        budget.spend(time.perf_counter() - started)
