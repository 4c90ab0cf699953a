"""The authoritative state of a game of Craits and the functions that change it.

:class:`Game` holds one game (RULES.md R2): the hand being played (R3–R11) and
the running totals. It is pure and deterministic: the only randomness it uses
is the shuffle source passed in (a seeded ``random.Random`` in tests,
``secrets.SystemRandom`` in the server).

Every action goes through :meth:`Game.apply`, which either raises a subclass of
:class:`~craits.server.engine.errors.IllegalAction` and changes nothing, or
applies the action and returns the list of events it caused.

What may be played is decided in one place, :meth:`Game._allowed` (R4, R6,
R12); :meth:`Game.playable_cards`, :meth:`Game.legal_actions`,
:meth:`Game.legal` and the checks of a play or a draw are derived from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from craits.protocol.vocab import ActionKind, DrawReason, Phase, SkipReason

from . import errors as E
from .actions import Action, Announce, CallIdiot, Draw, NameSuit, Pass, Play
from .cards import (
    CARDS,
    COLOUR_PARTNER,
    COUNT_RANKS,
    CUT_ORDER,
    QUEEN_OF_SPADES,
    RANKS,
    SUIT_NAMING_RANKS,
    SUITS,
    full_deck,
    is_suit,
    suits_named_by,
)
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

# The vocabulary's members used in play, bound once: reading a member off its
# enum costs ~70 ns on Python 3.11, a module global ~5 ns.
_IN_PLAY, _HAND_OVER, _GAME_OVER = Phase.PLAY, Phase.HAND_OVER, Phase.GAME_OVER
_BY_TURN, _BY_SIX, _BY_KING = DrawReason.TURN, DrawReason.SIX, DrawReason.KING
_BY_COUNT, _BY_FIVE, _BY_SEVEN = DrawReason.COUNT, DrawReason.FIVE, DrawReason.SEVEN
_BY_JACK, _BY_QUEEN, _BY_IDIOT = DrawReason.JACK, DrawReason.QUEEN, DrawReason.IDIOT
_SKIP_FOUR, _SKIP_LOST_TURN = SkipReason.FOUR, SkipReason.LOST_TURN
_SKIP_JACK, _SKIP_QUEEN = SkipReason.JACK, SkipReason.QUEEN


class ShuffleSource(Protocol):
    """Where randomness comes from: anything with ``random.Random``'s ``shuffle``."""

    def shuffle(self, x: list[str], /) -> None:
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


def _lowest_cut(seats: Sequence[int], cards: Sequence[str]) -> list[int]:
    """The seats among ``seats`` that cut the lowest rank (R2), in seat order."""
    low = min(CUT_ORDER[c[0]] for c in cards)
    return [s for s, c in zip(seats, cards, strict=True) if CUT_ORDER[c[0]] == low]


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
        seats = _lowest_cut(seats, cards)
        if len(seats) == 1:
            return seats[0]
    return None


