"""The hint (docs/bots.md, "Hints"): from a seat's view and the hand's events as it saw
them, what the expert would do now and its best two or three choices with their
expected points — the expert's own move first, at the live budget.

The positions are real: the decisions of bot games (with ``one_card_deal``, and
easy bots who forget "one card" and let idiot calls pass), each with the view and
events the seat had then (:func:`~craits.server.bots.expert.moments.moments`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from craits.server.bots.expert.appraisal import wire
from craits.server.bots.expert.hint import CHOICES, VERSION, hint
from craits.server.bots.expert.moments import IDIOT, ONE_CARD, Moment, moments
from craits.server.bots.expert.policy import expert_choose
from craits.server.bots.expert.search import candidates
from craits.server.bots.expert.worker import ExpertPool
from craits.server.bots.recorded import bot_record
from craits.server.engine import Rules

BUDGET = 3000


def _decisions() -> list[Moment]:
    found: list[Moment] = []
    for seed in range(3):
        record = bot_record(["easy", "easy", "easy"], seed, Rules(one_card_deal=True))
        found += moments(record)
    return found


DECISIONS = _decisions()


def _legal_wire(view: dict[str, Any]) -> list[dict[str, Any] | None]:
    return [wire(a) for a in view["legal"]]


def test_a_hint_on_a_turn_gives_the_experts_move_first_then_the_best_others() -> None:
    """On turns with several choices and no call to make: the expert's own move (the
    very one it would play with that seed), then the others fewest points first; each
    a legal action of the view."""
    turns = [
        m
        for m in DECISIONS
        if m.kind == "play" and not m.view["unannounced"] and len(candidates(m.view["legal"])) >= 3
    ][:6]
    assert len(turns) == 6
    for i, m in enumerate(turns):
        h = hint(m.view, m.events, seed=i, budget=BUDGET)
        assert h["version"] == VERSION and h["seat"] == m.seat and h["kind"] == "play"
        assert h["expert"] == wire(expert_choose(m.view, m.events, i, BUDGET))
        choices = h["choices"]
        assert len(choices) == CHOICES and choices[0]["action"] == h["expert"]
        assert choices[0]["se"] == 0
        assert [c["points"] for c in choices[1:]] == sorted(c["points"] for c in choices[1:])
        assert all(c["action"] in _legal_wire(m.view) for c in choices)
        assert h["worlds"] >= 12


def test_a_hint_says_one_card_first_and_calls_idiot() -> None:
    """A seat that owes "one card" is told to say it (not saying it: called idiot, more
    points); a seat that may call idiot on another is told to call."""
    owed = next(m for m in DECISIONS if m.kind == ONE_CARD)
    h = hint(owed.view, owed.events, seed=1, budget=BUDGET)
    assert h["kind"] == ONE_CARD and h["target"] == owed.seat
    assert h["expert"] == {"announce": True}
    said, unsaid = h["choices"]
    assert said["action"] == {"announce": True} and unsaid["action"] is None
    assert said["points"] < unsaid["points"]
    call = next(m for m in DECISIONS if m.kind == IDIOT and m.target is not None)
    h = hint(call.view, call.events, seed=1, budget=BUDGET)
    assert h["kind"] == IDIOT and h["target"] == call.target
    assert h["expert"] == {"idiot": call.target}
    assert [c["action"] for c in h["choices"]] == [{"idiot": call.target}, None]


def test_a_seat_with_nothing_to_decide_gets_an_empty_hint() -> None:
    """Off its turn with no call to make, or a spectator's view: no choices, no search."""
    m = next(m for m in DECISIONS if m.kind == "play" and not m.view["unannounced"])
    others = dict(m.view, seat=(m.seat + 1) % 3, legal=[])
    for view in (others, dict(m.view, seat=None, hand=None, legal=[])):
        h = hint(view, m.events, seed=1, budget=BUDGET)
        assert h["kind"] is None and h["choices"] == [] and h["expert"] is None
        assert h["worlds"] == 0


def test_a_turn_with_one_choice_is_hinted_without_a_search() -> None:
    """A single choice (a forced play): given as the expert's, nothing sampled."""
    m = next(m for m in DECISIONS if m.kind == "play" and not m.view["unannounced"])
    only = [a for a in m.view["legal"] if "play" in a][:1]
    view = dict(m.view, legal=only)
    h = hint(view, m.events, seed=1, budget=BUDGET)
    assert h["choices"] == [{"action": wire(only[0]), "points": None, "se": 0.0}]
    assert h["worlds"] == 0


def test_the_worker_pool_gives_a_hint() -> None:
    """A hint asked of the pool comes back from a worker process, capped in time as a
    decision is (so its figures may rest on fewer worlds on a busy machine)."""
    m = next(m for m in DECISIONS if m.kind == "play" and len(candidates(m.view["legal"])) >= 2)
    pool = ExpertPool(workers=1, budget=BUDGET)

    async def ask() -> dict[str, Any]:
        return await pool.hint(m.view, m.events, 3)

    try:
        h = asyncio.run(ask())
    finally:
        pool.close()
    assert h["kind"] == "play" and h["expert"] in _legal_wire(m.view)
    assert 2 <= len(h["choices"]) <= CHOICES and h["worlds"] >= 2
