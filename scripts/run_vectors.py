#!/usr/bin/env python3
"""Run rule vectors through the rules engine.

Usage: ``python scripts/run_vectors.py FOLDER_OR_FILE [...]`` (default:
``../shared/vectors``). Prints one line per failing case, then
``N passed, M failed``; exits 1 if any case failed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from craits.server.ops.vectors import run_files


def main(argv: list[str]) -> int:
    """Run the vectors in ``argv`` (folders or files); return the exit status."""
    paths = argv or [str(Path(__file__).resolve().parent.parent.parent / "shared" / "vectors")]
    outcomes = run_files(paths)
    failed = [o for o in outcomes if not o.passed]
    for o in failed:
        print(f"FAIL {o.name} [{Path(o.path).name}]: {'; '.join(o.problems)}")
    print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed or not outcomes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
