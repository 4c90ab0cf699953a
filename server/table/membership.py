"""A table's comings and goings: joining, bots, spectators, resuming a seat,
leaving, being back, dropping, and chat (protocol §11.2–§11.4).

:class:`Membership` takes these requests for its table: it checks them
against the table's state, changes the seating, and says in an
:class:`~craits.server.table.outcome.Outcome` what the table is to tell whom.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable

from craits.protocol.types import ChatLine, ErrorMsg, JoinedMsg, ResumedMsg
from craits.protocol.vocab import BotLevel, ErrorCode, ServerMessage, TableState

from .. import bots
from ..engine import Game
from ..errors import TableError
from .outcome import Deadline, Outcome, Reply, Snapshot, TurnDeadline
from .ports import Member
from .seating import Seating

log = logging.getLogger("craits.server")

CHAT_HISTORY = 50
"""Chat lines kept per table and sent to newcomers."""
_HALTED = frozenset({TableState.STOPPED, TableState.PAUSED})


class Chat:
    """A table's chat: its last :data:`CHAT_HISTORY` lines, sent to newcomers."""

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=CHAT_HISTORY)

    def say(self, name: str, seat: int | None, text: str) -> ChatLine:
        """Keep a line from ``name`` (at ``seat``, None: a spectator); returns it."""
        line: ChatLine = {"name": name, "seat": seat, "text": text}
        self.lines.append(line)
        return line


