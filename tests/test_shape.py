"""The codebase's shape (issue 10): no class in the shells over ~300 lines.

The shells are the server outside its rules engine, the client and the
protocol; the engine's ``Game`` may stay one class, as python-chess's ``Board``
is. Function complexity is held by ruff (``C901``, ``max-complexity`` in
``pyproject.toml``), run by CI.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHELLS = ("server", "client", "protocol")
MAX_CLASS_LINES = 300


def _shell_files() -> list[Path]:
    files = []
    for part in SHELLS:
        for path in sorted((ROOT / part).rglob("*.py")):
            if "engine" not in path.relative_to(ROOT).parts:
                files.append(path)
    return files


@pytest.mark.parametrize("path", _shell_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shell_class_over_300_lines(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = {
        node.name: (node.end_lineno or node.lineno) - node.lineno + 1
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and (node.end_lineno or node.lineno) - node.lineno + 1 > MAX_CLASS_LINES
    }
    assert long == {}, f"classes over {MAX_CLASS_LINES} lines in {path.name}: {long}"
