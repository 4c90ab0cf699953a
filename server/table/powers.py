"""The creator's powers at a table (protocol §11.9): remove a player, lock the
table, mute chat, hand the role over, let a removed person back; and what the
table says of its privacy.

:class:`Powers` takes these requests for its table, all on the event loop
thread; each is allowed to the table's creator only (the connection that
created it, or to whom the role was handed, §11.2) and refused with
:class:`~craits.server.table.ports.TableError` otherwise. Every change is
recorded with the table's row (:meth:`Table.persist
<craits.server.table.actor.Table.persist>`), so it survives a restart.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from craits.protocol.types import InviteMsg, TableInfo
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, ErrorCode, ServerMessage

from ..errors import TableError
from .access import KICKED_MESSAGE, Access, Bar, new_invite_code
from .ports import Member
from .seating import token_digest

if TYPE_CHECKING:
    from .actor import Table
    from .seating import Seat

log = logging.getLogger("craits.server")


def address_of(member: Member | None) -> str | None:
    """The address a connection counts against (its ``address``), if it has one."""
    address = getattr(member, "address", None)
    return address if isinstance(address, str) else None


class Powers:
    """The creator's requests at ``table`` (protocol §11.9), and the table's
    :class:`~craits.server.table.access.Access`: its invite code, lock and bars."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seating = table.seating
        self.access = Access()

    # ------------------------------------------------------------ describing

    def describe(self, info: TableInfo) -> TableInfo:
        """``info`` with the fields of §11.9: seats taken, private, locked,
        muted seats, muted spectators, the names barred; and the seats held by
        people and how many of them are connected (§10: counts, which a
        private table's lobby entry shows too, naming nobody)."""
        access = self.access
        seats = self.seating.seats
        info["seated"] = len(seats)
        people = [s for s in seats if s.bot is None]
        info["people"] = len(people)
        info["people_connected"] = sum(1 for s in people if s.member is not None)
        info["private"] = access.private
        info["locked"] = access.locked
        info["muted"] = [i for i, s in enumerate(self.seating.seats) if s.muted]
        info["watchers_muted"] = access.watchers_muted
        info["barred"] = [b.name for b in access.bars]
        return info

    def lobby_info(self) -> TableInfo:
        """The table as the lobby shows it to everyone: a private table's entry
        names nobody (no players, creator or bars) and no game."""
        info = self.table.info()
        if self.access.private:
            info["players"], info["creator"], info["barred"] = [], None, []
            info["may_start"], info["game"] = [], None
        return info

    def make_private(self, creator_token: str) -> None:
        """Make the table private (§11.9): a fresh invite code; the SHA-256 of
        ``creator_token`` (given to the creator, never kept) proves its creator
        when it asks for the table's games' records (§7.3)."""
        self.access.code = new_invite_code()
        self.access.creator_key = token_digest(creator_token)

    def readers(self) -> list[bytes] | None:
        """Who may read the record of a game starting now (§7.3, the journal's
        ``readers``): at a private table, the SHA-256 digests of its seats'
        resume tokens and of its creator's token (unless the role was handed
        over: the new creator sits there, its seat's token proves it); None at
        a public table, whose games are everyone's."""
        if not self.access.private:
            return None
        readers = [s.token_digest for s in self.seating.seats if s.token_digest is not None]
        if self.access.creator_key is not None:
            readers.append(self.access.creator_key)
        return readers

    def tell_invite(self, member: Member) -> None:
        """Send a private table's invite code to ``member`` if it is the creator."""
        table = self.table
        code = self.access.code
        if code is not None and member is self.seating.creator:
            invite: InviteMsg = {"type": ServerMessage.INVITE, "table": table.name, "code": code}
            member.send(invite)

    def restore(self, row: dict[str, Any] | None) -> None:
        """Take back the access the journal kept (:meth:`Access.row`); revoked
        tokens are told to the lobby again.

        Raises:
            KeyError, ValueError, TypeError, AttributeError: the row does not read.
        """
        self.access = Access.from_row(row)
        for bar in self.access.bars:
            if bar.token is not None:
                self.table.lobby.revoked.set(bar.token, self.table.name)

    # -------------------------------------------------------------- requests

    def _creator(self, member: Member) -> None:
        """Raises: TableError: ``not_creator``; ``table_stopped`` at a halted table."""
        if member is not self.seating.creator:
            raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may do this")
        if self.table.halted:
            raise TableError(ErrorCode.TABLE_STOPPED, f"table {self.table.name!r} was stopped")

    def _person(self, member: Member, seat: int, what: str) -> Seat:
        """The seat ``seat`` if a person other than ``member`` holds it.

        Raises:
            TableError: ``bad_seat``.
        """
        seats = self.seating.seats
        s = seats[seat] if 0 <= seat < len(seats) else None
        if s is None or s.bot is not None or s.member is member or s.creator:
            raise TableError(ErrorCode.BAD_SEAT, f"there is no one at seat {seat} to {what}")
        return s

    def kick(self, member: Member, seat: int) -> None:
        """Remove the player at ``seat``: before the first game its seat is
        freed; once a game has been played a bot takes it (the game goes on).
        Its resume token is revoked, and the person is barred (their name, the
        token, their address). A bot may be removed before the first game.
        The person is told (error ``kicked``) and is no longer at the table.

        Raises:
            TableError: ``not_creator``, ``table_stopped``, ``bad_seat``.
        """
        self._creator(member)
        table, seating = self.table, self.seating
        seats = seating.seats
        bot_seat = 0 <= seat < len(seats) and seats[seat].bot is not None and table.waiting
        s = seats[seat] if bot_seat else self._person(member, seat, "remove")
        target = s.member
        if s.bot is None:
            self.access.bars.append(Bar(s.name, s.token_digest, address_of(target)))
            if s.token_digest is not None:
                table.lobby.drop_token(s.token_digest)
                table.lobby.revoked.set(s.token_digest, table.name)
        if table.waiting:
            for i in seating.free(seat):  # they moved down one: tell them their seats
                moved = seats[i].member
                assert moved is not None
                moved.send(table.snapshot(i))
        else:
            s.member, s.away, s.muted = None, False, False
            s.token_digest, s.bot = None, DEFAULT_BOT_LEVEL
        log.info("table %s: the creator removed %s (seat %d)", table.name, s.name, seat)
        if target is not None:
            target.send(
                {
                    "type": ServerMessage.ERROR,
                    "code": ErrorCode.KICKED,
                    "message": KICKED_MESSAGE.format(name=table.name),
                }
            )
            target.detach()
        game = table.gamelog.game
        if game is not None and game.to_act == seat:
            table.clock.set_deadline()  # a bot's turn now: no deadline
        table.broadcast_info()
        table.clock.schedule()

    def lock(self, member: Member, locked: bool) -> None:
        """Lock the table (no new player or spectator; resuming a seat still
        works), or unlock it.

        Raises:
            TableError: ``not_creator``, ``table_stopped``.
        """
        self._creator(member)
        self.access.locked = locked
        self.table.broadcast_info()

    def mute(self, member: Member, seat: int | None, watchers: bool, muted: bool) -> None:
        """Mute (or unmute) the chat of the player at ``seat``, or of every
        spectator (``watchers``): exactly one of the two.

        Raises:
            TableError: ``not_creator``, ``table_stopped``, ``bad_seat``,
                ``bad_message`` (both or neither named).
        """
        self._creator(member)
        if watchers == (seat is not None):
            raise TableError(ErrorCode.BAD_MESSAGE, "mute: give either 'seat' or 'watchers: true'")
        if seat is None:
            self.access.watchers_muted = muted
        else:
            self._person(member, seat, "mute").muted = muted
        self.table.broadcast_info()

    def hand_over(self, member: Member, seat: int) -> None:
        """Make the person at ``seat`` (connected) the creator; the sender is
        an ordinary player from now on. The new creator's chat is no longer
        muted (the creator never is). A private table's new creator gets its
        invite code.

        Raises:
            TableError: ``not_creator``, ``table_stopped``, ``bad_seat``.
        """
        self._creator(member)
        s = self._person(member, seat, "hand the table to")
        if s.member is None:
            raise TableError(ErrorCode.BAD_SEAT, f"the player at seat {seat} is not connected")
        for other in self.seating.seats:
            other.creator = False
        s.creator, s.muted = True, False  # the creator is never muted (§11.9)
        self.access.creator_key = None  # the next games' records: the new creator's seat's
        self.seating.creator = s.member
        log.info("table %s: %s is the creator now", self.table.name, s.name)
        self.table.broadcast_info()
        self.tell_invite(s.member)

    def unbar(self, member: Member, name: str | None) -> None:
        """Let back the person removed under ``name`` (or everyone removed).

        Raises:
            TableError: ``not_creator``, ``table_stopped``.
        """
        self._creator(member)
        for bar in self.access.unbar(name):
            if bar.token is not None:
                self.table.lobby.revoked.set(bar.token, None)
        self.table.broadcast_info()
