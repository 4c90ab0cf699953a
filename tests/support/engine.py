"""Helpers shared by the engine tests: building games from positions, snapshots, card scans."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from craits.server.engine import Action, Game, IllegalAction, Rules, full_deck
from craits.server.engine.cards import is_card
from craits.server.ops.vectors import load_position


def game_at(rules: dict[str, Any] | None = None, seed: int = 0, **position: Any) -> Game:
    """A game in play at ``position`` (vector format; left-out fields take their defaults)."""
    return load_position(position, Rules.from_dict(rules), random.Random(seed))


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about ``game``: its position, phase, last result and rules."""
    return (game.to_position(), game.phase, game.result, game.rules)


def assert_refused(game: Game, action: Action, error: type[IllegalAction]) -> IllegalAction:
    """Apply ``action``: it must raise exactly ``error`` and leave ``game`` exactly unchanged."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert type(info.value) is error, f"{action!r} raised {type(info.value).__name__}"
    assert str(info.value), "an illegal action names its reason"
    assert snapshot(game) == before, f"{action!r} was refused but changed the game"
    return info.value


def deck_from(top: Sequence[str], players: int, rules: Rules | None = None) -> list[str]:
    """A whole deck order whose first cards are ``top`` (the vector ``deal`` format)."""
    rest = full_deck(players, (rules or Rules()).strip_kings_queens)
    for card in top:
        rest.remove(card)
    return [*top, *rest]


def all_cards(game: Game) -> Counter[str]:
    """Every card of ``game``: the hands, the stock and the discard pile, as a multiset."""
    cards = Counter(game.stock) + Counter(game.discard)
    for hand in game.hands:
        cards.update(hand)
    return cards


def card_codes(value: Any) -> set[str]:
    """Every card code in ``value``, scanning dicts (keys too), lists and tuples recursively.

    A string counts when it is exactly a card code.
    """
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if is_card(item):
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return found


def flatten(hands: Iterable[Iterable[str]]) -> set[str]:
    """The set of card codes in some hands."""
    return {c for h in hands for c in h}
