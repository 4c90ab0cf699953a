"""What the account store holds and returns (docs/accounts.md, *Store*).

Times are seconds since the epoch (UTC). Nothing here holds a secret in plain
text: recovery and pairing codes and passwords are argon2id hashes, device keys
are public.
"""

from __future__ import annotations

from dataclasses import dataclass

from .ratings import Rating, RatingChange


class NameTaken(Exception):
    """The name (in its canonical form) belongs to another account."""


class KeyInUse(Exception):
    """The public key is another device's (or was, before it was revoked)."""


class InvalidKey(ValueError):
    """Not an Ed25519 public key that may be registered (not 32 bytes, or of
    small order: :func:`~.identity.usable_public_key`)."""


class UnknownAccount(Exception):
    """No account has that id."""


class DuplicateGame(Exception):
    """A game with that id is recorded already."""


@dataclass(frozen=True)
class Account:
    """A registered player.

    Attributes:
        id: the store's number for it (stable; never reused).
        name: the name as registered (shown).
        canonical: its canonical form (:func:`~.names.canonical_name`; unique).
        created_at: when it was registered.
        last_seen: its last login, or None.
        has_password: whether it set a password (browser visitors' login).
    """

    id: int
    name: str
    canonical: str
    created_at: float
    last_seen: float | None
    has_password: bool


@dataclass(frozen=True)
class Device:
    """One of an account's Ed25519 public keys.

    Attributes:
        id: the store's number for it.
        account_id: whose.
        public_key: the raw 32-byte key.
        label: what the player called it ("laptop"), for the device list.
        added_at: when it was added.
        last_used: its last login, or None.
        revoked_at: when it was revoked, or None while it may log in.
    """

    id: int
    account_id: int
    public_key: bytes
    label: str
    added_at: float
    last_used: float | None
    revoked_at: float | None

    @property
    def active(self) -> bool:
        """Whether it may log in (not revoked)."""
        return self.revoked_at is None


@dataclass(frozen=True)
class Seat:
    """One seat of a recorded game, at its end.

    Attributes:
        name: the name shown at the seat (an account's, a guest's or a bot's).
        place: 1 for the best; equal places are ties.
        points: the seat's total points (scored low).
        account: the account that sat there, or None (a guest, a bot).
        left: the account left before the end.
        change: its rating before and after, for a rated game's accounts.
    """

    name: str
    place: int
    points: int
    account: int | None = None
    left: bool = False
    change: RatingChange | None = None


@dataclass(frozen=True)
class GameRecord:
    """A finished game as the store keeps it.

    Attributes:
        game_id: the game's record id (the server's records name it).
        table: the table's name.
        private: the table was private (its record is its players' only).
        rated: its accounts' ratings moved.
        finished_at: when it ended.
        seats: every seat, in seat order.
    """

    game_id: str
    table: str
    private: bool
    rated: bool
    finished_at: float
    seats: tuple[Seat, ...]


@dataclass(frozen=True)
class HistoryEntry:
    """One game of an account's history.

    Attributes:
        cursor: pass it as ``before`` for the next (older) page.
        game: the game, every seat in it.
        seat: the account's own seat.
    """

    cursor: int
    game: GameRecord
    seat: Seat


@dataclass(frozen=True)
class LeaderboardEntry:
    """A line of the leaderboard.

    Attributes:
        rank: 1 for the best.
        account_id, name: who.
        rating: their rating (never provisional on the leaderboard).
        last_game_at: their last rated game.
    """

    rank: int
    account_id: int
    name: str
    rating: Rating
    last_game_at: float
