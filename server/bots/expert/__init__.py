"""The ``expert`` bot: a search over the hidden cards (``docs/bots.md``).

- :mod:`.card_codes` — cards as integers and bit sets;
- :mod:`.sim` — :class:`~.sim.Sim`, a fast simulator of a hand, held to the
  engine by ``tests/server/bots/expert/test_sim.py``;
- :mod:`.rollout` — the basic bot's choices on the simulator (the rollout
  policy and the prior), held to :func:`craits.server.bots.basic_policy`;
- :mod:`.belief` — what a seat knows of the hidden cards, and worlds sampled
  consistently with it;
- :mod:`.search` — :class:`~.search.Search`: determinized rollouts with common
  random numbers, the basic bot's move unless another is clearly better;
- :mod:`.policy` — the level's policy (:func:`expert_choose`, :func:`expert_policy`);
- :mod:`.worker` — decisions, hints and analyses in worker processes, off the
  server's event loop;
- :mod:`.appraisal` — one decision judged: every option's expected points, the
  expert's choice among them;
- :mod:`.hint` — the hint: the expert's move now and its best choices;
- :mod:`.moments` — a game record's decisions, each with its seat's view then;
- :mod:`.analysis` — the post-game analysis: points lost, marks, summaries;
- :mod:`.analyse` — the analysis from the command line
  (``python -m craits.server.bots.expert.analyse``).
"""

from __future__ import annotations

from .policy import expert_choose, expert_policy, searcher
from .search import DEFAULT_BUDGET, Judged, Judgement, Search

__all__ = [
    "DEFAULT_BUDGET",
    "Judged",
    "Judgement",
    "Search",
    "expert_choose",
    "expert_policy",
    "searcher",
]
