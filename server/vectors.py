"""Running rule vectors (``shared/vectors/README.md``) through the rules engine.

Used by ``scripts/run_vectors.py`` and by the test suite.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from craits.server.engine import (
    Game,
    IllegalAction,
    Rules,
    action_from_dict,
    complete_deck,
    cut_dealer,
    score_cards,
)
from craits.server.engine.position import FIELDS

RESULT_KEYS = ("hand_over", "hand_points", "went_out", "next_dealer", "game_over", "winners")


@dataclass
class Outcome:
    """The result of one case: ``problems`` is empty when it passed."""

    name: str
    path: str
    problems: list[str]

    @property
    def passed(self) -> bool:
        """Whether the case passed."""
        return not self.problems


def _multiset(hands: Any) -> Any:
    if not isinstance(hands, list):
        return hands
    return [sorted(Counter(h).items()) if isinstance(h, list) else h for h in hands]


def _check(game: Game, expect: dict[str, Any], refused: bool) -> list[str]:
    problems: list[str] = []
    pos = game.to_position()
    result = game.result
    for key, want in expect.items():
        if key == "error":
            if bool(want) != refused:
                problems.append(
                    "the last action was accepted, expected it refused"
                    if want
                    else "the last action was refused"
                )
            continue
        if key in FIELDS:
            got = pos[key]
            same = _multiset(got) == _multiset(want) if key == "hands" else got == want
        elif key == "legal":
            if game.pending is not None:
                continue
            got = sorted(game.legal())
            same = set(got) == set(want)
        elif key in RESULT_KEYS:
            over = game.phase != "play"
            if key == "hand_over":
                got = over
            elif result is None or not over:
                got = None
            elif key == "hand_points":
                got = [r.points for r in result.results]
            elif key == "went_out":
                got = [r.seat for r in result.results if r.went_out]
            elif key == "next_dealer":
                got = result.next_dealer
            elif key == "game_over":
                got = result.game_over
            else:
                got = list(result.winners)
            same = got == want
        else:
            problems.append(f"unknown expectation {key!r}")
            continue
        if not same:
            problems.append(f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}")
    return problems


def run_case(case: dict[str, Any]) -> list[str]:
    """Run one vector case; return what differed (empty: it passed).

    Raises:
        ValueError, KeyError, TypeError: the case is malformed.
    """
    rules = Rules.from_dict(case.get("rules"))
    kind = case["kind"]
    expect = case.get("expect", {})
    if kind == "score":
        points, _ = score_cards(case["cards"], rules)
        return (
            []
            if points == expect["points"]
            else [f"points: expected {expect['points']}, got {points}"]
        )
    if kind == "cut":
        dealer = cut_dealer(case["cuts"], case["players"])
        return (
            []
            if dealer == expect["dealer"]
            else [f"dealer: expected {expect['dealer']}, got {dealer}"]
        )
    rng = random.Random(0)
    if kind == "deal":
        deal = case["deal"]
        game = Game(deal["players"], rules, rng)
        game.hand_number = deal.get("hand_number", 1)
        game.dealer = deal.get("dealer", 0)
        if "scores" in deal:
            game.scores = list(deal["scores"])
        if "pressure" in deal:
            game.pressure = list(deal["pressure"])
        game.deal(complete_deck(deal.get("deck", []), game.players, rules.strip_kings_queens))
    elif kind == "play":
        game = Game.from_position(case["position"], rules, rng)
    else:
        raise ValueError(f"unknown kind {kind!r}")
    actions = case.get("actions", [])
    refused = False
    for i, data in enumerate(actions):
        before = game.to_position()
        try:
            game.apply(action_from_dict(data))
        except IllegalAction as exc:
            if i != len(actions) - 1 or not expect.get("error"):
                return [f"action {i + 1} {json.dumps(data)} refused: {type(exc).__name__}: {exc}"]
            refused = True
            if game.to_position() != before:
                return ["the refused action changed the position"]
    return _check(game, expect, refused)


def vector_files(paths: Iterable[str | Path]) -> list[Path]:
    """Every ``*.json`` file in the given folders (or the files themselves), sorted."""
    files: list[Path] = []
    for p in map(Path, paths):
        files.extend(sorted(p.glob("*.json")) if p.is_dir() else [p])
    return files


def run_files(paths: Iterable[str | Path]) -> list[Outcome]:
    """Run every case in the given folders or files. A file may hold one case or a list."""
    outcomes = []
    for path in vector_files(paths):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            outcomes.append(Outcome(path.stem, str(path), [f"cannot read: {exc}"]))
            continue
        cases = data if isinstance(data, list) else [data]
        for case in cases:
            name = case.get("name", path.stem) if isinstance(case, dict) else path.stem
            try:
                problems = run_case(case)
            except Exception as exc:  # a malformed case or an engine bug: report, go on
                problems = [f"{type(exc).__name__}: {exc}"]
            outcomes.append(Outcome(str(name), str(path), problems))
    return outcomes
