"""What the server's connections send, on its way out: written at the end of
each pass of the event loop, one write per connection, after the pass's
journal writes are handed to the journal's writer; what waits on writes still
in flight goes once the writer has committed them
(:meth:`Outbound.journal_written`), in the order it was queued.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ..ops import logs

if TYPE_CHECKING:
    from ..app import Server
    from .connection import Client


class Outbound:
    """The connections of ``server`` with messages to write: those queued in
    this pass (:meth:`dirty`), and those whose messages wait on journal writes
    in flight (:meth:`wait_for_journal`)."""

    def __init__(self, server: Server) -> None:
        self._server = server
        self._dirty: list[Client] = []
        self._waiting: dict[Client, None] = {}
        """Connections with messages that wait on journal writes in flight."""
        self._soon = False

    def dirty(self, client: Client) -> None:
        """Note that ``client`` has messages queued: they are written, one write
        per connection, at the end of this pass of the event loop."""
        self.schedule()
        self._dirty.append(client)

    def schedule(self) -> None:
        """Have :meth:`flush` called at the end of this pass (once)."""
        if not self._soon:
            self._soon = True
            # about no one connection, whichever's input asked for it
            asyncio.get_running_loop().call_soon(self.flush, context=logs.bare_context())

    def flush(self) -> None:
        """The end of a pass: hand the journal writes queued in it to the
        journal's writer, then write each connection's messages that wait on
        no write still to be committed (the others wait for
        :meth:`journal_written`)."""
        self._soon = False
        self.commit_journal()
        ready = self.ready
        dirty, self._dirty = self._dirty, []
        waiting = self._waiting
        for client in dirty:
            if client.flush(ready):
                waiting[client] = None

    def journal_written(self) -> None:
        """The journal's writer committed a batch (its failures are handled):
        write the messages that waited on it."""
        ready = self.ready
        waiting, self._waiting = self._waiting, {}
        for client in waiting:
            if client.flush(ready):
                self._waiting[client] = None

    @property
    def ready(self) -> int | None:
        """The last journal write committed (or failed and handled): messages
        that wait on it or an earlier one may go out. None: no journal."""
        journal = self._server.journal
        return journal.processed if journal is not None else None

    def wait_for_journal(self, client: Client) -> None:
        """``client`` has messages that wait on journal writes in flight."""
        self._waiting[client] = None

    def commit_journal(self) -> None:
        """Hand the journal writes queued so far to the journal's writer, as one
        batch (or as the next, once the batch in flight is committed)
        (:meth:`Recorder.commit <craits.server.journal.recorder.Recorder.commit>`)."""
        recorder = self._server.recorder
        if recorder is not None:
            recorder.commit()

    def forget(self, client: Client) -> None:
        """A connection closed: nothing more is written to it."""
        self._waiting.pop(client, None)
