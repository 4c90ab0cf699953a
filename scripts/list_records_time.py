"""How long the server takes to answer ``list_records`` (protocol §7.3) from a
journal of many finished games, some of them private (their readers kept,
``docs/records.md``, "Who may read a record").

Usage: ``python scripts/list_records_time.py [--games N] [--tries N]``. Fills a
throwaway journal with N finished games (default 20 000) in two layouts: one
game in ten public, and every game private but the oldest hundred (the worst
case for a stranger, whose list must reach back to the public games). Prints,
for each, the best of ``--tries`` timings of: every finished game read and the
newest 100 kept (the list as it was made before private games were kept from
strangers, :meth:`~craits.server.journal.journal.JournalReader.games`); the list a
stranger gets, with no token and with 100 tokens that prove nothing; and the
list of a player whose tokens prove 100 of the private games. Milliseconds,
on the event loop's thread (the server does nothing else meanwhile).
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from craits.server.journal.journal import Journal
from craits.server.journal.record_access import Asker, listed
from craits.server.table.seating import token_digest


def fill(journal: Journal, games: int, public: Callable[[int], bool]) -> list[str]:
    """``games`` finished games of four seats, each private one with four
    readers; returns the tokens of one seat of each of the newest 100 private games."""
    db = journal.db
    tokens: list[str] = []
    db.execute("BEGIN")
    for i in range(1, games + 1):
        db.execute(
            "INSERT INTO games (id, table_name, players, rules, started, finished, private)"
            ' VALUES (?, ?, \'["A", "B", "C", "D"]\', \'{}\', 1.0, 2.0, ?)',
            (i, f"t{i}", int(not public(i))),
        )
        if public(i):
            continue
        seats = [secrets.token_urlsafe(24) for _ in range(4)]
        for token in seats:
            db.execute("INSERT INTO readers VALUES (?, ?)", (i, token_digest(token)))
        tokens.append(seats[0])
    db.execute("COMMIT")
    return tokens[-100:]


def best_ms(fn: Callable[[], object], tries: int) -> float:
    times = []
    for _ in range(tries):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def time_layout(games: int, public: Callable[[int], bool], tries: int) -> dict[str, float]:
    """The timings of one layout of ``games`` games (``public(id)``: a public game)."""
    with tempfile.TemporaryDirectory() as folder:
        journal = Journal(Path(folder) / "craits.db")
        try:
            mine = Asker.of(fill(journal, games, public))
            junk = Asker.of([secrets.token_urlsafe(24) for _ in range(100)])
            cases: dict[str, Callable[[], object]] = {
                "every game read, newest 100 kept (before)": lambda: journal.games()[:100],
                "a stranger, no token": lambda: listed(journal, Asker(), 100),
                "a stranger, 100 tokens proving nothing": lambda: listed(journal, junk, 100),
                "a player, 100 tokens of its games": lambda: listed(journal, mine, 100),
            }
            return {name: best_ms(fn, tries) for name, fn in cases.items()}
        finally:
            journal.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--tries", type=int, default=7)
    args = parser.parse_args()
    layouts: dict[str, Callable[[int], bool]] = {
        "one game in ten public": lambda i: i % 10 == 0,
        "all private but the oldest 100": lambda i: i <= 100,
    }
    for title, public in layouts.items():
        print(f"{args.games} games, {title}:")
        for name, ms in time_layout(args.games, public, args.tries).items():
            print(f"  {name}: {ms:.1f} ms")


if __name__ == "__main__":
    main()