class Membership:
    """The requests of table ``name``'s members about their seats; all on the
    event loop thread. It reads the table's ``state`` and ``game`` (callables:
    they change), changes the ``seating`` and the ``chat``, and answers each
    request with an :class:`Outcome`; requests that cannot be met raise
    :class:`~craits.server.errors.TableError`.

    Args:
        name: the table's name.
        seating: its seats and spectators.
        chat: its chat.
        state: the table's state now.
        game: its game, or None before the first.
        watchers_muted: whether the creator muted the spectators' chat (protocol §11.9).

    Attributes:
        keeps_seats: a seat left during a game waits for its player, not away
            (a correspondence game, protocol §11.11; the table sets it).
    """

    def __init__(
        self,
        name: str,
        seating: Seating,
        chat: Chat,
        state: Callable[[], TableState],
        game: Callable[[], Game | None],
        watchers_muted: Callable[[], bool],
    ) -> None:
        self.name = name
        self.seating = seating
        self.chat = chat
        self._state = state
        self._game = game
        self._watchers_muted = watchers_muted
        self.keeps_seats = False

    def join(self, member: Member, name: str) -> Outcome:
        """Seat ``member`` as ``name``: it is told its seat and resume token
        (``joined``), then its snapshot; a full table starts by itself.

        Raises:
            TableError: ``table_full`` (or the game has started), ``name_taken``,
                ``table_stopped``.
        """
        state = self._state()
        if state in _HALTED:
            raise TableError(ErrorCode.TABLE_STOPPED, f"table {self.name!r} was stopped")
        if state is not TableState.WAITING:
            raise TableError(
                ErrorCode.TABLE_FULL, f"the game is {state}: spectate, or resume your seat"
            )
        seat, token = self.seating.seat_person(member, name)
        log.info("table %s: %s took seat %d", self.name, name, seat)
        joined: JoinedMsg = {
            "type": ServerMessage.JOINED,
            "table": self.name,
            "seat": seat,
            "token": token,
        }
        full = self.seating.full()
        then: list[tuple[Member, Snapshot]] = [] if full else [(member, Snapshot(seat))]
        return Outcome(tell=[(member, joined)], changed=True, start=full, then=[*then])

    def add_bot(self, level: str) -> Outcome:
        """Seat a bot of ``level`` (see :mod:`craits.server.bots`); a full table starts.

        Raises:
            TableError: ``table_full``, ``bad_message`` (unknown level).
        """
        if level not in bots.LEVELS:
            levels = ", ".join(bots.LEVELS)
            raise TableError(ErrorCode.BAD_MESSAGE, f"bot level must be one of {levels}")
        if self._state() is not TableState.WAITING or self.seating.full():
            raise TableError(ErrorCode.TABLE_FULL, "no free seat for a bot")
        seat = self.seating.seat_bot(BotLevel(level))
        log.info("table %s: a %s bot took seat %d", self.name, level, seat)
        return Outcome(changed=True, start=self.seating.full())

    def spectate(self, member: Member) -> Outcome:
        """Add ``member`` as a spectator; it gets the spectator's snapshot."""
        self.seating.spectators.add(member)
        return Outcome(tell=[(member, Snapshot(None))], changed=True)

    def resume(self, member: Member, seat: int) -> Outcome:
        """Give ``seat`` back to ``member`` (a resume token matched): it is told
        (``resumed``, then its snapshot); the older connection, if any, is told
        it was replaced and let go."""
        old = self.seating.resume(member, seat)
        tell: list[tuple[Member, Reply]] = []
        let_go: list[Member] = []
        if old is not None and old is not member:
            replaced: ErrorMsg = {
                "type": ServerMessage.ERROR,
                "code": ErrorCode.REPLACED,
                "message": "resumed elsewhere",
            }
            tell.append((old, replaced))
            let_go.append(old)
        log.info("table %s: %s resumed seat %d", self.name, self.seating.seats[seat].name, seat)
        resumed: ResumedMsg = {"type": ServerMessage.RESUMED, "table": self.name, "seat": seat}
        tell += [(member, resumed), (member, Snapshot(seat))]
        return Outcome(
            deadline=Deadline.REFRESH, tell=tell, let_go=let_go, changed=True, reschedule=True
        )

    def leave(self, member: Member) -> Outcome:
        """``member`` leaves. Before the game its seat is freed (the seats after
        it move down one, and are told); during it the seat stays in the game,
        marked away, and can be resumed with its token. At a table that
        :attr:`keeps_seats` (a correspondence game, protocol §11.11) a seat left
        during the game is not away: its turns wait for their deadline."""
        seating = self.seating
        if member in seating.spectators:
            seating.spectators.discard(member)
            return Outcome(changed=True)
        seat = seating.seat_of(member)
        if seat is None:
            return Outcome()
        s = seating.seats[seat]
        tell: list[tuple[Member, Reply]] = []
        if self._state() is TableState.WAITING:
            for i in seating.free(seat):  # they moved down one: tell them their seats
                moved = seating.seats[i].member
                assert moved is not None
                tell.append((moved, Snapshot(i)))
            log.info("table %s: %s left", self.name, s.name)
        elif self.keeps_seats:  # a correspondence game waits for its players (§11.11)
            s.member = None
            log.info("table %s: %s left the game (the seat waits)", self.name, s.name)
        else:
            s.member = None
            s.away = True
            s.left = True  # a rated game ranks it last (protocol §7.5)
            log.info(
                "table %s: %s left the game (seat %d played by the server)",
                self.name,
                s.name,
                seat,
            )
        return Outcome(tell=tell, changed=True, reschedule=True)

    def back(self, member: Member) -> Outcome:
        """``member``'s player is back at its seat: the server stops playing for
        it; its turn's time starts again, and if it is its turn it is told its
        deadline.

        Raises:
            TableError: ``not_seated``.
        """
        seat = self.seating.seat_of(member)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        s = self.seating.seats[seat]
        if not s.away:
            return Outcome()
        s.away = False
        log.info("table %s: %s is back", self.name, s.name)
        game = self._game()
        its_turn = game is not None and game.to_act == seat
        then: list[tuple[Member, TurnDeadline]] = [(member, TurnDeadline())] if its_turn else []
        return Outcome(deadline=Deadline.RESTART, changed=True, reschedule=True, then=[*then])

    def disconnected(self, member: Member) -> Outcome:
        """``member``'s connection dropped: a spectator, or a seat before the game,
        leaves; a seat in a game stays, shown disconnected, its turns covered by
        the turn timeout."""
        seat = self.seating.seat_of(member)
        if seat is None or self._state() is TableState.WAITING:
            return self.leave(member)
        s = self.seating.seats[seat]
        s.member = None
        log.info("table %s: %s disconnected", self.name, s.name)
        return Outcome(changed=True, reschedule=True)

    def say(self, member: Member, text: str) -> Outcome:
        """A chat line from ``member``, for everyone at the table.

        Raises:
            TableError: ``muted``: the creator muted this seat, or the spectators
                (the creator is never muted; protocol §11.9).
        """
        seating = self.seating
        seat = seating.seat_of(member)
        if member is not seating.creator and (
            seating.seats[seat].muted if seat is not None else self._watchers_muted()
        ):
            raise TableError(ErrorCode.MUTED, "the table's creator muted your chat here")
        line = self.chat.say(member.name, seat, text)
        return Outcome(everyone=[{"type": ServerMessage.CHAT, "table": self.name, **line}])
