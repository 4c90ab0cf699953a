"""The ``expert`` level as a policy: :func:`expert_policy` (the view only) and
:func:`expert_choose` (the view and the hand's events, as the server and the
network bot call it)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from craits.protocol.types import LegalAction, View

from ...engine import Event, Game, events_for, view
from .search import DEFAULT_BUDGET, Search

__all__ = ["expert_at", "expert_choose", "expert_policy", "searcher", "seat_inputs"]

_SEARCHES: dict[int, Search] = {}


def searcher(budget: int = DEFAULT_BUDGET) -> Search:
    """The expert's :class:`~.search.Search` at ``budget`` simulated actions per decision."""
    found = _SEARCHES.get(budget)
    if found is None:
        found = _SEARCHES[budget] = Search(budget)
    return found


def expert_choose(
    view: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    seed: int,
    budget: int = DEFAULT_BUDGET,
    stop: Callable[[], bool] | None = None,
) -> LegalAction | None:
    """The expert's action from the seat's ``view`` (protocol §8) and the hand's
    ``events`` as the seat saw them (wire form, protocol §9), with the search's
    random numbers drawn from ``seed``; ``stop`` may cut the search short
    (:meth:`~.search.Search.decide`).

    Returns:
        One of ``view["legal"]`` (the same object), or None when it does nothing now.
    """
    return searcher(budget).decide(view, events, seed, stop)


def expert_policy(v: View, rng: random.Random) -> LegalAction | None:
    """The ``"expert"`` policy on the view alone (:data:`~craits.server.bots.Policy`'s
    form): without the hand's events it knows no card played before the top one,
    nor what play revealed, and samples every unseen card freely. Where the events
    are at hand, :func:`expert_choose` uses them.

    Returns:
        One of ``v["legal"]``, or None when it does nothing now.
    """
    return expert_choose(v, (), rng.getrandbits(64))


def seat_inputs(
    game: Game, hand_events: Sequence[Event], seat: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What the expert at ``seat`` is given: the seat's view of ``game`` and the hand's
    events as the seat saw them (the engine's one filter, :mod:`craits.server.engine.views`),
    both plain data for a worker process. ``hand_events`` are the hand's events whole."""
    return view(game, seat), events_for(hand_events, seat)


def expert_at(
    game: Game,
    hand_events: Sequence[Event],
    seat: int,
    seed: int,
    budget: int = DEFAULT_BUDGET,
) -> LegalAction | None:
    """The expert's action at ``seat`` of ``game``, from :func:`seat_inputs` only."""
    v, events = seat_inputs(game, hand_events, seat)
    return expert_choose(v, events, seed, budget)
