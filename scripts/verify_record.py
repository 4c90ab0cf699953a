#!/usr/bin/env python3
"""Check a Craits game record: every shuffle against its published SHA-256
commitment, and a replay of the whole game to the recorded hands and scores.

Usage: ``python scripts/verify_record.py FILE [FILE...]``. Prints one line per
record (``OK`` or the problems) and exits 1 if any record fails.
"""

from __future__ import annotations

import json
import sys

from craits.server.records import verify_record


def main(paths: list[str]) -> int:
    """Verify each record file; return the exit status."""
    if not paths:
        print("usage: verify_record.py FILE [FILE...]", file=sys.stderr)
        return 2
    failed = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                record = json.load(f)
            problems = verify_record(record)
        except (OSError, ValueError) as exc:
            problems = [f"cannot read: {exc}"]
        if problems:
            failed += 1
            print(f"FAIL {path}: {'; '.join(problems)}")
        else:
            print(f"OK {path}: {len(record['hands'])} hands, winners {record['winners']}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
