"""Post-game analysis: every decision of a finished game judged by the expert
(``docs/bots.md``, "Post-game analysis").

:func:`analyse` takes a game record (``docs/records.md``) and judges each
decision of each player (:func:`~.moments.moments`) with the expert's search,
from that seat's view at that moment — what it knew then, never a hidden card,
exactly as the live expert would have seen it (:func:`~.appraisal.appraise`):
what the expert would have played, the expected points of the player's choice
and of the expert's, the points lost, and a mark like a chess site's
(:data:`THRESHOLDS`). Each player gets a summary: decisions, average points lost
per decision, marks, the three costliest moments.

The result is plain data (JSON-able; :data:`FORMAT`, :data:`VERSION`), and
depends only on the record, the seed and the budget: each decision's worlds are
drawn from a seed of its own, made from the analysis' seed and the decision's
place in the game (:func:`decision_seed`), so the decisions may be judged in any
order, in any process, in any number of parts (:func:`judge_range`,
:func:`assemble`): the same analysis. ``worker.py``'s pool runs the parts in
its worker processes.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .appraisal import Appraisal, appraise_moment, rounded, wire
from .moments import KINDS, Moment, moments
from .search import DEFAULT_BUDGET, Search

__all__ = [
    "BUDGET",
    "CHOICES",
    "FORMAT",
    "MARKS",
    "THRESHOLDS",
    "VERSION",
    "AnalysisStopped",
    "Thresholds",
    "analyse",
    "assemble",
    "count_decisions",
    "decision_seed",
    "judge_moment",
    "judge_range",
    "mark",
]

FORMAT = "craits-analysis"
VERSION = 1

BUDGET = 2 * DEFAULT_BUDGET
"""Simulated actions per decision: twice a live decision's (the analysis has time,
and its figures are read one by one)."""

MIN_WORLDS = 24
"""Worlds per decision at least (a live decision plays 12)."""

CHOICES = 3
"""Choices each decision's entry lists (the expert's first)."""

MARKS = ("inaccuracy", "mistake", "blunder")
"""The marks, mildest first."""


@dataclass(frozen=True)
class Thresholds:
    """Points lost from which a decision is marked (``docs/bots.md`` says how they
    were chosen): an ``inaccuracy``, a ``mistake``, a ``blunder``; and ``z``, the
    standard errors the loss must exceed too (a loss the worlds sampled cannot
    tell from nought is not marked)."""

    inaccuracy: float = 5.0
    mistake: float = 10.0
    blunder: float = 20.0
    z: float = 4.0

    def as_dict(self) -> dict[str, float]:
        """The thresholds as plain data."""
        return {
            "inaccuracy": self.inaccuracy,
            "mistake": self.mistake,
            "blunder": self.blunder,
            "z": self.z,
        }


THRESHOLDS = Thresholds()


class AnalysisStopped(Exception):
    """The analysis was told to stop (its ``stop`` said so) before it was done."""


def mark(lost: float, se: float, thresholds: Thresholds = THRESHOLDS) -> str | None:
    """The mark of a decision that lost ``lost`` points (standard error ``se``), or None."""
    if lost <= thresholds.z * se:
        return None
    found = None
    for name, limit in zip(
        MARKS, (thresholds.inaccuracy, thresholds.mistake, thresholds.blunder), strict=True
    ):
        if lost >= limit:
            found = name
    return found


def decision_seed(seed: int, moment: Moment) -> int:
    """The seed of one decision's worlds: from the analysis' ``seed`` and the decision's
    place in the game (hand, move, seat, kind, target), nothing else."""
    key = f"{seed}/{moment.hand}/{moment.move}/{moment.seat}/{moment.kind}/{moment.target}"
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def _entry(moment: Moment, judged: Appraisal, played: int) -> dict[str, Any]:
    """One decision's entry of the analysis (``docs/bots.md`` gives its fields)."""
    lost, se = judged.lost(played)
    lost = rounded(max(0.0, lost))
    known = se != math.inf
    entry: dict[str, Any] = {
        "index": moment.index,
        "hand": moment.hand,
        "move": moment.move,
        "seat": moment.seat,
        "kind": moment.kind,
        "played": moment.played,
        "expert": wire(judged.options[judged.expert]),
        "points": rounded(judged.mean(played)),
        "expert_points": rounded(judged.mean(judged.expert)),
        "lost": lost,
        "se": rounded(se) if known else None,
        "mark": mark(lost, rounded(se)) if known else None,
        "choices": judged.listing(CHOICES),
        "worlds": judged.worlds,
    }
    if moment.target is not None:
        entry["target"] = moment.target
    if moment.late:
        entry["late"] = True
    return entry


