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
(R9, R10), the hand's penalties on its end must be those paid during it (R10),
the next dealer must follow R2, and a game over must come after
hand 15 (8 with ``short_game``) with the lowest totals as winners.
With ``--full`` the position round trip (to_position → load_position) is
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

from craits.protocol.vocab import Phase
from craits.server.engine import Action, Announce, CallIdiot, Game, HandEnded, Rules, full_deck
from craits.server.engine.events import ShufflePenalty
from craits.server.engine.scoring import penalties_paid
from craits.server.ops.vectors import load_position

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


def _side_action(game: Game, rng: random.Random) -> Action | None:
    """Now and then, an announcement or idiot call by any seat (R7), else None."""
    if not game.unannounced or rng.random() < 0.5:
        return None
    seat = rng.randrange(game.players)
    side = [a for a in game.legal_actions(seat) if type(a) in (Announce, CallIdiot)]
    return rng.choice(side) if side else None


class _Broke(Exception):
    """An invariant broke; the message says which."""


class _Soak:
    """One whole random game, its invariants checked after every action and hand."""

    def __init__(self, players: int, rules: Rules, rng: random.Random, full: bool) -> None:
        self.rules = rules
        self.rng = rng
        self.full = full
        self.deck = sorted(full_deck(players, rules.strip_kings_queens))
        self.game, _ = Game.start(players, rules, rng)
        self.paid = [0] * players  # shuffle penalties paid this game, from the events
        self.points = [0] * players  # hand points this game, from the results
        self.hand_paid = [0] * players  # shuffle penalties paid this hand

    def play(self, stats: Stats, max_actions: int) -> None:
        """Play the game to its end (R2), hand by hand.

        Raises:
            _Broke: an invariant broke.
        """
        game = self.game
        while True:
            in_hand = 0
            self.hand_paid = [0] * game.players
            while game.phase == Phase.PLAY:
                self.act()
                stats.actions += 1
                in_hand += 1
                if in_hand > max_actions:
                    raise _Broke(f"the hand did not end within {max_actions} actions")
            stats.hands += 1
            stats.longest_hand = max(stats.longest_hand, in_hand)
            self.check_hand_end()
            if game.phase == Phase.GAME_OVER:
                return
            game.next_hand()

    def act(self) -> None:
        """One action: the seat to act's random choice, or a side call (R7); then the checks."""
        game = self.game
        act = _side_action(game, self.rng)
        if act is None:
            legal = game.legal_actions()
            if not legal:
                raise _Broke(f"seat {game.to_act} has no legal action")
            act = self.rng.choice(legal)
        try:
            events = game.apply(act)
        except Exception as exc:  # an engine bug: a legal action refused or a crash
            raise _Broke(f"{act!r} raised {type(exc).__name__}: {exc}") from None
        for ev in events:
            match ev:
                case ShufflePenalty():
                    self.paid[ev.seat] += ev.penalty
                    self.hand_paid[ev.seat] += ev.penalty
                case HandEnded():
                    for r in ev.results:
                        self.points[r.seat] += r.points
        self.check_action(act)

    def check_action(self, act: Action) -> None:
        """The invariants after every action (R1, R6, R8, R10; the round trip with ``full``)."""
        game = self.game
        cards = game.stock + game.discard
        for h in game.hands:
            cards += h
        if sorted(cards) != self.deck:
            raise _Broke(f"cards created or lost after {act!r}")
        if game.phase == Phase.PLAY and not all(game.hands) and not self._may_hold_none():
            raise _Broke(f"a seat holds no cards and the hand goes on after {act!r}")
        if any(p != penalties_paid(k) for p, k in zip(self.paid, game.pressure, strict=True)):
            raise _Broke(f"penalties {self.paid} do not match pressure {game.pressure}")
        if self.full:
            pos = game.to_position()
            if load_position(pos, self.rules).to_position() != pos:
                raise _Broke(f"position round trip differs after {act!r}")

    def _may_hold_none(self) -> bool:
        """Whether a seat may hold no cards while the hand goes on: into the count (R6),
        or the seat to act that a 6 or a king obliges to play on (R5, R8, R11)."""
        game = self.game
        return bool(game.count) or (
            game.hands[game.turn] == [] and (game.again or bool(game.king_cards))
        )

    def check_hand_end(self) -> None:
        """The invariants at a hand's end: totals (R9, R10), the next dealer (R2), game over."""
        game = self.game
        result = game.result
        if result is None:
            raise _Broke("a hand ended without a result")
        totals = [p + q for p, q in zip(self.points, self.paid, strict=True)]
        if list(result.scores) != totals or game.scores != totals:
            raise _Broke(f"totals {game.scores} are not hand points + penalties {totals}")
        if list(result.penalties) != self.hand_paid:
            raise _Broke(f"the hand's penalties {result.penalties} are not {self.hand_paid}")
        step = game.direction if self.rules.dealer_follows_direction else 1
        if result.next_dealer != (game.dealer + step) % game.players:
            raise _Broke(f"next dealer {result.next_dealer} after dealer {game.dealer}")
        if result.game_over != (game.hand_number == self.rules.hands):
            raise _Broke(f"game_over is {result.game_over} after hand {game.hand_number}")
        if game.phase == Phase.GAME_OVER:
            low = min(game.scores)
            if list(result.winners) != [s for s, v in enumerate(game.scores) if v == low]:
                raise _Broke(f"winners {result.winners} for totals {game.scores}")


def play_game(
    players: int, rules: Rules, rng: random.Random, stats: Stats, max_actions: int, full: bool
) -> None:
    """Play one whole random game, checking the invariants; record a break in ``stats``."""
    soak = _Soak(players, rules, rng, full)
    try:
        soak.play(stats, max_actions)
    except _Broke as broke:
        label = f"game {stats.games} ({players} players, {rules.changed()})"
        stats.breaks.append(f"{label}, hand {soak.game.hand_number}: {broke}")


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
