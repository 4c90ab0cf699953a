"""The game's events as sentences to be read aloud: one sentence per event, in the
player's language (:mod:`craits.protocol.i18n`), cards named in words ("Ben played
the seven of hearts."), never a suit by its symbol alone.

Each sentence is one translated message with named placeholders; the player's own
moves have their own messages ("You drew…", "Ben drew…"), since a verb agrees
with its subject in German and Greek.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from craits.protocol.i18n import LazyPlural, _, lazy_ngettext, ngettext
from craits.protocol.types import (
    AnnouncedEvent,
    CutEvent,
    DealtEvent,
    DrewEvent,
    HandEndedEvent,
    IdiotEvent,
    PassedEvent,
    PlayAgainEvent,
    PlayedEvent,
    ReversedEvent,
    ShufflePenaltyEvent,
    SkippedEvent,
    SuitNamedEvent,
    WireEvent,
)
from craits.protocol.vocab import DrawReason, EventKind, SkipReason
from craits.protocol.words import CLOCKWISE, COUNTER_CLOCKWISE, card_name, suit_name, word_list


def cards_in_words(cards: Sequence[str]) -> str:
    """Cards named in words, as one list ("seven of hearts and ace of spades")."""
    return word_list([card_name(c) for c in cards])


class Voice:
    """Who is who in a sentence: this client's seat is "you", the others their names.

    Args:
        name_of: the name at a seat.
        me: this client's seat, or None when watching.
    """

    def __init__(self, name_of: Callable[[int | None], str], me: int | None):
        self.name_of = name_of
        self.me = me

    def mine(self, seat: int | None) -> bool:
        """Whether ``seat`` is this client's."""
        return seat is not None and seat == self.me

    def who(self, seat: int | None) -> str:
        """The name at ``seat``, or "you" for this client's seat (inside a list)."""
        return _("you") if self.mine(seat) else self.name_of(seat)


