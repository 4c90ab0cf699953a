"""A table's play: starting a game, the players' actions, and the update every
member gets after each step (RULES.md R2–R12 through the engine; protocol §6).

The hot path of the server runs here: ``act`` → :meth:`GameLog.act` (apply,
journal) → ``ok`` → :meth:`Play.publish` (one framed update per member,
:class:`~craits.server.table.broadcast.UpdateFrames`) → the next timer.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from craits.protocol.actions import Action
from craits.protocol.types import ErrorMsg, Notice, OkMsg
from craits.protocol.vocab import ErrorCode, Phase, ServerMessage, TableState

from ..engine import Event, IllegalAction, Moment
from ..engine.events import Announced, Dealt, HandEnded, IdiotCalled
from ..errors import TableError
from .ports import Member
from .seating import Seat

if TYPE_CHECKING:
    from .actor import Table

log = logging.getLogger("craits.server")

_OFF_TURN = (Announced, IdiotCalled)
_GAME_STATES = frozenset({TableState.PLAYING, TableState.FINISHED})
"""Table states with a game whose ``seq`` an action may answer: between hands
and after the last one, an action answering an older update is ``stale``."""


class Play:
    """The game requests of ``table``'s members, and the updates after each
    step; all on the event loop thread. Requests that cannot be met raise
    :class:`~craits.server.table.ports.TableError`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._after_a_game = False  # starting a new game (its first turn: the pause too)

    def start(self, member: Member | None) -> None:
        """Start a game with the players seated (R2: the cut, then hand 1);
        ``member`` asks (None: the server, as the last seat is taken).

        Raises:
            TableError: ``not_creator``, ``cannot_start`` (fewer than two
                seated, or a game running), ``table_stopped``; ``table_paused``.
        """
        table = self.table
        seating = table.seating
        if table.halted:
            raise TableError(ErrorCode.TABLE_STOPPED, f"table {table.name!r} was stopped")
        if not seating.can_start(member):
            raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may start the game")
        if table.playing:
            raise TableError(ErrorCode.CANNOT_START, "the game is already running")
        seats = seating.seats
        if len(seats) < 2:
            raise TableError(ErrorCode.CANNOT_START, "two or more players are needed")
        seating.capacity = max(seating.capacity, len(seats))
        events = table.gamelog.start(seating.names(), table.powers.readers())
        seating.new_game()
        table.become(TableState.PLAYING)
        game = table.gamelog.game
        assert game is not None
        dealer = seats[game.dealer].name
        log.info("table %s: game started, %d players, %s deals", table.name, len(seats), dealer)
        table.broadcast_info()
        self.publish(events)

    def new_game(self, member: Member) -> None:
        """Start a new game at a finished table, same seats.

        Raises:
            TableError: ``not_creator``, ``cannot_start``.
        """
        if self.table.state is not TableState.FINISHED:
            raise TableError(ErrorCode.CANNOT_START, "the game is not over")
        self._after_a_game = True  # its first turn gets the pause between hands too
        try:
            self.start(member)
        finally:
            self._after_a_game = False

    def act(self, member: Member, action_id: int, action: Action, seq: int | None = None) -> None:
        """Apply ``member``'s action; reply ``ok`` or an error, and update everyone.

        An ``action_id`` already seen for this seat is answered with its first
        result and not applied again. With ``seq`` (the ``seq`` of the update
        the action answers), an action made against an older state is refused
        as ``stale``: so an action racing the turn timeout is applied only if
        the timeout did not act first; between hands and after the game, too,
        so a call sent just before a hand ended is ``stale``, not
        ``game_not_running`` (protocol §11.6).

        Raises:
            TableError: ``spectator``, ``not_seated``, ``game_not_running``.
        """
        table = self.table
        seat = table.seating.seat_of(member)
        if seat is None:
            if member in table.spectators:
                raise TableError(ErrorCode.SPECTATOR, "a spectator cannot act")
            raise TableError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        s = table.seats[seat]
        cached = s.results.get(action_id)
        if cached is not None:
            member.send(cached)
            return
        stale = seq is not None and seq != table.seq
        game = table.gamelog.game
        if game is None or not table.playing or game.phase != Phase.PLAY:
            self._no_hand(stale)
        try:
            if stale:
                raise TableError(ErrorCode.STALE, "the game moved on since that update")
            events = table.gamelog.act(seat, action, action_id)
        except (IllegalAction, TableError) as exc:
            refused: ErrorMsg = {
                "type": ServerMessage.ERROR,
                "id": action_id,
                "code": exc.code,
                "message": str(exc),
            }
            s.remember(action_id, refused)
            member.send(refused)
            return
        reply: OkMsg = {"type": ServerMessage.OK, "id": action_id}
        s.remember(action_id, reply)
        member.send(reply)
        table.gamelog.answered(seat, action_id)
        if s.away:
            s.away = False
            table.broadcast_info()
        self.publish(events)

    def _no_hand(self, stale: bool) -> None:
        """An action came when no hand is being played: ``game_not_running``,
        unless it answers an older update (``stale``) at a table with a game
        (between hands, after the game; protocol §11.6): then it goes on, to
        be refused as stale like any other.

        Raises:
            TableError: ``game_not_running``.
        """
        table = self.table
        if not (stale and table.gamelog.game is not None and table.state in _GAME_STATES):
            raise TableError(ErrorCode.GAME_NOT_RUNNING, "no hand is being played")

    def publish(self, events: list[Event], notice: Notice | None = None) -> None:
        """After a step: send each member its filtered events and view, then
        set the next timer. The hand's end is told to the lobby too, and the
        last hand's end finishes the game (protocol §11.1)."""
        table = self.table
        game = table.gamelog.game
        assert game is not None
        table.seq += 1
        clock = table.clock
        if not events or type(events[0]) not in _OFF_TURN:
            # calls off the turn do not give the player more time; the first turn
            # of a hand after the first, and of a new game, gets the pause between
            # hands on top (the player may still be reading the summary or the
            # game's result, protocol §11.4)
            later = game.hand_number > 1 or self._after_a_game
            dealt = later and any(type(e) is Dealt for e in events)
            clock.set_deadline(table.config.hand_pause if dealt else 0.0)
        fresh = table.gamelog.commitments.take_fresh()
        moment = Moment(game, events)
        ended = _log_events(table.name, table.seats, events)
        pause = table.config.hand_pause if ended is not None and not ended.game_over else None
        next_ms = round(pause * 1000) if pause is not None and table.moving() else None
        table.broadcaster.update(moment, table.seq, clock.deadline_ms(), notice, fresh, next_ms)
        if ended is not None:
            if ended.game_over:
                table.become(TableState.FINISHED)
            table.broadcast_info()
        clock.schedule()
        clock.bots_off_turn()


def _log_events(table: str, seats: list[Seat], events: list[Event]) -> HandEnded | None:
    """Log deals and hand ends at ``table``; returns the hand's end among ``events``, if any."""
    ended = None
    for e in events:
        if type(e) is Dealt:
            log.info("table %s: hand %d dealt", table, e.hand_number)
        elif type(e) is HandEnded:
            ended = e
            names = [s.name for s in seats]
            totals = ", ".join(f"{n} {v}" for n, v in zip(names, e.scores, strict=False))
            log.info("table %s: hand %d over; totals %s", table, e.hand_number, totals)
            if e.game_over:
                won = ", ".join(names[i] for i in e.winners)
                log.info("table %s: game over; won by %s", table, won)
    return ended
