"""The hint: what the expert would do now at a seat, and the expected points of its
best choices (``docs/bots.md``, "Hints"; the client's Hint key).

:func:`hint` takes the seat's view (protocol §8) and the hand's events as the
seat saw them (§9) — exactly the live expert's inputs, never a hidden card —
and judges the decision the seat has now (:func:`~.appraisal.decision_in`: a
"one card" owed, an idiot call it may make, else its turn) with the live
expert's search and budget. The answer is plain data (JSON-able, :data:`VERSION`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .appraisal import appraise, decision_in, wire
from .policy import searcher
from .search import DEFAULT_BUDGET

__all__ = ["CHOICES", "VERSION", "hint"]

VERSION = 1
CHOICES = 3
"""Choices a hint gives at most."""


def hint(
    view: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]] = (),
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    stop: Callable[[], bool] | None = None,
    choices: int = CHOICES,
) -> dict[str, Any]:
    """The hint for the seat of ``view`` now, its worlds drawn from ``seed``.

    ``events``: the hand's events as the seat saw them (without them the search
    knows less: no card played before the top one, nothing play revealed);
    ``budget``: simulated actions (a live decision's by default, about a tenth of a
    second of one core); ``stop``: asked during the search, cuts it short (a cap on
    its time; the answer then rests on fewer worlds).

    Returns:
        ``{"version", "seat", "kind", "target", "expert", "choices", "worlds"}``:
        ``kind`` what is decided (:data:`~.moments.KINDS`; None when the seat has
        nothing to decide: no choices then), ``target`` the seat owing "one card"
        (for ``one_card`` and ``idiot``), ``expert`` the action the expert takes
        (protocol §6, without a seat), ``choices`` at most ``choices`` of
        ``{"action", "points", "se"}``: the expert's choice first, then the others
        fewest expected points first — ``points`` the seat's expected points at
        the end of the hand (R9, R10; low is good), ``se`` the standard error of its
        difference from the expert's choice; an ``action`` of None is the call not
        made or "one card" not said. ``worlds``: the worlds sampled (0: a single
        choice, nothing to judge).
    """
    decision = decision_in(view)
    out: dict[str, Any] = {
        "version": VERSION,
        "seat": view.get("seat"),
        "kind": None,
        "target": None,
        "expert": None,
        "choices": [],
        "worlds": 0,
    }
    if decision is None:
        return out
    kind, target = decision
    judged = appraise(searcher(budget), view, events, seed, kind, target, stop=stop)
    out.update(
        kind=kind,
        target=target,
        expert=wire(judged.options[judged.expert]),
        choices=judged.listing(choices),
        worlds=judged.worlds,
    )
    return out
