"""What the plain client says: :class:`Speaker`, the session's listener and narrator,
writes one sentence per line to its stream (standard output), never a control
character, an escape sequence or a colour, never moving the cursor.

It says each event as it comes (through the table's event log, so a ``state``
after a reconnection says the hand so far once), whose turn it is, and, when
the player may act, the numbered choices (:func:`~.describe.menu`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TextIO

from craits.protocol.actions import Action
from craits.protocol.i18n import _
from craits.protocol.types import WireEvent
from rich.text import Text

from ..core.model import TableModel
from ..core.news import Severity
from ..core.reconnecting import LinkState
from . import describe
from .sentences import Sentences

_UNSAFE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""What never reaches the terminal: control characters (escape sequences start with one)."""


def speakable(text: str) -> str:
    """``text`` without control characters (network text: a chat line, a name)."""
    return _UNSAFE.sub(" ", text)


class Speaker:
    """Says what happens, one sentence a line (see the module's notes).

    Args:
        out: where the lines go.
        brief: say whose turn it is only when it is the player's.
    """

    def __init__(self, out: TextIO, brief: bool = False):
        self.out = out
        self.brief = brief
        self.model: TableModel | None = None
        """The table shown (set by the client from the session's news)."""
        self.offered: list[Action] = []
        """The choices last offered, numbered from 1."""
        self.failure: str | None = None
        """Why the first connection failed (the client then exits)."""
        self.state: LinkState | None = None
        self._printed = 0  # the log's lines said (its ``added``)
        self._rewrites = 0
        self._chat = 0
        self._to_act: int | None = None
        self._menu: tuple[int, tuple[Action, ...]] | None = None

    def line(self, text: str) -> None:
        """Say one line."""
        for part in speakable(str(text)).split("\n"):
            self.out.write(part.rstrip() + "\n")
        self.out.flush()

    def lines(self, texts: Sequence[str]) -> None:
        """Say several lines."""
        for text in texts:
            self.line(text)

    # ---------------------------------------------------- narration (the inbox's)

    def events(self, model: TableModel, events: Sequence[WireEvent]) -> list[Text]:
        """``events`` as sentences for ``model``'s seat, for the table's log."""
        return [Text(s) for s in Sentences(model.name_of, model.seat).events(events)]

    def timed_out(self, model: TableModel, seat: int, lines: list[Text]) -> list[Text]:
        """A timeout move's sentences, led by whom the server played for."""
        return [Text(Sentences(model.name_of, model.seat).timed_out(seat)), *lines]

    # ---------------------------------------------------- the session's news

    def show(self, model: TableModel | None) -> None:
        """A table to say from its first line (None: the lobby)."""
        self.model = model
        self._printed = self._rewrites = self._chat = 0
        if model is not None:
            self._rewrites = model.log.rewrites
        self._to_act = None
        self._menu = None
        self.offered = []

    def changed(self, new_update: bool) -> None:
        """The table changed: say its new log lines and chat, then the turn."""
        model = self.model
        if model is None:
            return
        self._say_log(model)
        self._say_chat(model)
        self._say_turn(model, new_update)

    def _say_log(self, model: TableModel) -> None:
        log = model.log
        first = log.added - len(log.lines)  # the number of lines[0]
        if log.rewrites != self._rewrites:  # a state rewrote the hand in play's lines
            self._rewrites = log.rewrites
            start = log.hand_start if log.hand_start is not None else 0
            before = start - 1 - first  # the line that leads the hand so far, if any
            back = _("Back at the table. The hand so far:")  # (the core's model adds it)
            if 0 <= before < len(log.lines) and log.lines[before].plain == back:
                start -= 1
            self._printed = min(self._printed, start)
        for line in log.lines[max(0, self._printed - first) :]:
            self.line(line.plain)
        self._printed = log.added

    def _say_chat(self, model: TableModel) -> None:
        for said in model.chat[self._chat :]:
            self.line(
                _("{player} writes: {text}").format(
                    player=speakable(said["name"]), text=speakable(said["text"])
                )
            )
        self._chat = len(model.chat)

    def _say_turn(self, model: TableModel, new_update: bool) -> None:
        offered = describe.choices(model)
        key = (model.seq, tuple(offered))
        if offered and key != self._menu:
            self._menu = key
            self.offered = offered
            self._to_act = model.to_act
            self.line(describe.menu(offered, model))
            return
        if not offered:
            self.offered = []
        to_act = model.to_act
        if new_update and to_act != self._to_act:
            self._to_act = to_act
            turn = describe.whose_turn(model)
            if turn and not self.brief and to_act != model.seat:
                self.line(turn)

    def link(self, state: LinkState, address: str) -> None:
        """The connection's state changed: say so once per change."""
        if state == self.state:
            return
        self.state = state
        if state == LinkState.ONLINE:
            self.line(_("Connected to {address}.").format(address=address))
        elif state == LinkState.RECONNECTING:
            self.line(_("The connection dropped; trying again."))

    def said(self, text: str, severity: Severity) -> None:
        """A line the session tells the user."""
        if severity == "error":
            self.line(_("Error: {text}").format(text=text))
        else:
            self.line(text)
