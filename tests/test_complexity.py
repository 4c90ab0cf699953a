"""Functions' cyclomatic complexity by radon (issue 24): none over 20 in the folders
of :data:`ROOTS`, none over 15 in the table and network rooms (the game's hot path,
and every frame).

Radon counts boolean operators and comprehensions too; ruff's ``C901``
(``max-complexity`` in ``pyproject.toml``, mccabe's count) holds the same code
more loosely. A function over its limit is split by what it does (a table of
handlers, one method per case), never by a ``noqa``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Function

ROOT = Path(__file__).resolve().parent.parent
ROOTS = ["server", "client", "protocol", "scripts"]
"""The folders held."""
MAX_COMPLEXITY = 20
"""No function in :data:`ROOTS` over this cyclomatic complexity (radon's count)."""
ROOM_MAX_COMPLEXITY = {"server/table": 15, "server/net": 15}
"""Rooms held lower: the table (the game's hot path) and the network (every frame)."""


def complexities(folder: Path, root: Path = ROOT) -> list[tuple[str, str, int]]:
    """``(path, function, complexity)`` of every function and method under
    ``folder`` (radon's :func:`~radon.complexity.cc_visit`, closures included),
    paths relative to ``root``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        pending = list(cc_visit(path.read_text(encoding="utf-8")))
        while pending:
            block = pending.pop()
            if isinstance(block, Function):
                found.append((where, block.fullname, block.complexity))
                pending.extend(block.closures)
    return found


def limit(path: str) -> int:
    """The highest complexity allowed in the file at ``path`` (relative to the root)."""
    rooms = [n for room, n in ROOM_MAX_COMPLEXITY.items() if path.startswith(room + "/")]
    return min(rooms, default=MAX_COMPLEXITY)


def test_the_count_sees_methods_and_closures(tmp_path: Path) -> None:
    """The count itself: a method, and a closure inside a function, are counted."""
    branches = "".join(f"        if x == {i}:\n            return {i}\n" for i in range(21))
    folder = tmp_path / "room"
    folder.mkdir()
    (folder / "sample.py").write_text(
        "class A:\n    def m(self, x):\n" + branches + "        return -1\n"
        "def f():\n    def inner(x):\n" + branches + "        return -1\n    return inner\n",
        encoding="utf-8",
    )
    found = {name: cc for _path, name, cc in complexities(folder, tmp_path)}
    assert found == {"A.m": 22, "f": 1, "inner": 22}


@pytest.mark.parametrize("root", ROOTS)
def test_no_function_over_its_complexity(root: str) -> None:
    over = {
        f"{path}:{name}": cc for path, name, cc in complexities(ROOT / root) if cc > limit(path)
    }
    assert over == {}, f"functions over their room's complexity (radon): {over}"
