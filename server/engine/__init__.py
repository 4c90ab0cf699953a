"""The Craits rules engine: pure, deterministic, and complete (RULES.md R1–R12).

No sockets, clocks, threads or global randomness: the shuffle source is passed
in. The main entry points:

- :class:`Game` — a game's state; :meth:`Game.start`, :meth:`Game.apply`,
  :meth:`Game.legal_actions`, :meth:`Game.to_position` (loading a position is
  the rule vectors' :func:`craits.server.ops.vectors.load_position`).
- :class:`Rules` — the house variants, with the rule book's defaults.
- the actions (:class:`Play`, :class:`Draw`, …) and events, and one error
  class per kind of illegal action (:mod:`.errors`).
- :func:`view` and :func:`event_for` — what a seat or spectator may know.
"""

from .actions import (
    Action,
    Announce,
    CallIdiot,
    Draw,
    NameSuit,
    Pass,
    Play,
    action_from_dict,
    action_to_dict,
)
from .cards import CARDS, complete_deck, full_deck
from .errors import IllegalAction
from .events import Event, HandEnded, event_to_dict
from .game import Game, ShuffleSource, cut_dealer, hand_size
from .rules import Rules
from .scoring import score_cards
from .views import Moment, event_dict_for, event_for, events_for, score_sheet_row, view

__all__ = [
    "CARDS",
    "Action",
    "Announce",
    "CallIdiot",
    "Draw",
    "Event",
    "Game",
    "HandEnded",
    "IllegalAction",
    "Moment",
    "NameSuit",
    "Pass",
    "Play",
    "Rules",
    "ShuffleSource",
    "action_from_dict",
    "action_to_dict",
    "complete_deck",
    "cut_dealer",
    "event_dict_for",
    "event_for",
    "event_to_dict",
    "events_for",
    "full_deck",
    "hand_size",
    "score_cards",
    "score_sheet_row",
    "view",
]
