"""A fast simulator of a hand of Craits, for the expert's rollouts (RULES.md R3–R11).

:class:`Sim` plays the same rules as the engine (:class:`craits.server.engine.Game`,
the one authority at a table) on integer cards (:mod:`.cards`): a hand is a list
of codes in the engine's order, the cards that may be played are a bit set, and
an action is a small integer (:data:`DRAW`, :data:`PASS`, :func:`play_code`…).
It allocates nothing per action but the lists the rules themselves grow. It
trusts its caller: an illegal action is not refused (the search only takes
actions from :meth:`Sim.legal` or the rollout policy, which takes legal ones).

``tests/server/bots/expert/test_sim.py`` holds it to the engine: random positions under every
rules option, played move by move in both, equal states and equal legal actions
after every move. The reshuffles of the discard pile (R10) take ``rng.shuffle``
as the engine does, so the same seeded ``random.Random`` gives the same order.
"""

from __future__ import annotations

import random
from typing import Any, Self

from craits.protocol.vocab import Phase

from ...engine import Game, Rules
from ...engine.cards import full_deck
from ...engine.game import hand_size
from .card_codes import (
    ACE,
    CODE,
    COUNT_MASK,
    EIGHT,
    FIVE,
    FOUR,
    JACK,
    KING,
    MATCH,
    NINE,
    PARTNER,
    POINTS_OF,
    QUEEN,
    QUEEN_OF_SPADES,
    RANK,
    SEVEN,
    SIX,
    SUIT,
    SUIT_CODE,
    TEN,
    THREE,
    TWO,
    codes,
)

__all__ = [
    "ANNOUNCE",
    "DRAW",
    "GAME_OVER",
    "HAND_OVER",
    "IDIOT",
    "NAME_SUIT",
    "PASS",
    "PLAY",
    "Sim",
    "SimRules",
    "play_code",
    "score_hand",
]

PLAY, HAND_OVER, GAME_OVER = 0, 1, 2
"""The phases (:attr:`Sim.phase`)."""

DRAW = 1024
"""The action: draw (R4), or take the count (R6)."""
PASS = 1025
"""The action: keep the card just drawn (R4, ``play_drawn_card``)."""
NAME_SUIT = 1032
"""The action ``NAME_SUIT + suit``: the dealer names a turned-up 8's or 9's suit (R3)."""
ANNOUNCE = 1040
"""The action: say "one card" (R7)."""
IDIOT = 1048
"""The action ``IDIOT + target``: call idiot on ``target`` (R7)."""

_PHASES = {Phase.PLAY: PLAY, Phase.HAND_OVER: HAND_OVER, Phase.GAME_OVER: GAME_OVER}


def play_code(card: int, suit: int, announce: bool = False) -> int:
    """The action: play ``card`` leaving ``suit`` in force (its own, or the one an 8
    or 9 names, R5), announcing "one card" with it if ``announce`` (R7)."""
    return card | suit << 6 | (256 if announce else 0)


class _HandOver(Exception):
    """Internal: the hand ended in the middle of an action (R8, R10)."""


class SimRules:
    """The options of :class:`~craits.server.engine.Rules` the simulator reads, as plain
    attributes (RULES.md R1, R2, R4, R5, R7, R9, R11)."""

    __slots__ = (
        "bonus",
        "cts",
        "face",
        "follows",
        "hands",
        "idiot_card",
        "one_card_deal",
        "plain",
        "play_drawn",
        "seven_next",
        "strip",
        "t8",
        "tpen",
    )

    def __init__(self, rules: Rules) -> None:
        self.face = rules.face_cards
        self.play_drawn = rules.play_drawn_card
        self.seven_next = rules.seven_hits_next
        self.idiot_card = rules.idiot_card
        self.one_card_deal = rules.one_card_deal
        self.bonus = -10 if rules.going_out_bonus else 0
        self.t8 = rules.threes_cancel_eights
        self.cts = rules.cancelling_three_scores
        self.tpen = rules.three_penalty
        self.follows = rules.dealer_follows_direction
        self.hands = rules.hands
        self.strip = rules.strip_kings_queens
        faces = () if self.face else (JACK, QUEEN, KING)
        self.plain = tuple(r in (THREE, EIGHT, NINE, *faces) for r in range(13))
        """By rank: whether its play has no function under these rules (R5, R11)."""