class Game:
    """One game of Craits (R2): the hand in play and the running totals.

    Build one with :meth:`start` (cut for the dealer, deal hand 1); the rule
    vectors load one from a saved position (:func:`craits.server.ops.vectors.load_position`).
    The attributes mirror the position format of the rule vectors
    (``shared/vectors/README.md``), except that :attr:`stock` is kept with its
    top card *last* (use :meth:`to_position` for the top-first form).

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
        phase: a :class:`~craits.protocol.vocab.Phase`: ``"play"``,
            ``"hand_over"`` or ``"game_over"``.
        result: the last :class:`HandEnded`, once a hand is over.
    """

    __slots__ = (
        "_effects",
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
        # The ranks whose play has a function (R5; J, Q, K too with face_cards, R11).
        self._effects = _FACE_EFFECTS if self.rules.face_cards else _EFFECTS
        self.rng: ShuffleSource = rng if rng is not None else random.Random()
        self.players = players
        self.hand_number = 1
        self.dealer = 0
        self.direction = 1
        self.turn = 0
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.stock: list[str] = []
        self.discard: list[str] = []
        self.suit = SUITS[0]
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
        self.phase: Phase = _HAND_OVER
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
        while len(seats) > 1:
            deck = full_deck(players, game.rules.strip_kings_queens)
            game.rng.shuffle(deck)
            cards = deck[: len(seats)]
            rounds.append(tuple(zip(seats, cards, strict=True)))
            seats = _lowest_cut(seats, cards)
        game.dealer = seats[0]
        events: list[Event] = [Cut(tuple(rounds), seats[0])]
        events += game.deal()
        return game, events

    def deal(self, deck: Sequence[str] | None = None) -> list[Event]:
        """Deal hand :attr:`hand_number` from :attr:`dealer` and turn up a card (R3).

        ``deck`` is the whole deck order, top first; without it the full deck
        (R1) is shuffled with the shuffle source. The cards go one at a time
        from the dealer's left; the next card is turned up and takes effect as
        the dealer's (R3). The running totals are kept.

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
        dealt = k * n
        if len(order) < dealt + 1:
            raise ValueError(f"a deck of {len(order)} cards is too small to deal {k} to {n}")
        first = self.dealer + 1
        # card i goes to seat (first + i) % n
        hands = [order[(s - first) % n : dealt : n] for s in range(n)]
        self._new_hand(hands, order[dealt + 1 :][::-1], order[dealt])
        ev: list[Event] = [
            Dealt(self.hand_number, self.dealer, k, tuple(map(tuple, hands)), len(self.stock)),
            TurnedUp(self.dealer, order[dealt]),
        ]
        try:
            self._turn_up(ev)
        except _HandOver:
            self._end_hand(ev)
        return ev

    def _new_hand(self, hands: list[list[str]], stock: list[str], turned: str) -> None:
        """Lay out a new hand (R3): ``hands`` dealt, ``stock`` (top last), ``turned`` up."""
        n = self.players
        self.hands = hands
        self.stock = stock
        self.discard = [turned]
        self.suit = turned[1]
        self.direction = 1
        self.turn = self.dealer
        self.count = 0
        self.again = False
        self.lost_turns = [0] * n
        self.hand_penalties = [0] * n
        self.unannounced = []
        self.jacks = 0
        self.king_cards = 0
        self.pending = None
        self.drawn = None
        self.phase = _IN_PLAY
        self.result = None

    def _turn_up(self, ev: list[Event]) -> None:
        """The turned-up card takes effect as the dealer's (R3, R5, R11); with the option
        ``one_card_deal`` everyone holding one card owes an announcement (R7).

        Raises:
            _HandOver: its function ended the hand (R10).
        """
        dealer = self.dealer
        turned = self.discard[-1]
        rank = turned[0]
        if rank in SUIT_NAMING_RANKS:
            self.pending = dealer
        if rank == "J" and self.rules.face_cards:
            self.jacks = 1
        effect = self._effects.get(rank)
        steps = 1 if effect is None else effect(self, dealer, turned, ev)
        if steps:
            self._pass_turn(dealer, steps, ev)
        if self.rules.one_card_deal and hand_size(self.hand_number) == 1:
            self.unannounced = [s for s, h in enumerate(self.hands) if len(h) == 1]

    def next_hand(self, deck: Sequence[str] | None = None) -> list[Event]:
        """Deal the next hand once a hand is over (R2): the deal passes on.

        Raises:
            HandNotInPlay: a hand is still being played, or the game is over.
            ValueError: the deck is too small for the deal; the game is unchanged.
        """
        if self.phase != _HAND_OVER or self.result is None:
            raise E.HandNotInPlay(
                "the game is over" if self.phase == _GAME_OVER else "the hand is not over"
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
        if self.phase != _IN_PLAY:
            return None
        return self.turn if self.pending is None else self.pending

    def _allowed(self, seat: int) -> frozenset[str]:
        """THE rule of what may be played (R4, R6, R12): the cards ``seat`` may play
        from its hand if it is (or were) its turn.

        During the count, aces and twos (R6); otherwise a card of the suit in
        force, of the top card's rank, or an 8 or a 9 (R4). A seat that just
        drew a card it may play (option ``play_drawn_card``) may play that card
        only. Every other statement of what may be played derives from this one.
        """
        allowed = _COUNT if self.count else _MATCH[self.suit][self.discard[-1][0]]
        drawn = self.drawn
        if drawn is None or seat != self.turn:
            return allowed
        return _ALONE[drawn] if drawn in allowed else _NONE

    def playable_cards(self, seat: int) -> list[str]:
        """Distinct cards of ``seat``'s hand it may play if it is (or were) its turn (R4, R6)."""
        allowed = self._allowed(seat)
        return [c for c in dict.fromkeys(self.hands[seat]) if c in allowed]

    def legal(self) -> set[str]:
        """The legal moves of the seat to act as the vectors write them (R4).

        Card codes it may play, ``"draw"`` and ``"pass"``; empty while a suit is pending.
        """
        moves: set[str] = set()
        for action in self.legal_actions(self.turn):
            match action:
                case Play(card=card):
                    moves.add(card)
                case Draw():
                    moves.add(ActionKind.DRAW)
                case Pass():
                    moves.add(ActionKind.PASS)
        return moves

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` may take now (default: the seat to act).

        Plays (8s with each suit, 9s with each allowed suit; with and without
        an announcement when the play leaves one card), draw, pass, naming the
        pending suit, announcing "one card", and calling idiot (R3–R7).
        Actions are shared, immutable instances.
        """
        if self.phase != _IN_PLAY:
            return []
        pending = self.pending
        if seat is None:
            seat = self.turn if pending is None else pending
        acts: list[Action]
        if pending is not None:
            acts = self._suit_choices(seat)
        elif seat == self.turn:
            # the plays of playable_cards(seat), inline: this runs for every view of every move
            hand = self.hands[seat]
            allowed = _COUNT if self.count else _MATCH[self.suit][self.discard[-1][0]]
            drawn = self.drawn
            if drawn is not None:  # _allowed(seat), inline: the seat is the turn's
                allowed = _ALONE[drawn] if drawn in allowed else _NONE
            plays = (_PLAYS_ANNOUNCING if len(hand) == 2 else _PLAYS)[seat]
            acts = []
            if self.players > 5:  # two decks: a card held twice is offered once
                hand = list(dict.fromkeys(hand))
            for card in hand:
                if card in allowed:
                    acts += plays[card]
            if drawn is not None:
                acts.append(_PASSES[seat])
            elif not acts:
                acts.append(_DRAWS[seat])
        else:
            acts = []
        if self.unannounced:
            calls = _ONE_CARD_CALLS[seat]
            acts += [calls[target] for target in self.unannounced]
        return acts

    def _suit_choices(self, seat: int) -> list[Action]:
        """The suits ``seat`` may name for the turned-up 8 or 9, if it is the dealer's
        to name (R3); else none."""
        if seat != self.pending:
            return []
        return [NameSuit(seat, s) for s in suits_named_by(self.discard[-1])]

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` and return what happened, in order.

        Raises:
            InvalidAction: not an action, or a seat out of range.
            HandNotInPlay: no hand is being played.
            IllegalAction: a subclass naming why the action is illegal (see
                :mod:`~craits.server.engine.errors`); the game is unchanged.
        """
        if type(action) not in _ACTION_TYPES:
            raise E.InvalidAction(f"not an action: {action!r}")
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < self.players:
            raise E.InvalidAction(f"no seat {seat!r} at a table of {self.players}")
        if self.phase != _IN_PLAY:
            raise E.HandNotInPlay(
                "the game is over" if self.phase == _GAME_OVER else "the hand is over"
            )
        ev: list[Event] = []
        try:  # by type(): narrows as match does, and costs less (~60 ns)
            if type(action) is Play:
                self._play(action, ev)
            elif type(action) is Draw:
                self._draw_turn(action, ev)
            elif type(action) is Pass:
                self._pass(action, ev)
            elif type(action) is NameSuit:
                self._name_suit(action, ev)
            elif type(action) is Announce:
                self._announce(action, ev)
            elif type(action) is CallIdiot:
                self._call_idiot(action, ev)
        except _HandOver:
            self._end_hand(ev)
        return ev

    def _check_turn(self, seat: int) -> None:
        """R3, R4: refuse a turn's action while a suit is pending, or out of turn."""
        if self.pending is not None:
            raise E.ChoicePending(f"seat {self.pending} must first name the suit (R3)")
        if seat != self.turn:
            raise E.NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def _play(self, action: Play, ev: list[Event]) -> None:
        """Play a card (R4): checked against :meth:`_allowed` and the suits it may name,
        laid on the pile, then :meth:`_take_effect`.

        Leaving one card unannounced opens the idiot window on the player; any
        play closes the others (R7).
        """
        seat, card, suit, announce = action
        if self.pending is not None or seat != self.turn:
            self._check_turn(seat)
        hand = self.hands[seat]
        # _allowed(seat), inline (the seat is the turn's): this runs for every play
        allowed = _COUNT if self.count else _MATCH[self.suit][self.discard[-1][0]]
        drawn = self.drawn
        if drawn is not None:
            allowed = _ALONE[drawn] if drawn in allowed else _NONE
        if card not in allowed or card not in hand:
            raise self._unplayable(seat, card)
        if suit is None:
            suit = card[1]
        elif suit not in _NAMEABLE[card]:
            raise self._suit_refused(card, suit)
        # Legal: from here on the game changes.
        hand.remove(card)
        self.discard.append(card)
        left = len(hand)
        if left == 1 and not announce:
            self.unannounced = [seat]
        elif self.unannounced:
            self.unannounced = []
        self.drawn = None
        self.again = False
        self.suit = suit
        ev.append(_new(Played, (seat, card, suit, left == 1 and announce)))
        rank = card[0]
        if rank in _NO_FUNCTION and not (self.jacks or self.king_cards) and left:
            # a card without a function (R5) that does not go out: the turn passes on
            # (_take_effect and _pass_turn, inline: the most common play)
            d = self.direction
            n = self.players
            t = (seat + d) % n
            lost = self.lost_turns
            while lost[t]:
                lost[t] -= 1
                ev.append(Skipped(t, _SKIP_LOST_TURN))
                t = (t + d) % n
            self.turn = t
            return
        self._take_effect(seat, card, left, ev)

    def _take_effect(self, seat: int, card: str, left: int, ev: list[Event]) -> None:
        """``card``, just laid by ``seat`` with ``left`` cards left, takes effect (R5, R6,
        R11); then the turn passes on, or the hand ends if ``seat`` went out (R8).

        Raises:
            _HandOver: the hand ended.
        """
        rank = card[0]
        face = self.jacks or self.king_cards or (rank == "J" and self.rules.face_cards)
        if face and self._face_chain(rank):
            return
        effect = self._effects.get(rank)
        if effect is None:
            steps = 1
        else:
            steps = effect(self, seat, card, ev)
            if not left and (self.count or self.again or self.king_cards):
                left = -1  # not out: the count is on, or a 6 or a king obliges (R8)
        if not left:
            raise _HandOver  # going out, once the card's function took effect (R8)
        if steps:
            self._pass_turn(seat, steps, ev)

    def _unplayable(self, seat: int, card: str) -> E.IllegalAction:
        """Why ``seat`` may not play ``card`` now, which :meth:`_allowed` refused (R4, R6)."""
        drawn = self.drawn
        if drawn is not None and card != drawn:
            return E.MustPlayDrawnCard(f"play the card just drawn ({drawn}) or pass")
        if card not in self.hands[seat]:
            return E.CardNotInHand(f"{card} is not in your hand")
        if self.count:
            return E.MustFollowCount(f"the count is {self.count}: play an ace or a two, or draw")
        return E.CardDoesNotMatch(
            f"{card} matches neither the suit in force ({self.suit}) "
            f"nor the top card ({self.discard[-1]})"
        )

    def _suit_refused(self, card: str, suit: object) -> E.IllegalAction:
        """Why ``card`` (played, or turned up) may not name ``suit``: it names no suit,
        ``suit`` is no suit code, or a 9 names only two suits (R3, R5, R12)."""
        allowed = suits_named_by(card)
        if not allowed:
            return E.SuitNotAllowed("only an 8 or a 9 names a suit")
        if not is_suit(suit):
            return E.InvalidAction(f"not a suit: {suit!r}")
        return E.SuitNotAllowed(
            f"a 9 names its own suit or its colour's other: {allowed[0]} or {allowed[1]}"
        )

    def _face_chain(self, rank: str) -> bool:
        """R11's running state after a card of ``rank`` is laid: jacks in a row, and the
        cards owed after a king. True for the first two cards after a king: they have
        no function and the same player plays on."""
        if self.jacks or (rank == "J" and self.rules.face_cards):
            self.jacks = self.jacks + 1 if rank == "J" else 0
        king = self.king_cards
        if not king:
            return False
        self.king_cards = king - 1
        return king > 1

    # R5, R6, R11: the function of each rank; each returns how many seats on the
    # turn passes (0: the same seat plays on).

    def _two(self, seat: int, card: str, ev: list[Event]) -> int:
        """R6: a 2 starts the count, or adds two to it."""
        self.count += 2
        ev.append(CountChanged(self.count))
        return 1

    def _ace(self, seat: int, card: str, ev: list[Event]) -> int:
        """R6: during the count an ace adds one to it; otherwise it has no function."""
        if self.count:
            self.count += 1
            ev.append(CountChanged(self.count))
        return 1

    def _four(self, seat: int, card: str, ev: list[Event]) -> int:
        """R5: a 4 skips the next player."""
        ev.append(Skipped((seat + self.direction) % self.players, _SKIP_FOUR))
        return 2

    def _five(self, seat: int, card: str, ev: list[Event]) -> int:
        """R5: every other player draws one card, in turn order."""
        n, d = self.players, self.direction
        for i in range(1, n):
            self._draw((seat + i * d) % n, 1, _BY_FIVE, ev)
        return 1

    def _six(self, seat: int, card: str, ev: list[Event]) -> int:
        """R5: the player must play again (or draw)."""
        self.again = True
        ev.append(PlayAgain(seat, 1))
        return 0

    def _seven(self, seat: int, card: str, ev: list[Event]) -> int:
        """R5: the player after next draws one card (the next one with 2–3 players or
        the option ``seven_hits_next``)."""
        n, d = self.players, self.direction
        ahead = 1 if n <= 3 or self.rules.seven_hits_next else 2
        self._draw((seat + ahead * d) % n, 1, _BY_SEVEN, ev)
        return 1

    def _ten(self, seat: int, card: str, ev: list[Event]) -> int:
        """R5: a 10 reverses the direction of play."""
        self.direction = -self.direction
        ev.append(Reversed(seat, self.direction))
        return 1

    def _jack(self, seat: int, card: str, ev: list[Event]) -> int:
        """R11: the next player draws two per jack in a row, and is skipped."""
        victim = (seat + self.direction) % self.players
        self._draw(victim, 2 * self.jacks, _BY_JACK, ev)
        ev.append(Skipped(victim, _SKIP_JACK))
        return 2

    def _queen(self, seat: int, card: str, ev: list[Event]) -> int:
        """R11: after the queen of spades the next player draws five and is skipped."""
        if card != QUEEN_OF_SPADES:
            return 1
        victim = (seat + self.direction) % self.players
        self._draw(victim, 5, _BY_QUEEN, ev)
        ev.append(Skipped(victim, _SKIP_QUEEN))
        return 2

    def _king(self, seat: int, card: str, ev: list[Event]) -> int:
        """R11: the player plays three more cards (or draws)."""
        self.king_cards = 3
        ev.append(PlayAgain(seat, 3))
        return 0

    def _pass_turn(self, seat: int, steps: int, ev: list[Event]) -> None:
        """Pass the turn ``steps`` seats on; seats owing a lost turn use it up (R7, R12)."""
        d = self.direction
        n = self.players
        t = (seat + steps * d) % n
        lost = self.lost_turns
        while lost[t]:
            lost[t] -= 1
            ev.append(Skipped(t, _SKIP_LOST_TURN))
            t = (t + d) % n
        self.turn = t

    def _draw(self, seat: int, k: int, reason: DrawReason, ev: list[Event]) -> list[str]:
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
            got = self._draw_short(seat, k, reason, ev)
        self.hands[seat] += got
        ev.append(Drew(seat, k, tuple(got), reason))
        return got

    def _draw_short(self, seat: int, k: int, reason: DrawReason, ev: list[Event]) -> list[str]:
        """:meth:`_draw` from a stock of fewer than ``k`` cards: card by card, the discard
        pile reshuffled each time the stock runs out (R10, R12).

        Raises:
            _HandOver: nothing was left to draw; the cards drawn so far are kept (R10).
        """
        stock = self.stock
        got: list[str] = []
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
        """Draw for want of a play (R4, R12), or take the count (R6)."""
        seat = action.seat
        self._check_turn(seat)
        if self.drawn is not None:
            raise E.MustPlayDrawnCard(f"play the card just drawn ({self.drawn}) or pass")
        allowed = self._allowed(seat)
        if not allowed.isdisjoint(self.hands[seat]):
            raise E.MustPlayCard(
                "you hold an ace or a two: you must follow the count (R12)"
                if self.count
                else "you hold a card you can play: you may not draw (R12)"
            )
        if self.unannounced:
            self.unannounced = []  # a draw on one's own turn is a game action (R7)
        if self.count:
            self._take_count(seat, ev)
            return
        reason = _BY_KING if self.king_cards else _BY_SIX if self.again else _BY_TURN
        if self.stock:  # _draw's work, inline for the common case
            card = self.stock.pop()
            self.hands[seat].append(card)
            ev.append(_new(Drew, (seat, 1, (card,), reason)))
        else:
            (card,) = self._draw(seat, 1, reason, ev)
        if self.rules.play_drawn_card and card in allowed:
            self.drawn = card
            return
        self.again = False
        self.king_cards = 0
        self._pass_turn(seat, 1, ev)

    def _take_count(self, seat: int, ev: list[Event]) -> None:
        """R6: ``seat`` draws the count, which ends; the turn passes on."""
        count = self.count
        self.count = 0
        ev.append(CountChanged(0))
        self._draw(seat, count, _BY_COUNT, ev)
        if not all(self.hands):
            raise _HandOver  # the count ended: players with no cards are out (R6)
        self._pass_turn(seat, 1, ev)

    def _pass(self, action: Pass, ev: list[Event]) -> None:
        """Keep the card just drawn and end the turn (R4, option ``play_drawn_card``)."""
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
        """Say "one card" (R7)."""
        seat = action.seat
        if seat not in self.unannounced:
            raise E.NothingToAnnounce(f"seat {seat} owes no 'one card' announcement (R7)")
        self.unannounced = [s for s in self.unannounced if s != seat]
        ev.append(Announced(seat))

    def _call_idiot(self, action: CallIdiot, ev: list[Event]) -> None:
        """Call idiot on a seat that owes an announcement: it draws two and loses a turn,
        or draws one with the option ``idiot_card`` (R7)."""
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
            self._draw(target, 1, _BY_IDIOT, ev)
        else:
            self.lost_turns[target] += 1
            self._draw(target, 2, _BY_IDIOT, ev)

    def _name_suit(self, action: NameSuit, ev: list[Event]) -> None:
        """The dealer names the suit for the turned-up 8 or 9 (R3)."""
        seat = action.seat
        if self.pending is None or seat != self.pending:
            raise E.NoChoicePending("there is no suit for you to name (R3)")
        card = self.discard[-1]
        suit = action.suit
        if suit not in _NAMEABLE[card]:
            raise self._suit_refused(card, suit)
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
        over = self.hand_number >= rules.hands
        low = min(self.scores)
        self.pending = None
        self.drawn = None
        self.unannounced = []
        self.phase = _GAME_OVER if over else _HAND_OVER
        self.result = HandEnded(
            self.hand_number,
            tuple(results),
            tuple(self.scores),
            tuple(self.pressure),
            (self.dealer + step) % self.players,
            over,
            tuple(s for s, v in enumerate(self.scores) if v == low) if over else (),
            tuple(self.hand_penalties),
        )
        ev.append(self.result)

    # -------------------------------------------------------------- positions

    def to_position(self) -> dict[str, Any]:
        """The position of the hand in play, in the vector format (all fields written).

        Card lists are copies; ``stock`` is top first. Loading one back is
        :func:`craits.server.ops.vectors.load_position`'s.
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
            "pending": None if self.pending is None else {ActionKind.NAME_SUIT: self.pending},
            "drawn": self.drawn,
        }


_new = tuple.__new__
"""An event (a named tuple) made from its fields' tuple: what its class's generated
``__new__`` does, without that extra Python call."""

_NO_FUNCTION = frozenset("389")
"""Ranks whose play has no function under any rules (R5; J, Q, K have one with
``face_cards``, and an ace during the count)."""

_Effect = Callable[[Game, int, str, list[Event]], int]

_EFFECTS: dict[str, _Effect] = {
    "2": Game._two,
    "A": Game._ace,
    "4": Game._four,
    "5": Game._five,
    "6": Game._six,
    "7": Game._seven,
    "T": Game._ten,
}
"""The function of each rank that has one (R5, R6); 3, 8, 9 and the faces have none."""

_FACE_EFFECTS: dict[str, _Effect] = {
    **_EFFECTS,
    "J": Game._jack,
    "Q": Game._queen,
    "K": Game._king,
}
"""With the option ``face_cards``, J, Q♠ and K have a function too (R11)."""


def _plays(seat: int, card: str, announcing: bool) -> tuple[Play, ...]:
    """The plays of ``card`` by ``seat``: one per suit it may name (R5), ±announce (R7)."""
    suits: Sequence[str | None] = suits_named_by(card) or (None,)
    plays = []
    for s in suits:
        plays.append(Play(seat, card, s))
        if announcing:
            plays.append(Play(seat, card, s, True))
    return tuple(plays)


_NAMEABLE: dict[str, tuple[str, ...]] = {c: tuple(suits_named_by(c)) for c in CARDS}
"""The suits each card may name (R3, R5; none but for 8s and 9s): :func:`suits_named_by`."""

_COUNT = frozenset(c for c in CARDS if c[0] in COUNT_RANKS)
"""The cards that follow the count (R6)."""
_ALONE = {c: frozenset((c,)) for c in CARDS}
"""Each card alone: what may be played after drawing it (R4, option ``play_drawn_card``)."""
_NONE: frozenset[str] = frozenset()
_MATCH = {
    suit: {
        rank: frozenset(
            c for c in CARDS if c[1] == suit or c[0] == rank or c[0] in SUIT_NAMING_RANKS
        )
        for rank in RANKS
    }
    for suit in SUITS
}
"""``_MATCH[suit in force][top rank]``: the cards that may be played outside the count (R4)."""

# Actions are immutable: legal_actions hands out these shared instances.
_PLAYS = [{c: _plays(s, c, False) for c in CARDS} for s in range(8)]
_PLAYS_ANNOUNCING = [{c: _plays(s, c, True) for c in CARDS} for s in range(8)]
_DRAWS = [Draw(s) for s in range(8)]
_PASSES = [Pass(s) for s in range(8)]
_ONE_CARD_CALLS: list[list[Action]] = [
    [Announce(s) if t == s else CallIdiot(s, t) for t in range(8)] for s in range(8)
]
"""``_ONE_CARD_CALLS[seat][target]``: announcing (target is seat) or calling idiot (R7)."""

_ACTION_TYPES = frozenset({Play, Draw, Pass, Announce, CallIdiot, NameSuit})
"""The action types :meth:`Game.apply` takes."""

if COLOUR_PARTNER.keys() != set(SUITS):
    raise RuntimeError("every suit needs its colour partner")
