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

from craits.protocol.vocab import BotLevel
from craits.server.bots import LEVELS, GameFigures, play_game
from craits.server.engine import Rules

DEFAULT_SEATS = ",".join([BotLevel.BASIC] + [BotLevel.RANDOM] * 3)
"""One basic bot against three random ones."""
SEAT_HEADER = (
    "seat  level    win rate  mean score  went out/hand  shuffle pen./game  idiot calls/game"
)
LEVEL_HEADER = (
    "level    seats  share of wins  win rate per seat  mean score  idiot calls suffered/game"
)


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


def win_shares(records: list[GameFigures]) -> list[float]:
    """Wins of each seat over ``records``; a win shared by k seats counts 1/k to each (R2)."""
    wins = [0.0] * len(records[0].levels)
    for r in records:
        for s in r.winners:
            wins[s] += 1 / len(r.winners)
    return wins


def seat_rows(records: list[GameFigures], wins: list[float]) -> list[str]:
    """One line per seat: level, win rate, mean score, how often it went out (R8),
    its shuffle penalties (R10) and idiot calls (R7)."""
    games = len(records)
    levels = records[0].levels
    hands = sum(r.hands for r in records)
    rows = [
        "seat  level    win rate  mean score  went out/hand  shuffle pen./game  idiot calls/game"
    ]
    for s in range(len(levels)):
        rows.append(
            f"{s:>4}  {levels[s]:<7} {wins[s] / games:>8.1%}"
            f"  {statistics.fmean(r.scores[s] for r in records):>10.1f}"
            f"  {sum(r.went_out[s] for r in records) / hands:>13.3f}"
            f"  {sum(r.shuffle_penalties[s] for r in records) / games:>17.3f}"
            f"  {sum(r.idiot_calls[s] for r in records) / games:>16.3f}"
        )
    return rows


def level_rows(records: list[GameFigures], wins: list[float]) -> list[str]:
    """One line per level: its seats' share of the wins, mean score, idiot calls suffered (R7)."""
    games = len(records)
    by_level: dict[str, list[int]] = defaultdict(list)
    for s, level in enumerate(records[0].levels):
        by_level[level].append(s)
    rows = [
        "level    seats  share of wins  win rate per seat  mean score  idiot calls suffered/game"
    ]
    for level, seats in by_level.items():
        share = sum(wins[s] for s in seats) / games
        scores = statistics.fmean(r.scores[s] for r in records for s in seats)
        suffered = sum(r.idiot_called[s] for r in records for s in seats) / games / len(seats)
        rows.append(
            f"{level:<7}  {len(seats):>5}  {share:>13.1%}  {share / len(seats):>17.1%}"
            f"  {scores:>10.1f}  {suffered:>25.3f}"
        )
    return rows


def hand_figures(records: list[GameFigures], seconds: float) -> list[tuple[str, str]]:
    """Figures per hand and per game: actions, turns, shuffle penalties (R10),
    counts (R6), idiot calls (R7), and the speed of the run."""
    games = len(records)
    hands = sum(r.hands for r in records)
    peaks = [p for r in records for p in r.count_peaks]
    return [
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


def report(records: list[GameFigures], seconds: float) -> None:
    """Print the figures of ``records`` (all with the same seats), played in ``seconds``."""
    levels = records[0].levels
    wins = win_shares(records)
    print(f"{len(records)} games of {len(levels)} players ({','.join(levels)}) in {seconds:.1f} s")
    print()
    print("\n".join(seat_rows(records, wins)))
    print()
    print("\n".join(level_rows(records, wins)))
    print()
    print("hands:")
    for label, value in hand_figures(records, seconds):
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
        default=DEFAULT_SEATS,
        help=f"comma-separated level of each seat ({', '.join(LEVELS)}); default {DEFAULT_SEATS}",
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
