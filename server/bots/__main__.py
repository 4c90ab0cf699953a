"""``python -m craits.server.bots``: the same as ``craits-bot``."""

import sys

from .cli import main

sys.exit(main())
