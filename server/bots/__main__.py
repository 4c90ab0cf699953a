"""``python -m craits.server.bots``: the same as ``craits-bot``."""

import sys

from .network.cli import main

sys.exit(main())
