"""The ``easy`` level: the basic bot with a beginner's slips (see :func:`easy_policy`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from craits.protocol.types import LegalAction, LegalPlay, View

from .basic import basic_policy
from .view import ANNOUNCE, PLAY, idiot_calls, own_hand, plays, to_act

__all__ = ["FORGETS_ONE_CARD", "MISSES_CALL", "SLIPS", "easy_policy"]

SLIPS = 0.25
"""How often, on a turn with several cards to choose from, it plays any of them."""
FORGETS_ONE_CARD = 0.2
"""How often it forgets to say "one card" with a play that leaves one (R7)."""
MISSES_CALL = 0.5
"""How often it lets an idiot call go by (R7)."""


def _unannounced(legal_plays: Sequence[LegalPlay], chosen: LegalPlay) -> LegalPlay:
    """The same play as ``chosen`` without the "one card" announcement, if offered."""
    for a in legal_plays:
        same = a["play"] == chosen["play"] and a.get("suit") == chosen.get("suit")
        if same and not a.get(ANNOUNCE):
            return a
    return chosen


def easy_policy(v: View, rng: random.Random) -> LegalAction | None:
    """The ``"easy"`` policy: :func:`~.basic.basic_policy`, with slips a beginner makes.

    - On its turn, with more than one card it may play, now and then
      (:data:`SLIPS`) it plays one of them at random (naming a random suit
      with an 8 or a 9, R5) instead of the basic bot's choice.
    - Now and then (:data:`FORGETS_ONE_CARD`) it forgets to announce "one card"
      with a play that leaves one card (R7), and makes no announcement later.
    - Half the time (:data:`MISSES_CALL`) it does not call idiot when it could.

    It never makes an illegal move: every answer is one of ``v["legal"]``.

    Returns:
        One of the entries of ``v["legal"]``, or None when it does nothing now.
    """
    legal = v["legal"]
    if not legal:
        return None
    choice = basic_policy(v)
    if choice is None:
        return None
    if "idiot" in choice and rng.random() < MISSES_CALL:
        return None if not to_act(v) else basic_policy({**v, "legal": _no_calls(legal)})
    if choice.get(ANNOUNCE) is True and PLAY not in choice and rng.random() < FORGETS_ONE_CARD:
        return None if not to_act(v) else basic_policy({**v, "legal": _no_calls(legal)})
    if PLAY not in choice:
        return choice
    legal_plays = plays(legal)
    cards = {a["play"] for a in legal_plays}
    if len(cards) > 1 and rng.random() < SLIPS:
        choice = rng.choice(legal_plays)
        if len(own_hand(v)) == 2:
            choice = next(
                (
                    a
                    for a in legal_plays
                    if a["play"] == choice["play"]
                    and a.get("suit") == choice.get("suit")
                    and a.get(ANNOUNCE)
                ),
                choice,
            )
    if choice.get(ANNOUNCE) and rng.random() < FORGETS_ONE_CARD:
        choice = _unannounced(legal_plays, choice)
    return choice


def _no_calls(legal: Sequence[LegalAction]) -> list[LegalAction]:
    """``legal`` without its "one card" calls (announcements and idiot calls, R7)."""
    calls = {id(a) for a in idiot_calls(legal)}
    return [
        a for a in legal if id(a) not in calls and not (a.get(ANNOUNCE) is True and PLAY not in a)
    ]
