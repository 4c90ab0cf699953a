"""The table's top line (the table, its state, the hand, who is watching) and a
quick-play table's countdown to its bots (protocol §11.13)."""

from __future__ import annotations

import time
from typing import Any

from ...core.model import TableModel
from ...present import presenter
from .fixed_text import FixedText


class TopBar(FixedText):
    """The table's top line, in fewer words on a narrow screen; while a
    quick-play table counts down to its bots, the seconds left (:attr:`counting`:
    the screen's tick redraws it then)."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._bots: tuple[int, float] | None = None  # the bots' countdown: (its ms, due when)

    @property
    def counting(self) -> bool:
        """A countdown to the bots runs."""
        return self._bots is not None

    def show(self, model: TableModel, short: bool) -> None:
        """Draw the line for ``model`` (``short``: a narrow screen's)."""
        now = time.monotonic()
        self._bots = bots = presenter.bots_deadline(model.info, self._bots, now)
        left = None if bots is None else max(0.0, bots[1] - now)
        self.update(presenter.topbar(model, short=short, bots_in=left))
