"""The authoritative state of a game of Craits and the functions that change it.

:class:`Game` holds one game (RULES.md R2): the hand being played (R3–R11) and
the running totals. It is pure and deterministic: the only randomness it uses
is the shuffle source passed in (a seeded ``random.Random`` in tests,
``secrets.SystemRandom`` in the server).

Every action goes through :meth:`Game.apply`, which either raises a subclass of
:class:`~craits.server.engine.errors.IllegalAction` and changes nothing, or
applies the action and returns the list of events it caused.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

from . import errors as E
from .actions import Action, Announce, CallIdiot, Draw, NameSuit, Pass, Play
from .cards import CARDS, COLOUR_PARTNER, CUT_ORDER, RANKS, SUITS, full_deck
from .events import (
    Announced,
    CountChanged,
    Cut,
    Dealt,
    Drew,
    Event,
    HandEnded,
    HandScore,
    IdiotCalled,
    Passed,
    PlayAgain,
    Played,
    Reversed,
    ShufflePenalty,
    Skipped,
    SuitNamed,
    TurnedUp,
)
from .rules import Rules
from .scoring import score_cards, shuffle_penalty

HAND_SIZES = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)
"""Cards dealt to each player in hands 1…15 (R2)."""

Phase = Literal["play", "hand_over", "game_over"]


class ShuffleSource(Protocol):
    """Where randomness comes from: anything with ``random.Random``'s ``shuffle``."""

    def shuffle(self, x: list[Any], /) -> None:
        """Shuffle ``x`` in place."""


class _HandOver(Exception):
    """Internal: the hand ended in the middle of an action (R10)."""


def hand_size(hand_number: int) -> int:
    """Cards dealt to each player in hand ``hand_number`` (1…15, R2).

    Raises:
        ValueError: ``hand_number`` is not 1…15.
    """
    if not 1 <= hand_number <= 15:
        raise ValueError(f"hand number must be 1 to 15, not {hand_number}")
    return HAND_SIZES[hand_number - 1]


def cut_dealer(rounds: Sequence[Sequence[str]], players: int) -> int | None:
    """The first dealer from the cards cut (R2), or None if a tie remains.

    ``rounds[0]`` holds one card per seat in seat order; each later round holds
    the cards cut again by the seats that tied lowest, in seat order. The
    lowest rank deals (A K Q J T 9 8 7 6 5 4 3 2, high to low; suits do not count).

    Raises:
        ValueError: a round holds the wrong number of cards.
    """
    seats = list(range(players))
    for cards in rounds:
        if len(cards) != len(seats):
            raise ValueError(f"a cut round needs {len(seats)} cards, got {len(cards)}")
        low = min(CUT_ORDER[c[0]] for c in cards)
        seats = [s for s, c in zip(seats, cards, strict=True) if CUT_ORDER[c[0]] == low]
        if len(seats) == 1:
            return seats[0]
    return None


