"""The ``--bots`` practice tables (protocol §11.8): ``practice``, and more
opened on demand, so a newcomer who finds one taken gets one of their own.

A server started with ``craits-server --bots N`` keeps one practice table
*free* — waiting, its N bots seated, its one seat open — while fewer than
``--max-practice-tables`` are open: when a person takes the free one (its
game starts at once), the next is opened, named ``practice-2``,
``practice-3``… (the lowest number not in use). A practice table closes as
any table does once its game is over and its person has gone, or when it is
abandoned (§11.1); ``practice`` itself is then opened afresh, and a free
table beyond the one kept is closed. So the lobby holds the tables in use and
one free table, and at most ``--max-practice-tables`` in all: one person takes
one at a time per connection, and a table whose person is gone closes after
the server's grace for tables whose people are all offline.

The names ``practice`` and ``practice-N`` are kept for these tables on such a
server: ``create_table`` of one is ``table_exists``.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from craits.protocol.vocab import ErrorCode

from ..engine import Rules
from ..errors import TableError

if TYPE_CHECKING:
    from ..app import Server
    from ..table.actor import Table

log = logging.getLogger("craits.server")

PRACTICE = "practice"
"""The name of the first practice table (the others add ``-2``, ``-3``…)."""
MAX_PRACTICE_TABLES = 8
"""Practice tables a server keeps open at most, by default
(``craits-server --max-practice-tables``)."""
_NAME = re.compile(r"practice(?:-[1-9][0-9]{0,5})?")


class PracticeTables:
    """The practice tables of ``server`` (its config's ``bots`` seated at each;
    none when 0), at most ``max_practice_tables`` open at once. Tables are
    opened and closed through the server (``create_table``, ``close_table``)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.bots = server.config.bots
        self.limit = max(1, server.config.max_practice_tables)

    def owns(self, name: str) -> bool:
        """Whether ``name`` is a practice table's (or kept for one)."""
        return self.bots > 0 and _NAME.fullmatch(name) is not None

    def refuse_name(self, name: str) -> None:
        """A person may not create a table under a practice table's name.

        Raises:
            TableError: ``table_exists``.
        """
        if self.owns(name):
            raise TableError(
                ErrorCode.TABLE_EXISTS,
                f"the name {name!r} is kept for this server's practice tables",
            )

    def _tables(self) -> list[Table]:
        return [t for name, t in self.server.tables.items() if self.owns(name)]

    @staticmethod
    def _free(table: Table) -> bool:
        """Waiting with its seat open and no person at it: ready for a newcomer."""
        return table.status.waiting and not table.seating.full() and table.seating.is_empty()

    def free_one(self) -> str | None:
        """The name of a free practice table, or None (all are taken)."""
        return next((t.name for t in self._tables() if self._free(t)), None)

    def start(self) -> None:
        """At the server's start (after restoring the journal): ``practice``
        is open, and one table is free."""
        if self.bots > 0 and PRACTICE not in self.server.tables:
            self._open(PRACTICE)
        self.tidy()

    def tidy(self) -> None:
        """After a practice table was taken or closed: open the next if none is
        free and fewer than the limit are open; close the free tables beyond
        one (``practice`` is the one kept when it is free)."""
        server = self.server
        if self.bots <= 0 or server.stopping:
            return
        tables = self._tables()
        free = sorted((t for t in tables if self._free(t)), key=lambda t: t.name != PRACTICE)
        if not free and len(tables) < self.limit:
            self._open(self._next_name())
        for extra in free[1:]:
            log.info("table %s: a practice table nobody needs; closed", extra.name)
            server.close_table(extra)

    def closed(self, table: Table) -> None:
        """``table`` closed: ``practice`` is opened afresh; one table stays free."""
        server = self.server
        if not self.owns(table.name) or server.stopping:
            return
        if table.name == PRACTICE:
            self._open(PRACTICE)
        self.tidy()

    def taken(self, table: Table, refused: TableError) -> TableError:
        """The ``join`` of practice table ``table`` was refused ``refused``
        (``table_full``: its game is played): the refusal names a free
        practice table, or says that every one is in use."""
        if not self.owns(table.name) or refused.code != ErrorCode.TABLE_FULL:
            return refused
        free = self.free_one()
        where = (
            f"practice table {free!r} is free"
            if free is not None
            else f"every practice table is in use ({self.limit} at most); try again later"
        )
        return TableError(ErrorCode.TABLE_FULL, f"{refused.message}; {where}")

    def _next_name(self) -> str:
        taken = self.server.tables
        if PRACTICE not in taken:
            return PRACTICE
        n = 2
        while f"{PRACTICE}-{n}" in taken:
            n += 1
        return f"{PRACTICE}-{n}"

    def _open(self, name: str) -> None:
        """Open practice table ``name``: the bots, and one seat for a person.
        A server at its cap of tables opens none (it says so in its log)."""
        server = self.server
        try:
            table = server.create_table(name, self.bots + 1, Rules(), None, None)
        except TableError as exc:
            log.warning("table %s: no practice table opened: %s", name, exc.message)
            return
        for _ in range(self.bots):
            table.request(table.membership.add_bot, server.config.bot_level)
