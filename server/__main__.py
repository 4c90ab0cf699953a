"""``python -m craits.server``: the same as ``craits-server``."""

import sys

from .ops.cli import main

sys.exit(main())
