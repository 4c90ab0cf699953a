"""A game key that cannot act now says why, in one line, instead of doing nothing."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from textual import events
from textual.binding import Binding
from textual.widget import Widget

from ...core.session import Session
from ...present import feedback
from ...present.card_style import CardStyle


class KeyRefusals:
    """For ``widget``'s keys: one that cannot act now (greyed out in the Footer: the
    widget's ``check_action`` says so) says why in one line
    (:func:`craits.client.present.feedback.key_refusal`) and rings the bell, once
    while it repeats.

    Args:
        widget: whose bindings and ``check_action`` are read, and who says it.
        session: the table shown, and whether the link is up.
        style: how cards are written.
        card: the card chosen now, or None.
    """

    REFUSED_AGAIN_AFTER = 2.0
    """Seconds before the same refusal is shown again (a key held down)."""
    ALWAYS: ClassVar[frozenset[str]] = frozenset({"score_sheet"})
    """Actions that always act (no refusal)."""

    def __init__(
        self,
        widget: Widget,
        session: Session,
        style: CardStyle,
        card: Callable[[], str | None],
    ):
        self.widget = widget
        self.session = session
        self.style = style
        self.card = card
        self._actions = {
            key.strip(): b.action.partition("(")[0]
            for b in widget.BINDINGS
            if isinstance(b, Binding)
            for key in b.key.split(",")
        }
        self._refused = ("", 0.0)

    def on_key(self, event: events.Key) -> None:
        """A key of the widget's that cannot act now: stopped, and why said."""
        name = self._actions.get(event.key)
        if name is None or name in self.ALWAYS or self.widget.check_action(name, ()) is True:
            return
        event.stop()
        event.prevent_default()
        self.refuse(name)

    def refuse(self, action: str) -> None:
        """Say why the key of ``action`` cannot act now (once, while it repeats)."""
        text = feedback.key_refusal(
            action,
            self.session.model,
            self.style,
            online=self.session.online,
            card=self.card(),
        )
        now = time.monotonic()
        last, when = self._refused
        if text == last and now - when < self.REFUSED_AGAIN_AFTER:
            return
        self._refused = (text, now)
        self.widget.app.bell()
        self.widget.notify(text, severity="warning", timeout=4, markup=False)