def score_hand(cards: list[int], r: SimRules) -> int:
    """Points of the cards left in a hand of a player who did not go out (R9):
    :func:`craits.server.engine.score_cards`'s total on integer cards."""
    threes = 0
    total = 0
    values = []
    for c in cards:
        rank = RANK[c]
        if rank == THREE:
            threes += 1
            continue
        p = POINTS_OF[rank]
        total += p
        if not ((rank == EIGHT and not r.t8) or (rank == ACE and r.tpen)):
            values.append(p)
    if threes == len(cards):
        return -50 * threes
    if not threes:
        return total
    values.sort(reverse=True)
    cancelled = values[:threes]
    k = len(cancelled)
    return total - sum(cancelled) + k * r.cts + (threes - k) * (100 if r.tpen else 3)


class Sim:
    """One hand of Craits in play, on integer cards: :class:`~craits.server.engine.Game`'s
    state, the deal (R3), what may be played (R4, R6, R12) and every action
    (R4–R11), without events. One class, as ``Game`` is.

    Attributes mirror the engine's: ``hands`` (lists of codes), ``stock`` (top
    last), ``discard`` (top last), ``suit`` (0–3), ``count``, ``again``,
    ``direction``, ``turn``, ``lost_turns``, ``unannounced``, ``jacks``,
    ``king_cards``, ``pending`` (the seat, or -1), ``drawn`` (the card, or -1),
    ``scores``, ``pressure``, ``hand_penalties``, ``phase``; once the hand is
    over, ``points`` (this hand's, per seat, R9) and ``next_dealer`` (R2).
    """

    __slots__ = (
        "again",
        "count",
        "dealer",
        "direction",
        "discard",
        "drawn",
        "hand_number",
        "hand_penalties",
        "hands",
        "jacks",
        "king_cards",
        "lost_turns",
        "n",
        "next_dealer",
        "pending",
        "phase",
        "points",
        "pressure",
        "rng",
        "rules",
        "scores",
        "stock",
        "suit",
        "turn",
        "unannounced",
    )

    def __init__(self, players: int, rules: SimRules, rng: Any = None) -> None:
        """An empty table of ``players`` seats; ``rng`` shuffles the discard pile (R10).

        ``rng`` needs ``shuffle(list)`` (a ``random.Random``); without one, a new one.
        """
        self.n = players
        self.rules = rules
        self.rng = rng if rng is not None else random.Random()
        self.hand_number = 1
        self.dealer = 0
        self.direction = 1
        self.turn = 0
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.stock: list[int] = []
        self.discard: list[int] = []
        self.suit = 0
        self.count = 0
        self.again = False
        self.scores = [0] * players
        self.pressure = [0] * players
        self.hand_penalties = [0] * players
        self.lost_turns = [0] * players
        self.unannounced: list[int] = []
        self.jacks = 0
        self.king_cards = 0
        self.pending = -1
        self.drawn = -1
        self.phase = HAND_OVER
        self.points: list[int] = []
        self.next_dealer = 0

    # ----------------------------------------------------------- loading

    @classmethod
    def from_game(cls, game: Game, rng: Any = None) -> Self:
        """The simulator at ``game``'s state (every field, cards as integers)."""
        sim = cls(game.players, SimRules(game.rules), rng)
        sim.hand_number = game.hand_number
        sim.dealer = game.dealer
        sim.direction = game.direction
        sim.turn = game.turn
        sim.hands = [codes(h) for h in game.hands]
        sim.stock = codes(game.stock)
        sim.discard = codes(game.discard)
        sim.suit = SUIT_CODE[game.suit]
        sim.count = game.count
        sim.again = game.again
        sim.scores = list(game.scores)
        sim.pressure = list(game.pressure)
        sim.hand_penalties = list(game.hand_penalties)
        sim.lost_turns = list(game.lost_turns)
        sim.unannounced = list(game.unannounced)
        sim.jacks = game.jacks
        sim.king_cards = game.king_cards
        sim.pending = -1 if game.pending is None else game.pending
        sim.drawn = -1 if game.drawn is None else CODE[game.drawn]
        sim.phase = _PHASES[game.phase]
        return sim

    def copy(self) -> Self:
        """An independent copy (the rules and the shuffle source shared)."""
        o = type(self).__new__(type(self))
        o.n = self.n
        o.rules = self.rules
        o.rng = self.rng
        o.hand_number = self.hand_number
        o.dealer = self.dealer
        o.direction = self.direction
        o.turn = self.turn
        o.hands = [h[:] for h in self.hands]
        o.stock = self.stock[:]
        o.discard = self.discard[:]
        o.suit = self.suit
        o.count = self.count
        o.again = self.again
        o.scores = self.scores[:]
        o.pressure = self.pressure[:]
        o.hand_penalties = self.hand_penalties[:]
        o.lost_turns = self.lost_turns[:]
        o.unannounced = self.unannounced[:]
        o.jacks = self.jacks
        o.king_cards = self.king_cards
        o.pending = self.pending
        o.drawn = self.drawn
        o.phase = self.phase
        o.points = self.points
        o.next_dealer = self.next_dealer
        return o

    def new_deck(self) -> list[int]:
        """The full deck of this table (R1), shuffled with the shuffle source."""
        key = (self.n, self.rules.strip)
        base = _DECKS.get(key)
        if base is None:
            base = _DECKS[key] = codes(full_deck(self.n, self.rules.strip))
        deck = base[:]
        self.rng.shuffle(deck)
        return deck

    # ----------------------------------------------------------- queries

    def to_act(self) -> int:
        """The seat to act: the dealer while a suit is pending, else the turn (R3)."""
        return self.turn if self.pending < 0 else self.pending

    def allowed(self) -> int:
        """The bit set of cards the seat of the turn may play (R4, R6, R12): ``Game._allowed``."""
        allowed = COUNT_MASK if self.count else MATCH[self.suit][RANK[self.discard[-1]]]
        drawn = self.drawn
        if drawn < 0:
            return allowed
        return 1 << drawn if allowed >> drawn & 1 else 0

    def legal(self, seat: int) -> list[int]:
        """Every action ``seat`` may take, in the order of the engine's ``legal_actions``."""
        if self.phase or self.pending >= 0 or seat != self.turn:
            return self._legal_off_turn(seat)
        hand = self.hands[seat]
        allowed = COUNT_MASK if self.count else MATCH[self.suit][RANK[self.discard[-1]]]
        drawn = self.drawn
        if drawn >= 0:
            allowed = 1 << drawn if allowed >> drawn & 1 else 0
        plays = _PLAYS_ANNOUNCING if len(hand) == 2 else _PLAYS
        acts: list[int] = []
        if self.n > 5:  # two decks: a card may be held twice, and is offered once
            for c in hand:
                if allowed >> c & 1:
                    allowed &= ~(1 << c)
                    acts += plays[c]
        else:
            for c in hand:
                if allowed >> c & 1:
                    acts += plays[c]
        if drawn >= 0:
            acts.append(PASS)
        elif not acts:
            acts.append(DRAW)
        if self.unannounced:
            acts += [ANNOUNCE if t == seat else IDIOT + t for t in self.unannounced]
        return acts

    def _legal_off_turn(self, seat: int) -> list[int]:
        """:meth:`legal` with no hand in play, a suit pending, or off ``seat``'s turn."""
        if self.phase != PLAY:
            return []
        acts: list[int] = []
        if self.pending >= 0 and seat == self.pending:
            acts = [NAME_SUIT + s for s in _named(self.discard[-1])]
        for t in self.unannounced:
            acts.append(ANNOUNCE if t == seat else IDIOT + t)
        return acts

    # ------------------------------------------------------------- the deal

    def deal(self, order: list[int], dealer: int, hand_number: int) -> None:
        """Deal hand ``hand_number`` from ``dealer`` (R3): ``order`` is the whole deck,
        top first; the next card is turned up and takes effect as the dealer's.
        The running totals are kept; this hand's penalties start at 0."""
        n = self.n
        k = hand_size(hand_number)
        self.hand_number = hand_number
        self.dealer = dealer
        dealt = k * n
        first = dealer + 1
        self.hands = [order[(s - first) % n : dealt : n] for s in range(n)]
        self.stock = order[dealt + 1 :][::-1]
        turned = order[dealt]
        self.discard = [turned]
        self.suit = SUIT[turned]
        self.direction = 1
        self.turn = dealer
        self.count = 0
        self.again = False
        self.lost_turns = [0] * n
        self.hand_penalties = [0] * n
        self.unannounced = []
        self.jacks = 0
        self.king_cards = 0
        self.pending = -1
        self.drawn = -1
        self.phase = PLAY
        try:
            self._turn_up(turned)
        except _HandOver:
            self._end_hand()

    def _turn_up(self, turned: int) -> None:
        """The turned-up card takes effect as the dealer's (R3, R5, R11, R7's ``one_card_deal``)."""
        dealer = self.dealer
        rank = RANK[turned]
        if rank in (EIGHT, NINE):
            self.pending = dealer
        if rank == JACK and self.rules.face:
            self.jacks = 1
        steps = self._effect(dealer, turned, rank)
        if steps:
            self._pass_turn(dealer, steps)
        if self.rules.one_card_deal and hand_size(self.hand_number) == 1:
            self.unannounced = [s for s, h in enumerate(self.hands) if len(h) == 1]

    # ----------------------------------------------------------- actions

    def apply(self, seat: int, action: int) -> None:
        """Apply ``seat``'s ``action`` (one of :meth:`legal`'s; not checked)."""
        if action < 512:
            self.play(action & 63, action >> 6 & 3, action >= 256)
        elif action == DRAW:
            self.draw()
        elif action == PASS:
            self.pass_turn()
        elif action == ANNOUNCE:
            self.unannounced.remove(seat)
        elif action >= IDIOT:
            self.call_idiot(action - IDIOT)
        else:
            self.pending = -1
            self.suit = action - NAME_SUIT

    def play(self, card: int, suit: int, announce: bool) -> None:
        """The seat of the turn plays ``card``, leaving ``suit`` in force (R4, R5, R7)."""
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(card)
        self.discard.append(card)
        left = len(hand)
        if left == 1 and not announce:
            self.unannounced = [seat]
        elif self.unannounced:
            self.unannounced = []
        self.drawn = -1
        self.again = False
        self.suit = suit
        rank = RANK[card]
        if self.rules.plain[rank] and not (self.jacks or self.king_cards):
            # no function (3, 8, 9; J, Q, K without face_cards): the common case, inline
            if not left:
                self._end_hand()  # going out (R8)
                return
            d = self.direction
            n = self.n
            t = (seat + d) % n
            lost = self.lost_turns
            while lost[t]:
                lost[t] -= 1
                t = (t + d) % n
            self.turn = t
            return
        try:
            self._take_effect(seat, card, left)
        except _HandOver:
            self._end_hand()

    def _take_effect(self, seat: int, card: int, left: int) -> None:
        """``card``'s function (R5, R6, R11); then the turn passes, or the hand ends (R8)."""
        rank = RANK[card]
        face = self.rules.face
        if (self.jacks or self.king_cards or (rank == JACK and face)) and self._face_chain(rank):
            return
        steps = self._effect(seat, card, rank)
        if not left and (self.count or self.again or self.king_cards):
            left = -1  # not out: the count is on, or a 6 or a king obliges (R8)
        if not left:
            raise _HandOver
        if steps:
            self._pass_turn(seat, steps)

    def _face_chain(self, rank: int) -> bool:
        """R11: jacks in a row, and the cards owed after a king; True for the first two
        cards after a king (no function; the same player plays on)."""
        if self.jacks or (rank == JACK and self.rules.face):
            self.jacks = self.jacks + 1 if rank == JACK else 0
        king = self.king_cards
        if not king:
            return False
        self.king_cards = king - 1
        return king > 1

    def _effect(self, seat: int, card: int, rank: int) -> int:
        """The function of ``card`` played by ``seat`` (R5, R6, R11): seats the turn moves on."""
        if rank == TWO:
            self.count += 2
        elif rank == ACE:
            if self.count:
                self.count += 1
        elif rank == FOUR:
            return 2
        elif rank == FIVE:
            n, d = self.n, self.direction
            for i in range(1, n):
                self._draw((seat + i * d) % n, 1)
        elif rank == SIX:
            self.again = True
            return 0
        elif rank == SEVEN:
            n = self.n
            ahead = 1 if n <= 3 or self.rules.seven_next else 2
            self._draw((seat + ahead * self.direction) % n, 1)
        elif rank == TEN:
            self.direction = -self.direction
        elif rank >= JACK and self.rules.face:
            return self._face_effect(seat, card, rank)
        return 1

    def _face_effect(self, seat: int, card: int, rank: int) -> int:
        """R11: a jack (two per jack in a row), the queen of spades (five), a king (play on)."""
        if rank == KING:
            self.king_cards = 3
            return 0
        if rank == QUEEN and card != QUEEN_OF_SPADES:
            return 1
        self._draw((seat + self.direction) % self.n, 2 * self.jacks if rank == JACK else 5)
        return 2

    def _pass_turn(self, seat: int, steps: int) -> None:
        """The turn moves ``steps`` seats on; seats owing a lost turn use it up (R7, R12)."""
        d = self.direction
        n = self.n
        t = (seat + steps * d) % n
        lost = self.lost_turns
        while lost[t]:
            lost[t] -= 1
            t = (t + d) % n
        self.turn = t

    def _draw(self, seat: int, k: int) -> None:
        """``seat`` draws ``k`` cards, paying shuffle penalties as needed (R10, R12).

        Raises:
            _HandOver: nothing was left to draw; the cards drawn so far are kept.
        """
        stock = self.stock
        hand = self.hands[seat]
        if k == 1 and stock:
            hand.append(stock.pop())
            return
        if len(stock) >= k:
            for _ in range(k):
                hand.append(stock.pop())
            return
        for _ in range(k):
            if not stock:
                if len(self.discard) <= 1:
                    self._penalty(seat)
                    raise _HandOver
                pile = self.discard[:-1]
                del self.discard[:-1]
                self.rng.shuffle(pile)
                stock[:] = pile
                self._penalty(seat)
            hand.append(stock.pop())

    def _penalty(self, seat: int) -> None:
        """``seat`` pays a shuffle penalty: 5 × 2^(penalties paid before) (R10)."""
        penalty = 5 << self.pressure[seat]
        self.pressure[seat] += 1
        self.scores[seat] += penalty
        self.hand_penalties[seat] += penalty

    def draw(self) -> None:
        """The seat of the turn draws for want of a play (R4), or takes the count (R6)."""
        seat = self.turn
        if self.unannounced:
            self.unannounced = []
        try:
            if self.count:
                count = self.count
                self.count = 0
                self._draw(seat, count)
                if not all(self.hands):
                    raise _HandOver  # the count ended: players with no cards are out (R6)
                self._pass_turn(seat, 1)
                return
            hand = self.hands[seat]
            if self.stock:
                card = self.stock.pop()
                hand.append(card)
            else:
                self._draw(seat, 1)
                card = hand[-1]
            if self.rules.play_drawn and MATCH[self.suit][RANK[self.discard[-1]]] >> card & 1:
                self.drawn = card  # the count is off: what may be played is MATCH's
                return
            self.again = False
            self.king_cards = 0
            self._pass_turn(seat, 1)
        except _HandOver:
            self._end_hand()

    def pass_turn(self) -> None:
        """Keep the card just drawn and end the turn (R4, ``play_drawn_card``)."""
        self.drawn = -1
        self.again = False
        self.king_cards = 0
        self._pass_turn(self.turn, 1)

    def call_idiot(self, target: int) -> None:
        """Idiot called on ``target``: it draws two and loses a turn, or draws one with
        ``idiot_card`` (R7)."""
        self.unannounced.remove(target)
        try:
            if self.rules.idiot_card:
                self._draw(target, 1)
            else:
                self.lost_turns[target] += 1
                self._draw(target, 2)
        except _HandOver:
            self._end_hand()

    def _end_hand(self) -> None:
        """Score the hand (R9), add it to the totals, settle the next dealer (R2)."""
        r = self.rules
        points = [score_hand(h, r) if h else r.bonus for h in self.hands]
        self.points = points
        scores = self.scores
        for s in range(self.n):
            scores[s] += points[s]
        self.pending = -1
        self.drawn = -1
        self.unannounced = []
        self.phase = GAME_OVER if self.hand_number >= r.hands else HAND_OVER
        self.next_dealer = (self.dealer + (self.direction if r.follows else 1)) % self.n


_NAMED: tuple[tuple[int, ...], ...] = tuple(
    (0, 1, 2, 3)
    if RANK[c] == EIGHT
    else (SUIT[c], PARTNER[SUIT[c]])
    if RANK[c] == NINE
    else (SUIT[c],)
    for c in range(52)
)


def _named(card: int) -> tuple[int, ...]:
    """The suits a play of ``card`` may leave in force: any for an 8, its own or its
    colour partner for a 9, its own for any other card (R5, R12)."""
    return _NAMED[card]


_DECKS: dict[tuple[int, bool], list[int]] = {}
"""The full deck (R1) by players and ``strip_kings_queens``, as integers (made once)."""

_PLAYS: tuple[tuple[int, ...], ...] = tuple(tuple(c | s << 6 for s in _NAMED[c]) for c in range(52))
"""The plays of each card: one per suit it may leave in force (the engine's order)."""
_PLAYS_ANNOUNCING: tuple[tuple[int, ...], ...] = tuple(
    tuple(a for s in _NAMED[c] for a in (c | s << 6, c | s << 6 | 256)) for c in range(52)
)
"""The same, each without then with "one card" (a play that leaves one card, R7)."""
