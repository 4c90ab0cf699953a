"""``python -m craits.client``: the same as ``craits-client``."""

import sys

from craits.client.cli import main

sys.exit(main())
