"""No runtime import cycle anywhere in the package (issue 24), function-local
imports included.

The import contracts (``lint-imports``, ``pyproject.toml``) keep the rooms
layered, but import-linter reads only what the graph it builds holds, and a
cycle closed by an import inside a function (once ``protocol.client`` ↔
``protocol.tls``; the cluster's CLI reaching up into ``server.cli``) loads as
surely as one at the top, only later. This test reads every module of
``server/``, ``client/`` and ``protocol/`` itself: every ``import`` and
``from … import``, at any depth, except those under ``if TYPE_CHECKING:``
(types only, never run), and fails on any cycle among the modules they name.
Every module is also imported, in a fresh interpreter: the graph read is the
package that runs.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"server": "craits.server", "client": "craits.client", "protocol": "craits.protocol"}


def module_files(root: Path = ROOT) -> dict[str, tuple[Path, bool]]:
    """Every module of the package under ``root``: its dotted name → (file, is a package)."""
    found: dict[str, tuple[Path, bool]] = {}
    for folder, package in PACKAGES.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = list(path.relative_to(root / folder).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            found[".".join([package, *parts])] = (path, is_package)
    return found


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree`` that runs, at any depth: those under
    ``if TYPE_CHECKING:`` are types only and are left out."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                yield from _runtime_imports(ast.Module(body=[child], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _runtime_imports(node)


def imports_of(name: str, path: Path, is_package: bool, modules: set[str]) -> set[str]:
    """The project's modules that module ``name`` imports when it runs: for
    ``from pkg import x``, the module ``pkg.x`` if there is one, else ``pkg``."""
    here = name.split(".") if is_package else name.split(".")[:-1]
    found: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = here[: len(here) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                for alias in node.names
            ]
        found.update(t for t in targets if t in modules and t != name)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module → the project's modules it imports at run time."""
    files = module_files(root)
    names = set(files)
    return {name: imports_of(name, path, pkg, names) for name, (path, pkg) in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module
    (Tarjan's algorithm, iterative), each sorted: every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle_closed_inside_a_function(tmp_path: Path) -> None:
    """The finder itself: a cycle closed by a function-local import is one; an
    import under TYPE_CHECKING is not."""
    (tmp_path / "protocol").mkdir()
    (tmp_path / "server").mkdir()
    (tmp_path / "client").mkdir()
    (tmp_path / "protocol" / "__init__.py").write_text("")
    (tmp_path / "protocol" / "a.py").write_text("from .b import B\n")
    (tmp_path / "protocol" / "b.py").write_text("def f():\n    from .a import A\n")
    (tmp_path / "protocol" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nfrom .a import A\n"
        "if TYPE_CHECKING:\n    from .d import D\n"
    )
    (tmp_path / "protocol" / "d.py").write_text("from . import c\n")
    found = cycles(import_graph(tmp_path))
    assert found == [["craits.protocol.a", "craits.protocol.b"]]


KNOWN: list[list[str]] = []
"""Today's cycles, each to be undone (the list only shrinks; the client's last one, its
store of resume tokens and its record keys, went with its layout: one spelling per
server in ``client/core/saved/server_keys.py``)."""


def test_no_runtime_import_cycle() -> None:
    found = cycles(import_graph())
    new = [c for c in found if c not in KNOWN]
    assert new == [], "runtime import cycles (function-local imports included):\n" + "\n".join(
        " <-> ".join(c) for c in new
    )
    gone = [c for c in KNOWN if c not in found]
    assert gone == [], f"undone, strike from KNOWN: {gone}"


def test_every_module_imports() -> None:
    """Each module of the graph imports, in a fresh interpreter (none started:
    ``__main__`` modules are left out), so no module of it is dead or broken."""
    names = sorted(n for n in module_files() if not n.endswith(".__main__"))
    script = "import importlib, sys\nfor n in sys.argv[1:]:\n    importlib.import_module(n)\n"
    done = subprocess.run(
        [sys.executable, "-c", script, *names], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
