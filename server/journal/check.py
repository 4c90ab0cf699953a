"""``craits-server check``: is the journal whole? For operators.

It opens the journal read-only (safe beside a running server), runs SQLite's
``integrity_check``, rebuilds every open table the way the server does at
start (:func:`craits.server.journal.restore.rebuild_table`: a table that fails would
be set aside), and replays every game in the journal, finished or not,
checking its shuffle commitments (:func:`craits.server.journal.records.verify_record`)
and that a game marked finished replays to its end. It prints a summary and
each problem on a line of its own.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import JournalError
from ..table.actor import TableConfig
from .journal import JournalReader
from .records import build_record, verify_record
from .restore import rebuild_table

if TYPE_CHECKING:
    from ..table.actor import Table

INTEGRITY_LINES = 20
"""At most this many of ``integrity_check``'s findings are reported."""


class _Offline:
    """The host and token book of tables rebuilt only to see that they can be:
    it keeps nothing, tells nothing, closes nothing."""

    def table_changed(self, table: Table) -> None:
        """Nothing to tell."""

    def close_table(self, table: Table) -> None:
        """Nothing to close: the table is only looked at."""

    def game_over(self, table: Table) -> None:
        """Nothing to rate: the table is only looked at."""

    def issue(self, table: Table, seat: int) -> str:
        """No seat is taken at a table only looked at."""
        raise RuntimeError("a table rebuilt to be checked takes no player")

    def register(self, digest: bytes, table: Table, seat: int) -> None:
        """Nothing to keep."""

    def drop(self, digest: bytes) -> None:
        """Nothing kept."""

    def revoke(self, digest: bytes, table: str | None) -> None:
        """Nothing kept."""


@dataclass
class CheckReport:
    """What :func:`check_journal` found."""

    integrity: list[str] = field(default_factory=list)
    """SQLite's findings; empty when ``integrity_check`` says ok."""
    tables: int = 0
    """Open tables in the journal."""
    tables_bad: dict[str, str] = field(default_factory=dict)
    """The tables that do not rebuild (the server sets them aside), with why."""
    games: int = 0
    """Games in the journal."""
    finished: int = 0
    """Of them, finished and sound."""
    games_bad: dict[int, str] = field(default_factory=dict)
    """The games that cannot be read or do not replay, with why."""

    @property
    def problems(self) -> int:
        """How many problems were found (0: the journal is whole)."""
        return len(self.integrity) + len(self.tables_bad) + len(self.games_bad)

    def lines(self) -> list[str]:
        """The summary, one line each, problems indented under their heading."""
        out = [
            "integrity: " + ("ok" if not self.integrity else f"{len(self.integrity)} problem(s)")
        ]
        out += [f"  {line}" for line in self.integrity]
        restore = self.tables - len(self.tables_bad)
        out.append(f"tables: {self.tables} ({restore} restore, {len(self.tables_bad)} set aside)")
        out += [f"  table {name!r}: {why}" for name, why in sorted(self.tables_bad.items())]
        sound = self.games - len(self.games_bad)
        out.append(
            f"games: {self.games} ({sound} replay: {self.finished} finished, "
            f"{sound - self.finished} in play; {len(self.games_bad)} do not)"
        )
        out += [f"  game {i}: {why}" for i, why in sorted(self.games_bad.items())]
        return out


def check_journal(journal: JournalReader) -> CheckReport:
    """Check the whole journal: SQLite's integrity check, every open table
    rebuilt, every game replayed and its commitments verified."""
    report = CheckReport(integrity=_integrity(journal))
    asyncio.run(_check_tables(journal, report))  # a table lives on an event loop
    _check_games(journal, report)
    return report


def _integrity(journal: JournalReader) -> list[str]:
    try:
        rows = journal.db.execute(f"PRAGMA integrity_check({INTEGRITY_LINES})").fetchall()
    except sqlite3.Error as exc:
        return [f"SQLite's integrity check stopped: {exc}"]
    found = [str(row[0]) for row in rows]
    return [] if found == ["ok"] else found


async def _check_tables(journal: JournalReader, report: CheckReport) -> None:
    try:
        saved = journal.tables()
    except JournalError as exc:
        report.tables_bad["*"] = f"the list of tables cannot be read: {exc}"
        return
    report.tables = len(saved)
    for table in saved:
        if table.problem is not None:
            report.tables_bad[table.name] = table.problem
            continue
        try:
            offline = _Offline()
            rebuild_table(table, TableConfig(table.turn_timeout), offline, offline, None)
        except Exception as exc:  # whatever stops the server's restore, it is a finding
            report.tables_bad[table.name] = str(exc) or type(exc).__name__


def _check_games(journal: JournalReader, report: CheckReport) -> None:
    ids, unreadable = journal.game_ids(finished_only=False)
    report.games = len(ids) + len(unreadable)
    for game_id, why in unreadable.items():
        report.games_bad[game_id] = f"cannot be read: {why}"
    for game_id in ids:
        problem, finished = _game_problem(journal, game_id)
        if problem is not None:
            report.games_bad[game_id] = problem
        elif finished:
            report.finished += 1


def _game_problem(journal: JournalReader, game_id: int) -> tuple[str | None, bool]:
    """What is wrong with game ``game_id`` (None: nothing), and whether it is finished."""
    try:
        row = journal.game(game_id)
    except JournalError as exc:
        return f"cannot be read: {exc}", False
    if row is None:
        return "cannot be read: its row is gone", False
    finished = row["finished"] is not None
    try:
        record = build_record(row)
    except Exception as exc:  # a log that does not replay, or rows that are not what they say
        return f"does not replay: {exc}", finished
    problems = verify_record(record)
    if finished and not record["complete"]:
        problems.append("marked finished, but its log ends before the game does")
    return "; ".join(problems) or None, finished
