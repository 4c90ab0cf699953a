"""Games, ratings, history and the leaderboard in the account store
(docs/accounts.md, *Store* and *Ratings*)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from .database import Conflict, Database, Executor, Row
from .model import DuplicateGame, GameRecord, HistoryEntry, LeaderboardEntry, Seat
from .ratings import PROVISIONAL_SIGMA, Rating, RatingChange, Standing, rate_game, rerate

LEADERBOARD_GAMES = 20
"""Rated games a player needs to be on the leaderboard."""

LEADERBOARD_DAYS = 14
"""...and one of them in this many days."""

RERATE_BATCH = 10_000
"""Games read at a time by :meth:`Results.rerate`."""

_GAME = "g.seq, g.game_id, g.table_name, g.private, g.rated, g.finished_at"
_SEAT = (
    "p.seq, p.seat, p.account_id, p.name, p.place, p.points, p.left_game,"
    " p.mu_before, p.sigma_before, p.mu_after, p.sigma_after"
)
_RATING = "account_id, mu, sigma, games, completed, last_game_at"


def _rating(row: Row) -> Rating:
    return Rating(
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        games=int(row["games"]),
        completed=int(row["completed"]),
    )


def _seat(row: Row) -> Seat:
    change = None
    if row["mu_before"] is not None:
        # the stored change holds mu and sigma; the counts are not part of it
        change = RatingChange(
            Rating(float(row["mu_before"]), float(row["sigma_before"])),
            Rating(float(row["mu_after"]), float(row["sigma_after"])),
        )
    account = row["account_id"]
    return Seat(
        name=row["name"],
        place=int(row["place"]),
        points=int(row["points"]),
        account=None if account is None else int(account),
        left=bool(row["left_game"]),
        change=change,
    )


def _game(row: Row, seats: Sequence[Seat]) -> GameRecord:
    return GameRecord(
        game_id=row["game_id"],
        table=row["table_name"],
        private=bool(row["private"]),
        rated=bool(row["rated"]),
        finished_at=float(row["finished_at"]),
        seats=tuple(seats),
    )


def _kept(changes: dict[int, RatingChange], account: int | None) -> RatingChange | None:
    """A seat's change as the store keeps it: mu and sigma (the counts are the
    account's rating's, not the game's)."""
    change = None if account is None else changes.get(account)
    if change is None:
        return None
    return RatingChange(
        Rating(change.before.mu, change.before.sigma), Rating(change.after.mu, change.after.sigma)
    )


def _change_columns(change: RatingChange | None) -> tuple[float | None, ...]:
    if change is None:
        return (None, None, None, None)
    return (change.before.mu, change.before.sigma, change.after.mu, change.after.sigma)


def _placeholders(start: int, count: int) -> str:
    return ", ".join(f"${i}" for i in range(start, start + count))


