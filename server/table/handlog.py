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

from craits.protocol.types import LogNotice
from craits.protocol.vocab import NoticeKind

from ..engine import Event, HandEnded, events_for, score_sheet_row
from ..engine.events import Cut, Dealt

HAND_EVENTS_MAX = 1000
"""Events of the hand in play kept (the latest; a longer hand drops its earliest).
Each is well under 200 bytes on the wire, so ``state`` stays far below the
client's frame limit (1 MiB, protocol §2) whatever the hand."""


class HandLog:
    """The events of the hand in play (from its deal; hand 1's from the cut), the
    moves the server played for a seat among them (the updates' notices,
    protocol §11.4), and one :class:`~craits.server.engine.HandEnded` per hand
    ended this game."""

    __slots__ = ("_taken", "ended", "events", "played_for")

    def __init__(self) -> None:
        self.events: deque[Event] = deque(maxlen=HAND_EVENTS_MAX)
        self.ended: list[HandEnded] = []
        self.played_for: list[tuple[int, str, int]] = []
        """``(n, kind, seat)``: the step whose first event is the hand's ``n``-th
        (counted from its first, the dropped included) was a move the server
        played for ``seat`` (``kind``: a :class:`~craits.protocol.vocab.NoticeKind`)."""
        self._taken = 0  # events of the hand taken, the dropped included

    def take(self, events: Iterable[Event], played_for: tuple[str, int] | None = None) -> None:
        """Keep a step's events: a cut starts a new game (the sheet starts over), a
        deal a new hand (its events start over, after the cut for hand 1).
        ``played_for``: ``(kind, seat)`` when the server played the step for a
        seat (protocol §11.4)."""
        kept = self.events
        first = self._taken
        for e in events:
            if type(e) is Cut:
                self._clear()
                self.ended.clear()
            elif type(e) is Dealt and not (kept and type(kept[-1]) is Cut):
                self._clear()
            elif type(e) is HandEnded:
                self.ended.append(e)
            kept.append(e)
            self._taken += 1
        if played_for is not None and first < self._taken:
            self.played_for.append((first, *played_for))

    def _clear(self) -> None:
        self.events.clear()
        self.played_for.clear()
        self._taken = 0

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The hand's events as ``seat`` (None: a spectator) may see them, wire form."""
        return events_for(self.events, seat)

    def notices(self, names: list[str]) -> list[LogNotice]:
        """The ``state``'s ``notices`` (protocol §7.1), ``names`` by seat: one per
        move of the hand the server played for a seat, ``at`` the index in
        :meth:`events_for` of its first event (moves whose events were dropped
        are left out)."""
        dropped = self._taken - len(self.events)
        return [
            {"at": n - dropped, "kind": NoticeKind(kind), "seat": seat, "name": names[seat]}
            for n, kind, seat in self.played_for
            if n >= dropped and seat < len(names)
        ]

    def score_sheet(self) -> list[dict[str, Any]]:
        """The score sheet: a row per hand ended this game, oldest first (public)."""
        return [score_sheet_row(e) for e in self.ended]
