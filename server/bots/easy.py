"""The ``easy`` level: the basic bot with a beginner's slips (see :func:`easy_policy`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from craits.protocol.types import LegalAction, View

from .basic import basic_policy
from .view import ANNOUNCE, PLAY, ActionDict, as_dict, own_hand, seat_view, to_act

__all__ = ["FORGETS_ONE_CARD", "MISSES_CALL", "SLIPS", "easy_policy"]

SLIPS = 0.25
"""How often, on a turn with several cards to choose from, it plays any of them."""
FORGETS_ONE_CARD = 0.2
"""How often it forgets to say "one card" with a play that leaves one (R7)."""
MISSES_CALL = 0.5
"""How often it lets an idiot call go by (R7)."""


def _unannounced(legal: Sequence[ActionDict], chosen: ActionDict) -> ActionDict:
    """The same play as ``chosen`` without the "one card" announcement, if offered."""
    for a in legal:
        same = a.get(PLAY) == chosen[PLAY] and a.get("suit") == chosen.get("suit")
        if same and not a.get(ANNOUNCE):
            return a
    return chosen


def _announcing(legal: Sequence[ActionDict], chosen: ActionDict) -> ActionDict:
    """The same play as ``chosen`` with the "one card" announcement, if offered."""
    for a in legal:
        same = a.get(PLAY) == chosen[PLAY] and a.get("suit") == chosen.get("suit")
        if same and a.get(ANNOUNCE):
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
    basic = basic_policy(v)
    if basic is None:
        return None
    choice = as_dict(basic)
    legal = [as_dict(a) for a in v["legal"]]
    call = "idiot" in choice or (choice.get(ANNOUNCE) is True and PLAY not in choice)
    if call:
        slip = MISSES_CALL if "idiot" in choice else FORGETS_ONE_CARD
        if rng.random() >= slip:
            return basic
        if not to_act(v):
            return None
        return basic_policy(seat_view({**v, "legal": _no_calls(legal)}))
    if PLAY not in choice:
        return basic
    plays = [a for a in legal if PLAY in a]
    if len({a[PLAY] for a in plays}) > 1 and rng.random() < SLIPS:
        choice = rng.choice(plays)
        if len(own_hand(v)) == 2:
            choice = _announcing(plays, choice)
    if choice.get(ANNOUNCE) and rng.random() < FORGETS_ONE_CARD:
        choice = _unannounced(plays, choice)
    return cast(LegalAction, choice)


def _no_calls(legal: Sequence[ActionDict]) -> list[ActionDict]:
    """``legal`` without its "one card" calls (announcements and idiot calls, R7)."""
    return [
        a for a in legal if "idiot" not in a and not (a.get(ANNOUNCE) is True and PLAY not in a)
    ]
