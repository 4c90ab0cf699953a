"""A table's moves: starting a game, the players' actions, and the moves the
server makes itself (the next deal, a bot's move, the move played for an away
seat or a turn that timed out; RULES.md R2–R12 through the engine, protocol §6, §11.4).

The hot path of the server runs here: ``act`` → :meth:`GameLog.act
<craits.server.table.gamelog.GameLog.act>` (apply, journal) → ``ok`` → a
:class:`~craits.server.table.outcome.Step` that the table publishes (one
framed update per member) before it sets its next timer.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable
from typing import Any

from craits.protocol.actions import Action
from craits.protocol.errors import CodedError
from craits.protocol.types import ErrorMsg, Notice, OkMsg
from craits.protocol.vocab import (
    DEFAULT_BOT_LEVEL,
    BotLevel,
    ErrorCode,
    NoticeKind,
    Phase,
    ServerMessage,
    TableState,
)

from .. import bots
from ..engine import Event, IllegalAction, action_from_dict, view
from ..engine.events import Announced, Dealt, HandEnded, IdiotCalled
from ..errors import TableError
from .clock import Due
from .gamelog import GameLog
from .outcome import Outcome, Search, Step
from .ports import Member
from .seating import Seat, Seating

log = logging.getLogger("craits.server")

_OFF_TURN = (Announced, IdiotCalled)
_HALTED = frozenset({TableState.STOPPED, TableState.PAUSED})
_GAME_STATES = frozenset({TableState.PLAYING, TableState.FINISHED})
"""Table states with a game whose ``seq`` an action may answer: between hands
and after the last one, an action answering an older update is ``stale``."""


class Moves:
    """The moves at table ``name``: its members' game requests, and the server's
    own moves when the table's clock says one is due; all on the event loop
    thread. Each step goes through the ``gamelog`` (applied, then journaled)
    and comes back as an :class:`~craits.server.table.outcome.Outcome` whose
    :class:`~craits.server.table.outcome.Step` the table publishes. Requests
    that cannot be met raise :class:`~craits.server.errors.TableError`.

    Args:
        name: the table's name.
        hand_pause: seconds between hands (the first turn of a later hand gets
            them on top of its deadline, protocol §11.4).
        seating: its seats.
        gamelog: its game and its log.
        state: the table's state now.
        seq: the ``seq`` of the table's last update now (protocol §11.6).
        readers: who may read the record of a game starting now (a private
            table's, protocol §7.3).
    """

    def __init__(
        self,
        name: str,
        hand_pause: float,
        seating: Seating,
        gamelog: GameLog,
        state: Callable[[], TableState],
        seq: Callable[[], int],
        readers: Callable[[], list[bytes] | None],
    ) -> None:
        self.name = name
        self.hand_pause = hand_pause
        self.seating = seating
        self.gamelog = gamelog
        self._state = state
        self._seq = seq
        self._readers = readers
        self._bot_rng = random.Random(secrets.randbits(64))

    # -------------------------------------------------------- the members'

    def start(self, member: Member | None, after_a_game: bool = False) -> Outcome:
        """Start a game with the players seated (R2: the cut, then hand 1);
        ``member`` asks (None: the server, as the last seat is taken);
        ``after_a_game``: a new game at a finished table, whose first turn gets
        the pause between hands too (protocol §11.4).

        Raises:
            TableError: ``not_creator``, ``cannot_start`` (fewer than two
                seated, or a game running), ``table_stopped``; ``table_paused``.
        """
        seating = self.seating
        state = self._state()
        if state in _HALTED:
            raise TableError(ErrorCode.TABLE_STOPPED, f"table {self.name!r} was stopped")
        if not seating.can_start(member):
            raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may start the game")
        if state is TableState.PLAYING:
            raise TableError(ErrorCode.CANNOT_START, "the game is already running")
        seats = seating.seats
        if len(seats) < 2:
            raise TableError(ErrorCode.CANNOT_START, "two or more players are needed")
        seating.capacity = max(seating.capacity, len(seats))
        events = self.gamelog.start(seating.names(), self._readers())
        seating.new_game()
        game = self.gamelog.game
        assert game is not None
        dealer = seats[game.dealer].name
        log.info("table %s: game started, %d players, %s deals", self.name, len(seats), dealer)
        step = self._step(events, after_a_game=after_a_game)
        return Outcome(state=TableState.PLAYING, changed=True, step=step)

    def new_game(self, member: Member) -> Outcome:
        """Start a new game at a finished table, same seats.

        Raises:
            TableError: ``not_creator``, ``cannot_start``.
        """
        if self._state() is not TableState.FINISHED:
            raise TableError(ErrorCode.CANNOT_START, "the game is not over")
        return self.start(member, after_a_game=True)

    def act(
        self, member: Member, action_id: int, action: Action, seq: int | None = None
    ) -> Outcome:
        """Apply ``member``'s action: it is answered ``ok`` or an error, and,
        applied, the step goes to everyone.

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
        seating = self.seating
        seat = seating.seat_of(member)
        if seat is None:
            if member in seating.spectators:
                raise TableError(ErrorCode.SPECTATOR, "a spectator cannot act")
            raise TableError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        s = seating.seats[seat]
        cached = s.results.get(action_id)
        if cached is not None:
            return Outcome(tell=[(member, cached)])
        stale = seq is not None and seq != self._seq()
        game = self.gamelog.game
        if game is None or self._state() is not TableState.PLAYING or game.phase != Phase.PLAY:
            self._no_hand(stale)
        try:
            if stale:
                raise TableError(ErrorCode.STALE, "the game moved on since that update")
            events = self.gamelog.act(seat, action, action_id)
        except CodedError as exc:  # illegal (IllegalAction), or stale
            refused: ErrorMsg = {
                "type": ServerMessage.ERROR,
                "id": action_id,
                "code": ErrorCode(exc.code),
                "message": exc.message,
            }
            s.remember(action_id, refused)
            return Outcome(tell=[(member, refused)])
        reply: OkMsg = {"type": ServerMessage.OK, "id": action_id}
        s.remember(action_id, reply)
        self.gamelog.answered(seat, action_id)
        was_away, s.away = s.away, False
        return Outcome(tell=[(member, reply)], changed=was_away, step=self._step(events))

    def _no_hand(self, stale: bool) -> None:
        """An action came when no hand is being played: ``game_not_running``,
        unless it answers an older update (``stale``) at a table with a game
        (between hands, after the game; protocol §11.6): then it goes on, to
        be refused as stale like any other.

        Raises:
            TableError: ``game_not_running``.
        """
        if not (stale and self.gamelog.game is not None and self._state() in _GAME_STATES):
            raise TableError(ErrorCode.GAME_NOT_RUNNING, "no hand is being played")

    # ---------------------------------------------------------- the server's

    def due(self, due: Due) -> Outcome:
        """The move the table's clock found due (:class:`~craits.server.table.clock.Due`)."""
        if due is Due.NEXT_HAND:
            return self.next_hand()
        if due is Due.CHECKPOINT:  # nothing is played: the table records the turn's time
            return Outcome()
        return self.bot_move() if due is Due.BOT else self.timeout_move()

    def next_hand(self) -> Outcome:
        """Deal the next hand (R2), the pause between hands being over."""
        game = self.gamelog.game
        if game is None or game.phase != Phase.HAND_OVER:
            return Outcome()
        return Outcome(step=self._step(self.gamelog.next_hand()))

    def bot_move(self) -> Outcome:
        """The bot whose turn it is moves, as its level decides."""
        game = self.gamelog.game
        if game is None or game.phase != Phase.PLAY:
            return Outcome()
        seat = game.to_act
        assert seat is not None
        level = self.seating.seats[seat].bot or DEFAULT_BOT_LEVEL
        if level == BotLevel.EXPERT:  # searched in a worker process: see searched
            events = self.gamelog.hands.events_for(seat)
            seed = self._bot_rng.getrandbits(64)
            return Outcome(search=Search(seat, self._seq(), view(game, seat), events, seed))
        choice = bots.choose(level, view(game, seat), self._bot_rng)
        return self._play_for(seat, choice) if choice is not None else Outcome()

    def searched(self, search: Search, answer: asyncio.Future[int | None]) -> Outcome:
        """An expert's :class:`~craits.server.table.outcome.Search` is done: its
        move (``answer``: an index into the view's ``legal``, or None) is played,
        unless the game moved on meanwhile. A failed search falls back on the
        basic bot's move (logged)."""
        game = self.gamelog.game
        if answer.cancelled() or game is None or self._seq() != search.seq:
            return Outcome()
        if self._state() is not TableState.PLAYING or game.phase != Phase.PLAY:
            return Outcome()
        if game.to_act != search.seat:
            return Outcome()
        error = answer.exception()
        if error is not None:
            log.warning("table %s: the expert's search failed (%r); basic plays", self.name, error)
            choice = bots.choose(BotLevel.BASIC, search.view, self._bot_rng)
        else:
            index = answer.result()
            choice = None if index is None else search.view["legal"][index]
        return self._play_for(search.seat, choice) if choice is not None else Outcome()

    def timeout_move(self) -> Outcome:
        """The turn timed out (or the seat is away): the server plays for the seat."""
        game = self.gamelog.game
        if game is None or game.phase != Phase.PLAY:
            return Outcome()
        seat = game.to_act
        assert seat is not None
        return self._play_for(seat, bots.timeout_action(view(game, seat)), timed_out=True)

    def bot_calls(self) -> list[tuple[int, dict[str, Any]]]:
        """What the bots not to act call now, as their level decides: ``(seat,
        action)`` of each announcement or idiot call (R7) to make shortly."""
        game = self.gamelog.game
        if game is None or game.phase != Phase.PLAY or not game.unannounced:
            return []
        calls = []
        for i, s in enumerate(self.seating.seats):
            if s.bot is None or i == game.to_act:
                continue
            choice = bots.choose(s.bot, view(game, i), self._bot_rng)
            if choice is not None:
                calls.append((i, choice))
        return calls

    def bot_call(self, seat: int, choice: dict[str, Any]) -> Outcome:
        """A bot's call (:meth:`bot_calls`), made now if the game still allows it."""
        game = self.gamelog.game
        if game is None or game.phase != Phase.PLAY or self._state() is not TableState.PLAYING:
            return Outcome()
        try:
            return self._play_for(seat, choice)
        except IllegalAction:
            return Outcome()  # the window closed meanwhile

    def _play_for(self, seat: int, choice: dict[str, Any], timed_out: bool = False) -> Outcome:
        """The server plays ``choice`` (an action in dict form) for ``seat``: a
        bot's move, or (``timed_out``) a timeout's, which marks the seat away
        (protocol §11.4).

        Raises:
            IllegalAction: the action is illegal; nothing changed.
            TablePaused: the journal write failed.
        """
        s = self.seating.seats[seat]
        first = not s.away
        why = NoticeKind.TIMEOUT if first else NoticeKind.AWAY
        action = action_from_dict(choice, seat)
        events = self.gamelog.act(seat, action, None, why if timed_out else None)
        if not timed_out:
            return Outcome(step=self._step(events))
        s.away = True
        log.info("table %s: played for %s (%s)", self.name, s.name, why)
        notice: Notice = {"kind": why, "seat": seat, "name": s.name}
        return Outcome(changed=first, step=self._step(events, notice))

    def _step(
        self, events: list[Event], notice: Notice | None = None, after_a_game: bool = False
    ) -> Step:
        """The step ``events`` made, to publish: calls off the turn do not give
        the player more time; the first turn of a hand after the first, and of a
        new game, gets the pause between hands on top (the player may still be
        reading the summary or the game's result, protocol §11.4)."""
        extra: float | None = None
        if not events or type(events[0]) not in _OFF_TURN:
            game = self.gamelog.game
            later = (game is not None and game.hand_number > 1) or after_a_game
            dealt = later and any(type(e) is Dealt for e in events)
            extra = self.hand_pause if dealt else 0.0
        return Step(events, notice, extra, _log_events(self.name, self.seating.seats, events))


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
