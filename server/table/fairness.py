"""Provably fair deals (``docs/records.md``): every shuffle is recorded with a
salt and a SHA-256 commitment, and the commitments are published during play
(a game record is checked against them afterwards:
:func:`craits.server.journal.records.verify_record`).

- :func:`commitment`: the SHA-256 commitment to one shuffled order.
- :class:`RecordingShuffle`: the server's shuffle source; keeps each order it
  made, with its salt and commitment, until the table journals them.
- :class:`HandCommitments`: the commitments of the hand in play, and those not
  yet sent to the table's members.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from typing import Any

from craits.protocol.types import Commitment
from craits.protocol.vocab import LogEntryKind

from ..engine import ShuffleSource
from .ports import Entry

Shuffle = dict[str, Any]
"""One recorded shuffle: ``{"order": [card codes], "salt": hex, "sha256": hex}``."""


def commitment(salt: bytes, order: list[str]) -> str:
    """SHA-256 commitment to a shuffled order: hex of SHA-256(salt ‖ the card
    codes joined by single spaces, in ASCII). ``order`` is the list exactly as
    the shuffle left it (``docs/records.md`` says how each use reads it)."""
    return hashlib.sha256(salt + " ".join(order).encode("ascii")).hexdigest()


class RecordingShuffle:
    """The server's shuffle source: shuffles with the operating system's
    randomness (``secrets.SystemRandom``) and keeps each order it produced,
    with a fresh salt and its commitment, until the table journals them."""

    def __init__(self, source: ShuffleSource | None = None) -> None:
        """``source``: where the randomness comes from (anything with ``shuffle``);
        ``secrets.SystemRandom()`` unless a test passes a seeded one."""
        self._random: ShuffleSource = source if source is not None else secrets.SystemRandom()
        self.pending: list[Shuffle] = []

    def shuffle(self, x: list[Any], /) -> None:
        """Shuffle ``x`` in place and remember the order."""
        self._random.shuffle(x)
        salt = secrets.token_bytes(16)
        order = list(x)
        self.pending.append({"order": order, "salt": salt.hex(), "sha256": commitment(salt, order)})

    def take(self) -> list[Shuffle]:
        """The shuffles made since the last call, oldest first."""
        out, self.pending = self.pending, []
        return out


def public(shuffles: Iterable[Shuffle]) -> list[Commitment]:
    """The public part of shuffles: their SHA-256 commitments, never the order or salt."""
    return [{"sha256": s["sha256"]} for s in shuffles]


def shuffle_entries(shuffles: list[Shuffle]) -> list[Entry]:
    """Shuffles as entries of a game's log (each written before the entry that made it)."""
    return [(LogEntryKind.SHUFFLE, s) for s in shuffles]


class HandCommitments:
    """The commitments of the hand in play (sent in every snapshot) and the
    ones made since the last update (sent in the next one, protocol §6.3)."""

    __slots__ = ("fresh", "hand")

    def __init__(self) -> None:
        self.hand: list[Commitment] = []
        self.fresh: list[Commitment] = []

    def started(self, shuffles: list[Shuffle]) -> None:
        """A game started with ``shuffles`` (the cut's and hand 1's)."""
        self.hand = public(shuffles)
        self.fresh = list(self.hand)

    def made(self, shuffles: list[Shuffle], dealt: bool) -> None:
        """A step made ``shuffles``; ``dealt``: it dealt a new hand (R3), whose
        shuffle starts the hand's list afresh."""
        if dealt:
            self.hand = []
        self.fresh = public(shuffles)
        self.hand.extend(self.fresh)

    def take_fresh(self) -> list[Commitment]:
        """The commitments made since the last call (for the next update; most
        updates have none, and get the same empty list, not to be changed)."""
        fresh = self.fresh
        if fresh:
            self.fresh = []
        return fresh

    def replayed(self, entries: Iterable[Entry]) -> None:
        """Set the hand's commitments from a game's log: the shuffles since the
        last deal (the deal's own included)."""
        shuffles: list[Shuffle] = []
        for kind, data in entries:
            if kind == LogEntryKind.SHUFFLE:
                shuffles.append(data)
            elif kind == LogEntryKind.NEXT_HAND:
                shuffles = shuffles[-1:]  # the shuffle of this deal
        self.hand = public(shuffles)
        self.fresh = []
