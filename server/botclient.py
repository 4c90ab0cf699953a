"""The network bot's former home, kept so ``craits.server.botclient`` (and
``python -m craits.server.botclient``) still work: the code is in
:mod:`craits.server.bots.client` and :mod:`craits.server.bots.cli`."""

from __future__ import annotations

import sys

from .bots.cli import build_parser, main, run
from .bots.client import (
    FATAL_CODES,
    IDLESS_ACT_CODES,
    MAX_REFUSALS,
    NAME_TRIES,
    RACE_CODES,
    BotClient,
    BotError,
    BotStats,
    connect_bot,
)

__all__ = [
    "FATAL_CODES",
    "IDLESS_ACT_CODES",
    "MAX_REFUSALS",
    "NAME_TRIES",
    "RACE_CODES",
    "BotClient",
    "BotError",
    "BotStats",
    "build_parser",
    "connect_bot",
    "main",
    "run",
]

if __name__ == "__main__":
    sys.exit(main())
