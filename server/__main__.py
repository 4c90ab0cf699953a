"""``python -m craits.server``: the same as ``craits-server``."""

import sys

from craits.server.cli import main

sys.exit(main())
