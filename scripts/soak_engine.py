#!/usr/bin/env python3
"""Soak the rules engine: many random whole games, with invariants checked after every action.

Each game has 2–8 players and a random set of rules options (RULES.md R1–R11);
it is played through every hand to game over (R2). At each step the seat to
act picks uniformly among its legal actions; now and then another seat
announces "one card" or calls idiot instead (R7). After every action:

- no card is created or lost: all hands, the stock and the discard pile are
  exactly the full deck for that table (R1);
- while a hand is in play the seat to act has a legal action (R4, R12);
- while a hand is in play nobody holds no cards, except into the count (R6) or
  when a 6 or a king obliges that seat to play on (R5, R8, R11);
- the hand ends within ``--max-actions`` actions (R8, R10);
- the shuffle penalties paid equal 5 × (2^pressure − 1) per seat (R10).

At every hand's end the totals must equal the hand points plus penalties
(R9, R10), the next dealer must follow R2, and a game over must come after
hand 15 (8 with ``short_game``) with the lowest totals as winners.
With ``--full`` the position round trip (to_position → from_position) is
checked after every action too.

Prints games, actions, invariant breaks and elapsed time; exits 1 on any break.
Example: ``python scripts/soak_engine.py --games 2000 --seed 7``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

from craits.server.engine import Announce, CallIdiot, Game, HandEnded, Rules, full_deck
from craits.server.engine.events import ShufflePenalty

BOOL_OPTIONS = tuple(k for k, v in Rules().to_dict().items() if isinstance(v, bool))


def random_rules(rng: random.Random) -> Rules:
    """A random set of rules options: each on/off option by a coin, the 3's score 0 or 3."""
    options: dict[str, bool | int] = {k: rng.random() < 0.5 for k in BOOL_OPTIONS}
    options["cancelling_three_scores"] = rng.choice((0, 3))
    return Rules.from_dict(options)


@dataclass
class Stats:
    """What a soak run did and found."""

    games: int = 0
    hands: int = 0
    actions: int = 0
    longest_hand: int = 0
    breaks: list[str] = field(default_factory=list)


def _side_action(game: Game, rng: random.Random) -> object | None:
    """Now and then, an announcement or idiot call by any seat (R7), else None."""
    if not game.unannounced or rng.random() < 0.5:
        return None
    seat = rng.randrange(game.players)
    side = [a for a in game.legal_actions(seat) if type(a) in (Announce, CallIdiot)]
    return rng.choice(side) if side else None


def play_game(
    players: int, rules: Rules, rng: random.Random, stats: Stats, max_actions: int, full: bool
) -> None:
    """Play one whole random game, checking the invariants; record breaks in ``stats``."""
    deck = sorted(full_deck(players, rules.strip_kings_queens))
    game, _ = Game.start(players, rules, rng)
    label = f"game {stats.games} ({players} players, {rules.changed()})"
    paid = [0] * players
    points = [0] * players

    def broke(what: str) -> None:
        stats.breaks.append(f"{label}, hand {game.hand_number}: {what}")

    while True:
        in_hand = 0
        while game.phase == "play":
            act = _side_action(game, rng)
            if act is None:
                legal = game.legal_actions()
                if not legal:
                    broke(f"seat {game.to_act} has no legal action")
                    return
                act = rng.choice(legal)
            try:
                events = game.apply(act)
            except Exception as exc:  # an engine bug: a legal action refused or a crash
                broke(f"{act!r} raised {type(exc).__name__}: {exc}")
                return
            stats.actions += 1
            in_hand += 1
            for ev in events:
                if type(ev) is ShufflePenalty:
                    paid[ev.seat] += ev.penalty
                elif type(ev) is HandEnded:
                    for r in ev.results:
                        points[r.seat] += r.points
            cards = game.stock + game.discard
            for h in game.hands:
                cards += h
            cards.sort()
            if cards != deck:
                broke(f"cards created or lost after {act!r}")
                return
            if (
                game.phase == "play"
                and not all(game.hands)
                and not game.count
                and not (game.hands[game.turn] == [] and (game.again or game.king_cards))
            ):
                broke(f"a seat holds no cards and the hand goes on after {act!r}")
                return
            if in_hand > max_actions:
                broke(f"the hand did not end within {max_actions} actions")
                return
            if any(p != 5 * ((1 << k) - 1) for p, k in zip(paid, game.pressure, strict=True)):
                broke(f"penalties {paid} do not match pressure {game.pressure}")
                return
            if full:
                pos = game.to_position()
                if Game.from_position(pos, rules).to_position() != pos:
                    broke(f"position round trip differs after {act!r}")
                    return
        stats.hands += 1
        stats.longest_hand = max(stats.longest_hand, in_hand)
        result = game.result
        if result is None:
            broke("a hand ended without a result")
            return
        totals = [p + q for p, q in zip(points, paid, strict=True)]
        if list(result.scores) != totals or game.scores != totals:
            broke(f"totals {game.scores} are not hand points + penalties {totals}")
            return
        step = game.direction if rules.dealer_follows_direction else 1
        if result.next_dealer != (game.dealer + step) % players:
            broke(f"next dealer {result.next_dealer} after dealer {game.dealer}")
            return
        if result.game_over != (game.hand_number == rules.hands):
            broke(f"game_over is {result.game_over} after hand {game.hand_number}")
            return
        if game.phase == "game_over":
            low = min(game.scores)
            if list(result.winners) != [s for s, v in enumerate(game.scores) if v == low]:
                broke(f"winners {result.winners} for totals {game.scores}")
            return
        game.next_hand()


def soak(games: int, seed: int, players: int, max_actions: int, full: bool) -> Stats:
    """Play ``games`` random whole games from ``seed``; return the statistics."""
    rng = random.Random(seed)
    stats = Stats()
    for i in range(games):
        n = players or 2 + i % 7
        play_game(n, random_rules(rng), rng, stats, max_actions, full)
        stats.games += 1
    return stats


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, soak, print the figures; return the exit status (1 on any break)."""
    parser = argparse.ArgumentParser(
        description="Random whole games through the rules engine, with invariants checked."
    )
    parser.add_argument("--games", "-n", type=int, default=10000, help="games (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--players", type=int, default=0, help="players per game (0: 2-8 mixed)")
    parser.add_argument(
        "--max-actions", type=int, default=20000, help="most actions a hand may take"
    )
    parser.add_argument(
        "--full", action="store_true", help="also check the position round trip (slower)"
    )
    args = parser.parse_args(argv)
    if args.players and not 2 <= args.players <= 8:
        parser.error("--players must be 2 to 8 (or 0)")
    t0 = time.perf_counter()
    stats = soak(args.games, args.seed, args.players, args.max_actions, args.full)
    elapsed = time.perf_counter() - t0
    for b in stats.breaks[:20]:
        print(f"BREAK {b}")
    print(f"games: {stats.games}")
    print(f"hands: {stats.hands} (longest {stats.longest_hand} actions)")
    print(f"actions: {stats.actions}")
    print(f"invariant breaks: {len(stats.breaks)}")
    print(f"elapsed: {elapsed:.1f} s")
    return 1 if stats.breaks else 0


if __name__ == "__main__":
    sys.exit(main())
