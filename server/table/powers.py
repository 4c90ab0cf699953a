"""The creator's powers at a table (protocol §11.9): remove a player, lock the
table, mute chat, hand the role over, let a removed person back; and who may
read a private table's games' records.

:class:`Powers` takes these requests for its table, all on the event loop
thread; each is allowed to the table's creator only (the connection that
created it, or to whom the role was handed, §11.2) and refused with
:class:`~craits.server.errors.TableError` otherwise. Each answers with an
:class:`~craits.server.table.outcome.Outcome` whose info changed: the table
records its row (:meth:`Table.persist <craits.server.table.actor.Table.persist>`),
so every change survives a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from craits.protocol.types import ErrorMsg, InviteMsg
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, ErrorCode, ServerMessage, TableState

from ..engine import Game
from ..errors import TableError
from .access import KICKED_MESSAGE, Access, Bar, new_invite_code
from .outcome import Deadline, Outcome, Reply, Snapshot
from .ports import Member, TokenBook
from .seating import Seat, Seating, account_digest, token_digest

log = logging.getLogger("craits.server")
_HALTED = frozenset({TableState.STOPPED, TableState.PAUSED})


def address_of(member: Member | None) -> str | None:
    """The address a connection counts against (its ``address``), if it has one."""
    address = getattr(member, "address", None)
    return address if isinstance(address, str) else None


class Powers:
    """The creator's requests at table ``name`` (protocol §11.9), and the table's
    :class:`~craits.server.table.access.Access`: its invite code, lock and bars.

    Args:
        name: the table's name.
        seating: its seats.
        tokens: the resume tokens' book (a removed person's token is revoked there).
        state: the table's state now.
        game: its game, or None before the first.
    """

    def __init__(
        self,
        name: str,
        seating: Seating,
        tokens: TokenBook,
        state: Callable[[], TableState],
        game: Callable[[], Game | None],
    ) -> None:
        self.name = name
        self.seating = seating
        self.access = Access()
        self._tokens = tokens
        self._state = state
        self._game = game

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
        over: the new creator sits there, its seat's token proves it), and of
        its logged-in players' accounts (:func:`account_digest`); None at a
        public table, whose games are everyone's."""
        if not self.access.private:
            return None
        seats = self.seating.seats
        readers = [s.token_digest for s in seats if s.token_digest is not None]
        if self.access.creator_key is not None:
            readers.append(self.access.creator_key)
        # the players' accounts, on any device (§7.5)
        readers += [account_digest(s.account) for s in seats if s.account is not None]
        return readers

    def invite(self, member: Member) -> Outcome:
        """A private table's invite code, told to ``member`` if it is the creator."""
        code = self.access.code
        if code is None or member is not self.seating.creator:
            return Outcome()
        invite: InviteMsg = {"type": ServerMessage.INVITE, "table": self.name, "code": code}
        return Outcome(tell=[(member, invite)])

    def restore(self, row: dict[str, Any] | None) -> None:
        """Take back the access the journal kept (:meth:`Access.row`); its
        revoked tokens are revoked in the book again.

        Raises:
            KeyError, ValueError, TypeError, AttributeError: the row does not read.
        """
        self.access = Access.from_row(row)
        for bar in self.access.bars:
            if bar.token is not None:
                self._tokens.revoke(bar.token, self.name)

    # -------------------------------------------------------------- requests

    def _creator(self, member: Member) -> None:
        """Raises: TableError: ``not_creator``; ``table_stopped`` at a halted table."""
        if member is not self.seating.creator:
            raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may do this")
        if self._state() in _HALTED:
            raise TableError(ErrorCode.TABLE_STOPPED, f"table {self.name!r} was stopped")

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

    def kick(self, member: Member, seat: int) -> Outcome:
        """Remove the player at ``seat``: before the first game its seat is
        freed; once a game has been played a bot takes it (the game goes on).
        Its resume token is revoked, and the person is barred (their name, the
        token, their address). A bot may be removed before the first game.
        The person is told (error ``kicked``) and is no longer at the table.

        Raises:
            TableError: ``not_creator``, ``table_stopped``, ``bad_seat``.
        """
        self._creator(member)
        seating = self.seating
        seats = seating.seats
        waiting = self._state() is TableState.WAITING
        bot_seat = 0 <= seat < len(seats) and seats[seat].bot is not None and waiting
        s = seats[seat] if bot_seat else self._person(member, seat, "remove")
        target = s.member
        if s.bot is None:
            self.access.bars.append(Bar(s.name, s.token_digest, address_of(target)))
            if s.token_digest is not None:
                self._tokens.drop(s.token_digest)
                self._tokens.revoke(s.token_digest, self.name)
        tell: list[tuple[Member, Reply]] = []
        let_go: list[Member] = []
        if waiting:
            for i in seating.free(seat):  # they moved down one: tell them their seats
                moved = seats[i].member
                assert moved is not None
                tell.append((moved, Snapshot(i)))
        else:
            s.member, s.away, s.muted = None, False, False
            s.token_digest, s.bot = None, DEFAULT_BOT_LEVEL
        log.info("table %s: the creator removed %s (seat %d)", self.name, s.name, seat)
        if target is not None:
            kicked: ErrorMsg = {
                "type": ServerMessage.ERROR,
                "code": ErrorCode.KICKED,
                "message": KICKED_MESSAGE.format(name=self.name),
            }
            tell.append((target, kicked))
            let_go.append(target)
        game = self._game()
        its_turn = game is not None and game.to_act == seat  # a bot's turn now: no deadline
        deadline = Deadline.RESTART if its_turn else Deadline.KEEP
        return Outcome(deadline=deadline, tell=tell, let_go=let_go, changed=True, reschedule=True)

    def lock(self, member: Member, locked: bool) -> Outcome:
        """Lock the table (no new player or spectator; resuming a seat still
        works), or unlock it.

        Raises:
            TableError: ``not_creator``, ``table_stopped``.
        """
        self._creator(member)
        self.access.locked = locked
        return Outcome(changed=True)

    def mute(self, member: Member, seat: int | None, watchers: bool, muted: bool) -> Outcome:
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
        return Outcome(changed=True)

    def hand_over(self, member: Member, seat: int) -> Outcome:
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
        log.info("table %s: %s is the creator now", self.name, s.name)
        return Outcome(changed=True, then=self.invite(s.member).tell)

    def unbar(self, member: Member, name: str | None) -> Outcome:
        """Let back the person removed under ``name`` (or everyone removed).

        Raises:
            TableError: ``not_creator``, ``table_stopped``.
        """
        self._creator(member)
        for bar in self.access.unbar(name):
            if bar.token is not None:
                self._tokens.revoke(bar.token, None)
        return Outcome(changed=True)
