"""A table's seating: its seats (people and bots), resume tokens, spectators
and creator (protocol §11.2, §11.3).

The seating knows who sits where and who may do what; it sends nothing and
knows nothing of the game: the table's parts decide when seats may change,
and :class:`craits.server.table.actor.Table` tells everyone. Its resume
tokens are issued and held by the server's :class:`~craits.server.table.ports.TokenBook`.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from craits.protocol.types import ErrorMsg, OkMsg, SeatInfo
from craits.protocol.vocab import BotLevel, ErrorCode, ServerMessage

from ..errors import TableError
from .access import name_key
from .ports import Member, TokenBook

if TYPE_CHECKING:
    from .actor import Table

log = logging.getLogger("craits.server")

ACTION_CACHE = 64
"""Results remembered per seat, by action id, so a resent action is applied once."""


def token_digest(token: str) -> bytes:
    """The SHA-256 of a resume token: tokens are looked up by digest only."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


ACCOUNT_READER = b"\xffcraits-account:"
"""What an account's reader digest hashes before its id: 0xFF is in no
token's UTF-8, so no token sent in a request digests to an account's reader."""


def account_digest(account_id: int) -> bytes:
    """The reader digest of an account (protocol §7.3, §7.5): a private table's
    game lists it beside its seats' token digests, and a request from a
    connection logged in as the account proves it (never from a token)."""
    return hashlib.sha256(ACCOUNT_READER + str(account_id).encode()).digest()


@dataclass(slots=True)
class Seat:
    """One seat: its player (a person or a bot) and how it is doing."""

    name: str
    token_digest: bytes | None = None
    member: Member | None = None
    bot: BotLevel | None = None
    away: bool = False
    results: OrderedDict[int, OkMsg | ErrorMsg] = field(default_factory=OrderedDict)
    """The replies to the seat's last actions, by action id (:data:`ACTION_CACHE`)."""
    creator: bool = False
    """The table's creator sits here: whoever resumes the seat is the creator."""
    muted: bool = False
    """The creator muted this seat's chat (protocol §11.9)."""
    account: int | None = None
    """The account of the person who took the seat, logged in (protocol §7.5)."""
    left: bool = False
    """Its person left the running game (``leave``): last place in a rated game."""
    # issue 27: between the games (protocol §11.12; :mod:`craits.server.table.rematch`)
    wins: int = 0
    """Games of the table's series this seat's player won."""
    rematch: bool | None = None
    """The rematch on offer: True accepted, False still to answer; None: no
    offer made to this seat (none is open, or it joined for the next game)."""

    @property
    def connected(self) -> bool:
        """A bot is always there; a person when a connection holds the seat."""
        return self.bot is not None or self.member is not None

    def info(self, index: int) -> SeatInfo:
        """The public description of the seat (protocol §10, ``players``):
        ``registered`` for a logged-in player's (§7.5)."""
        info: SeatInfo = {
            "seat": index,
            "name": self.name,
            "connected": self.connected,
            "away": self.away,
            "bot": self.bot,
        }
        if self.account is not None:
            info["registered"] = True
        return info

    def remember(self, action_id: int, reply: OkMsg | ErrorMsg) -> None:
        """Keep the reply to action ``action_id``; a resent action gets it again."""
        results = self.results
        results[action_id] = reply
        if len(results) > ACTION_CACHE:
            results.popitem(last=False)