class Tallies(Voice):
    """What the stock and the score do, in sentences: draws, shuffle penalties,
    the count, the end of a hand and of the game."""

    # ------------------------------------------------------------ drawing

    def drew(self, e: DrewEvent) -> list[str]:
        """A draw, and the cards drawn when the receiver may see them."""
        seat, n, cards = e["seat"], e["n"], e["cards"]
        said = self._drew_mine(e["reason"], n) if self.mine(seat) else None
        if said is None:
            said = self._drew_theirs(e["reason"], n).format(n=n, player=self.name_of(seat))
        if cards:
            return [said, _("Drawn: {cards}.").format(cards=cards_in_words(cards))]
        return [said]

    @staticmethod
    def _drew_mine(reason: str, n: int) -> str | None:
        """This client's draw, by its reason (None: one without a sentence of its own)."""
        forms: dict[str, LazyPlural] = {
            DrawReason.TURN: lazy_ngettext("You draw {n} card.", "You draw {n} cards."),
            DrawReason.COUNT: lazy_ngettext(
                "You draw {n} card for the count.", "You draw {n} cards for the count."
            ),
            DrawReason.SIX: lazy_ngettext(
                "You draw {n} card after a six.", "You draw {n} cards after a six."
            ),
            DrawReason.KING: lazy_ngettext(
                "You draw {n} card in a king's run.", "You draw {n} cards in a king's run."
            ),
            DrawReason.FIVE: lazy_ngettext(
                "You draw {n} card for the five.", "You draw {n} cards for the five."
            ),
            DrawReason.SEVEN: lazy_ngettext(
                "You draw {n} card for the seven.", "You draw {n} cards for the seven."
            ),
            DrawReason.IDIOT: lazy_ngettext(
                "You draw {n} card as the idiot penalty.",
                "You draw {n} cards as the idiot penalty.",
            ),
            DrawReason.JACK: lazy_ngettext(
                "You draw {n} card for the jack.", "You draw {n} cards for the jack."
            ),
            DrawReason.QUEEN: lazy_ngettext(
                "You draw {n} card for the queen of spades.",
                "You draw {n} cards for the queen of spades.",
            ),
        }
        form = forms.get(reason)
        return None if form is None else form.count(n)

    @staticmethod
    def _drew_theirs(reason: str, n: int) -> str:
        """Another seat's draw, by its reason, its placeholders ``{player}`` and ``{n}``."""
        forms: dict[str, LazyPlural] = {
            DrawReason.COUNT: lazy_ngettext(
                "{player} draws {n} card for the count.", "{player} draws {n} cards for the count."
            ),
            DrawReason.SIX: lazy_ngettext(
                "{player} draws {n} card after a six.", "{player} draws {n} cards after a six."
            ),
            DrawReason.KING: lazy_ngettext(
                "{player} draws {n} card in a king's run.",
                "{player} draws {n} cards in a king's run.",
            ),
            DrawReason.FIVE: lazy_ngettext(
                "{player} draws {n} card for the five.", "{player} draws {n} cards for the five."
            ),
            DrawReason.SEVEN: lazy_ngettext(
                "{player} draws {n} card for the seven.", "{player} draws {n} cards for the seven."
            ),
            DrawReason.IDIOT: lazy_ngettext(
                "{player} draws {n} card as the idiot penalty.",
                "{player} draws {n} cards as the idiot penalty.",
            ),
            DrawReason.JACK: lazy_ngettext(
                "{player} draws {n} card for the jack.", "{player} draws {n} cards for the jack."
            ),
            DrawReason.QUEEN: lazy_ngettext(
                "{player} draws {n} card for the queen of spades.",
                "{player} draws {n} cards for the queen of spades.",
            ),
        }
        form = forms.get(reason)
        if form is None:
            return ngettext("{player} draws {n} card.", "{player} draws {n} cards.", n)
        return ngettext(form.singular, form.plural, n)

    # ------------------------------------------------------------ the stock, the score

    def shuffle_penalty(self, e: ShufflePenaltyEvent) -> str:
        """A shuffle penalty (R10): a new stock, or the hand's end."""
        seat, points = e["seat"], e["penalty"]
        player = self.name_of(seat)
        if e["stock_size"] and self.mine(seat):
            return ngettext(
                "You shuffle the discard pile into a new stock: a penalty of {n} point.",
                "You shuffle the discard pile into a new stock: a penalty of {n} points.",
                points,
            ).format(n=points)
        if e["stock_size"]:
            return ngettext(
                "{player} shuffles the discard pile into a new stock: a penalty of {n} point.",
                "{player} shuffles the discard pile into a new stock: a penalty of {n} points.",
                points,
            ).format(n=points, player=player)
        if self.mine(seat):
            return ngettext(
                "Nothing is left to draw: you pay a penalty of {n} point and the hand ends.",
                "Nothing is left to draw: you pay a penalty of {n} points and the hand ends.",
                points,
            ).format(n=points)
        return ngettext(
            "Nothing is left to draw: {player} pays a penalty of {n} point and the hand ends.",
            "Nothing is left to draw: {player} pays a penalty of {n} points and the hand ends.",
            points,
        ).format(n=points, player=player)

    @staticmethod
    def count(count: int) -> str:
        """The count (R6), or its end."""
        if count:
            return _("The count is {count}.").format(count=count)
        return _("The count is over.")

    def hand_ended(self, e: HandEndedEvent) -> list[str]:
        """A hand's end: who went out, and the winners when the game is over."""
        out = [_("Hand {hand} is over.").format(hand=e["hand_number"])]
        gone = [r["seat"] for r in e["results"] if r["went_out"]]
        if gone == [self.me]:
            out.append(_("You went out."))
        elif gone:
            names = word_list([self.who(g) for g in gone])
            out.append(
                ngettext("{players} went out.", "{players} went out.", len(gone)).format(
                    players=names
                )
            )
        if e["game_over"]:
            out.append(self._winners(e["winners"]))
        return out

    def _winners(self, winners: list[int]) -> str:
        if winners == [self.me]:
            return _("The game is over: you win!")
        if len(winners) == 1:
            return _("The game is over: {player} wins!").format(player=self.name_of(winners[0]))
        return _("The game is over: {players} win!").format(
            players=word_list([self.who(w) for w in winners])
        )