class Results:
    """Recorded games and what follows from them."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._for_update = " FOR UPDATE" if db.dialect == "postgres" else ""

    async def ratings(self, account_ids: Iterable[int]) -> dict[int, Rating]:
        """The accounts' ratings (a fresh :class:`Rating` for one never rated)."""
        ids = sorted(set(account_ids))
        found: dict[int, Rating] = dict.fromkeys(ids, Rating())
        if ids:
            rows = await self._db.fetch(
                f"SELECT {_RATING} FROM ratings WHERE account_id IN ({_placeholders(1, len(ids))})",
                *ids,
            )
            found.update({int(r["account_id"]): _rating(r) for r in rows})
        return found

    async def last_rated(self, account_id: int) -> float | None:
        """When the account's last rated game ended, or None."""
        row = await self._db.fetchrow(
            "SELECT last_game_at FROM ratings WHERE account_id = $1", account_id
        )
        return None if row is None else float(row["last_game_at"])

    async def record(self, game: GameRecord) -> GameRecord:
        """Record a finished game; for a rated one, rate it and store the changes.

        The ratings are read, updated and written in one transaction (rows locked
        in PostgreSQL), so two games ending at once on two nodes both count. The
        seats' ``change`` given is ignored: the store computes it.

        Args:
            game: the game; its seats' ``account``, ``place`` and ``left`` are the
                ranking (:func:`~.ratings.rate_game`).

        Returns:
            The game as recorded (as :meth:`game` reads it back), with each
            rated account's change of mu and sigma.

        Raises:
            DuplicateGame: a game with that id is recorded already.
            ValueError: the seats are not a ranking (an account in two seats...).
        """
        standings = [Standing(s.account, s.place, s.left) for s in game.seats]
        try:
            async with self._db.transaction() as tx:
                changes = await self._rate(tx, game, standings) if game.rated else {}
                seats = tuple(
                    Seat(s.name, s.place, s.points, s.account, s.left, _kept(changes, s.account))
                    for s in game.seats
                )
                recorded = GameRecord(
                    game.game_id, game.table, game.private, game.rated, game.finished_at, seats
                )
                await self._insert(tx, recorded)
        except Conflict as exc:
            raise DuplicateGame(game.game_id) from exc
        return recorded

    async def _rate(
        self, tx: Executor, game: GameRecord, standings: Sequence[Standing]
    ) -> dict[int, RatingChange]:
        ids = sorted({s.account for s in standings if s.account is not None})
        if not ids:
            return {}
        fresh = Rating()
        await tx.executemany(
            f"INSERT INTO ratings ({_RATING}) VALUES ($1, $2, $3, 0, 0, 0)"
            " ON CONFLICT (account_id) DO NOTHING",
            [(a, fresh.mu, fresh.sigma) for a in ids],
        )
        rows = await tx.fetch(
            f"SELECT {_RATING} FROM ratings WHERE account_id IN ({_placeholders(1, len(ids))})"
            f" ORDER BY account_id{self._for_update}",
            *ids,
        )
        changes = rate_game({int(r["account_id"]): _rating(r) for r in rows}, standings)
        await tx.executemany(
            "UPDATE ratings SET mu = $1, sigma = $2, games = $3, completed = $4,"
            " last_game_at = $5 WHERE account_id = $6",
            [
                (c.after.mu, c.after.sigma, c.after.games, c.after.completed, game.finished_at, a)
                for a, c in changes.items()
            ],
        )
        return changes

    async def _insert(self, tx: Executor, game: GameRecord) -> None:
        row = await tx.fetchrow(
            "INSERT INTO games (game_id, table_name, private, rated, finished_at)"
            " VALUES ($1, $2, $3, $4, $5) RETURNING seq",
            game.game_id,
            game.table,
            int(game.private),
            int(game.rated),
            float(game.finished_at),
        )
        assert row is not None
        seq = int(row["seq"])
        await tx.executemany(
            "INSERT INTO game_players (seq, seat, account_id, name, place, points, left_game,"
            " mu_before, sigma_before, mu_after, sigma_after)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            [
                (
                    seq,
                    i,
                    s.account,
                    s.name,
                    s.place,
                    s.points,
                    int(s.left),
                    *_change_columns(s.change),
                )
                for i, s in enumerate(game.seats)
            ],
        )

    async def _seats(self, seqs: Sequence[int]) -> dict[int, list[Seat]]:
        seats: dict[int, list[Seat]] = defaultdict(list)
        if seqs:
            rows = await self._db.fetch(
                f"SELECT {_SEAT} FROM game_players p"
                f" WHERE p.seq IN ({_placeholders(1, len(seqs))}) ORDER BY p.seq, p.seat",
                *seqs,
            )
            for r in rows:
                seats[int(r["seq"])].append(_seat(r))
        return seats

    async def game(self, game_id: str) -> GameRecord | None:
        """One recorded game, or None. (Who may read it is the caller's rule:
        a private table's game is its players' only.)"""
        row = await self._db.fetchrow(f"SELECT {_GAME} FROM games g WHERE g.game_id = $1", game_id)
        if row is None:
            return None
        seats = await self._seats([int(row["seq"])])
        return _game(row, seats[int(row["seq"])])

    async def history(
        self,
        account_id: int,
        *,
        limit: int = 50,
        before: int | None = None,
        include_private: bool = True,
    ) -> list[HistoryEntry]:
        """A page of the account's games, newest first.

        Args:
            account_id: whose games.
            limit: at most this many (1–500).
            before: the last entry's ``cursor`` of the previous page (None: the newest).
            include_private: whether private tables' games are listed; False for
                anyone but the account itself (records' privacy rule).

        Raises:
            ValueError: ``limit`` out of range.
        """
        if not 1 <= limit <= 500:
            raise ValueError(f"a history page holds 1–500 games, not {limit}")
        where = "p.account_id = $1 AND p.seq < $2"
        if not include_private:
            where += " AND g.private = 0"
        rows = await self._db.fetch(
            f"SELECT {_GAME}, p.seat FROM game_players p JOIN games g ON g.seq = p.seq"
            f" WHERE {where} ORDER BY p.seq DESC LIMIT $3",
            account_id,
            (2**62) if before is None else before,
            limit,
        )
        seats = await self._seats([int(r["seq"]) for r in rows])
        entries = []
        for r in rows:
            game = _game(r, seats[int(r["seq"])])
            entries.append(HistoryEntry(int(r["seq"]), game, game.seats[int(r["seat"])]))
        return entries

    async def leaderboard(
        self,
        now: float,
        *,
        limit: int = 100,
        offset: int = 0,
        min_games: int = LEADERBOARD_GAMES,
        active_days: float = LEADERBOARD_DAYS,
    ) -> list[LeaderboardEntry]:
        """The best ratings, best first: accounts with at least ``min_games``
        rated games, one of them within ``active_days`` of ``now``, and a
        rating no longer provisional.

        Raises:
            ValueError: ``limit`` not 1–500, or a negative ``offset``.
        """
        if not 1 <= limit <= 500 or offset < 0:
            raise ValueError("a leaderboard page holds 1–500 lines from offset 0 on")
        rows = await self._db.fetch(
            f"SELECT r.{_RATING.replace(', ', ', r.')}, a.name FROM ratings r"
            " JOIN accounts a ON a.id = r.account_id"
            " WHERE r.games >= $1 AND r.last_game_at >= $2 AND r.sigma <= $3"
            " ORDER BY r.mu DESC, r.account_id LIMIT $4 OFFSET $5",
            max(min_games, 1),
            float(now - active_days * 86400),
            PROVISIONAL_SIGMA,
            limit,
            offset,
        )
        return [
            LeaderboardEntry(
                offset + i + 1,
                int(r["account_id"]),
                r["name"],
                _rating(r),
                float(r["last_game_at"]),
            )
            for i, r in enumerate(rows)
        ]

    async def rerate(self, batch: int = RERATE_BATCH) -> int:
        """Recompute every rating from the rated games, oldest first
        (:func:`~.ratings.rerate`), and store each game's changes anew, in one
        transaction, reading ``batch`` games at a time (memory stays flat at a
        million games). Returns how many rated games were replayed."""
        ratings: dict[int, Rating] = {}
        last: dict[int, float] = {}
        count, after = 0, -1
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE game_players SET mu_before = NULL, sigma_before = NULL,"
                " mu_after = NULL, sigma_after = NULL"
            )
            while True:
                rows = await tx.fetch(
                    "SELECT g.seq, g.finished_at, p.account_id, p.place, p.left_game"
                    " FROM games g JOIN game_players p ON p.seq = g.seq WHERE g.seq IN"
                    " (SELECT seq FROM games WHERE rated = 1 AND seq > $1 ORDER BY seq LIMIT $2)"
                    " ORDER BY g.seq, p.seat",
                    after,
                    batch,
                )
                if not rows:
                    break
                games, finished = _standings(rows)
                ratings, changes = rerate(games.items(), ratings)
                await tx.executemany(
                    "UPDATE game_players SET mu_before = $1, sigma_before = $2, mu_after = $3,"
                    " sigma_after = $4 WHERE seq = $5 AND account_id = $6",
                    [
                        (c.before.mu, c.before.sigma, c.after.mu, c.after.sigma, seq, a)
                        for seq, change in changes.items()
                        for a, c in change.items()
                    ],
                )
                for seq, change in changes.items():
                    last.update(dict.fromkeys(change, finished[seq]))
                count += len(games)
                after = max(games)
            await tx.execute("DELETE FROM ratings")
            await tx.executemany(
                f"INSERT INTO ratings ({_RATING}) VALUES ($1, $2, $3, $4, $5, $6)",
                [(a, r.mu, r.sigma, r.games, r.completed, last[a]) for a, r in ratings.items()],
            )
        return count


def _standings(rows: Sequence[Row]) -> tuple[dict[int, list[Standing]], dict[int, float]]:
    """Rated games' standings by seq, and their end times, from joined rows."""
    games: dict[int, list[Standing]] = defaultdict(list)
    finished: dict[int, float] = {}
    for r in rows:
        seq = int(r["seq"])
        account = r["account_id"]
        games[seq].append(
            Standing(
                None if account is None else int(account), int(r["place"]), bool(r["left_game"])
            )
        )
        finished[seq] = float(r["finished_at"])
    return games, finished
