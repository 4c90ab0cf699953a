#!/usr/bin/env python3
"""Check a Craits game record: every shuffle against its published SHA-256
commitment, and a replay of the whole game to the recorded hands and scores.

Usage: ``python scripts/verify_record.py FILE [FILE...]``. Prints one line per
record (``OK`` or the problems) and exits 1 if any record fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from craits.protocol.vocab import AbandonReason
from craits.server.fairness import verify_record


def build_parser() -> argparse.ArgumentParser:
    """The command line of the verifier."""
    p = argparse.ArgumentParser(
        prog="verify_record.py",
        description="Check Craits game records (craits-server export): every shuffle "
        "against its SHA-256 commitment, and a replay of the game to the recorded "
        "hands and scores. One line per record, OK or what failed; exit status 1 "
        "if any record fails.",
    )
    p.add_argument("files", metavar="FILE", nargs="+", help="a game record (JSON)")
    return p


ABANDONED = {
    AbandonReason.NOBODY_CONNECTED: "nobody was connected",
    AbandonReason.CLOSED_BY_CREATOR: "its creator closed the table",
}
"""Each reason a record's ``abandoned`` gives, in words (``docs/records.md``)."""


def summary(record: dict[str, Any]) -> str:
    """What a sound record holds, for its OK line."""
    count = len(record["hands"])
    hands = f"{count} hand" if count == 1 else f"{count} hands"
    if not record.get("complete"):
        why = ABANDONED.get(record.get("abandoned"))
        if why is not None:
            return f"{hands}, abandoned: {why} (no final standings)"
        return f"{hands}, unfinished (no final standings)"
    players = record.get("players") or []
    names = [
        players[w] if isinstance(w, int) and 0 <= w < len(players) else str(w)
        for w in record["winners"]
    ]
    return f"{hands}, won by {', '.join(names)}"


def main(argv: list[str] | None = None) -> int:
    """Verify each record file; return the exit status."""
    args = build_parser().parse_args(argv)
    failed = 0
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                record = json.load(f)
            if isinstance(record, dict):
                problems = verify_record(record)
            else:
                problems = ["not a Craits record (not a JSON object)"]
        except (OSError, ValueError) as exc:
            problems = [f"cannot read: {exc}"]
        if problems:
            failed += 1
            print(f"FAIL {path}: {'; '.join(problems)}")
        else:
            print(f"OK {path}: {summary(record)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
