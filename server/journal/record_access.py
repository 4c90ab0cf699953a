"""Who may read a finished game's record (protocol §7.3): decided here, and
nowhere else.

A public table's games are everyone's. A private table's (§11.9) are its
players' and its creator's: when such a game starts, the SHA-256 digests of
its seats' resume tokens and of its creator's token are written with it (the
journal's ``readers``; never the tokens). A request proves a seat, or the
creator, by sending the token it holds: ``list_records``, ``get_record`` and
``get_replay`` take ``tokens``, each hashed and compared with the readers in
constant time. Anyone else is answered as if the game did not exist
(``no_such_game``), and ``list_records`` leaves it out. Games recorded before
readers were kept are public, as they were. The operator's ``craits-server
export`` reads the journal itself and is not concerned.

:class:`Asker` is what a request proves about who asks: the tokens it sent,
and the account its connection is logged in as (protocol §7.5), whose
players' private games are theirs on any device: a private table's game lists
its logged-in players' account digests among its readers
(:func:`~craits.server.table.seating.account_digest`, which no token can
produce). :meth:`Asker.may_read` stays the one check.
"""

from __future__ import annotations

import hmac
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from craits.protocol.vocab import ErrorCode

from ..errors import JournalError, TableError
from ..table.seating import account_digest, token_digest
from .journal import JournalReader


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asks for records: the SHA-256 digests of the tokens the request
    sent (a resume token proves a seat, a creator's token the creator)."""

    digests: frozenset[bytes] = frozenset()

    @classmethod
    def of(cls, tokens: Sequence[str] | None, account: int | None = None) -> Asker:
        """The asker that sent ``tokens`` (None: none), from a connection
        logged in as ``account`` (None: a guest), which proves the account's
        seats on any device (protocol §7.5)."""
        digests = {token_digest(t) for t in tokens or ()}
        if account is not None:
            digests.add(account_digest(account))
        return cls(frozenset(digests))

    def may_read(self, readers: list[bytes] | None) -> bool:
        """Whether this asker may read a game with ``readers`` (None: a public
        game). Tokens are compared by their SHA-256 digests, never as sent:
        each reader is looked up among the asker's digests, as a resume token
        is looked up by digest (so a long list of private games costs a set
        lookup per reader, whatever the number of tokens), and a digest found
        is compared again in constant time."""
        if readers is None:
            return True
        digests = self.digests
        return any(r in digests and _same(r, digests) for r in readers)


def _same(reader: bytes, digests: frozenset[bytes]) -> bool:
    """``reader`` equals one of ``digests`` (compared in constant time)."""
    return any(hmac.compare_digest(reader, d) for d in digests if len(d) == len(reader))


def no_such_game(game: int) -> TableError:
    """What a game that does not exist (or is not finished) is answered; a
    private game is answered the same to those who may not read it."""
    return TableError(ErrorCode.NO_SUCH_GAME, f"there is no finished game {game}")


def check(journal: JournalReader | None, game: int, asker: Asker) -> None:
    """Refuse game ``game``'s record (``get_record``, ``get_replay``) to an
    asker who may not read it, before anything else is looked at.

    Raises:
        TableError: ``no_such_game``, as for a game that does not exist (also
            when the game's readers cannot be read: nothing is given away).
    """
    if journal is None:
        return  # no journal, no game: the caller says so
    try:
        readers = journal.readers(game)
    except JournalError:
        raise no_such_game(game) from None
    if not asker.may_read(readers):
        raise no_such_game(game)


def listed(journal: JournalReader | None, asker: Asker, limit: int) -> list[dict[str, Any]]:
    """The newest finished games ``asker`` may read, at most ``limit``
    (``list_records``): public games, and the private ones its tokens prove.
    The journal finds them by the asker's digests (an index of the readers by
    digest, so an asker with a hundred tokens costs no more to a journal of
    many private games), and each is checked again here (:meth:`Asker.may_read`).

    Raises:
        JournalError: the journal cannot be read.
    """
    if journal is None:
        return []
    try:
        found = journal.finished_games(asker.digests, limit)
        return [g for g in found if asker.may_read(journal.readers(g["id"]))]
    except (sqlite3.Error, ValueError, TypeError) as exc:
        raise JournalError(f"the list of games cannot be read: {exc}") from None
