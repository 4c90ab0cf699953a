#!/usr/bin/env python3
"""Engine-only self-play between bot levels: win rates, scores and hand figures.

Plays whole games (15 hands, R2) through the rules engine with the bots of
``craits.server.bots``; each bot decides from its own seat's view only. Ties
for the lowest total share the win (R2): a win shared by k seats counts 1/k
to each.

Example: ``python scripts/selfplay.py --games 1000 --seats basic,random,random,random``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict

from craits.server.bots import LEVELS, GameRecord, play_game
from craits.server.engine import Rules


def parse_seats(text: str, players: int | None) -> list[str]:
    """The level of each seat from ``"basic,random,..."`` (checked against ``players``).

    Raises:
        SystemExit: an unknown level, or a seat count that disagrees with ``players``.
    """
    levels = [s.strip() for s in text.split(",") if s.strip()]
    bad = [s for s in levels if s not in LEVELS]
    if bad:
        sys.exit(f"unknown level(s): {', '.join(bad)} (known: {', '.join(LEVELS)})")
    if players is not None and players != len(levels):
        if len(levels) == 1:
            return levels * players
        sys.exit(f"--players {players} but --seats lists {len(levels)} seats")
    if not 2 <= len(levels) <= 8:
        sys.exit("Craits is for 2 to 8 players")
    return levels


def report(records: list[GameRecord], seconds: float) -> None:
    """Print the figures of ``records`` (all with the same seats)."""
    games = len(records)
    levels = records[0].levels
    n = len(levels)
    wins = [0.0] * n
    for r in records:
        for s in r.winners:
            wins[s] += 1 / len(r.winners)
    hands = sum(r.hands for r in records)
    print(f"{games} games of {n} players ({','.join(levels)}) in {seconds:.1f} s")
    print()
    print("seat  level    win rate  mean score  went out/hand  shuffle pen./game  idiot calls/game")
    for s in range(n):
        print(
            f"{s:>4}  {levels[s]:<7} {wins[s] / games:>8.1%}"
            f"  {statistics.fmean(r.scores[s] for r in records):>10.1f}"
            f"  {sum(r.went_out[s] for r in records) / hands:>13.3f}"
            f"  {sum(r.shuffle_penalties[s] for r in records) / games:>17.3f}"
            f"  {sum(r.idiot_calls[s] for r in records) / games:>16.3f}"
        )
    print()
    by_level: dict[str, list[int]] = defaultdict(list)
    for s, level in enumerate(levels):
        by_level[level].append(s)
    print("level    seats  share of wins  win rate per seat  mean score  idiot calls suffered/game")
    for level, seats in by_level.items():
        share = sum(wins[s] for s in seats) / games
        scores = statistics.fmean(r.scores[s] for r in records for s in seats)
        suffered = sum(r.idiot_called[s] for r in records for s in seats) / games / len(seats)
        print(
            f"{level:<7}  {len(seats):>5}  {share:>13.1%}  {share / len(seats):>17.1%}"
            f"  {scores:>10.1f}  {suffered:>25.3f}"
        )
    peaks = [p for r in records for p in r.count_peaks]
    lines = [
        ("actions per hand (all, incl. calls)", f"{sum(r.actions for r in records) / hands:.1f}"),
        (
            "turns per hand (play/draw/pass/name)",
            f"{sum(r.turn_actions for r in records) / hands:.1f}",
        ),
        (
            "shuffle penalties per game",
            f"{sum(map(sum, (r.shuffle_penalties for r in records))) / games:.2f}",
        ),
        ("counts per hand", f"{len(peaks) / hands:.3f}"),
        ("mean max count", f"{statistics.fmean(peaks):.2f}" if peaks else "-"),
        ("highest count seen", f"{max(peaks, default=0)}"),
        ("idiot calls per game", f"{sum(sum(r.idiot_calls) for r in records) / games:.2f}"),
        ("games per second", f"{games / seconds:.1f}"),
    ]
    print()
    print("hands:")
    for label, value in lines:
        print(f"  {label:<38}{value}")


def main() -> None:
    """Parse arguments, play the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats per game (default: as many as --seats lists; a single level fills them)",
    )
    parser.add_argument(
        "--seats",
        default="basic,random,random,random",
        help=f"comma-separated level of each seat ({', '.join(LEVELS)}); "
        "default basic,random,random,random",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--rules",
        default="",
        help="comma-separated boolean rules options to turn on, e.g. face_cards,idiot_card",
    )
    args = parser.parse_args()
    levels = parse_seats(args.seats, args.players)
    try:
        rules = Rules.from_dict({o.strip(): True for o in args.rules.split(",") if o.strip()})
    except ValueError as e:
        sys.exit(str(e))
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    records = [play_game(levels, rng, rules) for _ in range(args.games)]
    report(records, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
