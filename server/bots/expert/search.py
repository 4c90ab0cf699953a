"""The expert's search: determinized rollouts with common random numbers, basic as prior.

For a turn with more than one choice (which card, which suit an 8 or a 9
names, a turned-up 8's or 9's suit, which ace or two answers the count, play or
keep a drawn card, what to play in a king's run), :meth:`Search.judge`:

1. samples worlds consistent with everything the seat knows
   (:class:`~.belief.Belief`: the unseen cards dealt into the other hands and
   the stock, respecting what play revealed);
2. in every world, plays every candidate and then the rest of the hand with
   every seat on the basic bot's policy (:func:`~.rollout.rollout`); every
   candidate meets the same worlds and the same reshuffles (common random
   numbers), so their differences carry little of the deal's luck;
3. scores each candidate by the seat's expected points at the end of the hand
   (R9, shuffle penalties of R10 included; low is good).

:meth:`Search.decide` keeps the basic bot's move (the prior) unless another
candidate is better by a clear margin: a mean paired gain of at least
``margin`` points and ``z`` standard errors. A play that leaves one card always
announces "one card" (R7). Off its turn, and for the calls of R7, the expert
acts as the basic bot does: it announces when it owes it and calls idiot when
it can (a call only ever makes another seat draw).

The budget is counted in simulated actions, not in time, so a decision depends
only on its inputs and its seed (tests rely on it); ``scripts/duel.py`` and
``docs/bots.md`` give what it costs in time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from craits.protocol.types import LegalAction, View

from ..basic import basic_policy
from ..view import ActionDict, as_dict, seat_view, to_act
from .belief import Belief
from .card_codes import CODE, SUIT, SUIT_CODE
from .rollout import rollout
from .sim import ANNOUNCE, DRAW, IDIOT, NAME_SUIT, PASS, PLAY, Sim, play_code, score_hand

__all__ = [
    "DEFAULT_BUDGET",
    "LET_GO",
    "Judged",
    "Judgement",
    "Search",
    "candidates",
    "encode",
]

DEFAULT_BUDGET = 20_000
"""Simulated actions per decision (about 150 ms on one core of the reference machine)."""

ROLLOUT_LIMIT = 400
"""Actions a rollout plays at most: a hand that goes round the stock again and again
(R10) is cut short there, its penalties doubling past any float beyond a thousand."""


LET_GO = 2048
"""The option ``LET_GO + seat``: nobody calls idiot on ``seat``, who owes "one
card", before the next game action (R7): it is off the hook."""


def encode(action: Mapping[str, Any]) -> int:
    """The simulator's integer for a legal action in wire form (protocol §6)."""
    if "play" in action:
        card = CODE[action["play"]]
        suit = action.get("suit")
        named = SUIT[card] if suit is None else SUIT_CODE[suit]
        return play_code(card, named, bool(action.get("announce")))
    if "draw" in action:
        return DRAW
    if "pass" in action:
        return PASS
    if "name_suit" in action:
        return NAME_SUIT + SUIT_CODE[action["name_suit"]]
    if "idiot" in action:
        return IDIOT + int(action["idiot"])
    return ANNOUNCE


@dataclass
class Judged:
    """One candidate's figures: its action (one of the view's legal entries), the
    seat's mean points at the end of the hand over the worlds (low is good), and
    the standard error of its difference from the prior's, paired by world."""

    action: ActionDict
    mean: float
    se: float


@dataclass
class Judgement:
    """A decision judged: every candidate best first, the one chosen, the prior (the
    basic bot's move), how many worlds and simulated actions it took, the
    candidates in the order of the view's legal entries (then the ``extra`` entries
    judged, :meth:`Search.judge`), and each one's points world by world
    (``values[i]`` for ``candidates[i]``, each world at the same index; both empty
    when there was nothing to search)."""

    ranked: list[Judged] = field(default_factory=list)
    chosen: ActionDict | None = None
    prior: ActionDict | None = None
    worlds: int = 0
    actions: int = 0
    candidates: list[ActionDict] = field(default_factory=list)
    values: list[list[float]] = field(default_factory=list)


