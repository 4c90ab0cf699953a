"""What the table's parts are built with in their unit tests, without a socket:
a connection that keeps what it is sent, a book of resume tokens that keeps
them in a dict, a seeded game log without a journal."""

from __future__ import annotations

import random
from typing import Any

from craits.protocol.types import ServerMsg
from craits.protocol.vocab import TableState
from craits.protocol.wire import HEADER, decode
from craits.server.engine import Game, Rules
from craits.server.table.fairness import RecordingShuffle
from craits.server.table.gamelog import GameLog
from craits.server.table.seating import Seating


class Conn:
    """A connection at a table (a :class:`~craits.server.table.ports.Member`)
    that keeps every message it is sent, and whether it was let go."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.sent: list[ServerMsg] = []
        self.let_go = False
        self.account_id: int | None = None

    def send(self, message: ServerMsg) -> None:
        self.sent.append(message)

    def send_frame(self, frame: bytes) -> None:
        self.sent.append(decode(frame[HEADER.size :]))  # type: ignore[arg-type]

    def discard_from(self, ticket: int) -> None:
        """Nothing waits on the journal here."""

    def detach(self) -> None:
        self.let_go = True


class Owner:
    """What a seating's tokens are issued for: the table, as far as the book needs it."""

    def __init__(self, name: str) -> None:
        self.name = name


class Book:
    """A :class:`~craits.server.table.ports.TokenBook` that keeps everything in dicts."""

    def __init__(self) -> None:
        self.held: dict[bytes, int] = {}
        self.revoked: dict[bytes, str | None] = {}
        self._next = 0

    def issue(self, table: Any, seat: int) -> str:
        from craits.server.table.seating import token_digest

        self._next += 1
        token = f"token-{self._next}"
        self.held[token_digest(token)] = seat
        return token

    def register(self, digest: bytes, table: Any, seat: int) -> None:
        self.held[digest] = seat

    def drop(self, digest: bytes) -> None:
        self.held.pop(digest, None)

    def revoke(self, digest: bytes, table: str | None) -> None:
        self.revoked[digest] = table


class Now:
    """A table's state, as its parts read it (a callable), set by the test."""

    def __init__(self, state: TableState = TableState.WAITING) -> None:
        self.state = state

    def __call__(self) -> TableState:
        return self.state


def seating(capacity: int = 2, creator: Conn | None = None) -> tuple[Seating, Book]:
    book = Book()
    return Seating(Owner("t"), capacity, creator, book), book  # type: ignore[arg-type]


def gamelog(seed: int = 1, paused: list[str] | None = None) -> GameLog:
    """A game log without a journal, its deals seeded."""
    answered: list[tuple[int, int]] = []
    log = GameLog(
        "t",
        Rules(),
        None,
        lambda seat, action_id: answered.append((seat, action_id)),
        (paused if paused is not None else []).append,
    )
    log.rng = RecordingShuffle(random.Random(seed))
    return log


def legal(game: Game, seat: int) -> dict[str, Any]:
    """A legal action of ``seat`` as the wire's ``act`` carries it."""
    from craits.server.engine import view

    action = dict(view(game, seat)["legal"][0])
    action.pop("seat", None)
    return action
