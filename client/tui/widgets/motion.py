"""What changed on the table since the last update, shown for a moment: the card played
flies to the pile, cards just drawn are marked (Textual's animation level).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

from textual.widget import Widget

from ...core.model import TableModel
from ...present.felt import (
    Flight,
)
from .felt_view import FeltView
from .hand_view import HandView


def call_later(widget: Widget, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
    """Call ``callback`` in ``delay`` seconds if ``widget`` is still in the app
    then; cancel with the handle's ``cancel()``. A plain event-loop timer: the
    table starts and cancels its motion's timers at every update, and a Textual
    ``Timer`` is an asyncio task of its own (started, and cancelled by an
    exception thrown into it)."""

    def run() -> None:
        if widget.is_attached:
            callback()

    return asyncio.get_running_loop().call_later(delay, run)


FRESH_SECONDS = 1.5
"""How long the card just played stays framed heavy, and drawn cards marked "new"."""


FLIGHT_SECONDS = 0.15
"""How long a played card takes to slide onto the pile (full motion)."""


FLIGHT_FRAMES = 1
"""Frames of that flight."""


class Motion:
    """What changed on the table since the last update, shown for a moment: the
    card just played flies from its seat to the pile (Textual's animation level
    ``full``), then stays framed heavy; cards just drawn into the hand are
    marked "new" (levels ``basic`` and ``full``). At level ``none`` (reduced
    motion off entirely, and the snapshot tests) nothing moves or blinks.

    The seat that played is the one that was to act before the update: the
    client reads it from the views, and decides nothing."""

    def __init__(self) -> None:
        self._top: str | None = None
        self._hand_number = 0
        self._to_act: int | None = None
        self._hand: list[str] = []
        self._timers: list[asyncio.TimerHandle] = []

    def seen(self, model: TableModel, felt: FeltView, hand: HandView) -> None:
        """Compare ``model`` with the last update seen; start what shows the change."""
        view = model.view
        if view is None:
            self._top, self._to_act, self._hand = None, None, []
            return
        same_hand = view["hand_number"] == self._hand_number
        played = same_hand and view["top"] != self._top and self._to_act is not None
        drawn = [c for c in model.hand if c not in self._hand] if same_hand else []
        level = felt.app.animation_level
        if level != "none" and (played or drawn):
            self._stop()
            if played and view["top"] and self._to_act is not None:
                felt.fresh = True
                if level == "full":
                    self._fly(felt, view["top"], self._to_act)
            hand.new = frozenset(drawn)
            settle = call_later(felt, FRESH_SECONDS, lambda: self._settle(felt, hand))
            self._timers.append(settle)
        self._top, self._hand_number = view["top"], view["hand_number"]
        self._to_act, self._hand = view["to_act"], list(model.hand)

    def forget(self) -> None:
        """Show no motion for the next update seen (the table was not drawn for a
        while: who played what since is not known from one view)."""
        self._hand_number = -1

    def _fly(self, felt: FeltView, card: str, seat: int) -> None:
        def step(frame: int) -> None:
            progress = frame / FLIGHT_FRAMES
            felt.flight = Flight(card, seat, progress) if progress < 1 else None
            felt.redraw()

        felt.flight = Flight(card, seat, 0.0)
        felt.flights += 1
        for frame in range(1, FLIGHT_FRAMES + 1):
            delay = FLIGHT_SECONDS * frame / FLIGHT_FRAMES
            self._timers.append(call_later(felt, delay, partial(step, frame)))

    def _settle(self, felt: FeltView, hand: HandView) -> None:
        felt.fresh, felt.flight = False, None
        hand.new = frozenset()
        felt.redraw()
        hand.redraw()

    def _stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
