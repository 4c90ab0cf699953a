"""Self-play: whole games between bot levels, through the rules engine only (no server).

:func:`play_game` plays one game and returns its figures, a :class:`GameFigures`;
``scripts/selfplay.py`` drives it over many games. Each bot decides from its
own seat's view only, as it would at a server's table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from craits.protocol.types import LegalAction
from craits.protocol.vocab import Phase

from ..engine import Game, Rules, action_from_dict, view
from ..engine.events import CountChanged, Event, HandEnded, IdiotCalled, ShufflePenalty
from .levels import Policy, policy
from .view import is_turn_action, seat_view

__all__ = ["GameFigures", "play_game"]

# The engine's phase (a literal type) compared with the vocabulary's codes.
_PLAY: str = Phase.PLAY.value
_GAME_OVER: str = Phase.GAME_OVER.value


@dataclass
class GameFigures:
    """The figures of one self-play game (:func:`play_game`).

    Attributes:
        levels: the level of each seat.
        scores: final game totals, shuffle penalties included (R9, R10).
        winners: the seats with the lowest total (R2; ties share the win).
        hands: hands played.
        actions: actions applied, off-turn calls included.
        turn_actions: plays, draws, passes and suit namings (game actions and R3).
        shuffle_penalties: shuffle penalties paid by each seat (R10).
        count_peaks: the highest value of each count (R6), in order.
        idiot_calls: idiot calls made by each seat (R7).
        idiot_called: idiot calls suffered by each seat (R7).
        went_out: hands each seat went out in (R8).
    """

    levels: tuple[str, ...]
    scores: list[int] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    hands: int = 0
    actions: int = 0
    turn_actions: int = 0
    shuffle_penalties: list[int] = field(default_factory=list)
    count_peaks: list[int] = field(default_factory=list)
    idiot_calls: list[int] = field(default_factory=list)
    idiot_called: list[int] = field(default_factory=list)
    went_out: list[int] = field(default_factory=list)


class _SelfPlay:
    """One self-play game under way: the game, each seat's policy, and the figures so far."""

    def __init__(
        self, levels: Sequence[str], rng: random.Random, rules: Rules | None, max_actions: int
    ) -> None:
        n = len(levels)
        self.levels = levels
        self.policies: list[Policy] = [policy(level) for level in levels]
        self.rng = rng
        self.max_actions = max_actions
        self.game, _ = Game.start(n, rules, random.Random(rng.getrandbits(64)))
        self.record = GameFigures(
            tuple(levels),
            shuffle_penalties=[0] * n,
            idiot_calls=[0] * n,
            idiot_called=[0] * n,
            went_out=[0] * n,
        )
        self.count_peak = self.game.count
        # Offered off-turn calls in a random order, shuffled afresh (in place) each round.
        self.others = list(range(n))

    def run(self) -> GameFigures:
        """Play every hand to the end of the game (R2); the record."""
        game = self.game
        while True:
            self.play_hand()
            result = self.end_hand()
            if game.phase == _GAME_OVER:
                break
            game.next_hand()
            if game.count:
                self.count_peak = game.count
        self.record.scores = list(game.scores)
        self.record.winners = result.winners
        return self.record

    def play_hand(self) -> None:
        """Play the hand in progress to its end (R8, R10).

        Raises:
            RuntimeError: a bot gave no action on its turn, or the game ran past
                ``max_actions``.
        """
        game = self.game
        while game.phase == _PLAY:
            if self.record.actions > self.max_actions:
                raise RuntimeError(f"the game ran past {self.max_actions} actions")
            actor = game.to_act
            assert actor is not None
            if game.unannounced:
                self.off_turn_calls(actor)
                if game.phase != _PLAY:
                    break
            a = self.policies[actor](seat_view(view(game, actor)), self.rng)
            if a is None:
                raise RuntimeError(
                    f"seat {actor} ({self.levels[actor]}) gave no action on its turn"
                )
            self.apply(actor, a)

    def off_turn_calls(self, actor: int) -> None:
        """Offer every seat but ``actor``, in a random order, its off-turn actions
        (announcing, calling idiot: R7), round after round until nobody takes one
        or nobody owes an announcement any more."""
        game = self.game
        acted = True
        while acted and game.unannounced and game.phase == _PLAY:
            acted = False
            self.rng.shuffle(self.others)
            for s in self.others:
                if s == actor or game.phase != _PLAY:
                    continue
                a = self.policies[s](seat_view(view(game, s)), self.rng)
                if a is not None:
                    self.apply(s, a)
                    acted = True

    def apply(self, seat: int, action: LegalAction) -> None:
        """Apply ``seat``'s ``action`` and count it and its events."""
        events = self.game.apply(action_from_dict(action, seat))
        self.record.actions += 1
        if is_turn_action(action):
            self.record.turn_actions += 1
        for e in events:
            self.note(e)

    def note(self, event: Event) -> None:
        """Count what ``event`` tells: a count's peak (R6), a shuffle penalty
        (R10), an idiot call (R7)."""
        rec = self.record
        match event:
            case CountChanged(count=count):
                if count:
                    self.count_peak = max(self.count_peak, count)
                elif self.count_peak:
                    rec.count_peaks.append(self.count_peak)
                    self.count_peak = 0
            case ShufflePenalty(seat=seat):
                rec.shuffle_penalties[seat] += 1
            case IdiotCalled(seat=seat, target=target):
                rec.idiot_calls[seat] += 1
                rec.idiot_called[target] += 1
            case _:
                pass

    def end_hand(self) -> HandEnded:
        """Count the hand just ended: a count still on (R6), who went out (R8); its result."""
        rec = self.record
        if self.count_peak:
            rec.count_peaks.append(self.count_peak)
            self.count_peak = 0
        rec.hands += 1
        result = self.game.result
        assert isinstance(result, HandEnded)
        for hs in result.results:
            if hs.went_out:
                rec.went_out[hs.seat] += 1
        return result


def play_game(
    levels: Sequence[str],
    rng: random.Random,
    rules: Rules | None = None,
    max_actions: int = 1_000_000,
) -> GameFigures:
    """Play one whole game between bots, through the engine only (R2).

    ``levels[s]`` is the level of seat ``s`` (2–8 seats). The game and its
    shuffles are seeded from ``rng``; each bot decides from its own
    :func:`~craits.server.engine.view` only. Before each action of the seat
    to act, every other seat, in a random order, is offered its off-turn
    actions (announcing, calling idiot: R7) until nobody takes one; this is
    skipped while nobody owes an announcement, as no seat then has any.

    Returns:
        The game's :class:`GameFigures`.

    Raises:
        ValueError: an unknown level, or a number of seats outside 2–8.
        RuntimeError: a bot gave no action on its turn, or the game ran past
            ``max_actions``.
        IllegalAction: a bot chose an illegal action (a bug).
    """
    return _SelfPlay(levels, rng, rules, max_actions).run()
