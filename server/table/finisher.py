"""How a table's game ends (protocol §11.1, §11.2; lila's round has its
``Finisher`` for the same job).

Played to its last hand, the game finishes the table, its result goes to the
players' accounts (§7.5: rated at a rated table) and every seat is offered a
rematch (§11.12). Abandoned (nobody came back, or its creator closed it), its
record is kept marked with the reason (``docs/records.md``) and the table
closes. The :class:`~craits.server.table.actor.Table` calls it; it reaches the
server through the two callables it is given.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from craits.protocol.vocab import AbandonReason, TableState

from .gamelog import GameLog
from .rematch import Rematch

if TYPE_CHECKING:
    from .actor import TableStatus

log = logging.getLogger("craits.server")


class Finisher:
    """The end of table ``name``'s games.

    Args:
        name: the table's name.
        status: its state (:class:`~craits.server.table.actor.TableStatus`).
        gamelog: its game and its record.
        rematch: the next game's offer.
        game_over: tells the server a game was played to its end (its result
            to the players' accounts).
        close: asks the server to close the table.
    """

    def __init__(
        self,
        name: str,
        status: TableStatus,
        gamelog: GameLog,
        rematch: Rematch,
        game_over: Callable[[], None],
        close: Callable[[], None],
    ) -> None:
        self.name = name
        self._status = status
        self._gamelog = gamelog
        self._rematch = rematch
        self._game_over = game_over
        self._close = close

    def finished(self, winners: Sequence[int]) -> None:
        """The last hand ended (R2: ``winners``, the seats with the lowest
        total): the table is finished, the result recorded with the accounts,
        a rematch offered. The table publishes its info after this."""
        self._status.become(TableState.FINISHED)
        self._game_over()
        self._rematch.offer(winners)

    def abandon(self, reason: AbandonReason) -> None:
        """End the game in play as abandoned, if one is running (its record is
        kept, marked with ``reason``: ``docs/records.md``), and close the
        table (protocol §11.1, §11.2).

        Raises:
            TablePaused: the journal write failed; the table is paused, not closed.
        """
        if self._status.playing:
            self._gamelog.abandon(reason)
            log.info("table %s: game %s abandoned (%s)", self.name, self._gamelog.game_id, reason)
        self._close()
