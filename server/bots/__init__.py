"""Computer players: the bot policies, the server's timeout move, self-play, the network bot.

A policy (:data:`Policy`) sees exactly what a person at its seat would see: the
view of protocol §8 (:class:`craits.protocol.types.View`) that
:func:`craits.server.engine.view` builds for the seat and the server sends (own
hand, hand sizes, top card, suit in force, count, scores, ``unannounced``, and
``legal``, the seat's legal actions). It never sees the
:class:`~craits.server.engine.Game`. It answers with one of the entries of
``view["legal"]`` (the very object, unchanged) or ``None`` when it does
nothing now: :func:`decide` by level, :func:`timeout_move` for the server's
timeout move. :func:`choose` and :func:`timeout_action` are the same on plain
data (the engine's ``dict`` view in, a ``dict`` out), as the server calls them.

Levels (:data:`LEVELS`, the :class:`~craits.protocol.vocab.BotLevel` codes):

- ``"random"`` — on its turn, uniform among all its legal actions (plays with
  and without an announcement, draws, announcements, idiot calls alike). Off
  its turn it takes one of its legal actions (an announcement or an idiot
  call, R7) only now and then (:data:`RANDOM_OFF_TURN_RATE`).
- ``"easy"`` — the basic player with a beginner's slips (:mod:`.easy`).
- ``"basic"`` — a sensible player; see :func:`basic_policy`.
- ``"expert"`` — searches the hidden cards for the move that scores least
  (:mod:`.expert`, ``docs/bots.md``); it also reads the hand's events as its
  seat saw them, where the caller has them (:func:`decide`'s ``events``).

The modules, each with one job:

- :mod:`.view` — reading the typed view, picking legal actions by kind;
- :mod:`.card_sense` — wilds, suits held, follow-ups, picking a legal variant;
- :mod:`.weighing` — how the basic bot weighs a candidate play, one term per concern;
- :mod:`.basic`, :mod:`.easy`, :mod:`.levels` — the policies, and :func:`choose` by level;
- :mod:`.expert` — the expert: its simulator, knowledge, search and worker processes;
- :mod:`.timeout` — :func:`timeout_move`, the server's move for a seat whose
  turn timed out;
- :mod:`.selfplay` — :func:`play_game`, a whole game between policies through
  the engine only (``scripts/selfplay.py`` drives it);
- :mod:`.duel` — duplicate deals between levels (``scripts/duel.py`` drives it);
- :mod:`.network` — the network bot, ``craits-bot``: a client of the server
  like any other, on the protocol's frame reader and typed messages (imported
  on demand, not by this package).

The policies may import the engine and the protocol's types only; the table
(the server's own bots and timeouts) imports them.
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
from .selfplay import GameFigures, play_game
from .timeout import timeout_action, timeout_move
from .view import ActionDict, as_dict, seat_view

__all__ = [
    "LEVELS",
    "POLICIES",
    "RANDOM_OFF_TURN_RATE",
    "ActionDict",
    "GameFigures",
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
