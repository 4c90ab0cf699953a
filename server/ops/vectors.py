"""The rule vectors' format (``shared/vectors/README.md``) and their runner.

Loading a position in the vector format (:func:`load_position`), and running
vector cases through the rules engine (:func:`run_case`, :func:`run_files`).
Used by ``scripts/run_vectors.py``, ``scripts/soak_engine.py`` and the test
suite. Writing a position is the engine's :meth:`Game.to_position`.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from craits.protocol.vocab import ActionKind, Phase

from ..engine import (
    Game,
    HandEnded,
    IllegalAction,
    Rules,
    ShuffleSource,
    action_from_dict,
    complete_deck,
    cut_dealer,
    score_cards,
)
from ..engine.cards import is_card, is_suit

# ----------------------------------------------------------------- positions

FIELDS = frozenset(Game(2).to_position())
"""Every field of a position: those :meth:`Game.to_position` writes."""

_NAME_SUIT = ActionKind.NAME_SUIT.value
"""The key of a position's ``pending`` choice: the action that settles it."""


def load_position(
    position: object, rules: Rules | None = None, rng: ShuffleSource | None = None
) -> Game:
    """A :class:`Game` in play at ``position`` (README, "A position").

    Fields left out take the README's defaults: ``hand_number`` 1, ``dealer`` 0,
    ``direction`` 1, ``count`` 0, ``again`` false, zero scores, pressure and
    lost turns, no ``unannounced``, ``pending`` and ``drawn`` null, ``jacks``
    and ``king_cards`` 0, ``suit`` the top card's. The shuffle penalties paid
    in the hand so far are not part of a position: they start at 0 (R10).

    Raises:
        ValueError: an unknown field, a missing required one (``players``,
            ``turn``, ``hands``, ``discard``), or a value of the wrong type or
            out of range.
    """
    if not isinstance(position, dict):
        raise ValueError("a position is a map of fields")
    unknown = set(position) - FIELDS
    if unknown:
        raise ValueError(f"unknown position field(s): {', '.join(sorted(map(str, unknown)))}")
    game = Game(_int(position, "players", None, 2, 8), rules, rng)
    _load_seats(game, position)
    _load_cards(game, position)
    _load_totals(game, position)
    _load_counters(game, position)
    game.phase = Phase.PLAY
    return game


def _load_seats(game: Game, pos: Mapping[str, Any]) -> None:
    """The hand number, the dealer, the direction of play and the turn (R2, R4, R5)."""
    n = game.players
    game.hand_number = _int(pos, "hand_number", 1, 1, 15)
    game.dealer = _int(pos, "dealer", 0, 0, n - 1)
    direction = pos.get("direction", 1)
    if type(direction) is not int or direction not in (1, -1):
        raise ValueError("position field 'direction' must be 1 or -1")
    game.direction = direction
    game.turn = _int(pos, "turn", None, 0, n - 1)


def _load_cards(game: Game, pos: Mapping[str, Any]) -> None:
    """The hands, the stock, the discard pile, the suit in force and the drawn card (R1, R4)."""
    hands = pos.get("hands")
    if not isinstance(hands, list) or len(hands) != game.players:
        raise ValueError(f"position field 'hands' must list {game.players} hands")
    game.hands = [_cards(h, "hands") for h in hands]
    game.stock = _cards(pos.get("stock", []), "stock")[::-1]
    game.discard = _cards(pos.get("discard"), "discard")
    if not game.discard:
        raise ValueError("position field 'discard' needs at least the top card")
    suit = pos.get("suit", game.discard[-1][1])
    if not is_suit(suit):
        raise ValueError(f"position field 'suit' must be S, H, D or C, not {suit!r}")
    game.suit = suit


def _load_totals(game: Game, pos: Mapping[str, Any]) -> None:
    """Per seat: the scores, the pressure, lost turns, and who owes an announcement (R7, R10)."""
    n = game.players
    game.scores = _ints(pos, "scores", n, lo=-(10**18))
    game.pressure = _ints(pos, "pressure", n)
    game.lost_turns = _ints(pos, "lost_turns", n)
    unannounced = pos.get("unannounced") or []
    if not isinstance(unannounced, list) or any(
        isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n for s in unannounced
    ):
        raise ValueError("position field 'unannounced' must list seats")
    game.unannounced = sorted(set(unannounced))


def _load_counters(game: Game, pos: Mapping[str, Any]) -> None:
    """The count, a 6's play-again, jacks and king cards, a pending suit, a drawn card
    (R3–R6, R11)."""
    game.count = _int(pos, "count", 0, 0, 10_000)
    again = pos.get("again", False)
    if not isinstance(again, bool):
        raise ValueError("position field 'again' must be true or false")
    game.again = again
    game.jacks = _int(pos, "jacks", 0, 0, 10_000)
    game.king_cards = _int(pos, "king_cards", 0, 0, 3)
    pending = pos.get("pending")
    if pending is not None:
        if not isinstance(pending, dict) or set(pending) != {_NAME_SUIT}:
            raise ValueError(f"position field 'pending' must be null or {{'{_NAME_SUIT}': seat}}")
        game.pending = _int(pending, _NAME_SUIT, None, 0, game.players - 1)
    drawn = pos.get("drawn")
    if drawn is not None and (not is_card(drawn) or drawn not in game.hands[game.turn]):
        raise ValueError("position field 'drawn' must be null or a card in the hand of the turn")
    game.drawn = drawn


