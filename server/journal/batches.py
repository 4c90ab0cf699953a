"""The journal's writes on the server's side: queued with their tickets, handed
to the journal's writer process in batches, one batch in flight at a time
(group commit), and taken back done, with the writes that failed
(:mod:`craits.server.journal.writer` is the other side).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from ..errors import JournalError
from .writer import HEADER, WriterLink, frame

log = logging.getLogger("craits.server")


class WriteFailure(NamedTuple):
    """A journal write that failed: its ticket, what it wrote to, and why."""

    ticket: int
    key: tuple[str, Any]
    """``("game", game_id)`` or ``("table", name)``: the log or row written."""
    reason: str


def log_failures(failures: list[WriteFailure]) -> None:
    """Log writes that failed with nobody to tell (the journal closing)."""
    for failure in failures:
        kind, key = failure.key
        log.error("journal: write %d (%s %s) failed: %s", failure.ticket, kind, key, failure.reason)


class Batches:
    """The writes for the writer at the end of ``link``: each gets a *ticket*
    (1, 2, 3…, in order). Without ``on_pending`` a write is done before
    :meth:`submit` returns. With it (the server's way, inside its event loop)
    writes are queued: the first one queued calls ``on_pending()``; :meth:`send`
    hands what is queued to the writer as one batch, unless a batch is in
    flight (then it goes as soon as that one is done); when a batch is
    committed, :attr:`processed` is its last ticket and :attr:`on_written` is
    called with the writes that failed."""

    def __init__(self, link: WriterLink, on_pending: Callable[[], None] | None) -> None:
        self._link = link
        self._on_pending = on_pending
        self.submitted = 0
        """The last ticket handed out."""
        self.processed = 0
        """Every ticket up to this one is written (or failed and was reported)."""
        self.on_written: Callable[[list[WriteFailure]], None] = log_failures
        """Called (deferred writes) when a batch is done, with its failed writes."""
        self._ops: list[list[Any]] = []
        self.rows: list[list[Any]] = []
        """The log rows of the queued writes, ``[game_id, n, kind, data]``."""
        self._keys: dict[int, tuple[str, Any]] = {}
        """The key of each write sent or queued and not yet done, by ticket."""
        self._in_flight = 0
        """The last ticket of the batch the writer is at (0: none)."""
        self._sent_at = 0.0
        self.batches = 0
        """Batches handed to the writer so far (each one transaction)."""
        self.took = 0.0
        """Seconds the last batch took, from :meth:`send` to the writer's answer."""
        self._told_gone = False
        self._loop: asyncio.AbstractEventLoop | None = None
        if on_pending is not None:
            self._loop = asyncio.get_running_loop()
            link.sock.setblocking(False)
            self._loop.add_reader(link.sock, self._readable)

    def submit(self, key: tuple[str, Any], op: list[Any]) -> int:
        """Queue write ``op`` to ``key`` (its ticket is set here, ``op[1]``);
        returns the ticket.

        Raises:
            JournalError: not deferred, the write failed.
        """
        self.submitted += 1
        ticket = op[1] = self.submitted
        self._keys[ticket] = key
        if self._on_pending is not None:
            if not self._ops:
                self._on_pending()
            self._ops.append(op)
            return ticket
        self._ops.append(op)
        self.send()
        while self._in_flight:
            failures = self._answered(self._link.wait())
            if failures:
                raise JournalError(failures[-1].reason)
        return ticket

    def send(self) -> None:
        """Hand the queued writes to the writer as one batch, unless one is in
        flight (they go when it is done)."""
        if self._in_flight or not self._ops:
            return
        ops, rows = self._ops, self.rows
        self._ops, self.rows = [], []
        self._in_flight = ops[-1][1]
        self._sent_at = time.perf_counter()
        self.batches += 1
        link = self._link
        if link.gone:
            self.on_written(self._writer_gone())
            return
        batch = json.dumps(rows, separators=(",", ":")).encode()
        if link.send(frame(["w", ops]), HEADER.pack(len(batch)) + batch):
            assert self._loop is not None  # a blocking socket takes everything
            self._loop.add_writer(link.sock, self._drain)

    def look(self) -> None:
        """Have the writer look the whole file over for damage (it logs what it finds)."""
        if self._link.send(frame(["look"])) and self._loop is not None:
            self._loop.add_writer(self._link.sock, self._drain)

    def _drain(self) -> None:
        if not self._link.drain():
            assert self._loop is not None
            self._loop.remove_writer(self._link.sock)

    def _readable(self) -> None:
        """The writer answered (or is gone): note what is done, send the next
        batch, then tell :attr:`on_written`."""
        before = self.processed
        failures: list[WriteFailure] = []
        for message in self._link.receive():
            failures += self._answered(message)
        if self._link.gone:
            assert self._loop is not None
            self._loop.remove_reader(self._link.sock)
            failures += self._writer_gone()
        if not self._in_flight:
            self.send()
        if self.processed != before:
            self.on_written(failures)

    def _answered(self, message: Any) -> list[WriteFailure]:
        """Take in one answer of the writer; returns the writes it says failed."""
        if message is None:
            return self._writer_gone()
        if message[0] == "log":
            log.error("%s", message[1])
            return []
        if message[0] != "a":
            return []
        last = int(message[1])
        keys = self._keys
        for ticket in range(self.processed + 1, last + 1):
            keys.pop(ticket, None)
        self.processed = last
        self._in_flight = 0
        self.took = time.perf_counter() - self._sent_at
        return [WriteFailure(int(t), (kind, key), reason) for t, kind, key, reason in message[2]]

    def _writer_gone(self) -> list[WriteFailure]:
        """The writer is gone (it crashed, or was killed): every write not
        done, and every later one, fails; the operator is told once."""
        reason = "journal write failed: the journal's writer stopped"
        if self.processed < self.submitted and not self._told_gone:
            self._told_gone = True
            log.error(
                "the journal's writer stopped (exit status %s): the tables pause; "
                "restart the server",
                self._link.proc.poll(),
            )
        failed = [WriteFailure(t, k, reason) for t, k in sorted(self._keys.items())]
        self._keys.clear()
        self._ops, self.rows = [], []
        self.processed = self.submitted
        self._in_flight = 0
        return failed

    def close(self) -> None:
        """Send what is queued and wait until the writer has done it all
        (failures are logged); the writer is still running after it."""
        if self._loop is not None:
            self._loop.remove_reader(self._link.sock)
            self._loop.remove_writer(self._link.sock)
            self._loop = None
        self._link.sock.setblocking(True)
        failures: list[WriteFailure] = []
        while self._in_flight or self._ops:
            self.send()
            if self._in_flight:
                failures += self._answered(self._link.wait())
        log_failures(failures)
        if self.batches:
            log.info(
                "journal: %d writes in %d batches (%.1f a batch)",
                self.submitted,
                self.batches,
                self.submitted / self.batches,
            )
