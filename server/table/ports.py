"""What a table needs from the world around it, each as a small interface.

- :class:`Member`: a connection at a table (a seated player or a spectator);
  :class:`craits.server.net.connection.Client` implements it.
- :class:`Lobby`: the server that holds the tables and their resume tokens;
  :class:`craits.server.app.Server` implements it.
- :class:`TableJournal`: where a table records its row and its game's log;
  :class:`craits.server.journal.journal.Journal` implements it.

And :class:`TableError`, how a table refuses a request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from craits.protocol.types import ServerMsg

from ..journal.records import Entry

if TYPE_CHECKING:
    from .access import RevokedTokens
    from .actor import Table


class Member(Protocol):
    """A connection as a table sees it: something to send messages to."""

    name: str

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


class Lobby(Protocol):
    """The server as a table sees it: the list of tables and the resume tokens."""

    revoked: RevokedTokens
    """The resume tokens the tables' creators revoked (protocol §11.9)."""

    def table_changed(self, table: Table) -> None:
        """``table``'s info changed: tell the lobby's watchers."""

    def register_token(self, digest: bytes, table: Table, seat: int) -> None:
        """The resume token with SHA-256 ``digest`` now holds ``seat`` at ``table``."""

    def drop_token(self, digest: bytes) -> None:
        """The resume token with SHA-256 ``digest`` no longer holds a seat."""

    def close_table(self, table: Table) -> None:
        """Close ``table`` and remove it from the lobby (its members are told)."""


class TableJournal(Protocol):
    """Where a table records itself (docs/records.md): its row, and its game's
    log of shuffles and actions. Every write returns its *ticket*; a deferred
    journal reports failed writes later, by ticket.

    Each write raises :class:`craits.server.journal.journal.JournalError` if it fails
    at once (a journal that does not defer its writes).
    """

    def save_table(
        self,
        name: str,
        capacity: int,
        rules: dict[str, Any],
        turn_timeout: float,
        creator: str | None,
        state: str,
        seats: list[dict[str, Any]],
        game_id: int | None,
        vacant_since: float | None = None,
        access: dict[str, Any] | None = None,
    ) -> int:
        """Write the table's row (seats with token digests, never tokens;
        ``vacant_since``: when its last person went, seconds since the epoch;
        ``access``: its invite code, lock and bars, protocol §11.9)."""
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

    def entries(self, game_id: int) -> list[Entry]:
        """A game's log as recorded, in order."""
        ...

    def written(self, ticket: int) -> bool:
        """Whether write ``ticket`` is done: committed, or failed and reported."""
        ...