class Game:
    """One game of Craits (R2): the hand in play and the running totals.

    Build one with :meth:`start` (cut for the dealer, deal hand 1), or from a
    saved position with :meth:`from_position`. The attributes mirror the
    position format of the rule vectors (``shared/vectors/README.md``), except
    that :attr:`stock` is kept with its top card *last* (use
    :meth:`to_position` for the top-first form).

    Attributes:
        rules: the house variants in force.
        players: number of seats, 2–8.
        hand_number: 1…15 (R2).
        dealer: the dealer's seat.
        direction: +1 clockwise, −1 counter-clockwise.
        turn: the seat to act next (when no choice is pending).
        hands: each seat's cards.
        stock: the stock, top card last.
        discard: the discard pile, top card last.
        suit: the suit in force.
        count: the count in progress (R6); 0 when none.
        again: the player to act must play again after a 6 (R5).
        scores: game totals, shuffle penalties included.
        pressure: shuffle penalties paid by each seat this game (R10).
        hand_penalties: shuffle-penalty points each seat paid this hand (R10); not
            part of a position (a game loaded from one starts them at 0).
        lost_turns: turns each seat still loses (R7).
        unannounced: seats that may be called idiot on (R7), in seat order.
        jacks: jacks in a row on top of the pile (R11).
        king_cards: cards the player to act must still play after a king (R11).
        pending: seat that must name the suit for a turned-up 8 or 9 (R3), or None.
        drawn: the card just drawn that may be played or passed on (R4), or None.
        phase: ``"play"``, ``"hand_over"`` or ``"game_over"``.
        result: the last :class:`HandEnded`, once a hand is over.
    """

    __slots__ = (
        "_plain",
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
        "pending",
        "phase",
        "players",
        "pressure",
        "result",
        "rng",
        "rules",
        "scores",
        "stock",
        "suit",
        "turn",
        "unannounced",
    )

    def __init__(self, players: int, rules: Rules | None = None, rng: ShuffleSource | None = None):
        """An empty game for ``players`` seats, before the cut and the deal.

        ``rng`` is the shuffle source; without one a ``random.Random()`` is used.

        Raises:
            ValueError: ``players`` is not 2–8.
        """
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
            raise ValueError(f"Craits is for 2 to 8 players, not {players!r}")
        self.rules = rules if rules is not None else Rules()
        # Ranks whose play has no function (R5; J, Q, K have some with face_cards, R11).
        self._plain = "389" if self.rules.face_cards else "389JQK"
        self.rng: ShuffleSource = rng if rng is not None else random.Random()
        self.players = players
        self.hand_number = 1
        self.dealer = 0
        self.direction = 1
        self.turn = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.stock: list[str] = []
        self.discard: list[str] = []
        self.suit = "S"
        self.count = 0
        self.again = False
        self.scores = [0] * players
        self.pressure = [0] * players
        self.hand_penalties = [0] * players
        self.lost_turns = [0] * players
        self.unannounced: list[int] = []
        self.jacks = 0
        self.king_cards = 0
        self.pending: int | None = None
        self.drawn: str | None = None
        self.phase: Phase = "hand_over"
        self.result: HandEnded | None = None

    # ------------------------------------------------------------------ setup

    @classmethod
    def start(
        cls, players: int, rules: Rules | None = None, rng: ShuffleSource | None = None
    ) -> tuple[Game, list[Event]]:
        """A new game: the cut for the first dealer (R2), then hand 1 dealt (R3).

        Returns:
            ``(game, events)``: the events are the cut, the deal and the turned-up card.

        Raises:
            ValueError: ``players`` is not 2–8.
        """
        game = cls(players, rules, rng)
        rounds: list[tuple[tuple[int, str], ...]] = []
        seats = list(range(players))
        while True:
            deck = full_deck(players, game.rules.strip_kings_queens)
            game.rng.shuffle(deck)
            cards = deck[: len(seats)]
            rounds.append(tuple(zip(seats, cards, strict=True)))
            low = min(CUT_ORDER[c[0]] for c in cards)
            seats = [s for s, c in zip(seats, cards, strict=True) if CUT_ORDER[c[0]] == low]
            if len(seats) == 1:
                break
        game.dealer = seats[0]
        events: list[Event] = [Cut(tuple(rounds), seats[0])]
        events += game.deal()
        return game, events

    def deal(self, deck: Sequence[str] | None = None) -> list[Event]:
        """Deal hand :attr:`hand_number` from :attr:`dealer` and turn up a card (R3).

        ``deck`` is the whole deck order, top first; without it the full deck
        (R1) is shuffled with the shuffle source. The turned-up card takes
        effect as the dealer's (R3). The running totals are kept.

        Raises:
            ValueError: the deck is too small for the deal.
        """
        n = self.players
        k = hand_size(self.hand_number)
        if deck is None:
            order = full_deck(n, self.rules.strip_kings_queens)
            self.rng.shuffle(order)
        else:
            order = list(deck)
        if len(order) < k * n + 1:
            raise ValueError(f"a deck of {len(order)} cards is too small to deal {k} to {n}")
        hands: list[list[str]] = [[] for _ in range(n)]
        first = self.dealer + 1
        for i in range(k * n):
            hands[(first + i) % n].append(order[i])
        turned = order[k * n]
        self.hands = hands
        self.stock = order[k * n + 1 :][::-1]
        self.discard = [turned]
        self.suit = turned[1]
        self.direction = 1
        self.count = 0
        self.again = False
        self.lost_turns = [0] * n
        self.hand_penalties = [0] * n
        self.unannounced = []
        self.jacks = 0
        self.king_cards = 0
        self.pending = None
        self.drawn = None
        self.phase = "play"
        self.result = None
        ev: list[Event] = [
            Dealt(
                self.hand_number, self.dealer, k, tuple(tuple(h) for h in hands), len(self.stock)
            ),
            TurnedUp(self.dealer, turned),
        ]
        dealer = self.dealer
        self.turn = dealer
        if turned[0] in "89":
            self.pending = dealer
        if self.rules.face_cards and turned[0] == "J":
            self.jacks = 1
        try:
            steps = self._effect(dealer, turned, ev)
            if steps:
                self._pass_turn(dealer, steps, ev)
            if self.rules.one_card_deal and k == 1:
                self.unannounced = [s for s in range(n) if len(hands[s]) == 1]
        except _HandOver:
            self._end_hand(ev)
        return ev

    def next_hand(self, deck: Sequence[str] | None = None) -> list[Event]:
        """Deal the next hand once a hand is over (R2): the deal passes on.

        Raises:
            HandNotInPlay: a hand is still being played, or the game is over.
            ValueError: the deck is too small for the deal; the game is unchanged.
        """
        if self.phase != "hand_over" or self.result is None:
            raise E.HandNotInPlay(
                "the game is over" if self.phase == "game_over" else "the hand is not over"
            )
        dealer, hand_number = self.dealer, self.hand_number
        self.dealer = self.result.next_dealer
        self.hand_number += 1
        try:
            return self.deal(deck)
        except ValueError:  # a refused deal changes nothing: the deal has not passed on
            self.dealer, self.hand_number = dealer, hand_number
            raise

    def copy(self) -> Game:
        """An independent copy of the game (same rules and shuffle source).

        Applying an action to the copy leaves this game untouched: the server
        validates and applies on a copy, journals it, and only then keeps it.
        """
        other = Game.__new__(Game)
        for name in Game.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(v) for v in value] if name == "hands" else list(value)
            setattr(other, name, value)
        return other

    # ----------------------------------------------------------------- queries

    @property
    def top(self) -> str:
        """The top card of the discard pile."""
        return self.discard[-1]

    @property
    def to_act(self) -> int | None:
        """The seat that must act now: the dealer while a suit is pending, else the turn.

        None when no hand is being played.
        """
        if self.phase != "play":
            return None
        return self.turn if self.pending is None else self.pending

    def playable(self, card: str) -> bool:
        """Whether ``card`` may be played now on the discard pile (R4, R6), whoever holds it."""
        return card in (_COUNT if self.count else _MATCH[self.suit][self.discard[-1][0]])

    def playable_cards(self, seat: int) -> list[str]:
        """Distinct cards ``seat`` may play if it is (or were) its turn (R4, R6)."""
        hand = self.hands[seat]
        if self.drawn is not None and seat == self.turn:
            return [self.drawn]
        match = _COUNT if self.count else _MATCH[self.suit][self.discard[-1][0]]
        cards = [c for c in hand if c in match]
        if len(cards) > 1:
            cards = list(dict.fromkeys(cards))
        return cards

    def legal(self) -> set[str]:
        """The legal moves of the seat to act as the vectors write them (R4).

        Card codes it may play, ``"draw"`` and ``"pass"``; empty while a suit is pending.
        """
        if self.phase != "play" or self.pending is not None:
            return set()
        cards = self.playable_cards(self.turn)
        if self.drawn is not None:
            return {self.drawn, "pass"}
        return set(cards) if cards else {"draw"}

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` may take now (default: the seat to act).

        Plays (8s with each suit, 9s with each allowed suit; with and without
        an announcement when the play leaves one card), draw, pass, naming the
        pending suit, announcing "one card", and calling idiot (R3–R7).
        """
        if self.phase != "play":
            return []
        if seat is None:
            seat = self.turn if self.pending is None else self.pending
        acts: list[Action]
        if self.pending is not None:
            acts = []
            if seat == self.pending:
                card = self.discard[-1]
                suits = SUITS if card[0] == "8" else (card[1], COLOUR_PARTNER[card[1]])
                acts = [NameSuit(seat, s) for s in suits]
        elif seat == self.turn:
            hand = self.hands[seat]
            if self.drawn is not None:
                cards = [self.drawn]
            else:
                match = _COUNT if self.count else _MATCH[self.suit][self.discard[-1][0]]
                cards = [c for c in hand if c in match]
            if not cards:
                acts = [_DRAWS[seat]]
            else:
                if len(cards) > 1:
                    cards = list(dict.fromkeys(cards))
                table = (_PLAYS_ANNOUNCING if len(hand) == 2 else _PLAYS)[seat]
                if len(cards) == 1:
                    acts = list(table[cards[0]])
                else:
                    acts = []
                    for c in cards:
                        acts += table[c]
                if self.drawn is not None:
                    acts.append(Pass(seat))
        else:
            acts = []
        if self.unannounced:
            for target in self.unannounced:
                if target == seat:
                    acts.append(Announce(seat))
                else:
                    acts.append(CallIdiot(seat, target))
        return acts

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` and return what happened, in order.

        Raises:
            InvalidAction: not an action, or a seat out of range.
            HandNotInPlay: no hand is being played.
            IllegalAction: a subclass naming why the action is illegal (see
                :mod:`~craits.server.engine.errors`); the game is unchanged.
        """
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise E.InvalidAction(f"not an action: {action!r}")
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self.players:
            raise E.InvalidAction(f"no seat {seat!r} at a table of {self.players}")
        if self.phase != "play":
            raise E.HandNotInPlay(
                "the game is over" if self.phase == "game_over" else "the hand is over"
            )
        ev: list[Event] = []
        try:
            handler(self, action, ev)
        except _HandOver:
            self._end_hand(ev)
        return ev

    def _check_turn(self, seat: int) -> None:
        if self.pending is not None:
            raise E.ChoicePending(f"seat {self.pending} must first name the suit (R3)")
        if seat != self.turn:
            raise E.NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def _play(self, action: Play, ev: list[Event]) -> None:
        seat, card, suit, announce = action
        if self.pending is not None or seat != self.turn:
            self._check_turn(seat)
        hand = self.hands[seat]
        drawn = self.drawn
        if drawn is not None and card != drawn:
            raise E.MustPlayDrawnCard(f"play the card just drawn ({drawn}) or pass")
        if card not in hand:
            raise E.CardNotInHand(f"{card} is not in your hand")
        rank = card[0]
        count = self.count
        discard = self.discard
        if count:
            if rank != "A" and rank != "2":
                raise E.MustFollowCount(f"the count is {count}: play an ace or a two, or draw")
        elif card not in _MATCH[self.suit][discard[-1][0]]:
            raise E.CardDoesNotMatch(
                f"{card} matches neither the suit in force ({self.suit}) "
                f"nor the top card ({discard[-1]})"
            )
        if suit is not None:
            if rank == "9":
                if suit != card[1] and suit != COLOUR_PARTNER[card[1]]:
                    raise E.SuitNotAllowed(
                        f"a 9 names its own suit or its colour's other: "
                        f"{card[1]} or {COLOUR_PARTNER[card[1]]}"
                    )
            elif rank != "8":
                raise E.SuitNotAllowed("only an 8 or a 9 names a suit")
            elif suit not in SUITS:
                raise E.InvalidAction(f"not a suit: {suit!r}")
        else:
            suit = card[1]
        # Legal: from here on the game changes.
        hand.remove(card)
        discard.append(card)
        left = len(hand)
        if left == 1 and not announce:
            self.unannounced = [seat]  # a game action closes the other idiot windows (R7)
        elif self.unannounced:
            self.unannounced = []
        if drawn is not None:
            self.drawn = None
        self.again = False
        self.suit = suit
        ev.append(Played(seat, card, suit, left == 1 and announce))
        if self.jacks or (rank == "J" and self.rules.face_cards):
            self.jacks = self.jacks + 1 if rank == "J" else 0
        king = self.king_cards
        if king:
            self.king_cards = king - 1
            if king > 1:  # the first two cards after a king have no function (R11)
                return
        if rank in self._plain:
            steps = 1
        else:
            steps = self._effect(seat, card, ev)
            if not left and (self.count or self.again or self.king_cards):
                left = -1  # not out: the count is on, or a 6 or a king obliges (R8)
        if not left:
            raise _HandOver  # going out, once the card's function took effect (R8)
        if steps:
            self._pass_turn(seat, steps, ev)

    def _effect(self, seat: int, card: str, ev: list[Event]) -> int:
        """Apply the function of ``card`` played by ``seat`` (R5, R6, R11).

        Returns how many seats on the turn passes (0: ``seat`` plays on).
        """
        rank = card[0]
        n = self.players
        d = self.direction
        if rank == "2":
            self.count += 2
            ev.append(CountChanged(self.count))
        elif rank == "A":
            if self.count:
                self.count += 1
                ev.append(CountChanged(self.count))
        elif rank == "4":
            ev.append(Skipped((seat + d) % n, "four"))
            return 2
        elif rank == "5":
            for i in range(1, n):
                self._draw((seat + i * d) % n, 1, "five", ev)
        elif rank == "6":
            self.again = True
            ev.append(PlayAgain(seat, 1))
            return 0
        elif rank == "7":
            if n <= 3 or self.rules.seven_hits_next:
                self._draw((seat + d) % n, 1, "seven", ev)
            else:
                self._draw((seat + 2 * d) % n, 1, "seven", ev)
        elif rank == "T":
            self.direction = -d
            ev.append(Reversed(seat, -d))
        elif self.rules.face_cards:
            if rank == "J":
                victim = (seat + d) % n
                self._draw(victim, 2 * self.jacks, "jack", ev)
                ev.append(Skipped(victim, "jack"))
                return 2
            if card == "QS":
                victim = (seat + d) % n
                self._draw(victim, 5, "queen", ev)
                ev.append(Skipped(victim, "queen"))
                return 2
            if rank == "K":
                self.king_cards = 3
                ev.append(PlayAgain(seat, 3))
                return 0
        return 1

    def _pass_turn(self, seat: int, steps: int, ev: list[Event]) -> None:
        """Pass the turn ``steps`` seats on; seats owing a lost turn use it up (R7, R12)."""
        d = self.direction
        n = self.players
        t = (seat + steps * d) % n
        lost = self.lost_turns
        while lost[t]:
            lost[t] -= 1
            ev.append(Skipped(t, "lost_turn"))
            t = (t + d) % n
        self.turn = t

    def _draw(self, seat: int, k: int, reason: str, ev: list[Event]) -> list[str]:
        """``seat`` draws ``k`` cards, top first, paying shuffle penalties as needed (R10, R12).

        Raises:
            _HandOver: nothing was left to draw (R10); the cards drawn so far are kept.
        """
        stock = self.stock
        if len(stock) >= k:
            if k == 1:
                got = [stock.pop()]
            else:
                got = stock[-k:]
                del stock[-k:]
                got.reverse()
        else:
            got = []
            for _ in range(k):
                if not stock:
                    if len(self.discard) <= 1:
                        if got:
                            self.hands[seat] += got
                            ev.append(Drew(seat, len(got), tuple(got), reason))
                        self._penalty(seat, ev)
                        raise _HandOver
                    self._reshuffle(seat, ev)
                got.append(stock.pop())
        self.hands[seat] += got
        ev.append(Drew(seat, k, tuple(got), reason))
        return got

    def _penalty(self, seat: int, ev: list[Event]) -> None:
        """``seat`` pays a shuffle penalty: 5 × 2^(penalties paid before) (R10)."""
        penalty = shuffle_penalty(self.pressure[seat])
        self.pressure[seat] += 1
        self.scores[seat] += penalty
        self.hand_penalties[seat] += penalty
        stock = self.stock
        ev.append(ShufflePenalty(seat, penalty, len(stock), tuple(reversed(stock))))

    def _reshuffle(self, seat: int, ev: list[Event]) -> None:
        """The discard pile but its top card becomes the shuffled stock (R10)."""
        pile = self.discard[:-1]
        del self.discard[:-1]
        self.rng.shuffle(pile)
        self.stock[:] = pile
        self._penalty(seat, ev)

    def _draw_turn(self, action: Draw, ev: list[Event]) -> None:
        seat = action.seat
        self._check_turn(seat)
        if self.drawn is not None:
            raise E.MustPlayDrawnCard(f"play the card just drawn ({self.drawn}) or pass")
        count = self.count
        if not (_COUNT if count else _MATCH[self.suit][self.discard[-1][0]]).isdisjoint(
            self.hands[seat]
        ):
            raise E.MustPlayCard(
                "you hold an ace or a two: you must follow the count (R12)"
                if count
                else "you hold a card you can play: you may not draw (R12)"
            )
        if self.unannounced:
            self.unannounced = []  # a draw on one's own turn is a game action (R7)
        if count:
            self.count = 0
            ev.append(CountChanged(0))
            self._draw(seat, count, "count", ev)
            if not all(self.hands):
                raise _HandOver  # the count ended: players with no cards are out (R6)
            self._pass_turn(seat, 1, ev)
            return
        reason = "king" if self.king_cards else "six" if self.again else "turn"
        if self.stock:
            card = self.stock.pop()
            self.hands[seat].append(card)
            ev.append(Drew(seat, 1, (card,), reason))
        else:
            (card,) = self._draw(seat, 1, reason, ev)
        if self.rules.play_drawn_card and self.playable(card):
            self.drawn = card
            return
        self.again = False
        self.king_cards = 0
        self._pass_turn(seat, 1, ev)

    def _pass(self, action: Pass, ev: list[Event]) -> None:
        seat = action.seat
        self._check_turn(seat)
        if self.drawn is None:
            raise E.NothingToPass("there is no drawn card to pass on (R4)")
        self.drawn = None
        self.again = False
        self.king_cards = 0
        ev.append(Passed(seat))
        self._pass_turn(seat, 1, ev)

    def _announce(self, action: Announce, ev: list[Event]) -> None:
        seat = action.seat
        if seat not in self.unannounced:
            raise E.NothingToAnnounce(f"seat {seat} owes no 'one card' announcement (R7)")
        self.unannounced = [s for s in self.unannounced if s != seat]
        ev.append(Announced(seat))

    def _call_idiot(self, action: CallIdiot, ev: list[Event]) -> None:
        seat = action.seat
        target = action.target
        if type(target) is not int or not 0 <= target < self.players:
            raise E.InvalidAction(f"no seat {target!r} at a table of {self.players}")
        if target == seat:
            raise E.NothingToCallIdiotOn("you cannot call idiot on yourself (R7)")
        if target not in self.unannounced:
            raise E.NothingToCallIdiotOn(f"seat {target} owes no 'one card' announcement (R7)")
        self.unannounced = [s for s in self.unannounced if s != target]
        ev.append(IdiotCalled(seat, target))
        if self.rules.idiot_card:
            self._draw(target, 1, "idiot", ev)
        else:
            self.lost_turns[target] += 1
            self._draw(target, 2, "idiot", ev)

    def _name_suit(self, action: NameSuit, ev: list[Event]) -> None:
        seat = action.seat
        if self.pending is None or seat != self.pending:
            raise E.NoChoicePending("there is no suit for you to name (R3)")
        card = self.discard[-1]
        suit = action.suit
        if suit not in SUITS:
            raise E.InvalidAction(f"not a suit: {suit!r}")
        if card[0] == "9" and suit != card[1] and suit != COLOUR_PARTNER[card[1]]:
            raise E.SuitNotAllowed(
                f"a 9 names its own suit or its colour's other: {card[1]} or "
                f"{COLOUR_PARTNER[card[1]]}"
            )
        self.pending = None
        self.suit = suit
        ev.append(SuitNamed(seat, suit))

    def _end_hand(self, ev: list[Event]) -> None:
        """Score the hand (R9), add it to the totals, and settle who deals next (R2)."""
        rules = self.rules
        results = []
        for seat, cards in enumerate(self.hands):
            if not cards:
                points = -10 if rules.going_out_bonus else 0
                results.append(HandScore(seat, (), (), points, True))
            else:
                points, cancelled = score_cards(cards, rules)
                results.append(HandScore(seat, tuple(cards), cancelled, points, False))
            self.scores[seat] += points
        step = self.direction if rules.dealer_follows_direction else 1
        next_dealer = (self.dealer + step) % self.players
        over = self.hand_number >= rules.hands
        winners: tuple[int, ...] = ()
        if over:
            low = min(self.scores)
            winners = tuple(s for s, v in enumerate(self.scores) if v == low)
        self.pending = None
        self.drawn = None
        self.unannounced = []
        self.phase = "game_over" if over else "hand_over"
        self.result = HandEnded(
            self.hand_number,
            tuple(results),
            tuple(self.scores),
            tuple(self.pressure),
            next_dealer,
            over,
            winners,
            tuple(self.hand_penalties),
        )
        ev.append(self.result)

    # -------------------------------------------------------------- positions

    def to_position(self) -> dict[str, Any]:
        """The position of the hand in play, in the vector format (all fields written).

        Card lists are copies; ``stock`` is top first.
        """
        return {
            "players": self.players,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "direction": self.direction,
            "turn": self.turn,
            "hands": [list(h) for h in self.hands],
            "stock": self.stock[::-1],
            "discard": list(self.discard),
            "suit": self.suit,
            "count": self.count,
            "again": self.again,
            "scores": list(self.scores),
            "pressure": list(self.pressure),
            "lost_turns": list(self.lost_turns),
            "unannounced": list(self.unannounced),
            "jacks": self.jacks,
            "king_cards": self.king_cards,
            "pending": None if self.pending is None else {"name_suit": self.pending},
            "drawn": self.drawn,
        }

    @classmethod
    def from_position(
        cls,
        position: dict[str, Any],
        rules: Rules | None = None,
        rng: ShuffleSource | None = None,
    ) -> Game:
        """Load a hand in play from the vector position format; left-out fields take
        the defaults of ``shared/vectors/README.md``.

        Raises:
            ValueError: a field is missing, unknown, of the wrong type or out of range.
        """
        from .position import load_position

        return load_position(cls, position, rules, rng)


def _plays(seat: int, card: str, announcing: bool) -> tuple[Play, ...]:
    """The plays of ``card`` by ``seat``: one per suit it may name (R5), ±announce (R7)."""
    rank = card[0]
    suits: Sequence[str | None]
    if rank == "8":
        suits = SUITS
    elif rank == "9":
        suits = (card[1], COLOUR_PARTNER[card[1]])
    else:
        suits = (None,)
    plays = []
    for s in suits:
        plays.append(Play(seat, card, s))
        if announcing:
            plays.append(Play(seat, card, s, True))
    return tuple(plays)


_COUNT = frozenset(c for c in CARDS if c[0] in "A2")
"""The cards that follow the count (R6)."""
_MATCH = {
    suit: {
        rank: frozenset(c for c in CARDS if c[1] == suit or c[0] == rank or c[0] in "89")
        for rank in RANKS
    }
    for suit in SUITS
}
"""``_MATCH[suit in force][top rank]``: the cards that may be played outside the count (R4)."""

# Actions are immutable: legal_actions hands out these shared instances.
_PLAYS = [{c: _plays(s, c, False) for c in CARDS} for s in range(8)]
_PLAYS_ANNOUNCING = [{c: _plays(s, c, True) for c in CARDS} for s in range(8)]
_DRAWS = [Draw(s) for s in range(8)]

_HANDLERS: dict[type, Callable[[Game, Any, list[Event]], None]] = {
    Play: Game._play,
    Draw: Game._draw_turn,
    Pass: Game._pass,
    Announce: Game._announce,
    CallIdiot: Game._call_idiot,
    NameSuit: Game._name_suit,
}