class Sentences(Voice):
    """A table's events in sentences, for one seat (``You``) or a spectator.

    Args:
        name_of: the name at a seat.
        me: this client's seat, or None when watching.
    """

    def __init__(self, name_of: Callable[[int | None], str], me: int | None):
        super().__init__(name_of, me)
        self.tallies = Tallies(name_of, me)

    def events(self, events: Sequence[WireEvent]) -> list[str]:
        """Each event's sentence (an event may say nothing, or two sentences)."""
        out: list[str] = []
        for e in events:
            out += self.event(e)
        return out

    def event(self, e: WireEvent) -> list[str]:
        """One event's sentences (protocol §9)."""
        match e["event"]:
            case EventKind.CUT:
                return [self._cut(e)]
            case EventKind.DEALT:
                return [self._dealt(e)]
            case EventKind.TURNED_UP:
                return [self._mine_or(e["seat"], "turned_up", e["card"])]
            case EventKind.SHUFFLE_PENALTY:
                return [self.tallies.shuffle_penalty(e)]
            case EventKind.COUNT:
                return [self.tallies.count(e["count"])]
            case EventKind.HAND_ENDED:
                return self.tallies.hand_ended(e)
            case _:
                return self._move(e)

    def _move(
        self,
        e: PlayedEvent
        | SuitNamedEvent
        | DrewEvent
        | SkippedEvent
        | ReversedEvent
        | PlayAgainEvent
        | PassedEvent
        | AnnouncedEvent
        | IdiotEvent,
    ) -> list[str]:
        """A move, or what a move caused, in sentences."""
        match e["event"]:
            case EventKind.PLAYED:
                return self._played(e)
            case EventKind.SUIT_NAMED:
                return [self._named(e["seat"], e["suit"])]
            case EventKind.DREW:
                return self.tallies.drew(e)
            case EventKind.SKIPPED:
                return [self._skipped(e)]
            case EventKind.REVERSED:
                return [self._reversed(e["direction"])]
            case EventKind.PLAY_AGAIN:
                return [self._play_again(e)]
            case EventKind.PASSED:
                return [self._mine_or(e["seat"], "passed")]
            case EventKind.ANNOUNCED:
                return [self._one_card(e["seat"])]
            case EventKind.IDIOT:
                return [self._idiot(e)]

    # ------------------------------------------------------------ helpers

    def _mine_or(self, seat: int, what: str, card: str = "") -> str:
        """A simple move of ``seat`` in a sentence (its own if this client's)."""
        player, card = self.name_of(seat), card_name(card) if card else ""
        mine = self.mine(seat)
        if what == "turned_up":
            if mine:
                return _("You turned up the {card}.").format(card=card)
            return _("{player} turned up the {card}.").format(player=player, card=card)
        if mine:
            return _("You kept the drawn card.")
        return _("{player} kept the drawn card.").format(player=player)

    # ------------------------------------------------------------ the deal

    def _cut(self, e: CutEvent) -> str:
        dealer = e["dealer"]
        if self.mine(dealer):
            return _("The cut for the deal is done: you deal.")
        return _("The cut for the deal is done: {player} deals.").format(
            player=self.name_of(dealer)
        )

    def _dealt(self, e: DealtEvent) -> str:
        dealer, n, hand = e["dealer"], e["hand_size"], e["hand_number"]
        if self.mine(dealer):
            return ngettext(
                "Hand {hand}: you deal {n} card to each player.",
                "Hand {hand}: you deal {n} cards to each player.",
                n,
            ).format(hand=hand, n=n)
        return ngettext(
            "Hand {hand}: {player} deals {n} card to each player.",
            "Hand {hand}: {player} deals {n} cards to each player.",
            n,
        ).format(hand=hand, n=n, player=self.name_of(dealer))

    # ------------------------------------------------------------ moves

    def _played(self, e: PlayedEvent) -> list[str]:
        seat, card = e["seat"], card_name(e["card"])
        player = self.name_of(seat)
        suit = e["suit"] if e["card"][:1] in ("8", "9") else None
        if suit and self.mine(seat):
            said = _("You played the {card} and named {suit}.").format(
                card=card, suit=suit_name(suit)
            )
        elif suit:
            said = _("{player} played the {card} and named {suit}.").format(
                player=player, card=card, suit=suit_name(suit)
            )
        elif self.mine(seat):
            said = _("You played the {card}.").format(card=card)
        else:
            said = _("{player} played the {card}.").format(player=player, card=card)
        return [said, self._one_card(seat)] if e["announced"] else [said]

    def _named(self, seat: int, suit: str) -> str:
        if self.mine(seat):
            return _("You named {suit}.").format(suit=suit_name(suit))
        return _("{player} named {suit}.").format(player=self.name_of(seat), suit=suit_name(suit))

    def _one_card(self, seat: int) -> str:
        if self.mine(seat):
            return _("You say: one card!")
        return _("{player} says: one card!").format(player=self.name_of(seat))

    def _idiot(self, e: IdiotEvent) -> str:
        seat, target = e["seat"], e["target"]
        if self.mine(seat):
            return _("You called idiot on {target}.").format(target=self.name_of(target))
        if self.mine(target):
            return _("{player} called idiot on you.").format(player=self.name_of(seat))
        return _("{player} called idiot on {target}.").format(
            player=self.name_of(seat), target=self.name_of(target)
        )

    def _reversed(self, direction: int) -> str:
        way = CLOCKWISE if direction >= 0 else COUNTER_CLOCKWISE
        return _("Play now goes {direction}.").format(direction=way)

    def _play_again(self, e: PlayAgainEvent) -> str:
        seat, n = e["seat"], e["cards"]
        if n > 1 and self.mine(seat):
            return ngettext(
                "You must play {n} more card (a king).",
                "You must play {n} more cards (a king).",
                n,
            ).format(n=n)
        if n > 1:
            return ngettext(
                "{player} must play {n} more card (a king).",
                "{player} must play {n} more cards (a king).",
                n,
            ).format(n=n, player=self.name_of(seat))
        if self.mine(seat):
            return _("You play again.")
        return _("{player} plays again.").format(player=self.name_of(seat))

    def _skipped(self, e: SkippedEvent) -> str:
        seat, reason = e["seat"], e["reason"]
        if self.mine(seat):
            mine = {
                SkipReason.FOUR: _("A four skips you."),
                SkipReason.LOST_TURN: _("You lose a turn."),
                SkipReason.JACK: _("You lose your turn to a jack."),
                SkipReason.QUEEN: _("You lose your turn to the queen of spades."),
            }
            return mine.get(reason, _("You are skipped."))
        theirs = {
            SkipReason.FOUR: _("A four skips {player}."),
            SkipReason.LOST_TURN: _("{player} loses a turn."),
            SkipReason.JACK: _("{player} loses the turn to a jack."),
            SkipReason.QUEEN: _("{player} loses the turn to the queen of spades."),
        }
        return theirs.get(reason, _("{player} is skipped.")).format(player=self.name_of(seat))

    def timed_out(self, seat: int) -> str:
        """Whom the server played for when a turn's time ran out."""
        if self.mine(seat):
            return _("Time is up: the server played for you.")
        return _("Time is up: the server played for {player}.").format(player=self.name_of(seat))
