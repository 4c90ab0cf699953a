"""Opening the journal at start: restoring its tables, and setting aside those
that do not replay.

A table whose row cannot be read, or whose game's log does not replay (a
damaged journal, an action the rules refuse), must not keep every other table
from coming back. :func:`restore_tables` restores each table on its own; one
that fails is *set aside*: it is logged, it is not restored, its name stays
taken (so a new table cannot overwrite its row), and its rows stay in the
journal, untouched, for the operator to inspect (``craits-server check``
reports it). Its players learn of it when they try to resume: ``bad_token``,
with a message naming the table (protocol §4.8).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from craits.protocol.vocab import ErrorCode

from ..engine import Rules
from ..errors import JournalError, TableError
from ..table.actor import Table, TableConfig
from ..table.ports import TableHost, TableJournal, TokenBook
from .journal import Durability, Journal, SavedTable

log = logging.getLogger("craits.server")


class SetAside:
    """The tables set aside at start: why each was, and their seats' resume
    tokens (by SHA-256 digest, as the journal keeps them)."""

    def __init__(self) -> None:
        self.reasons: dict[str, str] = {}
        """Why each table was set aside, by name."""
        self._tokens: dict[bytes, str] = {}

    def __contains__(self, name: object) -> bool:
        return name in self.reasons

    def __len__(self) -> int:
        return len(self.reasons)

    def add(self, saved: SavedTable, reason: str) -> None:
        """Set aside the table ``saved`` for ``reason``, keeping its seats' token
        digests (as far as its row can be read)."""
        self.reasons[saved.name] = reason
        for digest in _digests(saved.seats):
            self._tokens[digest] = saved.name

    def refuse_token(self, digest: bytes) -> None:
        """Refuse a resume token whose table was set aside (nothing if it was not).

        Raises:
            TableError: ``bad_token``, naming the table and saying why it cannot be resumed.
        """
        name = self._tokens.get(digest)
        if name is not None:
            raise TableError(
                ErrorCode.BAD_TOKEN,
                f"table {name!r} was set aside: the server could not rebuild it from "
                "its journal, so its seats cannot be resumed",
            )


def _digests(seats: Any) -> list[bytes]:
    """The token digests of a journal row's seats; what cannot be read is skipped."""
    found = []
    if isinstance(seats, list):
        for row in seats:
            token = row.get("token") if isinstance(row, dict) else None
            if isinstance(token, str):
                try:
                    found.append(bytes.fromhex(token))
                except ValueError:
                    continue
    return found


def rebuild_table(
    saved: SavedTable,
    config: TableConfig,
    host: TableHost,
    tokens: TokenBook,
    journal: TableJournal | None,
) -> Table:
    """The table ``saved`` rebuilt from the journal, held by ``host``: seats
    and tokens (registered in ``tokens``), and its game by replaying every
    recorded shuffle and action. Every seat starts disconnected; turn timers
    restart once a player is back.

    Raises:
        Exception: the table cannot be rebuilt (a row or log that does not
            read or replay); its tokens are dropped again.
    """
    rules = Rules.from_dict(saved.rules)
    table = Table(saved.name, saved.capacity, rules, config, None, host, tokens, journal)
    try:
        table.restore(saved)
    except BaseException:
        table.seating.drop_tokens()
        raise
    log.info("table %s: restored (%s)", saved.name, table.status.state)
    return table


def restore_tables(
    saved: Iterable[SavedTable], restore: Callable[[SavedTable], object]
) -> SetAside:
    """Restore each table of ``saved`` with ``restore(table)``; a table that
    cannot be read, or whose ``restore`` raises anything, is set aside and
    logged, and the others are restored all the same. Returns those set aside."""
    aside = SetAside()
    for table in saved:
        reason = table.problem
        if reason is None:
            try:
                restore(table)
                continue
            except Exception as exc:  # any failure sets this one table aside
                reason = str(exc) or type(exc).__name__
                log.debug("table %s: restore failed", table.name, exc_info=True)
        aside.add(table, reason)
        log.error(
            "table %s: set aside, not restored: %s (its rows stay in the journal; "
            "'craits-server check' reports it)",
            table.name,
            reason,
        )
    if len(aside):
        log.warning("%d table(s) set aside: %s", len(aside), ", ".join(sorted(aside.reasons)))
    return aside


def open_journal(
    path: Path,
    durability: Durability,
    on_pending: Callable[[], None],
    restore: Callable[[SavedTable, Journal], object],
) -> tuple[Journal, SetAside]:
    """Open the journal at ``path`` (its writer started, ``durability`` as
    given; ``on_pending`` is called when a write is queued) and restore each of
    its tables with ``restore(table, journal)``; a table that does not replay
    is set aside (:func:`restore_tables`). Returns the journal and the tables
    set aside.

    Raises:
        JournalError: the journal cannot be opened or its tables listed
            (:class:`~craits.server.errors.JournalDamaged`: it is damaged;
            ``JournalUnwritable``: it cannot be written), or another server
            holds it (``JournalLocked``).
    """
    journal = Journal(path, on_pending=on_pending, durability=durability)
    try:
        aside = restore_tables(journal.tables(), lambda saved: restore(saved, journal))
    except JournalError:
        journal.close()
        raise
    journal.look_for_damage()
    return journal, aside
