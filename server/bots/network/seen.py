"""The hand's events as a network bot's seat saw them (protocol §7.1, §9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from craits.protocol.vocab import ServerMessage

__all__ = ["SeenEvents"]


class SeenEvents:
    """The events of the hand in play as the seat received them, oldest first: a
    ``state`` brings the hand so far, an ``update`` adds its own, a deal starts a
    new hand. The expert reads them (what play revealed of the hidden cards).

    Attributes:
        events: the hand's events in wire form.
    """

    __slots__ = ("events",)

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def take(self, msg: Mapping[str, Any]) -> None:
        """Keep the events of an ``update`` or ``state`` message."""
        events = [dict(e) for e in msg.get("events") or []]
        if msg.get("type") == ServerMessage.STATE:
            self.events = events
            return
        for e in events:
            if e.get("event") == "dealt":
                self.events = []
            self.events.append(e)
