"""Shuffle sources that replay recorded deck orders (RULES.md R2, R3, R10).

The engine takes its randomness as a shuffle source. To restore a game from
the server's journal, or to check a game record, the recorded order of every
shuffle (the cut decks, each deal, each reshuffle of the discard pile) is fed
back in the order the game asked for them.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from typing import Any


class ReplayError(ValueError):
    """A recorded order does not fit the shuffle the game asked for, or none is left."""


class ScriptedShuffle:
    """A shuffle source that gives back recorded orders, one per ``shuffle`` call.

    Each recorded order is a list of card codes, top of the stock last as
    :meth:`random.Random.shuffle` would leave the list; it must be a
    permutation of the list being shuffled.
    """

    def __init__(self, orders: Iterable[list[str]] = ()):
        self.orders: deque[list[str]] = deque(orders)

    def feed(self, order: list[str]) -> None:
        """Queue one more recorded order."""
        self.orders.append(order)

    def shuffle(self, x: list[Any], /) -> None:
        """Replace ``x`` by the next recorded order.

        Raises:
            ReplayError: no order is left, or it is not a permutation of ``x``.
        """
        if not self.orders:
            raise ReplayError("the record has no shuffle left for this point of the game")
        order = self.orders.popleft()
        if len(order) != len(x) or Counter(order) != Counter(x):
            raise ReplayError("a recorded shuffle is not a permutation of the cards shuffled")
        x[:] = order
