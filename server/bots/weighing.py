"""How the basic bot weighs a candidate play: one term per concern, each citing its rule.

:func:`play_score` adds up, for a card the bot could play now:

- :func:`keep_value`: the points it sheds (R9), less for cards worth keeping;
- the harm the card's function does (R5; R11 with ``face_cards``), one term
  per rank (:func:`two_term`, :func:`four_term`, … :func:`king_term`), with
  the shuffle penalty (R10) a victim may pay to draw (:meth:`Situation.pays`);
- :func:`continuity_term`: how many of the cards kept could follow it (R4);
- :func:`last_card_term`: what the last card kept is worth (R7, R8).

During the count (R6) only the points count; a play of the last card is
going out (R8), unless the card forbids it (:func:`going_out_value`).

Every term is a whole number or a sum of halves and quarters of shuffle
penalties, so the score is exact whatever the order of the sum: the bot's
choices depend on the terms only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from craits.protocol.types import View

from ..engine.cards import POINTS
from .card_sense import COUNT_RANKS, WILD_RANKS, follow_ups
from .view import own_seat

__all__ = [
    "Situation",
    "continuity_term",
    "five_term",
    "four_term",
    "going_out_value",
    "jack_term",
    "keep_value",
    "king_term",
    "last_card_term",
    "play_score",
    "queen_of_spades_term",
    "seven_term",
    "six_term",
    "ten_term",
    "two_term",
]

_NO_STOCK_SEEN = 1 << 30
"""The stock size assumed when a view does not give it: no draw empties it."""


@dataclass(slots=True)
class Situation:
    """What the basic bot reads off its view to weigh a play: who sits where, and the stakes.

    Built once per decision (:meth:`of`), shared by every candidate card.

    Attributes:
        players: seats in the game.
        seat: the bot's seat.
        direction: 1 clockwise, -1 counter-clockwise (R5, the 10).
        hand_sizes: cards held, by seat.
        count: the count in progress (R6), 0 for none.
        face_cards: whether J, Q♠ and K act (R11).
        seven_hits_next: whether a 7 always hits the next player (R5).
        jacks: jacks in a row on the discard pile (R11).
        stock_size: cards in the stock (R10).
        next_penalty: each seat's next shuffle penalty, in points (R10).
    """

    players: int
    seat: int
    direction: int
    hand_sizes: Sequence[int]
    count: int
    face_cards: bool
    seven_hits_next: bool
    jacks: int
    stock_size: int
    next_penalty: Sequence[int]

    @classmethod
    def of(cls, v: View) -> Situation:
        """The situation of the seat whose view is ``v``.

        Raises:
            ValueError: a spectator's view.
        """
        n = v["players"]
        rules = v.get("rules", {})
        return cls(
            players=n,
            seat=own_seat(v),
            direction=v["direction"],
            hand_sizes=v["hand_sizes"],
            count=v["count"],
            face_cards=bool(rules.get("face_cards")),
            seven_hits_next=bool(rules.get("seven_hits_next")),
            jacks=v.get("jacks", 0),
            stock_size=v.get("stock_size", _NO_STOCK_SEEN),
            next_penalty=v.get("next_penalty") or [0] * n,
        )

    def seat_at(self, steps: int) -> int:
        """The seat ``steps`` seats on from the bot's in the direction of play
        (1: the next player, 2: the player after next, -1: the previous one)."""
        return (self.seat + steps * self.direction) % self.players

    def close_to_out(self, seat: int) -> bool:
        """Whether ``seat`` holds two cards or fewer: it may go out soon (R8)."""
        return self.hand_sizes[seat] <= 2

    def pays(self, victim: int, drawn_before: int, cards: int) -> float:
        """Half the shuffle penalty (R10) of ``victim`` if, drawing ``cards`` after
        ``drawn_before`` cards others drew first, it is the one to empty the stock."""
        if drawn_before <= self.stock_size < drawn_before + cards:
            return self.next_penalty[victim] / 2
        return 0.0


Term = Callable[[Situation, str, str, Sequence[str]], float]
"""A harm term: (situation, card, suit in force after it, cards kept) → points."""


# ------------------------------------------------------------------ the card


def keep_value(card: str) -> float:
    """What shedding ``card`` is worth: its points (R9), except that threes
    (which cancel a card at scoring, R9) and aces (which follow the count, R6,
    and score 1) are worth keeping."""
    rank = card[0]
    if rank == "3":
        return -15.0
    if rank == "A":
        return -3.0
    return float(POINTS[rank])


def going_out_value(card: str, face_cards: bool) -> float:
    """Playing the last card: going out (R8) is the best play there is — but not
    on a 6, which makes its player play again (R5), nor on a king with
    ``face_cards``, which makes its player play on (R11)."""
    rank = card[0]
    if rank == "6" or (face_cards and rank == "K"):
        return -500.0
    return 1000.0


# ------------------------------------------------------------ harm, by rank


def two_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """A 2 starts the count (R6): worth more against a next player close to going
    out, and with an ace or a 2 kept to follow it; a quarter of the next player's
    shuffle penalty if the count's two cards would empty the stock (R10) — only
    if they cannot follow the count."""
    counters = sum(1 for c in rest if c[0] in COUNT_RANKS)
    score = 15 + (10 if t.close_to_out(t.seat_at(1)) else 0) + (8 if counters else -5)
    return score + t.pays(t.seat_at(1), 0, 2) / 2


def four_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """A 4 skips the next player (R5), the more welcome if they are close to going
    out; with two players it means playing again, good only with a follow-up (R4)."""
    score = 12 + (20 if t.close_to_out(t.seat_at(1)) else 0)
    if t.players == 2:
        score += 10 if follow_ups(rest, suit, card[0]) else -10
    return score


def five_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """A 5 makes every other player draw one, in turn order (R5): 8 points a
    victim, more if one is close to going out, and half the shuffle penalty
    (R10) of the victim whose card would empty the stock."""
    others = range(1, t.players)
    score = 8 * (t.players - 1) + (
        10 if any(t.close_to_out(s) for s in range(t.players) if s != t.seat) else 0
    )
    return score + sum(t.pays(t.seat_at(i), i - 1, 1) for i in others)


def six_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """A 6 makes its player play again, or draw (R5): good only with a card kept
    that can follow it (R4)."""
    return 25 if follow_ups(rest, suit, card[0]) else -30


def seven_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """A 7 makes one player draw (R5): the player after next, or the next player
    with 2 or 3 players or ``seven_hits_next``; more welcome if the victim is
    close to going out, plus half its shuffle penalty (R10) if that card would
    empty the stock."""
    victim = t.seat_at(1) if t.players <= 3 or t.seven_hits_next else t.seat_at(2)
    return 10 + (15 if t.close_to_out(victim) else 0) + t.pays(victim, 0, 1)


def ten_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """A 10 reverses the direction (R5): worth it when the next player is close to
    going out and the previous one holds more cards (with three or more players)."""
    nxt, prev = t.seat_at(1), t.seat_at(-1)
    if t.players > 2 and t.close_to_out(nxt) and t.hand_sizes[prev] > t.hand_sizes[nxt]:
        return 15
    return 0


def jack_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """With ``face_cards``, a jack makes the next player draw two for each jack in
    the row and lose their turn (R11): more welcome if they are close to going
    out, plus half their shuffle penalty (R10) if that draw would empty the stock."""
    drawn = 2 * (t.jacks + 1)
    return 20 + (15 if t.close_to_out(t.seat_at(1)) else 0) + t.pays(t.seat_at(1), 0, drawn)


def queen_of_spades_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """With ``face_cards``, the queen of spades makes the next player draw five and
    lose their turn (R11), plus half their shuffle penalty (R10) if that draw would
    empty the stock. Other queens do nothing."""
    if card != "QS":
        return 0
    return 40 + t.pays(t.seat_at(1), 0, 5)


def king_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """With ``face_cards``, a king makes its player play three more cards (R11):
    good only with two cards kept that can follow it (R4)."""
    return 10 if follow_ups(rest, suit, card[0]) >= 2 else -25


_HARM: dict[str, Term] = {
    "2": two_term,
    "4": four_term,
    "5": five_term,
    "6": six_term,
    "7": seven_term,
    "T": ten_term,
}
"""The harm term of each rank with a function (R5)."""
_FACE_HARM: dict[str, Term] = {"J": jack_term, "Q": queen_of_spades_term, "K": king_term}
"""The harm term of each face rank with a function under ``face_cards`` (R11)."""


def harm_term(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """The term of ``card``'s rank (R5; R11 with ``face_cards``); 0 for a card
    without a function (A outside the count, 3, 8, 9, and J Q K without ``face_cards``)."""
    rank = card[0]
    term = _HARM.get(rank) or (_FACE_HARM.get(rank) if t.face_cards else None)
    return term(t, card, suit, rest) if term is not None else 0.0


# ------------------------------------------------------------ what is kept


def continuity_term(rest: Sequence[str], suit: str, rank: str) -> float:
    """Leave a suit in force (and a rank) the bot can follow next time (R4): 4 points
    for each card kept that could follow (up to 4), -6 with none and no wild (R5)."""
    follow = follow_ups(rest, suit, rank)
    score = 4 * min(follow, 4)
    if follow == 0 and not any(c[0] in WILD_RANKS for c in rest):
        score -= 6
    return score


def last_card_term(rest: Sequence[str], suit: str, rank: str) -> float:
    """Down to one card (R7): best left holding a wild (R5) or a card that follows
    the one played (R4), to go out next turn (R8); not a 6, which cannot go out (R5)."""
    if len(rest) != 1:
        return 0
    last = rest[0]
    score = 0
    if last[0] in WILD_RANKS:
        score += 20
    elif last[1] == suit or last[0] == rank:
        score += 12
    if last[0] == "6":
        score -= 10
    return score


def play_score(t: Situation, card: str, suit: str, rest: Sequence[str]) -> float:
    """How good the basic bot finds playing ``card``, leaving ``suit`` in force and
    keeping ``rest``: the higher, the better.

    During the count (R6) only :func:`keep_value`; the last card,
    :func:`going_out_value` (R8); otherwise the sum of :func:`keep_value`,
    :func:`harm_term`, :func:`continuity_term` and :func:`last_card_term`.
    """
    if t.count:
        return keep_value(card)
    if not rest:
        return going_out_value(card, t.face_cards)
    rank = card[0]
    return (
        keep_value(card)
        + harm_term(t, card, suit, rest)
        + continuity_term(rest, suit, rank)
        + last_card_term(rest, suit, rank)
    )
