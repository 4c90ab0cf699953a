"""Duplicate deals: bot levels played against each other on the same cards, seats rotated.

A *deal* is a game's worth of shuffles: the first dealer and one deck order per
hand (R2, R3), and the seed of each hand's reshuffles (R10), all drawn from
one seed. :func:`play_deal` plays it once per rotation of the line-up (the
hero, ``levels[0]``, sits at seat 0, then 1, …), and once more with every seat
at the baseline level (``levels[1]``), the *control*. The luck of the deal then
cancels: the hero's points in a hand at a seat are paired with the control's
points at that seat in the same hand (same cards dealt), and the hero's games
are won or lost on the same cards as its opponents had.

Every seat decides from its own view (and, for the expert, the hand's events
as its seat saw them), through the engine only. ``scripts/duel.py`` drives it
over many deals and prints the figures.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from craits.protocol.types import LegalAction

from ..engine import Game, Rules, action_from_dict, events_for, full_deck, view
from ..engine.events import Dealt, Event
from .expert.search import DEFAULT_BUDGET, Search
from .levels import policy
from .view import ActionDict, as_dict, is_turn_action, seat_view

__all__ = ["Blunders", "DealResult", "GameResult", "play_deal", "play_game_on"]

_EXPERT = "expert"


@dataclass
class Blunders:
    """The expert's turn decisions, and those of them that are blunders (``docs/bots.md``):

    - ``wild``: a wild 8 or 9 played (R5) while a plain card of the suit in force
      would do (not a 2, which starts the count), with no opponent down to two
      cards, not as its last card, and nothing gained: a search of four times the
      budget, on other worlds, finds a plain card of the suit scoring no worse
      (``wild_played`` counts them all, gain or not);
    - ``unanswered``: the count not answered while holding an ace or a two (R6);
    - ``one_card``: a play leaving one card without "one card" (R7).
    """

    decisions: int = 0
    wild: int = 0
    wild_played: int = 0
    unanswered: int = 0
    one_card: int = 0

    def note(self, game: Game, seat: int, choice: ActionDict) -> bool:
        """Count the turn decision ``choice`` of ``seat`` and its blunders of the count
        and of "one card"; True when it plays a wild where a plain card of the suit
        would do, with no opponent near going out (the caller checks what it gained)."""
        self.decisions += 1
        hand = game.hands[seat]
        card = choice.get("play")
        if game.count and "draw" in choice and any(c[0] in "A2" for c in hand):
            self.unanswered += 1
        if card is None:
            return False
        if len(hand) == 2 and not choice.get("announce"):
            self.one_card += 1
        if card[0] not in "89" or len(hand) <= 1 or game.count:
            return False
        threat = any(len(h) <= 2 for s, h in enumerate(game.hands) if s != seat)
        plain = [c for c in game.playable_cards(seat) if c[0] not in "892" and c[1] == game.suit]
        return bool(plain) and not threat

    def add(self, other: Blunders) -> None:
        """Add ``other``'s counts to these."""
        self.decisions += other.decisions
        self.wild += other.wild
        self.wild_played += other.wild_played
        self.unanswered += other.unanswered
        self.one_card += other.one_card

    @property
    def total(self) -> int:
        """All blunders."""
        return self.wild + self.unanswered + self.one_card


@dataclass
class GameResult:
    """One game of a deal: the level of each seat, each seat's points in each hand
    (the change of its total: hand points and shuffle penalties, R9, R10), the
    final totals, the winners (R2), and the searching seats' figures."""

    levels: tuple[str, ...]
    hand_points: list[list[int]] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    searches: int = 0
    search_seconds: float = 0.0
    search_times: list[float] = field(default_factory=list)
    search_cpu: list[float] = field(default_factory=list)
    blunders: Blunders = field(default_factory=Blunders)


@dataclass
class DealResult:
    """A deal played in every rotation (``games[r]``: the hero at seat ``r``) and once
    by the baseline level alone (``control``)."""

    seed: int
    games: list[GameResult]
    control: GameResult | None


def _deal_plan(seed: int, players: int, rules: Rules) -> tuple[int, list[list[str]], list[int]]:
    """The first dealer, each hand's deck order and each hand's reshuffle seed."""
    rng = random.Random(seed)
    dealer = rng.randrange(players)
    decks = []
    reshuffles = []
    for _ in range(rules.hands):
        deck = full_deck(players, rules.strip_kings_queens)
        rng.shuffle(deck)
        decks.append(deck)
        reshuffles.append(rng.getrandbits(64))
    return dealer, decks, reshuffles