def candidates(legal: Sequence[ActionDict]) -> list[ActionDict]:
    """The turn's choices: each play once (with "one card" announced when it leaves
    one card, R7), the draw, the pass, the suits a dealer may name."""
    out: list[ActionDict] = []
    seen: dict[tuple[Any, Any], int] = {}
    for a in legal:
        if "play" in a:
            key = (a["play"], a.get("suit"))
            if key in seen:
                if a.get("announce"):
                    out[seen[key]] = a
                continue
            seen[key] = len(out)
            out.append(a)
        elif "idiot" not in a and not ("announce" in a and "play" not in a):
            out.append(a)
    return out


def _plain(legal: Sequence[LegalAction]) -> list[ActionDict]:
    """The view's legal entries as the plain dicts they are (the same objects)."""
    return [as_dict(a) for a in legal]


def _call(legal: Sequence[ActionDict], seat: int) -> ActionDict | None:
    """An announcement owed, else an idiot call on another seat (R7)."""
    for a in legal:
        if a.get("announce") is True and "play" not in a:
            return a
    for a in legal:
        if "idiot" in a and a["idiot"] != seat:
            return a
    return None


class Search:
    """The expert's decision maker (see the module's text).

    Attributes:
        budget: simulated actions per decision with 2 to 4 players, 6/(players + 2)
            of it with more (an action costs more at a larger table); each world
            costs the actions of one rollout per candidate; at least ``min_worlds``
            worlds are played.
        z: standard errors by which a candidate must beat the prior's move.
        z_wild: the same for a wild 8 or 9 over the prior's plain card: the wilds
            are worth keeping (R5), and the search's best of many candidates is
            biased towards luck.
        margin: points per hand by which it must beat it, at least.
        min_worlds, max_worlds: bounds on the worlds sampled.
    """

    def __init__(
        self,
        budget: int = DEFAULT_BUDGET,
        z: float = 1.5,
        z_wild: float = 3.0,
        margin: float = 0.5,
        min_worlds: int = 12,
        max_worlds: int = 400,
    ) -> None:
        self.budget = budget
        self.z = z
        self.z_wild = z_wild
        self.margin = margin
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds

    def decide(
        self,
        view: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        seed: int,
        stop: Callable[[], bool] | None = None,
    ) -> LegalAction | None:
        """The expert's action now at the seat of ``view`` (protocol §8), given the
        hand's ``events`` as the seat saw them (wire form, oldest first). ``stop``,
        asked before each world past the second, cuts the search short when it says
        so (the server's cap on a decision's time; the result then depends on it).

        Returns:
            One of ``view["legal"]`` (the same object), or None when it does nothing.
        """
        v = seat_view(view)
        legal = _plain(v["legal"])
        if not legal:
            return None
        call = _call(legal, v["seat"] if v["seat"] is not None else -1)
        if call is not None:
            return cast(LegalAction, call)
        if not to_act(v):
            return None
        return cast(LegalAction | None, self.judge(view, events, seed, stop).chosen)

    def judge(
        self,
        view: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        seed: int,
        stop: Callable[[], bool] | None = None,
        extra: Sequence[ActionDict] = (),
    ) -> Judgement:
        """Every turn choice of the seat to act judged by its expected points (the hint's
        and the analysis' question); :attr:`Judgement.chosen` is :meth:`decide`'s.

        ``extra``: legal entries of the view that are no candidate (a play leaving one
        card without "one card", R7), judged on the same worlds after the candidates
        and never chosen (the analysis judges what a player did).
        """
        v = seat_view(view)
        choices = candidates(_plain(v["legal"]))
        prior = self._prior(v, choices)
        out = Judgement(chosen=prior, prior=prior)
        judged = choices + [a for a in extra if a not in choices]
        if len(judged) <= 1:
            out.ranked = [Judged(a, 0.0, 0.0) for a in judged]
            return out
        values, out.worlds, out.actions = self.values(
            view, events, [encode(a) for a in judged], seed, stop
        )
        out.candidates = judged
        out.values = values
        base = values[choices.index(prior)] if prior in choices else values[0]
        worlds = len(base)
        ranked = []
        for a, vals in zip(judged, values, strict=True):
            diffs = [x - b for x, b in zip(vals, base, strict=True)]
            ranked.append(Judged(a, sum(vals) / worlds, _se(diffs)))
        ranked.sort(key=lambda j: j.mean)
        out.ranked = ranked
        if len(choices) <= 1:
            return out
        best = next(j for j in ranked if any(j.action is c for c in choices))
        prior_mean = sum(base) / worlds
        gain = prior_mean - best.mean
        z = self.z_wild if _wild_over_plain(best.action, prior) else self.z
        if best.action is not prior and gain >= self.margin and gain >= z * best.se:
            out.chosen = best.action
        return out

    def values(
        self,
        view: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        moves: Sequence[int],
        seed: int,
        stop: Callable[[], bool] | None = None,
    ) -> tuple[list[list[float]], int, int]:
        """The seat's points at the end of the hand after each of ``moves`` (the
        simulator's actions, :func:`encode`, or :data:`LET_GO` ``+ seat``), world by
        world, every move on the same worlds and reshuffles
        (common random numbers); the worlds sampled from ``view`` and ``events``
        as :meth:`judge` samples them, within the budget. ``stop`` as for :meth:`decide`.

        Returns:
            ``(values, worlds, actions)``: ``values[i][w]`` for ``moves[i]`` in world
            ``w``; the worlds played; the simulated actions spent.

        Raises:
            ValueError: a spectator's view.
        """
        belief = Belief(view, events)
        seat = belief.seat
        rng = random.Random(seed)
        values: list[list[float]] = [[] for _ in moves]
        spent = 0
        worlds = 0
        budget = self.budget * min(1.0, 6 / (len(belief.slots) + 2))
        while worlds < self.max_worlds and (worlds < self.min_worlds or spent < budget):
            if stop is not None and worlds >= 2 and stop():
                break
            world = belief.sample(rng)
            start = world.scores[seat]
            reshuffles = rng.getrandbits(32)
            for i, move in enumerate(moves):
                sim = world.copy()
                sim.rng = random.Random(reshuffles)
                _move(sim, seat, move)
                spent += 1 + rollout(sim, ROLLOUT_LIMIT)
                value = sim.scores[seat] - start
                if sim.phase == PLAY:  # cut short: the cards held count as they stand
                    value += score_hand(sim.hands[seat], sim.rules) if sim.hands[seat] else 0
                values[i].append(float(value))
            worlds += 1
        return values, worlds, spent

    def _prior(self, v: View, candidates: list[ActionDict]) -> ActionDict:
        """The basic bot's move among ``candidates`` (with "one card" announced)."""
        basic = basic_policy(v)
        if basic is None or not candidates:
            return candidates[0]
        key = encode(as_dict(basic)) & ~256
        for a in candidates:
            if encode(a) & ~256 == key:
                return a
        return candidates[0]


def _move(sim: Sim, seat: int, move: int) -> None:
    """``seat`` takes ``move`` in ``sim``: an action, or :data:`LET_GO` ``+ seat``."""
    if move >= LET_GO:
        if move - LET_GO in sim.unannounced:
            sim.unannounced.remove(move - LET_GO)
        return
    sim.apply(seat, move)


def _wild_over_plain(action: ActionDict, prior: ActionDict) -> bool:
    """Whether ``action`` plays a wild 8 or 9 (R5) where the prior plays a plain card."""
    card = action.get("play")
    other = prior.get("play")
    return card is not None and card[0] in "89" and other is not None and other[0] not in "89"


def _se(diffs: list[float]) -> float:
    """The standard error of the mean of ``diffs``."""
    k = len(diffs)
    if k < 2:
        return math.inf
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1)
    return math.sqrt(var / k)
