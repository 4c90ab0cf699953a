"""``python -m craits.server``: the same as ``craits-server``."""

import sys

from .cli import main

sys.exit(main())
