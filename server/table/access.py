"""Who may come to a table: private tables' invite codes, the budget of wrong
codes, the lock, and the bars the creator sets by removing someone (protocol §11.9).

- :func:`new_invite_code`: a private table's code, 80 random bits written as
  16 characters of base32 (``A``–``Z``, ``2``–``7``), easy to read out and copy.
- :class:`WrongCodes`: the server-wide budget of wrong codes, per connection
  and per address (an IPv4 address, or an IPv6 /64): a few tries, then one
  more each ``refill`` seconds; a spent budget refuses every code, right or
  wrong, with ``too_many_attempts`` (so it tells a guesser nothing).
- :class:`Access`: one table's code, lock, muted watchers and bars, what the
  journal keeps of them (:meth:`Access.row`), and the check every ``join`` and
  ``spectate`` passes (:meth:`Access.admit`).
"""

from __future__ import annotations

import base64
import hmac
import math
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from craits.protocol.vocab import ErrorCode

from ..errors import TableError

KICKED_MESSAGE = "the creator of table {name!r} removed you from it"
"""What a removed person is told, in plain words (error ``kicked``)."""
CODE_BYTES = 10
"""Random bytes in an invite code: 80 bits, written as 16 base32 characters."""
_SLACK = 1e-9
"""Tries short of one by no more than this count as one: a budget refilled by
exactly the wait :meth:`WrongCodes.check` told is not refused for a rounding
error of the floats."""


def new_invite_code() -> str:
    """A fresh invite code: 80 bits from :mod:`secrets`, as 16 characters of
    RFC 4648 base32 without padding (``A``–``Z``, ``2``–``7``)."""
    return base64.b32encode(secrets.token_bytes(CODE_BYTES)).decode("ascii").rstrip("=")


def new_creator_token() -> str:
    """A fresh creator's token of a private table: 192 random bits from
    :mod:`secrets`, URL-safe (32 characters). Sent to the creator once
    (``table_created``); the server keeps its SHA-256 only (protocol §7.3)."""
    return secrets.token_urlsafe(24)


def name_key(name: str) -> str:
    """A name as the server compares names (protocol §5, §11.9): without regard
    to case (Unicode case folding: ``"Straße"`` is ``"STRASSE"``). A name
    taken at a table, a bar and an ``unbar`` all compare names by it; the
    protocol's check has already stripped surrounding whitespace."""
    return name.casefold()


def normal_code(text: str) -> str:
    """An invite code as typed, made comparable: upper case, without spaces
    or dashes (people copy codes by hand)."""
    return "".join(c for c in text.upper() if c not in " -\t")


@dataclass(slots=True)
class _Budget:
    """Tries left (a float: they come back a little at a time) and when counted."""

    tries: float
    at: float


class WrongCodes:
    """The budget of wrong invite codes (protocol §11.9): each connection may
    give ``per_connection`` wrong codes, each address ``per_address``, and one
    more try comes back every ``refill`` seconds. Times are
    :func:`time.monotonic` seconds.

    A connection is known by its identity (``id``), forgotten with
    :meth:`forget`; addresses whose budget is whole again are forgotten as
    others come, so the map stays small.
    """

    def __init__(self, per_connection: int, per_address: int, refill: float) -> None:
        self.per_connection = per_connection
        self.per_address = per_address
        self.refill = refill
        self._connections: dict[int, _Budget] = {}
        self._addresses: dict[str, _Budget] = {}

    @classmethod
    def of(cls, config: Any) -> WrongCodes:
        """The budget a server's config sets (``invite_tries``,
        ``invite_tries_per_address``, ``invite_refill``)."""
        return cls(config.invite_tries, config.invite_tries_per_address, config.invite_refill)

    def _left(self, budgets: dict[Any, _Budget], key: Any, whole: int, now: float) -> float:
        found = budgets.get(key)
        if found is None:
            return float(whole)
        gained = (now - found.at) / self.refill if self.refill > 0 else float(whole)
        found.tries, found.at = min(float(whole), found.tries + gained), now
        return found.tries

    def check(self, connection: object, address: str, now: float | None = None) -> None:
        """Refuse a code from a connection or address with no try left.

        Raises:
            TableError: ``too_many_attempts``, saying in how many whole seconds
                (rounded up) a try comes back: asked again after that wait, the
                code is looked at.
        """
        now = time.monotonic() if now is None else now
        mine = self._left(self._connections, id(connection), self.per_connection, now)
        theirs = self._left(self._addresses, address, self.per_address, now)
        least = min(mine, theirs)
        if least < 1 - _SLACK:
            # whole seconds, rounded up: after that wait a try has come back
            wait = max(1, math.ceil((1 - least) * self.refill))
            raise TableError(
                ErrorCode.TOO_MANY_ATTEMPTS,
                f"too many wrong invite codes: try again in {wait} s",
            )

    def spend(self, connection: object, address: str, now: float | None = None) -> None:
        """A wrong code from ``connection`` at ``address``: one try less for each."""
        now = time.monotonic() if now is None else now
        mine = self._left(self._connections, id(connection), self.per_connection, now)
        self._connections[id(connection)] = _Budget(mine - 1, now)
        theirs = self._left(self._addresses, address, self.per_address, now)
        self._addresses[address] = _Budget(theirs - 1, now)
        self._tidy(now)

    def forget(self, connection: object) -> None:
        """``connection`` closed: its own budget goes (its address's stays)."""
        self._connections.pop(id(connection), None)

    def _tidy(self, now: float) -> None:
        """Forget the addresses whose budget is whole again (past a few hundred)."""
        if len(self._addresses) > 256:
            for key in list(self._addresses):
                if self._left(self._addresses, key, self.per_address, now) >= self.per_address:
                    del self._addresses[key]


