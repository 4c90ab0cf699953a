"""The bot levels (:class:`~craits.protocol.vocab.BotLevel`), the ``random`` policy,
and :func:`choose`, which asks a level for its action."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, assert_never

from craits.protocol.types import LegalAction, View
from craits.protocol.vocab import BotLevel

from .basic import basic_policy
from .easy import easy_policy
from .expert.policy import expert_choose, expert_policy
from .view import ActionDict, as_dict, seat_view, to_act

__all__ = [
    "LEVELS",
    "POLICIES",
    "RANDOM_OFF_TURN_RATE",
    "Policy",
    "choose",
    "choose_random",
    "decide",
    "policy",
    "random_policy",
]

RANDOM_OFF_TURN_RATE = 0.1
"""How often the random bot takes an action offered off its turn (R7 calls)."""


def random_policy(v: View, rng: random.Random) -> LegalAction | None:
    """The ``"random"`` policy: a uniform choice among ``v["legal"]``.

    On the seat's turn (``v["to_act"] == v["seat"]``) it always picks one,
    uniformly among every legal action (so it announces "one card" or calls
    idiot, R7, only when the draw falls on those). Off its turn it acts only
    with probability :data:`RANDOM_OFF_TURN_RATE`, then uniformly.

    Returns:
        One of the entries of ``v["legal"]``, or None (nothing legal, or it lets
        an off-turn chance go).
    """
    legal = v["legal"]
    if not legal:
        return None
    if not to_act(v) and rng.random() >= RANDOM_OFF_TURN_RATE:
        return None
    return rng.choice(legal)


def choose_random(view: Mapping[str, Any], rng: random.Random) -> ActionDict | None:
    """:func:`random_policy` on plain data: ``view`` a seat's view as the engine gives
    it; returns one of the dicts of ``view["legal"]`` (the same object), or None."""
    choice = random_policy(seat_view(view), rng)
    return None if choice is None else as_dict(choice)


Policy = Callable[[View, random.Random], LegalAction | None]
"""A bot level's policy: (the seat's view, a random source) → one of the view's
legal entries, or None when it does nothing now."""


def _policy_of(level: BotLevel) -> Policy:
    """The policy that plays at ``level`` (every level has one: the type checker
    holds this match exhaustive)."""
    match level:
        case BotLevel.RANDOM:
            return random_policy
        case BotLevel.EASY:
            return easy_policy
        case BotLevel.BASIC:
            return basic_policy
        case BotLevel.EXPERT:
            return expert_policy
        case _:
            assert_never(level)


POLICIES: dict[str, Policy] = {level: _policy_of(level) for level in BotLevel}
"""The policy of each level, by its code."""

LEVELS: tuple[BotLevel, ...] = tuple(BotLevel)
"""The bot levels :func:`choose` knows, in the vocabulary's order: ``"random"``,
``"easy"``, ``"basic"``, ``"expert"``."""


def policy(level: str) -> Policy:
    """The policy of bot ``level`` (a :class:`~craits.protocol.vocab.BotLevel` code).

    Raises:
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    found = POLICIES.get(level)
    if found is None:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    return found


def decide(
    level: str,
    v: View,
    rng: random.Random,
    events: Sequence[Mapping[str, Any]] | None = None,
) -> LegalAction | None:
    """The action bot ``level`` takes now, from its seat's view ``v`` only (protocol §8),
    and for the expert the hand's ``events`` as the seat saw them (§9), if given.

    ``rng`` is used for the random level's choices. Call it whenever the view
    changes: on the seat's turn it always answers; off its turn it may answer
    with an announcement or an idiot call (R7), or None.

    Returns:
        One of the entries of ``v["legal"]`` (the same object), or None when
        the bot does nothing now (including when nothing is legal).

    Raises:
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    if level == BotLevel.EXPERT and events is not None:
        return expert_choose(v, events, rng.getrandbits(64))
    return policy(level)(v, rng)


def choose(level: str, view: Mapping[str, Any], rng: random.Random) -> ActionDict | None:
    """:func:`decide` on plain data, as the server holds it: ``view`` is
    :func:`craits.server.engine.view` for the bot's seat.

    Returns:
        One of the dicts of ``view["legal"]`` (the same object), or None when
        the bot does nothing now (including when nothing is legal).

    Raises:
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    choice = policy(level)(seat_view(view), rng)
    return None if choice is None else as_dict(choice)
