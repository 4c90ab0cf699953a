"""What a table keeps of its game for the members who arrive or come back: the
hand in play's events and the score sheet of the hands ended (the ``state``
message's ``events`` and ``score_sheet``, protocol §7.1).

:class:`HandLog` holds the events whole, cards and all, as the engine made them;
what a member receives of them goes through the engine's one filter
(:func:`~craits.server.engine.events_for`), so a seat reads in them only what it
saw happen, and a spectator no hidden card. It is fed every step of the game as
it is committed, and again from the journal when a game is replayed (a restart,
a failed write), so a player who comes back after either finds the hand's log.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from craits.server.engine import Event, HandEnded, events_for, score_sheet_row
from craits.server.engine.events import Cut, Dealt

HAND_EVENTS_MAX = 1000
"""Events of the hand in play kept (the latest; a longer hand drops its earliest).
Each is well under 200 bytes on the wire, so ``state`` stays far below the
client's frame limit (1 MiB, protocol §2) whatever the hand."""


class HandLog:
    """The events of the hand in play (from its deal; hand 1's from the cut) and
    one :class:`~craits.server.engine.HandEnded` per hand ended this game."""

    __slots__ = ("ended", "events")

    def __init__(self) -> None:
        self.events: deque[Event] = deque(maxlen=HAND_EVENTS_MAX)
        self.ended: list[HandEnded] = []

    def take(self, events: Iterable[Event]) -> None:
        """Keep a step's events: a cut starts a new game (the sheet starts over), a
        deal a new hand (its events start over, after the cut for hand 1)."""
        kept = self.events
        for e in events:
            if type(e) is Cut:
                kept.clear()
                self.ended.clear()
            elif type(e) is Dealt and not (kept and type(kept[-1]) is Cut):
                kept.clear()
            elif type(e) is HandEnded:
                self.ended.append(e)
            kept.append(e)

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The hand's events as ``seat`` (None: a spectator) may see them, wire form."""
        return events_for(self.events, seat)

    def score_sheet(self) -> list[dict[str, Any]]:
        """The score sheet: a row per hand ended this game, oldest first (public)."""
        return [score_sheet_row(e) for e in self.ended]