class RevokedTokens:
    """The resume tokens the tables' creators revoked (by SHA-256 digest), with
    their table's name: a ``resume`` with one is answered ``kicked``."""

    def __init__(self) -> None:
        self._tables: dict[bytes, str] = {}

    def set(self, digest: bytes, table: str | None) -> None:
        """``digest`` was revoked at ``table``; None: no longer (its bar was lifted)."""
        if table is None:
            self._tables.pop(digest, None)
        else:
            self._tables[digest] = table

    def forget(self, bars: list[Bar]) -> None:
        """The table of ``bars`` closed: its revoked tokens are forgotten."""
        for bar in bars:
            if bar.token is not None:
                self._tables.pop(bar.token, None)

    def refuse(self, digest: bytes) -> None:
        """Refuse a revoked token (nothing if ``digest`` was not revoked).

        Raises:
            TableError: ``kicked``, naming the table.
        """
        table = self._tables.get(digest)
        if table is not None:
            raise TableError(ErrorCode.KICKED, KICKED_MESSAGE.format(name=table))


@dataclass
class Bar:
    """Someone the creator removed (protocol §11.9): kept out by the name they
    sat under (case-insensitively), their revoked resume token (its SHA-256
    digest) and the address they came from (when they were connected)."""

    name: str
    token: bytes | None = None
    address: str | None = None

    def row(self) -> dict[str, Any]:
        """The bar as the journal keeps it."""
        return {
            "name": self.name,
            "token": self.token.hex() if self.token is not None else None,
            "address": self.address,
        }

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Bar:
        """A bar from :meth:`row`.

        Raises:
            KeyError, ValueError, TypeError: the row does not read.
        """
        token = row.get("token")
        return cls(str(row["name"]), bytes.fromhex(token) if token else None, row.get("address"))


@dataclass
class Access:
    """Who may come to one table: its invite code (None: a public table), its
    lock, whether its spectators may chat, and its bars (protocol §11.9); and
    the SHA-256 digest of its creator's token (``creator_key``), which proves
    the creator of a private table when it asks for its games' records
    (protocol §7.3), until the role is handed over."""

    code: str | None = None
    locked: bool = False
    watchers_muted: bool = False
    bars: list[Bar] = field(default_factory=list)
    creator_key: bytes | None = None
    rated: bool = False
    """Its games move its players' ratings; only logged-in players sit
    (protocol §7.5; checked by the handlers, which know accounts)."""

    @property
    def private(self) -> bool:
        """The table is joined or watched only with its invite code."""
        return self.code is not None

    def admit(
        self, guard: WrongCodes, who: object, address: str, code: str | None, name: str | None
    ) -> None:
        """Check a ``join`` (as ``name``) or ``spectate`` (under the
        connection's name) from connection ``who`` at ``address`` giving
        ``code`` (protocol §11.9). In this order: the invite code of a private
        table — no code at all is ``bad_invite_code`` and spends nothing; a
        code from a spent budget is ``too_many_attempts`` whatever it is, so a
        right code then says nothing either; a wrong one spends a try — then
        the bars (by name or address: a person kept out may neither sit nor
        watch), then the lock. The creator is not checked at all (the caller
        leaves it out: its own bars and lock never keep it out).

        Raises:
            TableError: ``too_many_attempts``, ``bad_invite_code``, ``barred``,
                ``table_locked``.
        """
        if self.code is not None:
            if code is None:
                raise TableError(
                    ErrorCode.BAD_INVITE_CODE,
                    "this table is private: ask its creator for the invite code",
                )
            guard.check(who, address)
            if not hmac.compare_digest(normal_code(code).encode(), self.code.encode()):
                guard.spend(who, address)
                raise TableError(ErrorCode.BAD_INVITE_CODE, "that invite code is not this table's")
        if self.barred(name, address):
            raise TableError(
                ErrorCode.BARRED,
                "the table's creator removed you from this table; only they can let you back",
            )
        if self.locked:
            raise TableError(
                ErrorCode.TABLE_LOCKED, "the table's creator locked it: no one new may come"
            )

    def barred(self, name: str | None, address: str | None) -> bool:
        """Whether a person named ``name`` at ``address`` is kept out (names
        compared by :func:`name_key`)."""
        key = name_key(name) if name is not None else None
        return any(
            (key is not None and name_key(bar.name) == key)
            or (address is not None and bar.address == address)
            for bar in self.bars
        )

    def unbar(self, name: str | None) -> list[Bar]:
        """Lift the bars of ``name`` (compared as :meth:`barred` compares
        names, :func:`name_key`), or all (None); returns those lifted."""
        key = name_key(name) if name is not None else None
        lifted = [b for b in self.bars if key is None or name_key(b.name) == key]
        self.bars = [b for b in self.bars if b not in lifted]
        return lifted

    def row(self) -> dict[str, Any]:
        """What the journal keeps (the ``access`` column of the table's row)."""
        row: dict[str, Any] = {
            "code": self.code,
            "locked": self.locked,
            "watchers_muted": self.watchers_muted,
            "bars": [b.row() for b in self.bars],
        }
        if self.creator_key is not None:
            row["creator_key"] = self.creator_key.hex()  # a digest, never the token
        if self.rated:
            row["rated"] = True
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any] | None) -> Access:
        """The access of a journal row (None: a row from before private tables: public).

        Raises:
            KeyError, ValueError, TypeError, AttributeError: the row does not read.
        """
        if row is None:
            return cls()
        code, key = row.get("code"), row.get("creator_key")
        return cls(
            str(code) if code is not None else None,
            bool(row.get("locked", False)),
            bool(row.get("watchers_muted", False)),
            [Bar.from_row(b) for b in row.get("bars", [])],
            bytes.fromhex(key) if key else None,
            bool(row.get("rated", False)),
        )
