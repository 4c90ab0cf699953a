"""The table's chat line (protocol §8, ``chat``): hidden until opened; Enter
says what was typed and closes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from craits.protocol.i18n import _
from craits.protocol.messages import MAX_CHAT
from textual import on
from textual.message import Message
from textual.widgets import Input


class ChatLine(Input):
    """A one-line chat field, hidden until :meth:`open`; Enter posts
    :class:`Said` with what was typed, stripped (at most ``MAX_CHAT``
    characters; empty: nothing to send), for the screen to send and close it."""

    @dataclass
    class Said(Message):
        """The line was entered: ``text`` to send (empty: nothing)."""

        text: str

    def __init__(self, **kwargs: Any):
        super().__init__(max_length=MAX_CHAT, compact=True, **kwargs)
        self.display = False  # hidden from the first, so is its Esc key
        self.retitle()

    def retitle(self) -> None:
        """Its hint, in the language spoken now."""
        self.placeholder = _("Say something (Enter sends, Esc closes)")

    def open(self) -> None:
        """Show it and take the keys."""
        self.display = True
        self.focus()

    def close(self) -> None:
        """Empty it and hide it."""
        self.value = ""
        self.display = False

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Said(event.value.strip()[:MAX_CHAT]))
