"""The basic bot's choices on the fast simulator: the expert's rollout policy and prior.

:func:`basic_action` is :func:`craits.server.bots.basic_policy` (the ``basic``
level) computed on a :class:`~.sim.Sim` for one seat, term for term (the same
scores, the same order of candidates, the same ties), without building a
view: ``tests/server/bots/expert/test_expert.py`` holds the two equal on random positions
under every rules option. It reads only what the seat's view holds (its own
hand, hand sizes, the top card, the suit in force, the count, jacks, the stock's
size, each seat's next shuffle penalty), so in a sampled world it plays as the
seat's basic bot would.

:func:`rollout` plays a hand to its end with every seat on :func:`basic_action`.
"""

from __future__ import annotations

from collections.abc import Callable

from .card_codes import (
    ACE,
    EIGHT,
    FIVE,
    FOUR,
    JACK,
    KING,
    NINE,
    PARTNER,
    POINTS_OF,
    QUEEN,
    QUEEN_OF_SPADES,
    RANK,
    SEVEN,
    SIX,
    SUIT,
    TEN,
    THREE,
    TWO,
)
from .sim import ANNOUNCE, DRAW, IDIOT, NAME_SUIT, PASS, PLAY, Sim

__all__ = ["NO_ACTION", "basic_action", "rollout"]

NO_ACTION = -1
""":func:`basic_action`'s answer when the seat does nothing now."""

_ALL_SUITS = (0, 1, 2, 3)
_WILD = tuple(RANK[c] in (EIGHT, NINE) for c in range(52))
_KEEP = tuple(-15.0 if r == THREE else -3.0 if r == ACE else float(POINTS_OF[r]) for r in range(13))


def _best_suit(cards: list[int], allowed: tuple[int, ...], default: int) -> int:
    """The suit of ``allowed`` that ``cards`` hold most of (non-wild cards), ties to the
    one holding more points, then ``default``, then ``allowed``'s order
    (:func:`craits.server.bots.cards.best_suit`)."""
    k = [0, 0, 0, 0]
    p = [0, 0, 0, 0]
    for c in cards:
        if not _WILD[c]:
            s = SUIT[c]
            k[s] += 1
            p[s] += POINTS_OF[RANK[c]]
    best = max((k[s], p[s]) for s in allowed)
    tied = [s for s in allowed if (k[s], p[s]) == best]
    return default if default in tied else tied[0]


def _follow_ups(cards: list[int], suit: int, rank: int) -> int:
    """How many of ``cards`` (wilds left out) could be played on ``rank`` in ``suit`` (R4)."""
    n = 0
    for c in cards:
        if not _WILD[c] and (SUIT[c] == suit or RANK[c] == rank):
            n += 1
    return n


