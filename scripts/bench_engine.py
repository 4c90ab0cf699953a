#!/usr/bin/env python3
"""Random self-play through the rules engine: actions per second and games per second.

Each game is a whole game (15 hands, or 8 with ``short_game``); at every step
the seat to act picks uniformly among its legal actions. Run on one core:
``python scripts/bench_engine.py --games 300``.
"""

from __future__ import annotations

import argparse
import random
import time

from craits.server.engine import Game, Rules


def play_game(players: int, rules: Rules, rng: random.Random) -> int:
    """Play one whole random game; return the number of actions applied."""
    game, _ = Game.start(players, rules, rng)
    actions = 0
    choice = rng.choice
    while True:
        while game.phase == "play":
            game.apply(choice(game.legal_actions()))
            actions += 1
        if game.phase == "game_over":
            return actions
        game.next_hand()


def main() -> None:
    """Parse arguments, run the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games to play (default 300)")
    parser.add_argument("--players", type=int, default=0, help="players per game (0: 2-8 mixed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", action="store_true", help="random rules options per game")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    total = 0
    t0 = time.perf_counter()
    for i in range(args.games):
        players = args.players or 2 + i % 7
        rules = Rules()
        if args.options:
            rules = Rules.from_dict(
                {
                    k: rng.random() < 0.5
                    for k, v in Rules().to_dict().items()
                    if isinstance(v, bool) and k != "short_game"
                }
            )
        total += play_game(players, rules, rng)
    dt = time.perf_counter() - t0
    print(f"{args.games} games, {total} actions in {dt:.2f} s")
    print(f"{total / dt:,.0f} actions/s")
    print(f"{args.games / dt:,.1f} games/s")


if __name__ == "__main__":
    main()
