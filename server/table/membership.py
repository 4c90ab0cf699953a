"""A table's comings and goings: joining, bots, spectators, resuming a seat,
leaving, being back, dropping, and chat (protocol §11.2–§11.4).

:class:`Membership` takes these requests for its table: it checks them
against the table's state, changes the seating, and tells everyone.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from craits.protocol.vocab import BotLevel, ErrorCode, ServerMessage

from .. import bots
from ..errors import TableError
from .ports import Member

if TYPE_CHECKING:
    from .actor import Table

log = logging.getLogger("craits.server")


class Membership:
    """The requests of ``table``'s members about their seats; all on the event
    loop thread. Requests that cannot be met raise
    :class:`~craits.server.table.ports.TableError`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seating = table.seating

    def join(self, member: Member, name: str) -> tuple[int, str]:
        """Seat ``member`` as ``name``; returns ``(seat, resume token)``. A full
        table starts by itself.

        Raises:
            TableError: ``table_full`` (or the game has started), ``name_taken``,
                ``table_stopped``.
        """
        table = self.table
        if table.halted:
            raise TableError(ErrorCode.TABLE_STOPPED, f"table {table.name!r} was stopped")
        if not table.waiting:
            raise TableError(
                ErrorCode.TABLE_FULL, f"the game is {table.state}: spectate, or resume your seat"
            )
        seat, token = self.seating.seat_person(member, name)
        log.info("table %s: %s took seat %d", table.name, name, seat)
        member.send(
            {"type": ServerMessage.JOINED, "table": table.name, "seat": seat, "token": token}
        )
        table.broadcast_info()
        if self.seating.full():
            table.play.start(None)
        else:
            member.send(table.snapshot(seat))
        return seat, token

    def add_bot(self, level: str) -> int:
        """Seat a bot of ``level`` (see :mod:`craits.server.bots`); a full table starts.

        Raises:
            TableError: ``table_full``, ``bad_message`` (unknown level).
        """
        if level not in bots.LEVELS:
            levels = ", ".join(bots.LEVELS)
            raise TableError(ErrorCode.BAD_MESSAGE, f"bot level must be one of {levels}")
        table = self.table
        if not table.waiting or self.seating.full():
            raise TableError(ErrorCode.TABLE_FULL, "no free seat for a bot")
        seat = self.seating.seat_bot(BotLevel(level))
        log.info("table %s: a %s bot took seat %d", table.name, level, seat)
        table.broadcast_info()
        if self.seating.full():
            table.play.start(None)
        return seat

    def spectate(self, member: Member) -> None:
        """Add ``member`` as a spectator and send it the spectator's snapshot."""
        self.seating.spectators.add(member)
        member.send(self.table.snapshot(None))
        self.table.broadcast_info()

    def resume(self, member: Member, seat: int) -> None:
        """Give ``seat`` back to ``member`` (a resume token matched); the older
        connection, if any, is told it was replaced and let go."""
        table = self.table
        old = self.seating.resume(member, seat)
        if old is not None and old is not member:
            old.send(
                {
                    "type": ServerMessage.ERROR,
                    "code": ErrorCode.REPLACED,
                    "message": "resumed elsewhere",
                }
            )
            old.detach()
        log.info("table %s: %s resumed seat %d", table.name, table.seats[seat].name, seat)
        table.clock.refresh()
        member.send({"type": ServerMessage.RESUMED, "table": table.name, "seat": seat})
        member.send(table.snapshot(seat))
        table.broadcast_info()
        table.clock.schedule()

    def leave(self, member: Member) -> None:
        """``member`` leaves. Before the game its seat is freed; during it the
        seat stays in the game, marked away, and can be resumed with its token."""
        table = self.table
        seating = self.seating
        if member in seating.spectators:
            seating.spectators.discard(member)
            table.broadcast_info()
            return
        seat = seating.seat_of(member)
        if seat is None:
            return
        s = seating.seats[seat]
        if table.waiting:
            for i in seating.free(seat):  # they moved down one: tell them their seats
                moved = seating.seats[i].member
                assert moved is not None
                moved.send(table.snapshot(i))
            log.info("table %s: %s left", table.name, s.name)
        else:
            s.member = None
            s.away = True
            log.info(
                "table %s: %s left the game (seat %d played by the server)",
                table.name,
                s.name,
                seat,
            )
        table.broadcast_info()
        table.clock.schedule()

    def back(self, member: Member) -> None:
        """``member``'s player is back at its seat: the server stops playing for it.

        Raises:
            TableError: ``not_seated``.
        """
        table = self.table
        seat = self.seating.seat_of(member)
        if seat is None:
            raise TableError(ErrorCode.NOT_SEATED, "you have no seat at this table")
        s = self.seating.seats[seat]
        if not s.away:
            return
        s.away = False
        log.info("table %s: %s is back", table.name, s.name)
        table.clock.set_deadline()
        table.broadcast_info()
        table.clock.schedule()
        if table.game is not None and table.game.to_act == seat:
            deadline = table.clock.deadline_ms()
            member.send(
                {
                    "type": ServerMessage.DEADLINE,
                    "table": table.name,
                    "seq": table.seq,
                    "deadline_ms": deadline,
                }
            )

    def disconnected(self, member: Member) -> None:
        """``member``'s connection dropped: a spectator, or a seat before the game,
        leaves; a seat in a game stays, shown disconnected, its turns covered by
        the turn timeout."""
        table = self.table
        seat = self.seating.seat_of(member)
        if seat is None or table.waiting:
            self.leave(member)
            return
        s = self.seating.seats[seat]
        s.member = None
        log.info("table %s: %s disconnected", table.name, s.name)
        table.broadcast_info()
        table.clock.schedule()

    def say(self, member: Member, text: str) -> None:
        """Send a chat line from ``member`` to everyone at the table.

        Raises:
            TableError: ``muted``: the creator muted this seat, or the spectators
                (the creator is never muted; protocol §11.9).
        """
        table = self.table
        seat = self.seating.seat_of(member)
        if member is not self.seating.creator and (
            self.seating.seats[seat].muted
            if seat is not None
            else table.powers.access.watchers_muted
        ):
            raise TableError(ErrorCode.MUTED, "the table's creator muted your chat here")
        line = table.chat.say(member.name, seat, text)
        table.broadcaster.send_all({"type": ServerMessage.CHAT, "table": table.name, **line})
