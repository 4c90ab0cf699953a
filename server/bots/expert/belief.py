"""What a seat knows of the hidden cards, and worlds sampled consistently with it.

The expert sees what a person at its seat sees: its view (protocol §8) and the
hand's events as they were shown to it (:func:`craits.server.engine.events_for`:
its own draws with their cards, other seats' draws as counts). From them
:class:`Belief` keeps:

- the cards whose place is known: its own hand, the discard pile (the
  turned-up card and every card played since the last reshuffle, R10);
- the unseen cards: the deck (R1) less those; they are in the other hands and
  the stock, whose sizes the view gives;
- for each other seat, one *slot* per card it holds, each with the set of cards
  it cannot be (a bit set). A seat that drew for want of a play (R4; after a 6
  or a king too) held no card that could be played then: every card it held
  then is marked as none of those; a seat that took the count (R6) held no
  ace and no two. A card drawn later is a fresh slot, free of them. A card the
  seat plays leaves by the most constrained slot that may be it (the weakest
  assumption about the rest). After a reshuffle of the discard pile (R10) the
  cards the other seats held then are among the cards unseen at that moment.

:meth:`Belief.sample` deals the unseen cards into the slots (the most
constrained first, each a uniform choice among the cards it may be) and the
stock, and returns a :class:`~.sim.Sim` of that world. When the events do not
account for the view (the hand's log was cut short, or does not start at the
deal), the constraints are dropped and the unseen cards are all but the seat's
own hand and the top card, the rest of the discard pile drawn from them too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine import Rules
from ...engine.cards import full_deck
from .card_codes import ALL, CODE, COUNT_MASK, MATCH, RANK, SUIT, SUIT_CODE, codes
from .sim import PLAY, Sim, SimRules

__all__ = ["Belief"]

_WANT = frozenset({"turn", "six", "king"})
"""Draw reasons that show the drawer had nothing to play (R4, R5's 6, R11's king)."""


class Belief:
    """A seat's knowledge of the hand in play, from its view and the events it saw.

    Attributes:
        seat: the seat whose knowledge it is.
        view: the seat's view (protocol §8).
        consistent: whether the events account for the view (own hand, discard
            pile size, each seat's hand size); if not, only the view is used.
        slots: per seat, the bit sets of cards each of its hidden cards cannot be
            (oldest first); empty for the seat itself.
        discard: the discard pile as the events built it, top last.
        unseen: the cards that may be in other hands or the stock (a list, with
            duplicates for two decks).
    """

    def __init__(self, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> None:
        """Read ``view`` (the seat's, not a spectator's) and the hand's ``events`` as the
        seat saw them, in wire form (protocol §9), oldest first.

        Raises:
            ValueError: a spectator's view.
        """
        seat = view.get("seat")
        if seat is None:
            raise ValueError("a spectator's view: no seat to decide for")
        self.seat: int = seat
        self.view = view
        self.rules = Rules.from_dict(view.get("rules") or {})
        n: int = view["players"]
        self.slots: list[list[int]] = [[] for _ in range(n)]
        self.discard: list[int] = []
        self._own: Counter[int] = Counter()
        self._suit = 0
        self._count = 0
        self._dealt = False
        for e in events:
            self._take(e)
        self.consistent = self._accounts_for_view()
        deck = Counter(codes(full_deck(n, self.rules.strip_kings_queens)))
        hand = codes(view["hand"] or [])
        if self.consistent:
            deck.subtract(Counter(hand))
            deck.subtract(Counter(self.discard))
        else:
            self.slots = [[0] * k if s != seat else [] for s, k in enumerate(view["hand_sizes"])]
            top = view.get("top")
            self.discard = [CODE[top]] if top else []
            deck.subtract(Counter(hand))
            deck.subtract(Counter(self.discard))
        self.unseen: list[int] = sorted(deck.elements())
        self._slot_order: list[tuple[int, int]] | None = None

    # ------------------------------------------------------------ events

    def _take(self, e: Mapping[str, Any]) -> None:
        """Follow one event (wire form)."""
        kind = e.get("event")
        if kind == "dealt":
            self._deal(e)
        elif kind == "turned_up":
            card = CODE[e["card"]]
            self.discard = [card]
            self._suit = SUIT[card]
            self._count = 0
        elif kind == "played":
            self._played(e["seat"], CODE[e["card"]], SUIT_CODE[e["suit"]])
        elif kind == "suit_named":
            self._suit = SUIT_CODE[e["suit"]]
        elif kind == "count":
            self._count = e["count"]
        elif kind == "drew":
            self._drew(e)
        elif kind == "shuffle_penalty" and len(self.discard) > 1:
            self._reshuffled()

    def _deal(self, e: Mapping[str, Any]) -> None:
        """A new hand: own cards, and a free slot per card of every other seat (R3)."""
        self._dealt = True
        self.discard = []
        self._count = 0
        k = e["hand_size"]
        self.slots = [[] if s == self.seat else [0] * k for s in range(len(self.slots))]
        own = (e.get("hands") or [])[self.seat] if self.seat < len(e.get("hands") or []) else None
        self._own = Counter(codes(own or []))

    def _played(self, seat: int, card: int, suit: int) -> None:
        """A card played: on the pile; out of its player's hand (R4)."""
        self.discard.append(card)
        self._suit = suit
        if seat == self.seat:
            self._own[card] -= 1
            return
        slots = self.slots[seat]
        for i, cannot in enumerate(slots):
            if not cannot >> card & 1:
                del slots[i]
                return
        if slots:
            slots.pop()  # the events contradict the marks: forget the newest

    def _drew(self, e: Mapping[str, Any]) -> None:
        """A draw: for want of a play, the drawer held nothing playable (R4, R6)."""
        seat = e["seat"]
        if seat == self.seat:
            self._own.update(codes(e.get("cards") or []))
            return
        reason = e.get("reason")
        slots = self.slots[seat]
        mark = 0
        if reason == "count":
            mark = COUNT_MASK
        elif reason in _WANT and self.discard:
            mark = MATCH[self._suit][RANK[self.discard[-1]]]
        if mark:
            for i in range(len(slots)):
                slots[i] |= mark
        slots.extend([0] * e["n"])

    def _reshuffled(self) -> None:
        """R10: the pile under the top card became the stock; the other seats' cards were
        all among the cards unseen then (the stock was empty)."""
        n = len(self.slots)
        deck = Counter(codes(full_deck(n, self.rules.strip_kings_queens)))
        deck.subtract(self._own)
        deck.subtract(Counter(self.discard))
        may = 0
        for c, k in deck.items():
            if k > 0:
                may |= 1 << c
        cannot = ALL & ~may
        for s in range(n):
            self.slots[s] = [m | cannot for m in self.slots[s]]
        self.discard = self.discard[-1:]

    def _accounts_for_view(self) -> bool:
        """Whether the events explain the view: own hand, pile size, every hand's size."""
        v = self.view
        if not self._dealt or v.get("phase") != "play":
            return False
        own = +self._own
        if own != Counter(codes(v["hand"] or [])):
            return False
        if len(self.discard) != v.get("discard_size") or not self.discard:
            return False
        if self.discard[-1] != CODE.get(v.get("top") or "", -1):
            return False
        sizes = v["hand_sizes"]
        return all(len(self.slots[s]) == sizes[s] for s in range(len(sizes)) if s != self.seat)

    # ---------------------------------------------------------- sampling

    def _order(self) -> list[tuple[int, int]]:
        """Every hidden slot as ``(cannot, seat)``, those with the fewest unseen cards
        they may be first (computed once per belief)."""
        order = self._slot_order
        if order is None:
            pool = self.unseen
            slots = [(cannot, s) for s in range(len(self.slots)) for cannot in self.slots[s]]
            order = sorted(slots, key=lambda x: sum(1 for c in pool if not x[0] >> c & 1))
            self._slot_order = order
        return order

    def _deal_slots(self, rng: random.Random, tries: int) -> tuple[list[list[int]], list[int]]:
        """The other hands dealt from the unseen cards, each slot a uniform choice among
        those it may be; a deal that gets stuck starts again (``tries`` times), then
        lets a stuck slot take any card. Returns the hands and the cards left."""
        n = len(self.slots)
        order = self._order()
        for attempt in range(tries + 1):
            pool = self.unseen[:]
            rng.shuffle(pool)
            hands: list[list[int]] = [[] for _ in range(n)]
            stuck = False
            for cannot, s in order:
                pick = -1
                if cannot:
                    for i, c in enumerate(pool):
                        if not cannot >> c & 1:
                            pick = i
                            break
                    if pick < 0:
                        stuck = True
                        if attempt < tries:
                            break
                        pick = 0
                else:
                    pick = len(pool) - 1
                hands[s].append(pool[pick])
                pool[pick] = pool[-1]
                pool.pop()
            if not stuck:
                break
        return hands, pool

    def sample(self, rng: random.Random) -> Sim:
        """One world consistent with the seat's knowledge: the other hands and the stock
        dealt from the unseen cards, the rest of the state from the view."""
        hands, pool = self._deal_slots(rng, 20)
        v = self.view
        stock_size = min(v.get("stock_size", 0), len(pool))
        stock = pool[:stock_size]
        under = pool[stock_size:]
        hands[self.seat] = codes(v["hand"] or [])
        return self._world(hands, stock, under + self.discard if self.consistent else under)

    def _world(self, hands: list[list[int]], stock: list[int], discard: list[int]) -> Sim:
        """The simulator at the view's state with these cards."""
        v = self.view
        n = len(hands)
        sim = Sim(n, SimRules(self.rules))
        sim.hand_number = v["hand_number"]
        sim.dealer = v["dealer"]
        sim.direction = v["direction"]
        sim.turn = v["turn"]
        sim.hands = hands
        sim.stock = stock
        top = v.get("top")
        if not self.consistent and top:
            discard = [*discard, CODE[top]]
        sim.discard = discard
        sim.suit = SUIT_CODE[v["suit"]]
        sim.count = v["count"]
        sim.again = v["again"]
        sim.scores = list(v["scores"])
        sim.pressure = list(v["pressure"])
        sim.hand_penalties = [0] * n
        sim.lost_turns = list(v["lost_turns"])
        sim.unannounced = list(v["unannounced"])
        sim.jacks = v.get("jacks", 0)
        sim.king_cards = v.get("king_cards", 0)
        pending = v.get("pending")
        sim.pending = -1 if pending is None else pending
        drawn = v.get("drawn")
        sim.drawn = -1 if drawn is None else CODE[drawn]
        sim.phase = PLAY
        return sim