class _Table:
    """One game on a deal's cards, each seat at its level."""

    def __init__(
        self, levels: Sequence[str], rules: Rules, seed: int, search: Search, rng: random.Random
    ) -> None:
        self.levels = tuple(levels)
        self.rules = rules
        self.search = search
        self.rng = rng
        n = len(levels)
        self.dealer, self.decks, self.reshuffles = _deal_plan(seed, n, rules)
        self.game = Game(n, rules, random.Random(0))
        self.hand_events: list[Event] = []
        self.result = GameResult(self.levels)

    def run(self) -> GameResult:
        """Play the whole game (R2)."""
        game = self.game
        game.dealer = self.dealer
        before = [0] * game.players
        for k in range(self.rules.hands):
            game.rng = random.Random(self.reshuffles[k])
            if k == 0:
                self._take(game.deal(self.decks[0]))
            else:
                self._take(game.next_hand(self.decks[k]))
            self._play_hand()
            points = [a - b for a, b in zip(game.scores, before, strict=True)]
            self.result.hand_points.append(points)
            before = list(game.scores)
        assert game.result is not None
        self.result.scores = list(game.scores)
        self.result.winners = game.result.winners
        return self.result

    def _take(self, events: list[Event]) -> None:
        for e in events:
            if type(e) is Dealt:
                self.hand_events = []
            self.hand_events.append(e)

    def _play_hand(self) -> None:
        game = self.game
        while game.phase == "play":
            actor = game.to_act
            assert actor is not None
            if game.unannounced:
                self._calls(actor)
                if game.phase != "play":
                    return
            action = self._decide(actor)
            if action is None:
                raise RuntimeError(f"seat {actor} ({self.levels[actor]}) gave no action")
            self._take(game.apply(action_from_dict(action, actor)))

    def _calls(self, actor: int) -> None:
        """Every other seat, in a random order, may announce or call idiot (R7)."""
        game = self.game
        others = [s for s in range(game.players) if s != actor]
        self.rng.shuffle(others)
        for s in others:
            if not game.unannounced or game.phase != "play":
                return
            action = self._decide(s)
            if action is not None:
                self._take(game.apply(action_from_dict(action, s)))

    def _decide(self, seat: int) -> LegalAction | None:
        """``seat``'s choice from its own view (the expert: and the hand's events it saw)."""
        game = self.game
        v = view(game, seat)
        level = self.levels[seat]
        if level != _EXPERT:
            return policy(level)(seat_view(v), self.rng)
        events = events_for(self.hand_events, seat)
        start, cpu = time.perf_counter(), time.thread_time()
        choice = self.search.decide(v, events, self.rng.getrandbits(64))
        spent, cpu = time.perf_counter() - start, time.thread_time() - cpu
        if choice is not None and v["to_act"] == seat and is_turn_action(choice):
            self.result.searches += 1
            self.result.search_seconds += spent
            self.result.search_times.append(spent)
            self.result.search_cpu.append(cpu)
            if self.result.blunders.note(game, seat, as_dict(choice)):
                self.result.blunders.wild_played += 1
                if self._no_gain(v, events, as_dict(choice)):
                    self.result.blunders.wild += 1
        return choice

    def _no_gain(self, v: dict[str, Any], events: list[dict[str, Any]], wild: ActionDict) -> bool:
        """Whether a search of four times the budget finds a plain card of the suit in
        force scoring no worse than ``wild`` (the blunder check's "nothing gained")."""
        deep = Search(self.search.budget * 4, min_worlds=48)
        judged = deep.judge(v, events, self.rng.getrandbits(64)).ranked
        suit = v["suit"]
        wild_mean = next(j.mean for j in judged if j.action is wild)
        plain = [
            j.mean
            for j in judged
            if "play" in j.action
            and j.action["play"][0] not in "892"
            and j.action["play"][1] == suit
        ]
        return bool(plain) and min(plain) <= wild_mean


def play_game_on(
    seed: int,
    levels: Sequence[str],
    rules: Rules | None = None,
    budget: int = DEFAULT_BUDGET,
    rng_seed: int = 0,
) -> GameResult:
    """One game on deal ``seed`` with seat ``s`` at ``levels[s]``."""
    search = Search(budget)
    table = _Table(levels, rules or Rules(), seed, search, random.Random(rng_seed))
    return table.run()


def play_deal(
    seed: int,
    levels: Sequence[str],
    rules: Rules | None = None,
    budget: int = DEFAULT_BUDGET,
    control: bool = True,
) -> DealResult:
    """Deal ``seed`` played once per seat with the hero (``levels[0]``) there and the
    others in order after it, and (``control``) once with every seat at ``levels[1]``."""
    n = len(levels)
    games = []
    for r in range(n):
        lineup = [levels[(s - r) % n] for s in range(n)]
        games.append(play_game_on(seed, lineup, rules, budget, seed * 31 + r))
    base = play_game_on(seed, [levels[1]] * n, rules, budget, seed * 31 + n) if control else None
    return DealResult(seed, games, base)


def summary(deals: Sequence[DealResult]) -> dict[str, Any]:
    """The figures of many deals (``scripts/duel.py`` prints them): the hero's share of
    games won (ties shared, R2), the paired points per hand against the control at
    the same seat, decisions and their times."""
    wins = 0.0
    games = 0
    diffs: list[float] = []
    searches = 0
    seconds = 0.0
    times: list[float] = []
    cpu: list[float] = []
    blunders = Blunders()
    for d in deals:
        for r, g in enumerate(d.games):
            games += 1
            if r in g.winners:
                wins += 1 / len(g.winners)
            if d.control is not None:
                for h, pts in enumerate(g.hand_points):
                    diffs.append(pts[r] - d.control.hand_points[h][r])
            searches += g.searches
            seconds += g.search_seconds
            times.extend(g.search_times)
            cpu.extend(g.search_cpu)
            blunders.add(g.blunders)
    return {
        "games": games,
        "wins": wins,
        "diffs": diffs,
        "searches": searches,
        "seconds": seconds,
        "times": times,
        "cpu": cpu,
        "blunders": blunders,
    }
