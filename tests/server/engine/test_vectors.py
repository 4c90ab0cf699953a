"""The shared rule vectors pass, through the same runner the script uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from craits.server.ops.vectors import run_files

from tests.support.paths import REPO, SHARED_VECTORS


def _cases() -> list[Any]:
    if SHARED_VECTORS.is_dir():
        return sorted(SHARED_VECTORS.glob("*.json"))
    # one skipped case that says why, rather than pytest's "got empty parameter set"
    absent = pytest.mark.skip(reason="../shared/vectors is not present")
    return [pytest.param(None, id="no-vectors", marks=absent)]


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.stem)
def test_shared_vector(path: Path) -> None:
    (outcome,) = run_files([path])
    assert outcome.problems == []


def test_runner_script_reports_and_fails_on_a_wrong_case(tmp_path: Path, vectors_dir: Path) -> None:
    case = json.loads((vectors_dir / "r9-threes-example-37.json").read_text())
    case["expect"]["points"] = 38
    (tmp_path / "wrong.json").write_text(json.dumps(case))
    good = json.loads((vectors_dir / "r4-legal-set.json").read_text())
    (tmp_path / "good.json").write_text(json.dumps(good))
    run = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "run_vectors.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    lines = run.stdout.strip().splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert "points: expected 38, got 37" in lines[0]


def test_runner_script_passes_the_shared_folder(vectors_dir: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "run_vectors.py"), str(vectors_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    n = len(list(vectors_dir.glob("*.json")))
    assert run.stdout.strip().splitlines()[-1] == f"{n} passed, 0 failed"
    assert run.returncode == 0


def test_runner_script_needs_nothing_installed(vectors_dir: Path) -> None:
    """A bare interpreter in a fresh clone runs the vectors: ``-S`` leaves out
    site-packages, so neither the installed ``craits`` nor any dependency is
    there (it failed with "No module named 'craits'"); the script runs the
    checkout's engine, which needs the standard library only."""
    run = subprocess.run(
        [sys.executable, "-S", str(REPO / "scripts" / "run_vectors.py"), str(vectors_dir)],
        capture_output=True,
        text=True,
        check=False,
        cwd=vectors_dir,
    )
    n = len(list(vectors_dir.glob("*.json")))
    assert run.stdout.strip().splitlines()[-1:] == [f"{n} passed, 0 failed"], run.stderr
    assert run.returncode == 0
