"""Computer players: the bot policies, the server's timeout move, self-play, the network bot.

A policy sees exactly what a person at its seat would see: the view of
protocol §8 that :func:`craits.server.engine.view` builds for the seat (own
hand, hand sizes, top card, suit in force, count, scores, ``unannounced``, and
``legal``, the seat's legal actions in dict form), read through
:class:`~.view.SeatView`. It never sees the :class:`~craits.server.engine.Game`.
It answers with one of the dicts of ``view["legal"]`` (the very object,
unchanged) or ``None`` when it does nothing now.

Levels (:data:`LEVELS`, the :class:`~craits.protocol.vocab.BotLevel` codes):

- ``"random"`` — on its turn, uniform among all its legal actions (plays with
  and without an announcement, draws, announcements, idiot calls alike). Off
  its turn it takes one of its legal actions (an announcement or an idiot
  call, R7) only now and then (:data:`RANDOM_OFF_TURN_RATE`).
- ``"basic"`` — a sensible player; see :func:`choose_basic`.

The modules, each with one job:

- :mod:`.view` — the typed view and action helpers;
- :mod:`.cards` — wilds, suits held, follow-ups, picking a legal variant;
- :mod:`.scoring` — how the basic bot weighs a candidate play, one term per concern;
- :mod:`.basic`, :mod:`.levels` — the policies, and :func:`choose` by level;
- :mod:`.timeout` — :func:`timeout_action`, the server's move for a seat whose
  turn timed out;
- :mod:`.selfplay` — :func:`play_game`, a whole game between policies through
  the engine only (``scripts/selfplay.py`` drives it);
- :mod:`.client`, :mod:`.cli` — the network bot, ``craits-bot``: a client of
  the server like any other (imported on demand, not by this package).
"""

from __future__ import annotations

from .basic import basic_policy, choose_basic
from .levels import (
    LEVELS,
    POLICIES,
    RANDOM_OFF_TURN_RATE,
    Policy,
    choose,
    choose_random,
    decide,
    policy,
    random_policy,
)
from .selfplay import GameRecord, play_game
from .timeout import timeout_action, timeout_move
from .view import ActionDict, as_dict, seat_view

__all__ = [
    "LEVELS",
    "POLICIES",
    "RANDOM_OFF_TURN_RATE",
    "ActionDict",
    "GameRecord",
    "Policy",
    "as_dict",
    "basic_policy",
    "choose",
    "choose_basic",
    "choose_random",
    "decide",
    "play_game",
    "policy",
    "random_policy",
    "seat_view",
    "timeout_action",
    "timeout_move",
]
