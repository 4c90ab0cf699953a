"""What the accounts package may import (its docstring, docs/accounts.md): of the
project, only the protocol (not its wire nor its client) and the rules engine.
The import contract in pyproject.toml names the server's parts it must never
reach; this holds the rule whatever the server's modules are called."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "accounts"
ALLOWED = ("craits.protocol", "craits.server.engine")
NOT_EVEN = ("craits.protocol.wire", "craits.protocol.client")


def imports(path: Path) -> list[tuple[str, int]]:
    """``(absolute module, relative level)`` of each import in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level))
    return found


def test_accounts_import_only_the_protocol_and_the_engine() -> None:
    files = sorted(PACKAGE.glob("*.py"))
    assert files
    wrong = []
    for path in files:
        for module, level in imports(path):
            if level > 1:  # ..something: outside the package
                wrong.append(f"{path.name}: {'.' * level}{module}")
            elif (
                level == 0
                and module.startswith("craits")
                and (not module.startswith(ALLOWED) or module.startswith(NOT_EVEN))
            ):
                wrong.append(f"{path.name}: {module}")
    assert wrong == []
