"""Scoring a hand (RULES.md R9) and the shuffle penalty (R10)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import POINTS
from .rules import Rules

_RULES = Rules()


def score_cards(
    cards: Iterable[str], rules: Rules = _RULES
) -> tuple[int, tuple[tuple[str, str], ...]]:
    """Points for the cards left in a hand of a player who did not go out (R9).

    ``cards`` are card codes (or bare ranks: only ``card[0]`` is read). Each 3
    cancels the highest-valued card left that is neither a 3 nor an 8 (options
    ``threes_cancel_eights``, ``three_penalty``); a cancelled card scores 0, a
    cancelling 3 scores ``cancelling_three_scores``, a 3 cancelling nothing
    scores 3 (100 with ``three_penalty``). A hand of only threes scores −50 per 3.

    Returns:
        ``(points, cancelled)``: ``cancelled`` pairs each cancelling 3 with the
        card it cancelled, highest first.
    """
    cards = list(cards)
    if not cards:
        return 0, ()
    threes = [c for c in cards if c[0] == "3"]
    if len(threes) == len(cards):
        return -50 * len(threes), ()
    others = [c for c in cards if c[0] != "3"]
    exempt = "8" if not rules.threes_cancel_eights else ""
    if rules.three_penalty:
        exempt += "A"
    cancellable = sorted(
        (c for c in others if c[0] not in exempt), key=lambda c: POINTS[c[0]], reverse=True
    )
    cancelled = tuple(zip(threes, cancellable, strict=False))
    total = sum(POINTS[c[0]] for c in others) - sum(POINTS[c[0]] for _, c in cancelled)
    idle = len(threes) - len(cancelled)
    total += len(cancelled) * rules.cancelling_three_scores
    total += idle * (100 if rules.three_penalty else 3)
    return total, cancelled


FIRST_PENALTY = 5
"""Points of a seat's first shuffle penalty (R10); each later one doubles its last."""


def shuffle_penalty(paid_before: int) -> int:
    """Points a seat pays for its next shuffle penalty (R10): 5, doubled for each paid before.

    ``paid_before`` is how many shuffle penalties the seat paid earlier in the game
    (its pressure): 0 → 5, 1 → 10, 2 → 20, …
    """
    return FIRST_PENALTY << paid_before


def penalties_paid(pressure: int) -> int:
    """Points a seat paid in shuffle penalties over ``pressure`` penalties (R10):
    5 + 10 + 20 + … = 5 × (2^pressure − 1), its next penalty less the first."""
    return shuffle_penalty(pressure) - FIRST_PENALTY


def penalty_figures(pressure: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per seat, from each seat's pressure: its next shuffle penalty and the points it
    paid in them so far this game (R10), as :func:`shuffle_penalty` and
    :func:`penalties_paid` give them (computed here in one pass for the views)."""
    upcoming = [FIRST_PENALTY << p for p in pressure]
    return upcoming, [u - FIRST_PENALTY for u in upcoming]
