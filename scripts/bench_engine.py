#!/usr/bin/env python3
"""Random self-play through the rules engine: actions per second and games per second.

Each game is a whole game (15 hands, or 8 with ``short_game``); at every step
the seat to act picks uniformly among its legal actions. With ``--views``
every action is also shown to every seat and a spectator, as a table does
(a :class:`~craits.server.engine.Moment`: each one's view and events). The
same seed plays the same games, so runs compare; ``--repeat`` plays them again
and reports the fastest run (the machine's other work slows some runs down).
Run on one core: ``python scripts/bench_engine.py --games 300 --repeat 5``.
"""

from __future__ import annotations

import argparse
import random
import time

from craits.protocol.vocab import Phase
from craits.server.engine import Game, Moment, Rules


def play_game(players: int, rules: Rules, rng: random.Random, views: bool = False) -> int:
    """Play one whole random game; return the number of actions applied.

    With ``views``, each action's events and the view after it are built for
    every seat and a spectator.
    """
    game, _ = Game.start(players, rules, rng)
    actions = 0
    choice = rng.choice
    audience: list[int | None] = [*range(players), None]
    playing, over = Phase.PLAY, Phase.GAME_OVER
    while True:
        while game.phase == playing:
            events = game.apply(choice(game.legal_actions()))
            actions += 1
            if views:
                moment = Moment(game, events)
                for seat in audience:
                    moment.view(seat)
                    moment.events(seat)
        if game.phase == over:
            return actions
        game.next_hand()


def _rules(rng: random.Random, options: bool) -> Rules:
    """The rule book's rules, or (``options``) each on/off option by a coin."""
    if not options:
        return Rules()
    return Rules.from_dict(
        {
            k: rng.random() < 0.5
            for k, v in Rules().to_dict().items()
            if isinstance(v, bool) and k != "short_game"
        }
    )


def run(games: int, players: int, seed: int, options: bool, views: bool) -> tuple[int, float]:
    """Play ``games`` games from ``seed``; return the actions applied and the seconds taken."""
    rng = random.Random(seed)
    total = 0
    t0 = time.perf_counter()
    for i in range(games):
        rules = _rules(rng, options)
        total += play_game(players or 2 + i % 7, rules, rng, views)
    return total, time.perf_counter() - t0


def main() -> None:
    """Parse arguments, run the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games to play (default 300)")
    parser.add_argument("--players", type=int, default=0, help="players per game (0: 2-8 mixed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", action="store_true", help="random rules options per game")
    parser.add_argument("--views", action="store_true", help="build every seat's view too")
    parser.add_argument("--repeat", type=int, default=1, help="runs; the fastest is reported")
    args = parser.parse_args()
    runs = [
        run(args.games, args.players, args.seed, args.options, args.views)
        for _ in range(max(1, args.repeat))
    ]
    total, dt = min(runs, key=lambda r: r[1])
    print(f"{args.games} games, {total} actions in {dt:.2f} s")
    print(f"{total / dt:,.0f} actions/s")
    print(f"{args.games / dt:,.1f} games/s")


if __name__ == "__main__":
    main()
