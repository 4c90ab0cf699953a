"""Tables nobody is at: they close, and nobody holds many (protocol §11.1).

A table is *unattended* when no person is at it (no seat held by a
connection, no spectator; bots do not count) and it holds no game (it is not
playing or paused). Such a table closes at once when its last person goes
(:meth:`EmptyTables.left`); a table that nobody has come to yet — a new one,
or one restored after a restart — gets :attr:`EmptyTables.grace` seconds,
then closes if still unattended. And a connection may hold at most ``per_connection`` such new
tables at once, an address (an IPv4 address, or an IPv6 /64) at most
``per_address``: ``create_table`` beyond that is refused with
``too_many_empty_tables``. So no one can fill the server's table cap with
tables nobody sits at, nor keep them across a restart.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from craits.protocol.vocab import ErrorCode

from ..errors import TableError
from ..ops import logs

if TYPE_CHECKING:
    from ..app import Server
    from ..net.connection import Client
    from ..table.actor import Table

log = logging.getLogger("craits.server")


def unattended(table: Table) -> bool:
    """No person at ``table`` (seated with a connection, or watching) and no
    game held (playing or paused): it may close."""
    return table.seating.is_empty() and not table.status.holds_game


@dataclass(slots=True)
class _Waiting:
    """A table waiting for its first person: who made it, and its timer."""

    holder: Client | None
    address: str | None
    timer: asyncio.TimerHandle


class EmptyTables:
    """The tables of ``server`` that nobody has come to yet, each with the
    timer that closes it :attr:`grace` seconds after it was made (or
    restored) unless a person is at it by then. ``server.close_table``
    closes them; its config gives the grace and the limits
    (``empty_table_grace``, ``max_empty_tables``, ``max_empty_tables_per_address``).
    """

    def __init__(self, server: Server):
        config = server.config
        self.server = server
        self.grace = config.empty_table_grace
        """Seconds a table may wait for its first person."""
        self.per_connection = config.max_empty_tables
        """New unattended tables one connection may hold at once."""
        self.per_address = config.max_empty_tables_per_address
        """New unattended tables one address may hold at once."""
        self._waiting: dict[Table, _Waiting] = {}

    def check(self, client: Client) -> None:
        """Whether ``client`` may make one more table.

        Raises:
            TableError: ``too_many_empty_tables``: it (or its address) already
                holds as many tables nobody is at as it may.
        """
        mine = theirs = 0
        for table, waiting in self._waiting.items():
            if unattended(table):
                mine += waiting.holder is client
                theirs += waiting.address == client.address
        if mine >= self.per_connection:
            raise self._refusal("you hold", mine, self.per_connection)
        if theirs >= self.per_address:
            raise self._refusal("your address holds", theirs, self.per_address)

    def _refusal(self, whose: str, held: int, limit: int) -> TableError:
        return TableError(
            ErrorCode.TOO_MANY_EMPTY_TABLES,
            f"{whose} {held} tables nobody sits at (at most {limit}); sit at one, "
            f"or wait: a table nobody comes to closes {self.grace:g} s after it was made",
        )

    def watch(self, table: Table, holder: Client | None = None) -> None:
        """``table`` was just made by ``holder`` (None: restored): it closes
        after the grace unless a person is at it by then."""
        loop, context = asyncio.get_running_loop(), logs.table_context(table.name)
        timer = loop.call_later(self.grace, self._expire, table, context=context)
        address = holder.address if holder is not None else None
        self._waiting[table] = _Waiting(holder, address, timer)

    def restored(self, table: Table) -> None:
        """``table`` was restored after a restart: if nobody is at it and it
        holds no game, it waits for its people as a new table would. The
        ``--bots`` practice tables are the server's own and stay."""
        server = self.server
        if unattended(table) and not server.practice.owns(table.name):
            self.watch(table)

    def left(self, table: Table) -> None:
        """A person left ``table`` (``leave``, a ``resume`` elsewhere, a dropped
        connection): close it if it is now unattended. A paused game stays, in
        the journal too, for a restart to restore. A ``--bots`` practice
        table stays until its game is over (:mod:`craits.server.lobby.practice`)."""
        if not unattended(table):
            return
        server = self.server
        if server.practice.owns(table.name) and not table.status.ended:
            return
        server.close_table(table)

    def forget(self, table: Table) -> None:
        """``table`` closed: stop its timer."""
        waiting = self._waiting.pop(table, None)
        if waiting is not None:
            waiting.timer.cancel()

    def _expire(self, table: Table) -> None:
        """The grace is over: close ``table`` if nobody came (or all went)."""
        self._waiting.pop(table, None)
        server = self.server
        if server.stopping or server.tables.get(table.name) is not table:
            return
        if unattended(table):
            log.info("table %s: nobody came within %g s; closed", table.name, self.grace)
            server.close_table(table)
