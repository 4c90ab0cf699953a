"""The hints asked at the table shown (protocol §7.6, ``docs/bots.md`` "Hints"):
what the expert bot would do now at this seat, asked with the table screen's key.

:class:`Hints` sends the ``hint`` request and keeps the answer for the position it
answers (the table, and the update's ``seq``): once the game moves on, the hint
is gone, as the position it judged. Refusals (a spectator, nothing to decide,
one already asked) are the server's words, said by :class:`~.refusals.Refusals`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from craits.protocol.i18n import _
from craits.protocol.types import Hint, HintMsg, HintRequestMsg
from craits.protocol.vocab import ClientMessage

from .model import TableModel

if TYPE_CHECKING:
    from .news import Listener
    from .place import Place
    from .requests import Requests


class Hints:
    """The hint of the table shown, if one answers the position now.

    Args:
        requests: where the request goes.
        place: the table shown.
        listener: told when a hint comes (``table_changed``), and of the wait.
    """

    def __init__(self, requests: Requests, place: Place, listener: Listener):
        self._requests = requests
        self._place = place
        self._listener = listener
        self._hint: tuple[str, int, Hint] | None = None
        self._asked: tuple[str, int] | None = None

    def ask(self) -> bool:
        """Ask the server for a hint on the position now; False when none is asked
        (no table, or offline: then the user is told)."""
        model = self._place.model
        if model is None:
            return False
        if self.current(model) is not None:  # already there: shown again
            self._listener.table_changed(False)
            return True
        if not self._requests.send(HintRequestMsg(type=ClientMessage.HINT)):
            return False
        self._asked = (model.name, model.seq)
        self._listener.said(_("Thinking about your move…"), "information", 1.0, model.name)
        return True

    def take(self, m: HintMsg) -> None:
        """A hint came: kept if it answers the position shown now (else the game
        moved on meanwhile, and it is dropped)."""
        model = self._place.model
        self._asked = None
        if model is None or model.name != m["table"] or model.seq != m["seq"]:
            return
        self._hint = (m["table"], m["seq"], m["hint"])
        self._listener.table_changed(False)

    def current(self, model: TableModel) -> Hint | None:
        """The hint for ``model``'s position now, or None."""
        kept = self._hint
        if kept is None or kept[0] != model.name or kept[1] != model.seq:
            return None
        return kept[2]

    def waiting(self, model: TableModel) -> bool:
        """Whether a hint asked on ``model``'s position now is still to come."""
        return self._asked == (model.name, model.seq)
