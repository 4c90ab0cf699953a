"""Resume tokens (protocol §4.8): the seats they hold, and their form.

:class:`SeatTokens` is the server's book of them (the tables'
:class:`~craits.server.table.ports.TokenBook`): it issues a seat's token,
keeps only its SHA-256 digest with the table and seat it holds, finds the seat
again when a ``resume`` brings the token (compared in constant time), and
refuses a token its table's creator revoked (protocol §11.9) or whose table
was set aside at start (§4.8).

A token names its table, so any node of a cluster can send a ``resume`` to the
node that holds the seat (docs/cluster.md, protocol §11.7): it is 32 random
URL-safe characters (24 random bytes), a dot, and the table's tag: the first
11 characters of the base64url SHA-256 of the table's name. The tag tells
which table, never which seat: whoever lacks the random part cannot take the
seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING

from ..table.access import RevokedTokens
from ..table.seating import token_digest

if TYPE_CHECKING:
    from ..journal.restore import SetAside
    from ..table.actor import Table

TAG_LENGTH = 11
"""Characters of a table's tag (66 bits of its name's SHA-256)."""


def table_tag(name: str) -> str:
    """The tag of the table called ``name``: 11 base64url characters."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:TAG_LENGTH]


def new_token(table: str) -> str:
    """A fresh resume token for a seat at the table called ``table`` (44 characters)."""
    return f"{secrets.token_urlsafe(24)}.{table_tag(table)}"


def token_tag(token: str) -> str | None:
    """The table tag a token carries, or None (a token from before tags, or not one)."""
    _, dot, tag = token.rpartition(".")
    return tag if dot and len(tag) == TAG_LENGTH else None


class SeatTokens:
    """The resume tokens of a server's tables, by SHA-256 digest, each with the
    table and seat it holds; and the tokens the tables' creators revoked
    (:attr:`revoked`, protocol §11.9). All on the event loop thread."""

    def __init__(self) -> None:
        self._seats: dict[bytes, tuple[Table, int]] = {}
        self.revoked = RevokedTokens()

    def issue(self, table: Table, seat: int) -> str:
        """A fresh token for ``seat`` at ``table`` (naming the table), held from
        now on; only its digest is kept."""
        token = new_token(table.name)
        self.register(token_digest(token), table, seat)
        return token

    def register(self, digest: bytes, table: Table, seat: int) -> None:
        """The token with SHA-256 ``digest`` now holds ``seat`` at ``table``."""
        self._seats[digest] = (table, seat)

    def drop(self, digest: bytes) -> None:
        """The token with SHA-256 ``digest`` no longer holds a seat."""
        self._seats.pop(digest, None)

    def revoke(self, digest: bytes, table: str | None) -> None:
        """The token with SHA-256 ``digest`` was revoked at ``table`` (None: no longer)."""
        self.revoked.set(digest, table)

    def find(self, token: str, set_aside: SetAside) -> tuple[Table, int] | None:
        """The table and seat ``token`` holds, or None. Tokens are kept only as
        digests and compared in constant time.

        Raises:
            TableError: ``kicked`` (revoked by the table's creator, protocol
                §11.9); ``bad_token`` naming the table (its table was ``set_aside``
                at start, §4.8).
        """
        digest = token_digest(token)
        found = self._seats.get(digest)
        if found is None:
            self.revoked.refuse(digest)
            set_aside.refuse_token(digest)
            return None
        table, seat = found
        stored = table.seats[seat].token_digest if seat < len(table.seats) else None
        if stored is None or not hmac.compare_digest(stored, digest):
            return None
        return found
