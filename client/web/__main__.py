"""``python -m craits.client.web``: the same as ``craits-web``."""

import sys

from .cli import main

sys.exit(main())
