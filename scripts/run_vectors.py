#!/usr/bin/env python3
"""Run rule vectors through the rules engine.

Usage: ``python scripts/run_vectors.py FOLDER_OR_FILE [...]`` (default:
``../shared/vectors``). Prints one line per failing case, then
``N passed, M failed``; exits 1 if any case failed.

It needs nothing installed: the rules engine and the vocabulary are the
standard library only, so a bare ``python3`` in a fresh clone runs it from the
checkout (:func:`use_checkout`) when ``craits`` is not installed.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to."""


def use_checkout() -> None:
    """Make ``craits.protocol`` and ``craits.server`` importable from this
    checkout's ``protocol/`` and ``server/`` folders, as pyproject's
    ``package-dir`` maps them, unless ``craits`` is installed (then nothing is
    done: the installed package is the one run)."""
    if importlib.util.find_spec("craits") is not None:
        return
    namespace = types.ModuleType("craits")
    namespace.__path__ = []
    sys.modules["craits"] = namespace
    for room in ("protocol", "server"):
        spec = importlib.util.spec_from_file_location(
            f"craits.{room}",
            ROOT / room / "__init__.py",
            submodule_search_locations=[str(ROOT / room)],
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        setattr(namespace, room, module)
        spec.loader.exec_module(module)


use_checkout()

from craits.server.ops.vectors import run_files  # noqa: E402 (after use_checkout)


def main(argv: list[str]) -> int:
    """Run the vectors in ``argv`` (folders or files); return the exit status."""
    paths = argv or [str(ROOT.parent / "shared" / "vectors")]
    outcomes = run_files(paths)
    failed = [o for o in outcomes if not o.passed]
    for o in failed:
        print(f"FAIL {o.name} [{Path(o.path).name}]: {'; '.join(o.problems)}")
    print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed or not outcomes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