def judge_moment(
    search: Search, moment: Moment, seed: int, stop: Callable[[], bool] | None = None
) -> dict[str, Any]:
    """One decision's entry, its worlds drawn from :func:`decision_seed`.

    Raises:
        AnalysisStopped: ``stop`` said so (the entry would rest on fewer worlds).
    """
    judged, played = appraise_moment(search, moment, decision_seed(seed, moment), stop)
    if stop is not None and stop():
        raise AnalysisStopped
    return _entry(moment, judged, played)


def _search(budget: int) -> Search:
    return Search(budget, min_worlds=MIN_WORLDS)


def count_decisions(record: Mapping[str, Any]) -> int:
    """How many decisions :func:`analyse` judges in ``record``.

    Raises:
        ValueError: not a game record, or its log does not replay.
    """
    return len(moments(record))


def judge_range(
    record: Mapping[str, Any],
    seed: int,
    budget: int,
    start: int,
    end: int,
    stop: Callable[[], bool] | None = None,
) -> list[dict[str, Any]]:
    """The entries of decisions ``start`` to ``end`` (excluded) of ``record``: a part of
    :func:`analyse`, as a worker process runs it.

    Raises:
        ValueError: not a game record, or its log does not replay.
        AnalysisStopped: ``stop`` said so.
    """
    search = _search(budget)
    return [judge_moment(search, m, seed, stop) for m in _walked(record)[start:end]]


_WALKED: tuple[bytes, list[Moment]] | None = None
"""The last record :func:`judge_range` walked, by digest, and its decisions: a worker
judges an analysis' parts one after another, and walks the record once (a tenth of
a second or more, as long as judging one part's decisions)."""


def _walked(record: Mapping[str, Any]) -> list[Moment]:
    """:func:`~.moments.moments` of ``record``, kept for the next part of the same record."""
    global _WALKED
    text = json.dumps(
        [record.get("players"), record.get("rules"), record.get("log")],
        sort_keys=True,
        default=repr,
    )
    key = hashlib.blake2b(text.encode(), digest_size=16).digest()
    if _WALKED is not None and _WALKED[0] == key:
        return _WALKED[1]
    found = moments(record)
    _WALKED = (key, found)
    return found


def _summary(players: Sequence[str], entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: its decisions, points lost (total, average), marks, costliest three."""
    out = []
    for seat, name in enumerate(players):
        mine = [e for e in entries if e["seat"] == seat]
        lost = sum(e["lost"] for e in mine)
        costly = sorted((e for e in mine if e["lost"] > 0), key=lambda e: (-e["lost"], e["index"]))
        marks = {m: sum(1 for e in mine if e["mark"] == m) for m in MARKS}
        out.append(
            {
                "seat": seat,
                "name": name,
                "decisions": len(mine),
                "lost": rounded(lost),
                "average_lost": rounded(lost / len(mine)) if mine else 0.0,
                "inaccuracies": marks["inaccuracy"],
                "mistakes": marks["mistake"],
                "blunders": marks["blunder"],
                "by_kind": {
                    k: rounded(sum(e["lost"] for e in mine if e["kind"] == k))
                    for k in KINDS
                    if any(e["kind"] == k for e in mine)
                },
                "costliest": [e["index"] for e in costly[:3]],
            }
        )
    return out


def assemble(
    record: Mapping[str, Any], seed: int, budget: int, entries: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The analysis of ``record`` from the entries of all its decisions (in any order).

    Keys: ``format`` (:data:`FORMAT`), ``version`` (:data:`VERSION`), ``game`` (the
    record's), ``seed``, ``budget``, ``thresholds``, ``decisions`` (the entries, in
    the order made) and ``players`` (a summary per seat); ``docs/bots.md`` gives them.
    """
    decisions = sorted((dict(e) for e in entries), key=lambda e: e["index"])
    players = [str(p) for p in record.get("players", [])]
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": record.get("game"),
        "seed": seed,
        "budget": budget,
        "thresholds": THRESHOLDS.as_dict(),
        "decisions": decisions,
        "players": _summary(players, decisions),
    }


def analyse(
    record: Mapping[str, Any],
    seed: int = 0,
    budget: int = BUDGET,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """The analysis of game ``record`` (see the module's text), in this process.

    ``progress(done, total)`` is called after each decision judged; ``stop`` is asked
    between decisions and during each search, and ends the analysis when it says so.
    The same record, seed and budget give the same analysis.

    Raises:
        ValueError: not a game record, or its log does not replay.
        AnalysisStopped: ``stop`` said so.
    """
    found = moments(record)
    search = _search(budget)
    entries = []
    for m in found:
        if stop is not None and stop():
            raise AnalysisStopped
        entries.append(judge_moment(search, m, seed, stop))
        if progress is not None:
            progress(len(entries), len(found))
    return assemble(record, seed, budget, entries)
