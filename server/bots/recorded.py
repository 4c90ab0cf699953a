"""Games between bot levels written down as game records, through the engine only.

:func:`bot_record` plays one game (each seat deciding from its own view, the
expert also from the hand's events as its seat saw them) and returns it in the
shape of ``docs/records.md``: ``players``, ``rules``, ``log`` (every shuffle's
order, ``start``, each action, ``next_hand``), ``complete`` and ``winners`` —
what a replay, the post-game analysis (:mod:`.expert.analysis`) and its
measurements read. The shuffles carry no salt or commitment: no server dealt
them, there is nothing to prove.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from craits.protocol.types import LegalAction
from craits.protocol.vocab import LogEntryKind, Phase

from ..engine import Event, Game, Rules, action_from_dict, events_for, view
from .expert.policy import expert_choose
from .expert.search import DEFAULT_BUDGET
from .levels import policy
from .view import as_dict, seat_view

__all__ = ["bot_record"]


class _Orders:
    """A seeded shuffle source that keeps each order it makes (a record's ``shuffle``)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.orders: list[list[str]] = []

    def shuffle(self, x: list[Any], /) -> None:
        self.rng.shuffle(x)
        self.orders.append(list(x))

    def entries(self) -> list[list[Any]]:
        """The orders made since the last call, as log entries."""
        out: list[list[Any]] = [[LogEntryKind.SHUFFLE.value, {"order": o}] for o in self.orders]
        self.orders = []
        return out


class _Play:
    """One game under way, written down as it goes."""

    def __init__(self, levels: Sequence[str], seed: int, rules: Rules, budget: int | None) -> None:
        self.levels = list(levels)
        self.rng = random.Random(seed)
        self.budget = budget
        self.orders = _Orders(seed)
        self.game, events = Game.start(len(levels), rules, self.orders)
        self.hand: list[Event] = list(events)
        self.log = [*self.orders.entries(), [LogEntryKind.START.value, {}]]

    def decide(self, seat: int) -> LegalAction | None:
        """``seat``'s choice now, at its level."""
        v = view(self.game, seat)
        if self.levels[seat] == "expert":
            seed = self.rng.getrandbits(64)
            events = events_for(self.hand, seat)
            budget = DEFAULT_BUDGET if self.budget is None else self.budget
            return expert_choose(v, events, seed, budget)
        return policy(self.levels[seat])(seat_view(v), self.rng)

    def apply(self, seat: int, action: LegalAction) -> None:
        wire = {k: v for k, v in as_dict(action).items() if k != "seat"}
        events = self.game.apply(action_from_dict(wire, seat))
        self.log += self.orders.entries()
        self.log.append([LogEntryKind.ACTION.value, {"seat": seat, "id": None, "action": wire}])
        self.hand += events

    def calls(self, actor: int) -> None:
        """Every other seat, in a random order, round after round, may announce or
        call idiot (R7) while someone owes "one card"."""
        game = self.game
        others = [s for s in range(game.players) if s != actor]
        acted = True
        while acted and game.unannounced and game.phase == Phase.PLAY:
            acted = False
            self.rng.shuffle(others)
            for s in others:
                if game.phase != Phase.PLAY or not game.unannounced:
                    break
                a = self.decide(s)
                if a is not None:
                    self.apply(s, a)
                    acted = True

    def run(self) -> None:
        """Play the game to its end (R2)."""
        game = self.game
        while game.phase != Phase.GAME_OVER:
            if game.phase == Phase.HAND_OVER:
                self.hand = game.next_hand()
                self.log += [*self.orders.entries(), [LogEntryKind.NEXT_HAND.value, {}]]
            else:
                self.turn()

    def turn(self) -> None:
        """The calls owed now (R7), then the move of the seat to act."""
        game = self.game
        actor = game.to_act
        assert actor is not None
        if game.unannounced:
            self.calls(actor)
        if game.phase == Phase.PLAY:
            a = self.decide(actor)
            if a is None:
                raise RuntimeError(f"seat {actor} ({self.levels[actor]}) gave no action")
            self.apply(actor, a)


def bot_record(
    levels: Sequence[str],
    seed: int,
    rules: Rules | None = None,
    budget: int | None = None,
    game_id: int = 0,
) -> dict[str, Any]:
    """A whole game (R2) between bots, seat ``s`` at ``levels[s]``, as a game record.

    Every shuffle and every bot's choice comes from ``seed``; the expert searches
    ``budget`` simulated actions per decision (its default without one). Before
    each action of the seat to act, the other seats are offered their calls (R7)
    in a random order, as in :func:`~.selfplay.play_game`.

    Returns:
        ``{"format", "version", "game", "table", "players", "rules", "complete",
        "winners", "log"}`` as ``docs/records.md`` has them (the players named by
        level and seat, e.g. ``"basic 2"``).

    Raises:
        ValueError: an unknown level, or 2–8 seats not given.
        RuntimeError: a bot gave no action on its turn.
    """
    rules = rules or Rules()
    play = _Play(levels, seed, rules, budget)
    play.run()
    result = play.game.result
    return {
        "format": "craits-record",
        "version": 1,
        "game": game_id,
        "table": "bots",
        "players": [f"{level} {s}" for s, level in enumerate(levels)],
        "rules": rules.to_dict(),
        "complete": True,
        "winners": list(result.winners) if result is not None else [],
        "log": play.log,
    }
