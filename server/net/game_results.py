"""A finished game's result, recorded with its players' accounts (protocol
§7.5, docs/accounts.md *Ratings*): the history of every account that sat at
it, and, at a rated table, the ratings (moved in the same transaction as the
game is recorded, :meth:`Results.record
<craits.server.accounts.results.Results.record>`).

The ranking is the game's final totals (RULES.md R2, R9: lowest first, ties
sharing a place). A seat counts for its account when a logged-in person took
it; a person who left the running game (``leave``) is ranked last, below
everyone who finished; a seat a bot holds — one the creator seated, or the bot
that took a removed person's seat — counts for nobody. The write runs off the
loop; the game's record stays in the journal whatever becomes of it (a store
that fails is logged, and the game is not rated).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..accounts.model import DuplicateGame, GameRecord
from ..accounts.model import Seat as SeatResult

if TYPE_CHECKING:
    from ..accounts.service import AccountService
    from ..table.actor import Table
    from ..table.seating import Seat

log = logging.getLogger("craits.server")


def places(points: Sequence[int]) -> list[int]:
    """Each seat's place from its total points, scored low (R9): 1 for the
    fewest; equal totals share a place, and the next place skips as many
    (``[10, 30, 10, 50]`` → ``[1, 3, 1, 4]``)."""
    return [1 + sum(1 for q in points if q < p) for p in points]


def seat_result(seat: Seat, place: int, points: int) -> SeatResult:
    """One seat of the result: its account when a logged-in person held it to
    the end or left it (then ``left``); a bot's seat counts for nobody."""
    counts = seat.account is not None and (seat.bot is None or seat.left)
    return SeatResult(seat.name, place, points, seat.account if counts else None, seat.left)


class GameResults:
    """Finished games on their way to the account store, each written off the loop.

    Args:
        node: this node's name in a cluster (None: a single server), which a
            game's id in a shared store starts with.
    """

    def __init__(self, node: Callable[[], str | None]) -> None:
        self._node = node
        self._pending: set[asyncio.Task[None]] = set()

    def game_id(self, table: Table) -> str:
        """The finished game's id in the account store: the journal's number
        (what ``get_record`` takes), after the node's name in a cluster; a
        random one without a journal."""
        number = table.gamelog.game_id
        if number is None:
            return f"{table.name}/{uuid.uuid4().hex}"
        node = self._node()
        return str(number) if node is None else f"{node}/{number}"

    def record(self, service: AccountService, table: Table) -> None:
        """Record ``table``'s finished game (see the module's docstring); a
        table no account sat at is not recorded."""
        game = table.gamelog.game
        seats = table.seating.seats
        if game is None or not any(s.account is not None for s in seats):
            return
        totals = list(game.scores)
        ranked = places(totals)
        access = table.powers.access
        result = GameRecord(
            self.game_id(table),
            table.name,
            access.private,
            access.rated,
            service.now(),
            tuple(seat_result(s, ranked[i], totals[i]) for i, s in enumerate(seats)),
        )
        task = asyncio.ensure_future(self._write(service, result))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _write(self, service: AccountService, game: GameRecord) -> None:
        try:
            await service.store.results.record(game)
        except DuplicateGame:
            log.warning("table %s: game %s was recorded already", game.table, game.game_id)
        except Exception as exc:  # a store down: the journal keeps the game
            log.error(
                "table %s: game %s not recorded with the accounts: %s: %s",
                game.table,
                game.game_id,
                type(exc).__name__,
                exc,
            )
        else:
            how = "rated" if game.rated else "recorded"
            log.info("table %s: game %s %s with the accounts", game.table, game.game_id, how)

    async def settle(self) -> None:
        """Wait for the games on their way (the server stops)."""
        if self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)
