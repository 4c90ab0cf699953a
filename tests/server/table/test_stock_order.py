"""Which end of a recorded order the stock is drawn from (``docs/records.md``, "The log").

A deal's ``order`` is dealt from ``order[0]``; after the turned-up card
``order[k·n]`` the rest is the stock, drawn **in ``order``'s own order**:
``order[k·n + 1]`` first, the last card of ``order`` last. A reshuffle's
``order`` is drawn the other way: its **last** card first. These tests hold the
engine to what the document says, over games played with the server's own
recording shuffle source, and so to what a record's reader may rely on.
"""

from __future__ import annotations

import random
from collections import deque

from craits.server.engine import Game, Rules, hand_size
from craits.server.engine.events import Cut, Drew
from craits.server.table.fairness import RecordingShuffle


class StockWatch:
    """The cards the documented reading of the orders says the stock gives, in turn."""

    def __init__(self) -> None:
        self.queue: deque[str] = deque()
        self.drawn_after_reshuffle = 0
        self.reshuffled = False

    def deal(self, order: list[str], players: int, hand_number: int) -> None:
        """A deal: its stock is ``order`` after the dealt cards and the turned-up one."""
        dealt = hand_size(hand_number) * players
        self.queue = deque(order[dealt + 1 :])
        self.reshuffled = False

    def reshuffle(self, order: list[str]) -> None:
        """A reshuffle (R10): only made when the stock is empty; last card first."""
        assert not self.queue
        self.queue.extend(reversed(order))
        self.reshuffled = True

    def check(self, events: list[object]) -> None:
        """Every card drawn is the next the documented reading gives."""
        for e in events:
            if type(e) is Drew and e.cards:
                for card in e.cards:
                    assert self.queue, "a card drawn from an empty stock"
                    assert card == self.queue.popleft()
                    self.drawn_after_reshuffle += self.reshuffled


def play_game(seed: int, players: int, watch: StockWatch) -> None:
    """One game of random legal moves (no idiot calls), each draw checked."""
    rng = random.Random(seed)
    source = RecordingShuffle(random.Random(seed))
    game, events = Game.start(players, Rules(short_game=True), source)
    shuffles = [s["order"] for s in source.take()]
    cut = next(e for e in events if type(e) is Cut)
    watch.deal(shuffles[len(cut.rounds)], players, game.hand_number)
    for order in shuffles[len(cut.rounds) + 1 :]:
        watch.reshuffle(order)
    watch.check(events)
    while game.phase != "game_over":
        if game.phase == "hand_over":
            events = game.next_hand()
            deal, *more = [s["order"] for s in source.take()]
            watch.deal(deal, players, game.hand_number)
        else:
            actions = [a for a in game.legal_actions() if type(a).__name__ != "CallIdiot"]
            events = game.apply(rng.choice(actions))
            more = [s["order"] for s in source.take()]
        for order in more:
            watch.reshuffle(order)
        watch.check(events)


def test_the_stock_is_drawn_in_the_deal_orders_order_and_a_reshuffle_last_card_first() -> None:
    watch = StockWatch()
    seed = 0
    # random play draws a lot: a few games reach reshuffles, and cards drawn after them
    while watch.drawn_after_reshuffle < 50 and seed < 200:
        play_game(seed, 2 + seed % 5, watch)
        seed += 1
    assert watch.drawn_after_reshuffle >= 50, "no game drew from a reshuffled stock"