def _int(pos: Mapping[str, Any], key: str, default: int | None, lo: int, hi: int) -> int:
    """Field ``key``: an integer ``lo``…``hi`` (``default`` if left out; None: required)."""
    value = pos.get(key, default)
    if value is None:
        raise ValueError(f"position needs {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"position field {key!r} must be an integer {lo}..{hi}, not {value!r}")
    return value


def _cards(value: object, key: str) -> list[str]:
    """``value`` (of field ``key``) as a list of card codes."""
    if not isinstance(value, list):
        raise ValueError(f"position field {key!r} must be a list of cards")
    for card in value:
        if not is_card(card):
            raise ValueError(f"position field {key!r} holds {card!r}, not a card code")
    return list(value)


def _ints(pos: Mapping[str, Any], key: str, n: int, lo: int = 0) -> list[int]:
    """Field ``key``: ``n`` integers >= ``lo`` (zeros if left out)."""
    value = pos.get(key)
    if value is None:
        return [0] * n
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"position field {key!r} must list {n} integers")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise ValueError(f"position field {key!r} holds {v!r}, not an integer >= {lo}")
    return list(value)


# -------------------------------------------------------------------- cases

RESULT_KEYS = ("hand_over", "hand_points", "went_out", "next_dealer", "game_over", "winners")
"""The expectations about the end of a hand (README, "Expectations")."""

_RESULTS: dict[str, Callable[[HandEnded], object]] = {
    "hand_points": lambda r: [s.points for s in r.results],
    "went_out": lambda r: [s.seat for s in r.results if s.went_out],
    "next_dealer": lambda r: r.next_dealer,
    "game_over": lambda r: r.game_over,
    "winners": lambda r: list(r.winners),
}
"""How each expectation about a finished hand reads the :class:`HandEnded`."""


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


class _Unknown(KeyError):
    """An expectation the runner does not know."""


_NOT_CHECKED = object()
"""What :func:`_observed` gives for an expectation that does not apply (``legal`` while
a suit is pending)."""


def _multiset(hands: object) -> object:
    if not isinstance(hands, list):
        return hands
    return [sorted(Counter(h).items()) if isinstance(h, list) else h for h in hands]


def _observed(game: Game, position: dict[str, Any], key: str) -> object:
    """What ``game`` shows for the expectation ``key``.

    Raises:
        _Unknown: no such expectation.
    """
    if key in FIELDS:
        return position[key]
    if key == "legal":
        return _NOT_CHECKED if game.pending is not None else sorted(game.legal())
    over = game.phase != Phase.PLAY
    if key == "hand_over":
        return over
    read = _RESULTS.get(key)
    if read is None:
        raise _Unknown(key)
    return read(game.result) if over and game.result is not None else None


def _same(key: str, got: object, want: object) -> bool:
    """Whether ``got`` meets the expectation ``key``: ``want`` (hands as multisets,
    legal moves as a set)."""
    if key == "hands":
        return _multiset(got) == _multiset(want)
    if key == "legal" and isinstance(got, list) and isinstance(want, list):
        return set(got) == set(want)
    return got == want


def _check(game: Game, expect: dict[str, Any], refused: bool) -> list[str]:
    """What differs from the case's expectations once its actions are applied."""
    problems: list[str] = []
    position = game.to_position()
    for key, want in expect.items():
        if key == "error":
            if bool(want) != refused:
                problems.append(
                    "the last action was accepted, expected it refused"
                    if want
                    else "the last action was refused"
                )
            continue
        try:
            got = _observed(game, position, key)
        except _Unknown:
            problems.append(f"unknown expectation {key!r}")
            continue
        if got is not _NOT_CHECKED and not _same(key, got, want):
            problems.append(f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}")
    return problems


def _dealt(deal: dict[str, Any], rules: Rules) -> Game:
    """A game just dealt as a ``deal`` case says (README, "Deal cases")."""
    game = Game(deal["players"], rules, random.Random(0))
    game.hand_number = deal.get("hand_number", 1)
    game.dealer = deal.get("dealer", 0)
    if "scores" in deal:
        game.scores = list(deal["scores"])
    if "pressure" in deal:
        game.pressure = list(deal["pressure"])
    game.deal(complete_deck(deal.get("deck", []), game.players, rules.strip_kings_queens))
    return game


def _apply_all(game: Game, actions: list[Any], error_expected: bool) -> tuple[list[str], bool]:
    """Apply a case's actions; only the last may be refused, and only if the case says so.

    Returns:
        ``(problems, refused)``: what went wrong, and whether the last action was refused.
    """
    for i, data in enumerate(actions):
        before = game.to_position()
        try:
            game.apply(action_from_dict(data))
        except IllegalAction as exc:
            if i != len(actions) - 1 or not error_expected:
                return [
                    f"action {i + 1} {json.dumps(data)} refused: {type(exc).__name__}: {exc}"
                ], True
            if game.to_position() != before:
                return ["the refused action changed the position"], True
            return [], True
    return [], False


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
        want = expect["points"]
        return [] if points == want else [f"points: expected {want}, got {points}"]
    if kind == "cut":
        dealer = cut_dealer(case["cuts"], case["players"])
        want = expect["dealer"]
        return [] if dealer == want else [f"dealer: expected {want}, got {dealer}"]
    if kind == "deal":
        game = _dealt(case["deal"], rules)
    elif kind == "play":
        game = load_position(case["position"], rules, random.Random(0))
    else:
        raise ValueError(f"unknown kind {kind!r}")
    problems, refused = _apply_all(game, case.get("actions", []), bool(expect.get("error")))
    return problems or _check(game, expect, refused)


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
