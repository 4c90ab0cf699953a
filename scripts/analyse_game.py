#!/usr/bin/env python3
"""The post-game analysis of a game of a server's journal, or of a record file
(``docs/bots.md``, "Post-game analysis"): the expert package's command
(:func:`craits.server.bots.expert.analyse.analyse_main`) with the journal's
reader that ``craits-server analyse`` uses
(:func:`craits.server.ops.commands.journal_loader`), for a checkout.

    python scripts/analyse_game.py 12 --data-dir /var/lib/craits
    python scripts/analyse_game.py craits-game-12.json --json

A game id is read from ``craits.db`` in ``--data-dir`` (else the server's own
setting: ``CRAITS_DATA_DIR``, else the default folder), read only (safe beside a
running server), its record built as ``craits-server export`` builds it.
``--help`` gives the options.
"""

from __future__ import annotations

import sys

from craits.server.bots.expert.analyse import analyse_main
from craits.server.ops.commands import journal_loader

if __name__ == "__main__":
    sys.exit(analyse_main(prog="analyse_game.py", load_game=journal_loader()))
