"""What the server does with an ``analysis`` request (protocol §7.6, ``docs/bots.md``
"Post-game analysis"): a finished game's post-game analysis, every decision of
every player judged by the expert bot.

An analysis takes a minute or more of CPU: the server judges it in the expert's
analysis workers (:func:`~craits.server.bots.expert.worker.analysis_pool`, at
the lowest CPU priority), never on the event loop, one game at a time, stores
each one done in the journal with its game (:meth:`Journal.save_analysis
<craits.server.journal.journal.Journal.save_analysis>`, through the journal's
writer), and keeps the last :data:`KEPT` in memory too (:class:`AnalysisDesk`,
one per server). A request is answered at once — ``ready`` with the analysis
when it is kept or stored, else ``running`` with how far it is — and, when the
analysis is done, every connection that asked for it and is still connected
gets it (``ready``), or an error.

Every game played to its end is analysed in the background without anyone
asking (:meth:`AnalysisDesk.finished`; ``ServerConfig.analyse_finished`` caps
how many wait at once, 0 turns it off): after the analyses asked for, which
go first.

Who may ask is who may read the game's record (:mod:`craits.server.journal.record_access`,
§7.3): the analysis is drawn from the record alone, every hand as dealt included.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from craits.protocol.types import AnalysisMsg, AnalysisRequestMsg
from craits.protocol.vocab import ErrorCode, ServerMessage

from ..bots.expert import analysis
from ..bots.expert.worker import ExpertPool, analysis_pool
from ..errors import JournalError, TableError
from ..journal import record_access
from ..journal.journal import JournalReader
from ..journal.rebuilds import rebuilding
from ..journal.record_access import Asker
from ..journal.records import build_record
from .record_requests import _answer, _budget, _damaged, _finished_game

if TYPE_CHECKING:
    from ..journal.journal import Journal
    from ..journal.recorder import Recorder
    from .connection import Client

log = logging.getLogger("craits.server")

KEPT = 32
"""Analyses a server keeps once done (the last asked for), in memory."""

QUEUED = 4
"""Analyses asked for that a server runs or has waiting at once; past that,
``analyses_busy`` (those of the background count apart)."""

BACKGROUND = 8
"""Finished games a server has waiting for their analysis in the background
at once, by default (``ServerConfig.analyse_finished``); past that, a game
finished is analysed only when asked."""

RUNNING = "running"
READY = "ready"


@dataclass
class Job:
    """An analysis being made: game ``game``'s (of ``players`` seats), ``done`` of
    ``total`` decisions judged (``total`` 0 until counted, in a worker);
    ``waiting``: the connections to tell when it is done, each with the seat it
    asked about (None: every seat). Done, it is stored in ``journal`` (None:
    kept in memory only)."""

    game: int
    players: int
    done: int = 0
    total: int = 0
    waiting: list[tuple[Client, int | None]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    background: bool = False
    """Started because the game finished, nobody asking (:meth:`AnalysisDesk.finished`)."""


class AnalysisDesk:
    """A server's post-game analyses: those kept, and those being made (one
    judged at a time, in the order asked, at most :data:`QUEUED` asked for;
    those of finished games nobody asked for after them).

    Attributes:
        budget: simulated actions per decision (the analysis' own, twice a live
            decision's, by default).
        seed: the seed of the worlds sampled: an analysis asked of the server is
            the very one ``craits-server analyse`` prints with that seed.
    """

    def __init__(
        self,
        budget: int = analysis.BUDGET,
        seed: int = 0,
        pool: Callable[[], ExpertPool] = analysis_pool,
    ) -> None:
        self.budget, self.seed = budget, seed
        self._pool = pool
        self._kept: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._jobs: dict[int, Job] = {}
        self._turn = asyncio.Lock()
        self._asked = 0
        """Analyses asked for that wait for their turn (the background's let them go first)."""

    def kept(self, game: int) -> dict[str, Any] | None:
        """Game ``game``'s analysis if it is kept (and now the last asked for)."""
        found = self._kept.get(game)
        if found is not None:
            self._kept.move_to_end(game)
        return found

    def job(self, game: int) -> Job | None:
        """The analysis of ``game`` being made, if it is."""
        return self._jobs.get(game)

    def waits_elsewhere(self, client: Client, game: int) -> bool:
        """Whether ``client`` waits for the analysis of a game other than ``game``."""
        return any(
            c is client for g, job in self._jobs.items() if g != game for c, _ in job.waiting
        )

    def start(self, game: int, record: dict[str, Any], journal: Journal | None = None) -> Job:
        """Start analysing ``record`` (game ``game``'s), after those asked
        before; done, it is stored in ``journal`` (None: kept in memory only).

        Raises:
            TableError: ``analyses_busy``: :data:`QUEUED` analyses run or wait already.
        """
        asked = sum(1 for job in self._jobs.values() if not job.background)
        if asked >= QUEUED:
            raise TableError(
                ErrorCode.ANALYSES_BUSY,
                f"the server is analysing {asked} games already: ask again later",
            )
        job = self._jobs[game] = Job(game, len(record["players"]))
        self._asked += 1
        job.task = asyncio.get_running_loop().create_task(self._run(job, record, journal))
        return job

    def keep(self, game: int, result: dict[str, Any]) -> None:
        """Keep game ``game``'s analysis ``result`` in memory (the last :data:`KEPT`)."""
        self._kept[game] = result
        self._kept.move_to_end(game)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)

    def finished(self, game: int, players: int, recorder: Recorder, most: int) -> bool:
        """Game ``game`` (of ``players`` seats) was played to its end: analyse
        it in the background, once its record is written (``recorder``), after
        the analyses asked for; done, it is stored with the game. Returns False
        (nothing started) when ``most`` finished games wait already (0: never).
        Never raises: this runs on the event loop, at the game's end."""
        waiting = sum(1 for job in self._jobs.values() if job.background)
        if most <= 0 or waiting >= most or game in self._jobs or game in self._kept:
            if most > 0 and waiting >= most:
                log.info("game %d not analysed in the background: %d wait already", game, waiting)
            return False
        job = self._jobs[game] = Job(game, players, background=True)
        job.task = asyncio.get_running_loop().create_task(self._background(job, recorder))
        return True

    async def _background(self, job: Job, recorder: Recorder) -> None:
        """Read game ``job.game``'s record off the event loop once it is written,
        unless its analysis is stored already (a restart), then judge it."""
        journal = recorder.journal
        try:
            await recorder.done(journal.submitted)
            stored, record = await journal.read(lambda reader: _stored_or_record(reader, job.game))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a damaged journal: asked for, it says so
            log.warning("game %d cannot be analysed in the background: %r", job.game, exc)
            self._jobs.pop(job.game, None)
            for client, _ in job.waiting:
                client.error(ErrorCode.INTERNAL, f"the analysis of game {job.game} failed")
            return
        if stored is not None or record is None:
            self._done(job, stored, None)
            return
        await self._run(job, record, journal)

    async def _turn_of(self, job: Job) -> None:
        """Wait for ``job``'s turn (holding :attr:`_turn` on return): an
        analysis asked for in the order asked, one of the background's only
        when none asked for waits (unless someone asked for it meanwhile)."""
        while True:
            await self._turn.acquire()
            if not job.background or job.waiting or self._asked == 0:
                return
            self._turn.release()
            await asyncio.sleep(0)  # the asked ones waiting on the lock go first

    async def _run(self, job: Job, record: dict[str, Any], journal: Journal | None) -> None:
        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            await self._turn_of(job)
        finally:
            if not job.background:
                self._asked -= 1
        try:
            result = await self._pool().analyse(record, self.seed, self.budget, progress)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a log that does not replay, a worker that died
            log.warning("the analysis of game %d failed: %r", job.game, exc)
            self._jobs.pop(job.game, None)
            for client, _ in job.waiting:
                client.error(ErrorCode.INTERNAL, f"the analysis of game {job.game} failed")
            return
        finally:
            self._turn.release()
        self._done(job, result, journal)

    def _done(self, job: Job, result: dict[str, Any] | None, journal: Journal | None) -> None:
        """``job`` is done with ``result`` (None: nothing to analyse): kept,
        stored in ``journal`` (None: stored already, or no journal), and sent
        to those who wait for it."""
        self._jobs.pop(job.game, None)
        if result is None:
            return
        self.keep(job.game, result)
        if journal is not None:
            try:
                journal.save_analysis(job.game, result)
            except JournalError as exc:  # (deferred writes fail later, and are logged)
                log.error("the analysis of game %d was not stored: %s", job.game, exc)
        for client, seat in job.waiting:
            client.send(ready(job.game, result, seat))

    def close(self) -> None:
        """Stop the analyses being made (the server stops): nobody is told."""
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
        self._jobs.clear()


_desks: WeakKeyDictionary[object, AnalysisDesk] = WeakKeyDictionary()


def desk_of(server: object) -> AnalysisDesk:
    """The one :class:`AnalysisDesk` of ``server`` (made on first use, at the analysis' budget)."""
    desk = _desks.get(server)
    if desk is None:
        desk = _desks[server] = AnalysisDesk()
    return desk


def use_desk(server: object, desk: AnalysisDesk) -> None:
    """Give ``server`` ``desk`` (another budget or pool: a test's, a small machine's)."""
    _desks[server] = desk


def close_desk(server: object) -> None:
    """Stop ``server``'s analyses being made, if it has any (the server stops)."""
    desk = _desks.pop(server, None)
    if desk is not None:
        desk.close()


def ready(game: int, result: dict[str, Any], seat: int | None) -> AnalysisMsg:
    """The ``ready`` answer: ``result`` as JSON text (§7.6), its decisions only
    ``seat``'s if one is named."""
    if seat is not None:
        result = {**result, "decisions": [e for e in result["decisions"] if e["seat"] == seat]}
    total = len(result["decisions"])
    msg: AnalysisMsg = {
        "type": ServerMessage.ANALYSIS,
        "game": game,
        "state": READY,
        "done": total,
        "total": total,
        "analysis": json.dumps(result, separators=(",", ":")),
    }
    if seat is not None:
        msg["seat"] = seat
    return msg


def running(job: Job, seat: int | None) -> AnalysisMsg:
    """The ``running`` answer: how far the analysis of ``job`` is."""
    msg: AnalysisMsg = {
        "type": ServerMessage.ANALYSIS,
        "game": job.game,
        "state": RUNNING,
        "done": job.done,
        "total": job.total,
    }
    if seat is not None:
        msg["seat"] = seat
    return msg


def on_analysis(client: Client, msg: AnalysisRequestMsg) -> None:
    """Finished game ``game``'s post-game analysis (§7.6): ``ready`` if it is kept,
    else ``running`` (the analysis started, or joined if it is being made), then
    ``ready`` when done. Who may ask is as for ``get_record`` (checked first, off
    the event loop); ``seat`` keeps only that seat's decisions.

    Errors (sent): ``no_such_game`` as for ``get_record``, ``bad_seat`` (no such
    seat in the game), ``records_busy`` (the record must be rebuilt and the
    server's time for that is spent), ``analyses_busy`` (too many analyses being
    made, or this connection waits for another game's), ``internal`` (the
    analysis failed).
    """
    client.deferred.wait(_answer(client, _analysis(client, msg)))


async def _analysis(client: Client, msg: AnalysisRequestMsg) -> None:
    game, seat, journal = msg["game"], msg.get("seat"), client.server.journal
    asker = Asker.of(msg.get("tokens"))
    desk = desk_of(client.server)
    if journal is not None:
        stored = await journal.read(lambda reader: _readable_analysis(reader, game, asker))
        kept, job = desk.kept(game), desk.job(game)  # (as they are now, after the read)
        if kept is None and stored is not None:
            desk.keep(game, stored)
            kept = stored
        if kept is not None:
            _check_seat(seat, len(kept["players"]))
            client.send(ready(game, kept, seat))
            return
        if job is not None:
            _check_seat(seat, job.players)
            job.waiting.append((client, seat))
            client.send(running(job, seat))
            return
    row = await _finished_game(journal, game, asker)
    _check_seat(seat, len(row["players"]))
    if desk.waits_elsewhere(client, game):
        raise TableError(
            ErrorCode.ANALYSES_BUSY, "you wait for another game's analysis: one at a time"
        )
    try:
        with rebuilding(_budget(client)):
            record = build_record(row)
    except (JournalError, ValueError):
        raise _damaged(game) from None
    job = desk.job(game) or desk.start(game, record, journal)  # (another may have started it)
    job.waiting.append((client, seat))
    client.send(running(job, seat))


def _readable_analysis(reader: JournalReader, game: int, asker: Asker) -> dict[str, Any] | None:
    """Game ``game``'s stored analysis, if ``asker`` may read its record and one
    is stored (in the journal's read thread).

    A stored analysis that cannot be read is logged and taken as none (the
    game is analysed again, and the new one stored in its place).

    Raises:
        TableError: ``no_such_game`` (:func:`record_access.check`).
    """
    record_access.check(reader, game, asker)
    try:
        return reader.analysis(game)
    except JournalError as exc:
        log.warning("game %d's stored analysis is not used: %s", game, exc)
        return None


def _stored_or_record(
    reader: JournalReader, game: int
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """Game ``game``'s stored analysis, or else its record to analyse (None:
    no such finished game), read in the journal's read thread.

    Raises:
        JournalError: the game cannot be read; ValueError: its record cannot be built.
    """
    stored = reader.analysis(game)
    if stored is not None:
        return stored, None
    row = reader.game(game)
    if row is None or row.get("finished") is None:
        return None, None
    return None, build_record(row)


def _check_seat(seat: int | None, players: int) -> None:
    """Refuse a ``seat`` the game of ``players`` seats did not have.

    Raises:
        TableError: ``bad_seat``.
    """
    if seat is not None and seat >= players:
        raise TableError(ErrorCode.BAD_SEAT, f"the game had {players} seats: no seat {seat}")
