"""What a table needs from the world around it, each as a small interface, and
the row it records.

- :class:`Member`: a connection at a table (a seated player or a spectator);
  :class:`craits.server.net.connection.Client` implements it.
- :class:`TableHost`: the server that holds the table, told when its info
  changes and asked to close it; :class:`craits.server.app.Server` implements it.
- :class:`TokenBook`: where the table's resume tokens are issued, held and
  revoked; :class:`craits.server.lobby.seat_tokens.SeatTokens` implements it.
- :class:`TableJournal`: where a table records its row (a :class:`TableRow`)
  and its game's log (:data:`Entry`); :class:`craits.server.journal.journal.Journal`
  implements it.

A table refuses a request with :class:`~craits.server.errors.TableError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from craits.protocol.types import ServerMsg

if TYPE_CHECKING:
    from .actor import Table

Entry = tuple[str, dict[str, Any]]
"""One entry of a game's log: ``(kind, data)``, ``kind`` a
:class:`~craits.protocol.vocab.LogEntryKind` (``docs/records.md``, "The log";
:func:`craits.server.table.gamelog.replay` reads them)."""


class Member(Protocol):
    """A connection as a table sees it: something to send messages to."""

    name: str
    account_id: int | None
    """The account the connection is logged in as (protocol §7.5), or None: a guest."""

    def send(self, message: ServerMsg) -> None:
        """Queue ``message`` for sending; never blocks. A message queued while
        journal writes are pending goes out once they are done."""

    def send_frame(self, frame: bytes) -> None:
        """:meth:`send` for a message already encoded and framed (see
        :func:`craits.protocol.wire.encode`)."""

    def discard_from(self, ticket: int) -> None:
        """Drop the queued messages that wait on journal write ``ticket`` or a
        later one (that write failed: they tell of what was not recorded)."""

    def detach(self) -> None:
        """Forget the table: it closed, or the seat was resumed on another connection."""


class TableHost(Protocol):
    """The server as a table sees it: the one that lists the table and closes it."""

    def table_changed(self, table: Table) -> None:
        """``table``'s info changed: tell the lobby's watchers."""

    def close_table(self, table: Table) -> None:
        """Close ``table`` and remove it from the lobby (its members are told)."""

    def game_over(self, table: Table) -> None:
        """``table``'s game was played to its end: its result goes to the
        players' accounts (protocol §7.5; never called for an abandoned game)."""


class TokenBook(Protocol):
    """The resume tokens of the server's tables (protocol §4.8, §11.9): only
    their SHA-256 digests are kept."""

    def issue(self, table: Table, seat: int) -> str:
        """A fresh resume token for ``seat`` at ``table``, held from now on;
        given to its player once, never kept (its digest is)."""
        ...

    def register(self, digest: bytes, table: Table, seat: int) -> None:
        """The token with SHA-256 ``digest`` now holds ``seat`` at ``table``."""

    def drop(self, digest: bytes) -> None:
        """The token with SHA-256 ``digest`` no longer holds a seat."""

    def revoke(self, digest: bytes, table: str | None) -> None:
        """The token with SHA-256 ``digest`` was revoked at ``table`` (its
        creator removed its player; ``resume`` with it is answered ``kicked``);
        None: no longer (the bar was lifted)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table's row in the journal (``docs/records.md``): what a restart
    restores it from. Seats hold token digests, never tokens.

    Attributes:
        name: the table's name.
        capacity: its number of seats.
        rules: its house rules, those that differ from the rule book's
            (:meth:`~craits.server.engine.Rules.changed`).
        turn_timeout: seconds a person has for a turn (0: no timeout).
        creator: the creator's name, or None (a server's table).
        state: its :class:`~craits.protocol.vocab.TableState`.
        seats: the seats as :meth:`Seating.rows
            <craits.server.table.seating.Seating.rows>` gives them.
        game_id: the journal's id of its game, or None before the first.
        vacant_since: when its last person's connection left a seat, seconds
            since the epoch (its abandon clock, protocol §11.1), or None.
        access: its invite code, lock and bars (protocol §11.9,
            :meth:`Access.row <craits.server.table.access.Access.row>`).
        timing: its time bank and each seat's time left in it (protocol
            §11.10, :meth:`Banks.row <craits.server.table.timing.Banks.row>`),
            or None: no time bank.
    """

    name: str
    capacity: int
    rules: dict[str, Any]
    turn_timeout: float
    creator: str | None
    state: str
    seats: list[dict[str, Any]]
    game_id: int | None
    vacant_since: float | None = None
    access: dict[str, Any] | None = None
    timing: dict[str, Any] | None = None


class TableJournal(Protocol):
    """Where a table records itself (docs/records.md): its row, and its game's
    log of shuffles and actions. Every write returns its *ticket*; a deferred
    journal reports failed writes later, by ticket.

    Each write raises :class:`~craits.server.errors.JournalError` if it fails
    at once (a journal that does not defer its writes).
    """

    def save_table(self, row: TableRow) -> int:
        """Write the table's row; returns the write's ticket."""
        ...

    def start_game(
        self,
        table: str,
        players: list[str],
        rules: dict[str, Any],
        entries: list[Entry] | None = None,
        readers: list[bytes] | None = None,
    ) -> int:
        """Open a game with the first entries of its log; returns the game's id.
        ``readers``: the token digests that may read a private table's game's
        record (protocol §7.3); None: a public game."""
        ...

    def append(
        self, game_id: int, entries: list[Entry], result: dict[str, Any] | None = None
    ) -> int:
        """Append entries to a game's log (with ``result``, it is finished); returns the ticket."""
        ...

    def recorded(self, game_id: int) -> list[Entry]:
        """A game's log as recorded, in order.

        Raises:
            JournalError: it cannot be read (a damaged journal).
        """
        ...

    def written(self, ticket: int) -> bool:
        """Whether write ``ticket`` is done: committed, or failed and reported."""
        ...
