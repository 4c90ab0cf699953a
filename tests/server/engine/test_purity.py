"""The rules engine is pure at run time too: importing it loads no I/O, UI or wire code.

The import contracts (``lint-imports``) check the engine's own imports; this
checks what a fresh interpreter actually loads, packages' ``__init__`` files
included (the engine imports the vocabulary from ``craits.protocol``).
"""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("asyncio", "socket", "threading", "sqlite3", "msgpack", "textual")


def test_importing_the_engine_loads_no_io_ui_or_wire_code() -> None:
    code = (
        "import json, sys\n"
        "import craits.server.engine\n"
        f"print(json.dumps(sorted(m for m in {FORBIDDEN!r} if m in sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == []
