"""One decision judged by the expert's search: every option's expected points for the
seat, the expert's own choice among them (the hint's and the analysis' shared step).

:func:`appraise` takes a seat's view (protocol §8) and the hand's events as it
saw them (§9), and judges the decision of a kind of :mod:`.moments`:

- a turn (``play``, ``count``, ``drawn``, ``king``, ``turned_suit``): every choice of
  :meth:`~.search.Search.judge`, the expert's being :attr:`~.search.Judgement.chosen`
  (the basic bot's move unless another is clearly better); a choice that is no
  candidate (a play leaving one card without "one card", R7) judged beside them;
- ``one_card`` (R7): say "one card" now, or not, and be called idiot (as every
  bot calls, and the expert does): the expert says it;
- ``idiot`` (R7): call idiot on the seat that owes "one card", or let it go (the
  window closes with no call): the expert calls.

Every option meets the same sampled worlds (common random numbers), so their
differences are paired world by world: :meth:`Appraisal.lost` is the mean
difference between an option and the expert's choice, with its standard error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..view import ActionDict
from .moments import IDIOT, ONE_CARD, PLAY, Moment, turn_kind
from .search import LET_GO, Search, candidates, encode
from .sim import IDIOT as IDIOT_CALL

__all__ = ["Appraisal", "appraise", "appraise_moment", "decision_in", "rounded", "wire"]


@dataclass
class Appraisal:
    """A decision judged.

    Attributes:
        kind: what it decides (:data:`~.moments.KINDS`).
        options: the choices, entries of the view's ``legal`` (None: "one card" not
            said, or the call let go); the ``values`` are in their order.
        values: ``values[i][w]``: the seat's points at the end of the hand after
            option ``i`` in sampled world ``w`` (R9, R10; low is good).
        expert: the index of the expert's choice in ``options``.
        worlds: the worlds sampled (0: a single option, nothing to judge).
    """

    kind: str
    options: list[ActionDict | None]
    values: list[list[float]]
    expert: int
    worlds: int

    def mean(self, i: int) -> float:
        """Option ``i``'s expected points (0 when nothing was sampled)."""
        vals = self.values[i] if self.values else []
        return sum(vals) / len(vals) if vals else 0.0

    def lost(self, i: int) -> tuple[float, float]:
        """Option ``i``'s points beyond the expert's choice, paired world by world: the
        mean difference (negative: it did better in these worlds) and its standard error."""
        if not self.worlds or i == self.expert:
            return 0.0, 0.0
        diffs = [a - b for a, b in zip(self.values[i], self.values[self.expert], strict=True)]
        k = len(diffs)
        mean = sum(diffs) / k
        if k < 2:
            return mean, math.inf
        var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
        return mean, math.sqrt(var / k)

    def ranked(self) -> list[int]:
        """The options' indices, fewest expected points first (ties in ``options`` order)."""
        return sorted(range(len(self.options)), key=self.mean)

    def listing(self, most: int) -> list[dict[str, Any]]:
        """At most ``most`` options as plain data, ``{"action", "points", "se"}``: the
        expert's choice first, then the others fewest expected points first;
        ``action`` in the form of a record's moves (None: the call not made, "one
        card" not said), ``points`` the expected points (:func:`rounded`; None when
        nothing was judged, a single option), ``se`` the standard error of its
        difference from the expert's choice (None: unknown)."""
        order = [self.expert] + [i for i in self.ranked() if i != self.expert]
        out = []
        for i in order[:most]:
            _, se = self.lost(i)
            out.append(
                {
                    "action": wire(self.options[i]),
                    "points": rounded(self.mean(i)) if self.worlds else None,
                    "se": rounded(se) if se != math.inf else None,
                }
            )
        return out


def rounded(points: float) -> float:
    """Points as hints and analyses give them: to the hundredth (never -0.0)."""
    return round(points, 2) + 0.0


def wire(action: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A legal entry in the form of a record's moves (protocol §6): without its seat."""
    if action is None:
        return None
    return {k: v for k, v in action.items() if k != "seat"}


def decision_in(view: Mapping[str, Any]) -> tuple[str, int | None] | None:
    """The decision the seat of ``view`` has now, as the expert takes them in turn:
    "one card" it owes, then an idiot call it may make (R7), then its turn; as
    ``(kind, target)``, or None when it has none."""
    seat = view.get("seat")
    legal = view.get("legal") or []
    if seat is None or not legal:
        return None
    for a in legal:
        if a.get("announce") is True and "play" not in a:
            return ONE_CARD, seat
    for a in legal:
        if "idiot" in a and a["idiot"] != seat:
            return IDIOT, a["idiot"]
    if view.get("to_act") == seat and candidates(legal):
        return turn_kind(view), None
    return None


def _call_options(
    legal: Sequence[ActionDict], kind: str, target: int
) -> tuple[list[ActionDict | None], list[int]]:
    """The two options of a call (R7) and their simulator moves: the call first."""
    if kind == ONE_CARD:
        said = next(a for a in legal if a.get("announce") is True and "play" not in a)
        return [said, None], [encode(said), IDIOT_CALL + target]
    call = next(a for a in legal if a.get("idiot") == target)
    return [call, None], [encode(call), LET_GO + target]


def appraise(
    search: Search,
    view: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    seed: int,
    kind: str = PLAY,
    target: int | None = None,
    taken: ActionDict | None = None,
    stop: Callable[[], bool] | None = None,
) -> Appraisal:
    """The decision of ``kind`` at the seat of ``view`` judged (see the module's text),
    the worlds drawn from ``seed``; ``taken``, an entry of ``view["legal"]`` that is
    no candidate of a turn, is judged beside them. ``stop``: as for
    :meth:`~.search.Search.judge` (the result then rests on fewer worlds).

    Raises:
        ValueError: a spectator's view.
        StopIteration: a call of ``kind`` that ``view["legal"]`` does not offer.
    """
    if kind in (ONE_CARD, IDIOT):
        assert target is not None
        options, moves = _call_options(view["legal"], kind, target)
        values, worlds, _ = search.values(view, events, moves, seed, stop)
        return Appraisal(kind, options, values, 0, worlds)
    extra = [taken] if taken is not None and taken not in candidates(view["legal"]) else []
    judged = search.judge(view, events, seed, stop, extra)
    if not judged.values:
        only: list[ActionDict | None] = [j.action for j in judged.ranked]
        return Appraisal(kind, only, [], 0, 0)
    options = list[ActionDict | None](judged.candidates)
    expert = next(i for i, a in enumerate(judged.candidates) if a is judged.chosen)
    return Appraisal(kind, options, judged.values, expert, judged.worlds)


def appraise_moment(
    search: Search, moment: Moment, seed: int, stop: Callable[[], bool] | None = None
) -> tuple[Appraisal, int]:
    """:func:`appraise` of a record's decision, and the index of what the player chose
    among the options (the call not made, "one card" not said: the second)."""
    judged = appraise(
        search,
        moment.view,
        moment.events,
        seed,
        moment.kind,
        moment.target,
        moment.taken,
        stop,
    )
    if moment.taken is None:
        return judged, 1
    for i, a in enumerate(judged.options):
        if a is not None and encode(a) == encode(moment.taken):
            return judged, i
    raise ValueError(f"the move {moment.taken} is not among the options judged")
