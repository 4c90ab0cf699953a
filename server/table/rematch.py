"""A table's rematch: the next game of a series at the same table (protocol
§11.12; issue 27).

When a game ends (its last hand, not abandoned), the table offers every seat
a rematch (:meth:`Rematch.offer`): each person answers it, bots accept at
once. Once every person accepted, the same table starts a new game with the
same rules, the players moved one seat on (:meth:`Seating.rotate
<craits.server.table.seating.Seating.rotate>`). A player who declines or
leaves frees the seat: the table waits for players again (its finished game
set aside), others may take the seat or its creator may seat a bot, as at any
waiting table; the game starts once the seats are full and every person
still to answer has accepted (a newcomer joined for it: that is an accept).

The series (the games each seat won) is kept on the seats
(:attr:`Seat.wins <craits.server.table.seating.Seat.wins>`), as the answers
are (:attr:`Seat.rematch <craits.server.table.seating.Seat.rematch>`), so
both are in the table's row and survive a restart; :func:`rematch_fields`
shows them in the table's info (§10).

:class:`Rematch` answers with an :class:`~craits.server.table.outcome.Outcome`,
like the table's other parts; it starts games through :class:`Moves
<craits.server.table.moves.Moves>` and leaves through :class:`Membership
<craits.server.table.membership.Membership>`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence

from craits.protocol.types import RematchInfo, TableInfo
from craits.protocol.vocab import ErrorCode, TableState

from ..errors import TableError
from .gamelog import GameLog
from .membership import Membership
from .moves import Moves
from .outcome import Outcome, Reply, Snapshot
from .ports import Member
from .seating import Seat, Seating

log = logging.getLogger("craits.server")


def offer_open(seats: Sequence[Seat]) -> bool:
    """Whether a rematch is on offer at a table with ``seats``: a seat was
    offered one and the next game has not started."""
    return any(s.rematch is not None for s in seats)


def _undecided(s: Seat) -> bool:
    """A person offered the rematch who has not accepted it yet (a bot never is)."""
    return s.rematch is False and s.bot is None


def rematch_fields(seats: Sequence[Seat]) -> TableInfo:
    """The table info's fields of protocol §10 for the series and the rematch
    (a partial info, to merge): ``series`` (the games each seat won) once a
    game of the series ended, ``rematch`` (who accepted, who is to answer)
    while one is on offer."""
    fields: TableInfo = {}  # type: ignore[typeddict-item]  # a partial info, merged by the caller
    if any(s.wins for s in seats):
        fields["series"] = [s.wins for s in seats]
    if offer_open(seats):
        waiting = [i for i, s in enumerate(seats) if _undecided(s)]
        accepted = [i for i, s in enumerate(seats) if not _undecided(s)]
        offer: RematchInfo = {"accepted": accepted, "waiting": waiting}
        fields["rematch"] = offer
    return fields


class Rematch:
    """The rematch at table ``name`` (protocol §11.12): the offer after a game,
    the players' answers, and the start of the next game of the series; all on
    the event loop thread. Requests that cannot be met raise
    :class:`~craits.server.errors.TableError`.

    Args:
        name: the table's name.
        seating: its seats.
        gamelog: its game (set aside when a seat is freed after it).
        moves: what starts its games.
        membership: what a leave outside an offer goes to.
        state: the table's state now.
    """

    def __init__(
        self,
        name: str,
        seating: Seating,
        gamelog: GameLog,
        moves: Moves,
        membership: Membership,
        state: Callable[[], TableState],
    ) -> None:
        self.name = name
        self.seating = seating
        self.gamelog = gamelog
        self.moves = moves
        self.membership = membership
        self._state = state

    def offered(self) -> bool:
        """A rematch is on offer now (the game ended, the next has not started)."""
        state = self._state()
        return state in (TableState.FINISHED, TableState.WAITING) and offer_open(self.seating.seats)

    def offer(self, winners: Sequence[int]) -> None:
        """The game ended (R2: ``winners``, the seats with the lowest total, each
        win one game of the series): every seat is offered a rematch, bots
        accept at once; the table keeps as many seats as the game had. The
        table publishes its info after this."""
        seats = self.seating.seats
        self.seating.capacity = len(seats)  # the series is played by as many players
        for i in winners:
            seats[i].wins += 1
        for s in seats:
            s.rematch = s.bot is not None
        log.info("table %s: rematch offered", self.name)

    # ------------------------------------------------------------ requests

    def accept(self, member: Member) -> Outcome:
        """``member``'s player accepts the rematch: the table's info shows it;
        the last acceptance starts the next game.

        Raises:
            TableError: ``no_rematch`` (none on offer), ``not_seated``;
                as :meth:`start` when the game starts.
        """
        if not self.offered():
            raise TableError(ErrorCode.NO_REMATCH, "no rematch is on offer at this table")
        seat = self.seating.seat_of(member)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        s = self.seating.seats[seat]
        if s.rematch is not False:
            return Outcome()  # accepted already (or joined for it)
        s.rematch = True
        log.info("table %s: %s accepts the rematch", self.name, s.name)
        if self._ready():
            return self.start(None)
        return Outcome(changed=True)

    def leave(self, member: Member) -> Outcome:
        """``member`` leaves (or declines the rematch). While a finished game's
        rematch is on offer its seat is freed: the table waits for players
        again, its finished game set aside; the seats after it move down one
        and every person still seated gets the table's new snapshot. Otherwise,
        and when no other person holds a seat (bots alone play no rematch: the
        table goes as a finished table does), it is :meth:`Membership.leave
        <craits.server.table.membership.Membership.leave>`."""
        seating = self.seating
        seat = seating.seat_of(member)
        if seat is None or self._state() is not TableState.FINISHED or not self.offered():
            return self.membership.leave(member)
        if not any(s.bot is None for i, s in enumerate(seating.seats) if i != seat):
            return self.membership.leave(member)  # nobody left to play it with: as ever
        name = seating.seats[seat].name
        seating.free(seat)
        self.gamelog.set_aside()
        log.info("table %s: %s left; the rematch waits for a player", self.name, name)
        tell: list[tuple[Member, Reply]] = [
            (s.member, Snapshot(i)) for i, s in enumerate(seating.seats) if s.member is not None
        ]
        return Outcome(state=TableState.WAITING, tell=tell, changed=True, reschedule=True)

    def start(self, member: Member | None) -> Outcome:
        """Start the table's next game: ``start`` from a member (as
        :meth:`Moves.start <craits.server.table.moves.Moves.start>` checks it),
        or (``member`` None) the server's, as the last seat is taken or the last
        person accepts. In a series the players first move one seat on and the
        offer closes; every person is told its new seat with the new game's
        snapshot.

        Raises:
            TableError: as :meth:`Moves.start <craits.server.table.moves.Moves.start>`.
        """
        seating, state = self.seating, self._state()
        if not offer_open(seating.seats):
            return self.moves.start(member)
        if state in (TableState.STOPPED, TableState.PAUSED):
            raise TableError(ErrorCode.TABLE_STOPPED, f"table {self.name!r} was stopped")
        if member is not None and not seating.can_start(member):
            raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may start the game")
        if state is TableState.PLAYING:
            raise TableError(ErrorCode.CANNOT_START, "the game is already running")
        if len(seating.seats) < 2:
            raise TableError(ErrorCode.CANNOT_START, "two or more players are needed")
        seating.rotate()
        for s in seating.seats:
            s.rematch = None
        outcome = self.moves.start(member, after_a_game=True)
        log.info("table %s: the rematch starts", self.name)
        then: list[tuple[Member, Reply]] = [
            (s.member, Snapshot(i)) for i, s in enumerate(seating.seats) if s.member is not None
        ]
        return dataclasses.replace(outcome, then=[*outcome.then, *then])

    def new_game(self, member: Member) -> Outcome:
        """``new_game`` from a member: a new game at a finished table
        (:meth:`Moves.new_game <craits.server.table.moves.Moves.new_game>`);
        in a series, the rematch starts now (:meth:`start`), whoever has
        answered: the creator decides.

        Raises:
            TableError: ``cannot_start`` (the game is not over), ``not_creator``.
        """
        if not offer_open(self.seating.seats) or self._state() is not TableState.FINISHED:
            return self.moves.new_game(member)
        return self.start(member)

    def start_full(self) -> Outcome:
        """The last seat was taken: the game starts, unless a person offered
        the rematch has not accepted it yet (then their acceptance starts it)."""
        if offer_open(self.seating.seats) and not self._ready():
            return Outcome()
        return self.start(None)

    def _ready(self) -> bool:
        """Every seat is taken and no person is still to answer the offer."""
        seating = self.seating
        return seating.full() and not any(_undecided(s) for s in seating.seats)
