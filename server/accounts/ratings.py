"""Ratings: OpenSkill's Plackett–Luce from finished games' rankings
(docs/accounts.md, *Ratings*).

A rated game's outcome is its final ranking (:class:`Standing` per seat):

* places as the game ended them (R-section of the final score: lowest points
  first), ties sharing a place;
* a player who left the game is last, below every player who finished; several
  who left share that last place;
* a seat with no account — the bot the server put in a leaver's seat, or any
  other bot it seated — counts for nobody: it is left out of the ranking.

:func:`rate_game` turns that ranking and the players' current ratings into
their new ones; :func:`rerate` replays every stored game in order from fresh
ratings (``craits-server rerate``).

**Display.** A rating is shown on an Elo-like scale:
``1500 + 48 × (mu − 25)`` — a fresh player is 1500, and 48 points per unit of
``mu`` make the model's performance spread ``beta`` (25/6) worth 200 points, the
per-game spread Elo's scale assumes. While *provisional* it is shown as ``?``:
fewer than :data:`PROVISIONAL_GAMES` rated games, or ``sigma`` above
:data:`PROVISIONAL_SIGMA` (``scripts/rating_thresholds.py`` shows how fast sigma
falls at each table size, the figures behind these two numbers).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

INITIAL_MU = 25.0
INITIAL_SIGMA = 25.0 / 3.0

DISPLAY_BASE = 1500
"""What a fresh rating (mu 25) shows."""

DISPLAY_PER_MU = 48.0
"""Display points per unit of mu (200 / beta)."""

PROVISIONAL_GAMES = 10
"""A rating is provisional for its first 10 rated games..."""

PROVISIONAL_SIGMA = 7.0
"""...and while its sigma is above 7.0 (it starts at 8.33; after 10 four-player
games it is near 6.8, after 10 eight-player games near 7.5)."""

G = TypeVar("G", bound=Hashable)


@dataclass(frozen=True)
class Rating:
    """One account's rating.

    Attributes:
        mu: the skill estimate (OpenSkill's units; 25 at first).
        sigma: its uncertainty (25/3 at first; it falls as games are played).
        games: rated games played (finished or left).
        completed: rated games played to their end (not left).
    """

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0
    completed: int = 0

    @property
    def provisional(self) -> bool:
        """Too few games or too uncertain to show a number."""
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA

    @property
    def value(self) -> int:
        """The rating on the Elo-like scale (see the module's docstring)."""
        return round(DISPLAY_BASE + DISPLAY_PER_MU * (self.mu - INITIAL_MU))

    @property
    def display(self) -> str:
        """What a player sees: the value, or ``?`` while provisional."""
        return "?" if self.provisional else str(self.value)

    @property
    def completion_rate(self) -> float | None:
        """Rated games played to their end, out of all (0–1); None before any."""
        return self.completed / self.games if self.games else None


@dataclass(frozen=True)
class Standing:
    """A seat at the end of a game.

    Attributes:
        account: the account that sat there, or None (a bot the server seated,
            a replacement for a leaver: it counts for nobody).
        place: 1 for the best; equal places are ties.
        left: the account left before the end (ranked last, whatever ``place``).
    """

    account: int | None
    place: int
    left: bool = False


@dataclass(frozen=True)
class RatingChange:
    """A rating before and after one game."""

    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change on the display scale."""
        return self.after.value - self.before.value


def ranking(standings: Sequence[Standing]) -> dict[int, int]:
    """Each account's rank (1 best, dense, ties equal; leavers last, tied).

    Raises:
        ValueError: an account in two seats, or a place below 1.
    """
    seen: set[int] = set()
    for s in standings:
        if s.place < 1:
            raise ValueError(f"a place is 1 or more, not {s.place}")
        if s.account is not None:
            if s.account in seen:
                raise ValueError(f"account {s.account} holds two seats")
            seen.add(s.account)
    finishers = sorted({s.place for s in standings if s.account is not None and not s.left})
    dense = {place: i + 1 for i, place in enumerate(finishers)}
    last = len(finishers) + 1
    return {
        s.account: last if s.left else dense[s.place] for s in standings if s.account is not None
    }


def rate_game(
    ratings: Mapping[int, Rating], standings: Sequence[Standing]
) -> dict[int, RatingChange]:
    """The new ratings of a finished rated game's accounts.

    Args:
        ratings: the accounts' ratings before the game; an account missing here
            has a fresh :class:`Rating`.
        standings: every seat at the end (see :class:`Standing`).

    Returns:
        Each account's change; empty when fewer than two accounts are ranked
        (nobody to be measured against: nothing changes).

    Raises:
        ValueError: as :func:`ranking`.
    """
    ranks = ranking(standings)
    if len(ranks) < 2:
        return {}
    accounts = list(ranks)
    before = [ratings.get(a, Rating()) for a in accounts]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = MODEL.rate(teams, ranks=[float(ranks[a]) for a in accounts])
    left = {s.account for s in standings if s.left}
    changes: dict[int, RatingChange] = {}
    for account, old, team in zip(accounts, before, rated, strict=True):
        new = replace(
            old,
            mu=float(team[0].mu),
            sigma=float(team[0].sigma),
            games=old.games + 1,
            completed=old.completed + (0 if account in left else 1),
        )
        changes[account] = RatingChange(old, new)
    return changes


def rerate(
    games: Iterable[tuple[G, Sequence[Standing]]],
    start: Mapping[int, Rating] | None = None,
) -> tuple[dict[int, Rating], dict[G, dict[int, RatingChange]]]:
    """Every rating recomputed from fresh, game after game in the order given.

    Args:
        games: ``(game id, standings)`` of every rated game, oldest first.
        start: the ratings the games before these left (None: from fresh); a
            long replay goes batch by batch, each from the last one's ratings.

    Returns:
        The rating of every account that played (and of every one in
        ``start``) after the games, and each game's changes.

    Raises:
        ValueError: as :func:`ranking`, for a malformed stored game.
    """
    ratings: dict[int, Rating] = dict(start or {})
    changes: dict[G, dict[int, RatingChange]] = {}
    for game, standings in games:
        change = rate_game(ratings, standings)
        changes[game] = change
        for account, c in change.items():
            ratings[account] = c.after
    return ratings, changes