class Seating:
    """The seats of ``table``, in order of joining, its spectators and its creator.

    Resume tokens are issued by the ``tokens`` book and held there by their
    SHA-256 digest, as ``table``'s (the token itself is given to its player
    once and never kept).
    """

    def __init__(self, table: Table, capacity: int, creator: Member | None, tokens: TokenBook):
        self.capacity = capacity
        self.creator = creator
        self.seats: list[Seat] = []
        self.spectators: set[Member] = set()
        self._table = table
        self._tokens = tokens

    def full(self) -> bool:
        """Every seat is taken."""
        return len(self.seats) >= self.capacity

    def seat_of(self, member: Member) -> int | None:
        """``member``'s seat, or None (a spectator, or not at the table)."""
        for i, s in enumerate(self.seats):
            if s.member is member:
                return i
        return None

    def members(self) -> list[tuple[Member, int | None]]:
        """Every connection at the table with its seat (``None``: spectating)."""
        out: list[tuple[Member, int | None]] = [
            (s.member, i) for i, s in enumerate(self.seats) if s.member is not None
        ]
        out.extend((m, None) for m in self.spectators)
        return out

    def players(self) -> list[SeatInfo]:
        """Every seat's public description (protocol §10)."""
        return [s.info(i) for i, s in enumerate(self.seats)]

    def names(self) -> list[str]:
        """The players' names by seat."""
        return [s.name for s in self.seats]

    def rows(self) -> list[dict[str, Any]]:
        """The seats as the journal keeps them: names, bots, token digests (never
        tokens); ``creator`` and ``muted`` only when true (protocol §11.9);
        ``wins`` when some, ``rematch`` when an offer is open (§11.12)."""
        rows: list[dict[str, Any]] = []
        for s in self.seats:
            row: dict[str, Any] = {
                "name": s.name,
                "token": s.token_digest.hex() if s.token_digest else None,
                "bot": s.bot,
            }
            if s.creator:
                row["creator"] = True
            if s.muted:
                row["muted"] = True
            if s.account is not None:
                row["account"] = s.account
            if s.left:
                row["left"] = True
            if s.wins:  # issue 27: the series (protocol §11.12)
                row["wins"] = s.wins
            if s.rematch is not None:
                row["rematch"] = s.rematch
            rows.append(row)
        return rows

    # ---------------------------------------------------------- who may do what

    def can_start(self, member: Member | None) -> bool:
        """Whether ``member`` may start the game, seat bots or start a new one
        (protocol §11.2): the creator, or (once the creator's connection is
        neither seated nor watching) any seated player. ``None``: the server."""
        if member is None or member is self.creator:
            return True
        creator = self.creator
        creator_here = creator is not None and (
            self.seat_of(creator) is not None or creator in self.spectators
        )
        return not creator_here and self.seat_of(member) is not None

    def may_start(self) -> list[int]:
        """The seats whose players may start the game, seat bots or start a new
        game right now (:meth:`can_start`): the creator's seat while the creator
        is at the table; once the creator is gone, every seat a connection
        holds. Seats without a connection (bots, players gone) are never in it."""
        return [
            i for i, s in enumerate(self.seats) if s.member is not None and self.can_start(s.member)
        ]

    def is_empty(self) -> bool:
        """No person seated or watching (bots do not count)."""
        return not self.spectators and all(s.member is None for s in self.seats)

    # -------------------------------------------------------------- changes

    def seat_person(self, member: Member, name: str) -> tuple[int, str]:
        """Give ``member`` the next seat as ``name``; returns ``(seat, resume token)``.

        Raises:
            TableError: ``table_full``, ``name_taken``.
        """
        if self.full():
            raise TableError(ErrorCode.TABLE_FULL, f"all {self.capacity} seats are taken")
        if any(name_key(s.name) == name_key(name) for s in self.seats):
            raise TableError(ErrorCode.NAME_TAKEN, f"someone at this table is called {name!r}")
        seat = len(self.seats)
        token = self._tokens.issue(self._table, seat)  # names its table for a cluster (§11.7)
        creator = member is self.creator
        account = member.account_id
        self.seats.append(Seat(name, token_digest(token), member, creator=creator, account=account))
        return seat, token

    def seat_bot(self, level: BotLevel) -> int:
        """Give a bot of ``level`` the next seat (the caller checked there is one)."""
        taken = {s.name for s in self.seats}
        n = 1
        while f"{level}-bot-{n}" in taken:
            n += 1
        self.seats.append(Seat(f"{level}-bot-{n}", bot=level))
        return len(self.seats) - 1

    def free(self, seat: int) -> list[int]:
        """Free ``seat`` before the game (its token stops working); the seats
        after it move down one and keep their tokens (protocol §11.3). Returns
        the seats that moved and hold a connection."""
        s = self.seats.pop(seat)
        if s.token_digest is not None:
            self._tokens.drop(s.token_digest)
        moved = []
        for i in range(seat, len(self.seats)):
            after = self.seats[i]
            if after.token_digest is not None:
                self._tokens.register(after.token_digest, self._table, i)
            if after.member is not None:
                moved.append(i)
        return moved

    def resume(self, member: Member, seat: int) -> Member | None:
        """Give ``seat`` to ``member`` (its resume token matched); the seat is
        no longer away. Returns the connection that held it before, if any."""
        s = self.seats[seat]
        old = s.member
        s.member = member
        if s.creator:
            self.creator = member  # the creator, back on another connection
        s.away = False  # the player is back: its turns wait for it again
        self.spectators.discard(member)
        return old

    def answered(self, seat: int, action_id: int) -> None:
        """``seat``'s action ``action_id`` is in the game's log: it was answered ``ok``."""
        self.seats[seat].remember(action_id, {"type": ServerMessage.OK, "id": action_id})

    def unrecorded(self, seat: int, action_id: int, message: str) -> tuple[Member | None, ErrorMsg]:
        """``seat``'s action ``action_id`` was not recorded (the journal failed,
        the table paused): its answer ``table_paused`` with ``message``, kept
        for the id, and the connection to send it to, if any (protocol §4.8)."""
        reply: ErrorMsg = {
            "type": ServerMessage.ERROR,
            "id": action_id,
            "code": ErrorCode.TABLE_PAUSED,
            "message": message,
        }
        s = self.seats[seat]
        s.results[action_id] = reply
        return s.member, reply

    def new_game(self) -> None:
        """A game starts: no seat is away, no action id is remembered."""
        for s in self.seats:
            s.results.clear()
            s.away = False

    def restore(self, rows: list[dict[str, Any]]) -> None:
        """Seat the players of a journal row (:meth:`rows`), all disconnected,
        and register their tokens again. The creator's seat stays the
        creator's: whoever resumes it is the creator again (protocol §11.9)."""
        for i, row in enumerate(rows):
            digest = bytes.fromhex(row["token"]) if row.get("token") else None
            bot = row.get("bot")
            level = BotLevel(bot) if bot else None
            creator, muted = bool(row.get("creator")), bool(row.get("muted"))
            seat = Seat(row["name"], digest, bot=level, creator=creator, muted=muted)
            account = row.get("account")
            seat.account = int(account) if account is not None else None
            seat.left = bool(row.get("left"))
            seat.wins, seat.rematch = _series(row)
            self.seats.append(seat)
            if digest is not None:
                self._tokens.register(digest, self._table, i)

    def rotate(self) -> None:
        """Every player moves one seat on (a rematch, protocol §11.12): seat
        ``i``'s player sits at ``i + 1`` (the last at 0); their resume tokens
        follow them."""
        seats = self.seats
        if len(seats) < 2:
            return
        seats.insert(0, seats.pop())
        for i, s in enumerate(seats):
            if s.token_digest is not None:
                self._tokens.register(s.token_digest, self._table, i)

    def drop_tokens(self) -> None:
        """The table closes: its resume tokens stop working."""
        for s in self.seats:
            if s.token_digest is not None:
                self._tokens.drop(s.token_digest)


def _series(row: dict[str, Any]) -> tuple[int, bool | None]:
    """A journal row's ``wins`` and ``rematch`` (protocol §11.12; absent: 0, None).

    Raises:
        TypeError, ValueError: they are not what :meth:`Seating.rows` writes.
    """
    wins, rematch = row.get("wins", 0), row.get("rematch")
    if type(wins) is not int or wins < 0 or not (rematch is None or type(rematch) is bool):
        raise ValueError(f"a seat's wins {wins!r} or rematch {rematch!r} do not read")
    return wins, rematch