class _Seat:
    """What the basic bot reads off its seat's view, from the simulator
    (:class:`craits.server.bots.weighing.Situation`)."""

    __slots__ = ("seat", "sim", "sizes")

    def __init__(self, sim: Sim, seat: int) -> None:
        self.sim = sim
        self.seat = seat
        self.sizes = [len(h) for h in sim.hands]

    def at(self, steps: int) -> int:
        """The seat ``steps`` on from this one in the direction of play."""
        sim = self.sim
        return (self.seat + steps * sim.direction) % sim.n

    def close(self, seat: int) -> bool:
        """Whether ``seat`` holds two cards or fewer (R8)."""
        return self.sizes[seat] <= 2

    def pays(self, victim: int, before: int, cards: int) -> float:
        """Half of ``victim``'s next shuffle penalty if its draw empties the stock (R10)."""
        sim = self.sim
        if before <= len(sim.stock) < before + cards:
            return (5 << sim.pressure[victim]) / 2
        return 0.0

    def harm(self, card: int, suit: int, rest: list[int]) -> float:
        """:func:`craits.server.bots.weighing.harm_term`: the harm ``card``'s function
        does (one method per function, :data:`_HARMS`; none for A, 3, 8, 9, nor for
        the face cards without ``face_cards``)."""
        term = _HARMS[RANK[card]]
        return term(self, card, suit, rest) if term is not None else 0.0

    def two_harm(self, card: int, suit: int, rest: list[int]) -> float:
        """A 2 starts the count on the next seat (R8)."""
        counters = sum(1 for c in rest if RANK[c] in (ACE, TWO))
        score = 15 + (10 if self.close(self.at(1)) else 0) + (8 if counters else -5)
        return score + self.pays(self.at(1), 0, 2) / 2

    def four_harm(self, card: int, suit: int, rest: list[int]) -> float:
        """A 4 skips the next seat (R9)."""
        score = 12 + (20 if self.close(self.at(1)) else 0)
        if self.sim.n == 2:
            score += 10 if _follow_ups(rest, suit, FOUR) else -10
        return score

    def five_harm(self, card: int, suit: int, rest: list[int]) -> float:
        """A 5: every other seat draws one (R9)."""
        n = self.sim.n
        near = any(self.close(s) for s in range(n) if s != self.seat)
        score = 8 * (n - 1) + (10 if near else 0)
        return score + sum(self.pays(self.at(i), i - 1, 1) for i in range(1, n))

    def six_harm(self, card: int, suit: int, rest: list[int]) -> float:
        """A 6 must be covered by its player (R9)."""
        return 25 if _follow_ups(rest, suit, SIX) else -30

    def seven_harm(self, card: int, suit: int, rest: list[int]) -> float:
        """A 7: a seat draws one (R9; the next, or the one after with more than three)."""
        sim = self.sim
        victim = self.at(1) if sim.n <= 3 or sim.rules.seven_next else self.at(2)
        return 10 + (15 if self.close(victim) else 0) + self.pays(victim, 0, 1)

    def ten_harm(self, card: int, suit: int, rest: list[int]) -> float:
        """A 10 reverses the direction of play (R9)."""
        nxt, prev = self.at(1), self.at(-1)
        if self.sim.n > 2 and self.close(nxt) and self.sizes[prev] > self.sizes[nxt]:
            return 15
        return 0

    def face_harm(self, card: int, suit: int, rest: list[int]) -> float:
        """The harm terms of J, Q♠ and K under ``face_cards`` (R11)."""
        rank = RANK[card]
        nxt = self.at(1)
        if rank == JACK:
            drawn = 2 * (self.sim.jacks + 1)
            return 20 + (15 if self.close(nxt) else 0) + self.pays(nxt, 0, drawn)
        if rank == QUEEN:
            return 0 if card != QUEEN_OF_SPADES else 40 + self.pays(nxt, 0, 5)
        return 10 if _follow_ups(rest, suit, KING) >= 2 else -25

    def face_harm_if_played(self, card: int, suit: int, rest: list[int]) -> float:
        """:meth:`face_harm` under ``face_cards``; none without."""
        return self.face_harm(card, suit, rest) if self.sim.rules.face else 0.0

    def score(self, card: int, suit: int, rest: list[int]) -> float:
        """:func:`craits.server.bots.weighing.play_score` of playing ``card``."""
        if self.sim.count:
            return _KEEP[RANK[card]]
        rank = RANK[card]
        if not rest:
            return -500.0 if rank == SIX or (rank == KING and self.sim.rules.face) else 1000.0
        follow = _follow_ups(rest, suit, rank)
        cont = 4 * min(follow, 4)
        if follow == 0 and not any(_WILD[c] for c in rest):
            cont -= 6
        last = 0
        if len(rest) == 1:
            c = rest[0]
            if _WILD[c]:
                last += 20
            elif SUIT[c] == suit or RANK[c] == rank:
                last += 12
            if RANK[c] == SIX:
                last -= 10
        return _KEEP[rank] + self.harm(card, suit, rest) + cont + last


_Harm = Callable[[_Seat, int, int, list[int]], float]
_HARMS: tuple[_Harm | None, ...] = tuple(
    {
        TWO: _Seat.two_harm,
        FOUR: _Seat.four_harm,
        FIVE: _Seat.five_harm,
        SIX: _Seat.six_harm,
        SEVEN: _Seat.seven_harm,
        TEN: _Seat.ten_harm,
        JACK: _Seat.face_harm_if_played,
        QUEEN: _Seat.face_harm_if_played,
        KING: _Seat.face_harm_if_played,
    }.get(rank)
    for rank in range(13)
)
"""The harm term of each rank (:meth:`_Seat.harm`), None where its function does none."""


