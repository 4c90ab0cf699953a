"""Expert decisions, hints and analyses beside the server's event loop: a pool of
worker processes.

A search takes a tenth of a second or more of CPU; run on the event loop it
would hold every table of the server up that long. :class:`ExpertPool` runs
:func:`decide_index` in worker processes (``spawn``: a fresh interpreter, none
of the server's threads or sockets), at a lower CPU priority than the server
(``nice``), and hands back a future the loop awaits. What crosses to the
worker is only the seat's view and the hand's events as the seat saw them
(:func:`~.policy.seat_inputs`), as plain data; what comes back is the index of
the chosen action in the view's ``legal``. A hint (:meth:`ExpertPool.hint`)
crosses the same way; a post-game analysis (:meth:`ExpertPool.analyse`) sends
the game's record, in parts of a few decisions each, over the workers
(:func:`~.analysis.judge_range`), and puts them together on return.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from . import analysis
from .hint import hint
from .policy import expert_choose
from .search import DEFAULT_BUDGET

__all__ = [
    "PART",
    "ExpertPool",
    "analysis_pool",
    "decide_index",
    "default_pool",
    "hint_capped",
]

CPU_CAP = 0.8
"""CPU seconds after which a decision stops sampling worlds and answers with what it has."""

NICE = 19
"""How much lower than the server's the workers' CPU priority is: the lowest, so
that on a busy machine the searches take the CPU the tables leave (a slower
bot, never a slower table)."""


def _lower_priority(nice: int) -> None:
    """The worker's initializer: a lower CPU priority, so the server's loop comes first."""
    with contextlib.suppress(OSError):  # not allowed here: the same priority, then
        os.nice(nice)


def decide_index(
    view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], seed: int, budget: int
) -> int | None:
    """The expert's choice as an index into ``view["legal"]`` (None: it does nothing now).

    Runs in a worker process: :func:`~.policy.expert_choose` on the seat's inputs,
    cut short past :data:`CPU_CAP` seconds of CPU (a busy machine's slow decision).
    """
    start = time.thread_time()

    def late() -> bool:
        return time.thread_time() - start > CPU_CAP

    choice = expert_choose(view, events, seed, budget, late)
    if choice is None:
        return None
    for i, a in enumerate(view["legal"]):
        if a is choice:
            return i
    return None


def hint_capped(
    view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], seed: int, budget: int
) -> dict[str, Any]:
    """:func:`~.hint.hint` in a worker process, cut short past :data:`CPU_CAP` seconds of CPU."""
    start = time.thread_time()
    return hint(view, events, seed, budget, lambda: time.thread_time() - start > CPU_CAP)


PART = 4
"""Decisions per part of an analysis (well under a second of one core): a cancelled
analysis stops within a part, and a decision asked of the same pool waits a part
at most. A worker walks the record once for all its parts (:func:`~.analysis.judge_range`)."""


class ExpertPool:
    """Worker processes for the expert's decisions (started on first use).

    Attributes:
        workers: how many processes (one decision at a time each).
        budget: the search's budget per decision (simulated actions).
    """

    def __init__(self, workers: int = 1, budget: int = DEFAULT_BUDGET, nice: int = NICE) -> None:
        self.workers = workers
        self.budget = budget
        self.nice = nice
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
                initargs=(self.nice,),
            )
        return self._pool

    def decide(
        self, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], seed: int
    ) -> asyncio.Future[int | None]:
        """Start a decision; the future (of the running loop) holds the index of the
        chosen action in ``view["legal"]``, or None.

        Raises:
            RuntimeError: no running event loop.
        """
        future = self._executor().submit(decide_index, view, events, seed, self.budget)
        return asyncio.wrap_future(future)

    def hint(
        self, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], seed: int
    ) -> asyncio.Future[dict[str, Any]]:
        """Start a hint (:func:`~.hint.hint`) for the seat of ``view``, at the pool's
        budget, capped as a decision is; the future (of the running loop) holds it.

        Raises:
            RuntimeError: no running event loop.
        """
        future = self._executor().submit(hint_capped, view, events, seed, self.budget)
        return asyncio.wrap_future(future)

    async def analyse(
        self,
        record: Mapping[str, Any],
        seed: int = 0,
        budget: int = analysis.BUDGET,
        progress: Callable[[int, int], None] | None = None,
        part: int = PART,
    ) -> dict[str, Any]:
        """The post-game analysis of ``record`` (:func:`~.analysis.analyse`, the same
        value), judged in the workers, ``part`` decisions at a time, at most one part
        per worker at a time (a decision asked meanwhile waits one part at most).
        ``progress(done, total)`` is called on the loop as parts come back.
        Cancelling the task stops it: parts not started are dropped, those running
        finish in their workers and are thrown away.

        Raises:
            ValueError: not a game record, or its log does not replay.
        """
        executor = self._executor()
        total = await asyncio.wrap_future(executor.submit(analysis.count_decisions, record))
        parts = iter([(a, min(a + part, total)) for a in range(0, total, part)])
        running: set[asyncio.Future[list[dict[str, Any]]]] = set()
        entries: list[dict[str, Any]] = []

        def start() -> None:
            nxt = next(parts, None)
            if nxt is not None:
                job = executor.submit(analysis.judge_range, record, seed, budget, *nxt)
                running.add(asyncio.wrap_future(job))

        try:
            for _ in range(self.workers):
                start()
            while running:
                done, _pending = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for f in done:
                    running.discard(f)
                    entries.extend(f.result())
                    start()
                if progress is not None:
                    progress(len(entries), total)
        finally:
            for f in running:
                f.cancel()
        return analysis.assemble(record, seed, budget, entries)

    def worker_pids(self) -> list[int]:
        """The process ids of the live workers (none before the first decision)."""
        if self._pool is None:
            return []
        processes = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.is_alive() and p.pid is not None]

    def close(self) -> None:
        """Stop the workers (running decisions are abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


_DEFAULT: ExpertPool | None = None
_ANALYSES: ExpertPool | None = None


def default_pool() -> ExpertPool:
    """The process's pool for server-seated experts: one worker less than the
    machine's cores, at least one."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = ExpertPool(workers=max(1, (os.cpu_count() or 2) - 1))
    return _DEFAULT


def analysis_pool() -> ExpertPool:
    """The process's pool for post-game analyses, apart from :func:`default_pool`'s (a
    long analysis never holds a seated expert's decision up): as many workers."""
    global _ANALYSES
    if _ANALYSES is None:
        _ANALYSES = ExpertPool(workers=max(1, (os.cpu_count() or 2) - 1))
    return _ANALYSES
