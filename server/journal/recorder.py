"""The server's journal at work: its writes handed to the journal's writer at
the end of each pass of the event loop (:mod:`craits.server.journal.writer`),
each failed write handed to its table when the writer answers, and each new
table announced to the lobby only once its row is written.

Nothing about a step that was not recorded is sent (protocol §4.8): a table's
failed write pauses it (:meth:`craits.server.table.actor.Table.write_failed`); a
new table whose row could not be written never was — its creator gets
``table_paused`` in place of ``table_created``, and it closes.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from craits.protocol.types import ErrorMsg
from craits.protocol.vocab import ErrorCode, ServerMessage

from ..ops import metrics
from .journal import Journal, WriteFailure

if TYPE_CHECKING:
    from ..app import Server
    from ..table.actor import Table

log = logging.getLogger("craits.server")


class Recorder:
    """Hands ``journal``'s queued writes to its writer for ``server``
    (:meth:`commit`), takes in each batch the writer has done (:meth:`written`),
    and holds back the announcement of tables created until their row is
    written (:meth:`hold`)."""

    def __init__(self, server: Server, journal: Journal) -> None:
        self.journal = journal
        self._server = server
        self._unannounced: dict[int, Table] = {}
        """Tables created whose row is not written yet, by the ticket of its write."""
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        """Those who wait for a write to be done, with its ticket (:meth:`done`)."""
        journal.out.on_written = self.written

    async def done(self, ticket: int) -> None:
        """Return once write ``ticket`` is done (committed, or failed and
        handed on): what it wrote can be read (a finished game's record, for its
        analysis in the background)."""
        if self.journal.written(ticket):
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append((ticket, waiter))
        await waiter

    def hold(self, table: Table) -> bool:
        """``table`` was just created and its row's write queued: announce it
        to the lobby once that write is committed. Returns False if nothing is
        queued (the caller announces it now)."""
        journal = self.journal
        if not journal.pending:
            return False
        self._unannounced[journal.submitted] = table
        return True

    def commit(self) -> None:
        """Hand the writes queued so far to the journal's writer (one batch,
        unless a batch is in flight: then when it is done)."""
        self.journal.send()

    def written(self, failures: list[WriteFailure]) -> None:
        """A batch is done (:attr:`Journal.processed
        <craits.server.journal.journal.Journal.processed>` is its last ticket):
        pause the tables whose writes failed (dropping what their members were
        to be told of them), close the new tables whose rows failed, announce
        the others, then send what waited for it (:meth:`Outbound.journal_written
        <craits.server.net.outbound.Outbound.journal_written>`)."""
        journal = self.journal
        metrics.journal_commit.observe(journal.out.took)
        done = journal.processed
        created = {t: table for t, table in self._unannounced.items() if t <= done}
        for ticket in created:
            del self._unannounced[ticket]
        for failure in failures:
            new = created.pop(failure.ticket, None)
            if new is not None:
                self._not_created(new, failure)
            else:
                self._failed(failure)
        for table in created.values():
            self._server.table_changed(table)
        self._server.out.journal_written()
        if self._waiters:
            waiting, self._waiters = self._waiters, []
            for ticket, waiter in waiting:
                if ticket > done:
                    self._waiters.append((ticket, waiter))
                elif not waiter.done():
                    waiter.set_result(None)

    def _failed(self, failure: WriteFailure) -> None:
        """Hand a failed write to its table (by game id or name), or log it."""
        kind, key = failure.key
        server = self._server
        table = next(
            (
                t
                for t in server.tables.values()
                if (t.gamelog.game_id == key if kind == "game" else t.name == key)
            ),
            None,
        )
        if table is None:
            log.error(
                "journal: write %d (%s %s) failed: %s", failure.ticket, kind, key, failure.reason
            )
        else:
            table.request(table.write_failed, failure.ticket, failure.reason, reraise=False)

    def _not_created(self, table: Table, failure: WriteFailure) -> None:
        """The row of ``table``, created in this pass, could not be written, so
        the table never was: what was queued about it is dropped, its creator
        gets ``table_paused`` in place of ``table_created``, and it closes."""
        log.error("table %s: not created: %s", table.name, failure.reason)
        server = self._server
        table.request(table.write_failed, failure.ticket, failure.reason, reraise=False)
        creator = table.seating.creator
        if creator is not None:
            creator.discard_from(failure.ticket)
            refusal: ErrorMsg = {
                "type": ServerMessage.ERROR,
                "code": ErrorCode.TABLE_PAUSED,
                "message": f"table {table.name!r} was not created: the server could not record it",
            }
            creator.send(refusal)
        server.close_table(table, recorded=False)
        self.journal.forget_failure(table.name)