def _suit_for(card: int, rest: list[int]) -> int:
    """The suit a play of ``card`` leaves in force: for a wild, the one ``rest`` holds
    most of among those it may name (:func:`craits.server.bots.cards.suit_to_name`)."""
    rank = RANK[card]
    suit = SUIT[card]
    if rank == EIGHT:
        return _best_suit(rest, _ALL_SUITS, suit)
    if rank == NINE:
        return _best_suit(rest, (suit, PARTNER[suit]), suit)
    return suit


def _endgame(sim: Sim, seat: int) -> bool:
    """An opponent is down to one card or none (:func:`craits.server.bots.basic.endgame`)."""
    for s, h in enumerate(sim.hands):  # noqa: SIM110 - a loop costs half any() and a generator
        if len(h) <= 1 and s != seat:
            return True
    return False


def _choose_play(sim: Sim, seat: int, allowed: int) -> int:
    """The basic bot's play among the cards ``allowed`` (a bit set) of ``seat``'s hand."""
    hand = sim.hands[seat]
    late = _endgame(sim, seat)
    cards: list[int] = []
    seen = 0
    for c in hand:
        if allowed >> c & 1 and not seen >> c & 1:
            seen |= 1 << c
            cards.append(c)
    if not sim.count and not late:
        plain = [c for c in cards if not _WILD[c]]
        if plain:
            cards = plain
    announce = 256 if len(hand) == 2 else 0
    if len(cards) == 1:  # no choice of card: only the suit a wild names
        card = cards[0]
        if not _WILD[card]:
            return card | SUIT[card] << 6 | announce
        rest = hand[:]
        rest.remove(card)
        return card | _suit_for(card, rest) << 6 | announce
    t = _Seat(sim, seat)
    best = -1e18
    choice = cards[0]
    choice_suit = SUIT[choice]
    for card in cards:
        rest = hand[:]
        rest.remove(card)
        suit = _suit_for(card, rest)
        score = t.score(card, suit, rest)
        if _WILD[card] and not late:
            score -= 2 * POINTS_OF[RANK[card]]
        if score > best:
            best, choice, choice_suit = score, card, suit
    return choice | choice_suit << 6 | announce


def _keeps_drawn(sim: Sim, seat: int, card: int) -> bool:
    """Keep the card just drawn (:func:`craits.server.bots.basic._keeps_drawn_card`)."""
    if _WILD[card]:
        return not _endgame(sim, seat)
    if RANK[card] != SIX:
        return False
    rest = sim.hands[seat][:]
    rest.remove(card)
    return not _follow_ups(rest, SUIT[card], SIX)


def basic_action(sim: Sim, seat: int) -> int:
    """The action the ``basic`` level takes now at ``seat``
    (:func:`craits.server.bots.basic_policy`), as one of ``sim.legal(seat)``;
    :data:`NO_ACTION` when it does nothing."""
    if sim.phase != PLAY:
        return NO_ACTION
    unannounced = sim.unannounced
    if unannounced:
        if seat in unannounced:
            return ANNOUNCE
        for t in unannounced:
            return IDIOT + t
    if seat != sim.to_act():
        return NO_ACTION
    if sim.pending >= 0:
        top = sim.discard[-1]
        suit = SUIT[top]
        named = _ALL_SUITS if RANK[top] == EIGHT else (suit, PARTNER[suit])
        return NAME_SUIT + _best_suit(sim.hands[seat], named, suit)
    allowed = sim.allowed()
    drawn = sim.drawn
    if drawn >= 0:
        if _keeps_drawn(sim, seat, drawn):
            return PASS
        return _choose_play(sim, seat, allowed)
    hand = sim.hands[seat]
    for c in hand:
        if allowed >> c & 1:
            return _choose_play(sim, seat, allowed)
    return DRAW


def rollout(sim: Sim, limit: int = 5000) -> int:
    """Play ``sim``'s hand to its end, every seat choosing with :func:`basic_action`
    (the seat to act takes any "one card" call first, R7); at most ``limit`` actions.

    Returns:
        The number of actions played.
    """
    apply = sim.apply
    for i in range(limit):
        if sim.phase != PLAY:
            return i
        seat = sim.turn if sim.pending < 0 else sim.pending
        apply(seat, basic_action(sim, seat))
    return limit
