#!/usr/bin/env python3
"""How fast a rating's sigma falls, by table size: the figures behind the
provisional thresholds in server/accounts/ratings.py (docs/accounts.md).

Plays random finishing orders among equal players (the slowest case for
certainty: no one is consistently better) and prints the mean sigma after
1, 5, 10, 15, 20 and 30 rated games, for 2, 4 and 8 players.

    python scripts/rating_thresholds.py [--seed 1] [--runs 20]
"""

from __future__ import annotations

import argparse
import random

from craits.server.accounts.ratings import (
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    Rating,
    Standing,
    rate_game,
)

CHECKPOINTS = (1, 5, 10, 15, 20, 30)


def mean_sigmas(players: int, runs: int, rng: random.Random) -> dict[int, float]:
    """Mean sigma over ``runs`` leagues of ``players`` equal players, at each checkpoint."""
    sums = dict.fromkeys(CHECKPOINTS, 0.0)
    for _ in range(runs):
        ratings = {a: Rating() for a in range(players)}
        for game in range(1, max(CHECKPOINTS) + 1):
            order = list(range(players))
            rng.shuffle(order)
            standings = [Standing(a, place + 1) for place, a in enumerate(order)]
            for account, change in rate_game(ratings, standings).items():
                ratings[account] = change.after
            if game in sums:
                sums[game] += sum(r.sigma for r in ratings.values()) / players
    return {g: s / runs for g, s in sums.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"provisional: fewer than {PROVISIONAL_GAMES} games or sigma above {PROVISIONAL_SIGMA}")
    print("players | " + " | ".join(f"after {g}" for g in CHECKPOINTS))
    for players in (2, 4, 8):
        sig = mean_sigmas(players, args.runs, rng)
        print(f"{players} | " + " | ".join(f"{sig[g]:.2f}" for g in CHECKPOINTS))


if __name__ == "__main__":
    main()
