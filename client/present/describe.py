"""The game's events in words: "Ana played 7♥ — Ben drew a card".

Events are the server's maps (``{"event": kind, ...}``, protocol §9); names come
from the table, and are shown as plain text (never parsed as markup). One
method per :class:`~craits.protocol.vocab.EventKind` words it; the events of
the deal and the scoring are apart from the moves and what they cause.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from craits.protocol.i18n import LazyString, _, _l, lazy_pgettext, ngettext
from craits.protocol.types import (
    AnnouncedEvent,
    CountEvent,
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
    TurnedUpEvent,
    WireEvent,
)
from craits.protocol.vocab import DrawReason, EventKind, SkipReason
from craits.protocol.words import word_list
from rich.text import Text

from ..core.model import TableModel
from .card_style import CardStyle
from .phrases import fill

DRAW_REASONS: dict[str, LazyString] = {
    # TRANSLATORS: why a seat drew, after "Ana drew a card" in the game log
    DrawReason.COUNT: lazy_pgettext("drew", "for the count"),
    DrawReason.SIX: lazy_pgettext("drew", "after a 6"),
    DrawReason.KING: lazy_pgettext("drew", "in a king's run"),
    DrawReason.FIVE: lazy_pgettext("drew", "(a 5)"),
    DrawReason.SEVEN: lazy_pgettext("drew", "(a 7)"),
    DrawReason.IDIOT: lazy_pgettext("drew", "as the idiot penalty"),
    DrawReason.JACK: lazy_pgettext("drew", "(a jack)"),
    DrawReason.QUEEN: lazy_pgettext("drew", "(the queen of spades)"),
}
"""Why a seat drew, in words after "drew a card" (none for a turn's own draw)."""

OWN_DRAWS = frozenset({DrawReason.TURN, DrawReason.COUNT, DrawReason.SIX, DrawReason.KING})
"""Draws that are a seat's own move (they start a line), not the effect of another's card."""

NEW_LINE = frozenset(
    {
        EventKind.CUT,
        EventKind.DEALT,
        EventKind.PLAYED,
        EventKind.SUIT_NAMED,
        EventKind.PASSED,
        EventKind.ANNOUNCED,
        EventKind.IDIOT,
        EventKind.HAND_ENDED,
    }
)
"""Events that start a new line of the log (a move, or a new stage of the game)."""

SKIP_REASONS: dict[str, tuple[LazyString, LazyString]] = {
    SkipReason.FOUR: (_l("You are skipped by a 4"), _l("{player} is skipped by a 4")),
    SkipReason.LOST_TURN: (_l("You lose a turn"), _l("{player} loses a turn")),
    SkipReason.JACK: (_l("You lose the turn to a jack"), _l("{player} loses the turn to a jack")),
    SkipReason.QUEEN: (
        _l("You lose the turn to the queen of spades"),
        _l("{player} loses the turn to the queen of spades"),
    ),
}
"""Why a seat's turn was skipped: this client's sentence, and another's."""

WILD_RANKS = ("8", "9")
"""Ranks whose play names a suit (R5): the log says which."""


class Describer:
    """Turns events into short sentences for one seat's (or a spectator's) log.

    Args:
        style: how cards and suits are written.
        name_of: the name at a seat.
        me: this client's seat (``You``), or None when watching.
    """

    def __init__(self, style: CardStyle, name_of: Callable[[int | None], str], me: int | None):
        self.style = style
        self._name_of = name_of
        self.me = me

    def who(self, seat: int | None) -> str:
        """``You`` for this seat, else the seat's name (``?`` if no seat)."""
        if seat is None:
            return "?"
        return _("You") if seat == self.me else self._name_of(seat)

    def _said(
        self, seat: int | None, mine: str, theirs: str, style: str = "", **parts: str | Text
    ) -> Text:
        """``mine`` (this client's seat's sentence, already translated) or
        ``theirs`` ({player} the seat's name), filled with ``parts``."""
        if seat is not None and seat == self.me:
            return fill(mine, style, **parts)
        return fill(theirs, style, player=self.who(seat), **parts)

    def event(self, e: WireEvent) -> Text:
        """One event in words."""
        match e["event"]:
            case (
                EventKind.CUT
                | EventKind.DEALT
                | EventKind.TURNED_UP
                | EventKind.SHUFFLE_PENALTY
                | EventKind.COUNT
                | EventKind.HAND_ENDED
            ):
                return self._stage(e)
            case _:
                return self._move(e)

    def update(self, events: Sequence[WireEvent]) -> list[Text]:
        """The events of one update as lines: each move starts a line, and what it
        caused follows it after a dash ("Ana played 7♥ — Ben drew a card (a 7)")."""
        lines: list[Text] = []
        for e in events:
            text = self.event(e)
            if not lines or self._starts_line(e):
                lines.append(text)
            else:
                lines[-1] = Text(" — ").join([lines[-1], text])  # a dash between clauses
        return lines

    @staticmethod
    def _starts_line(e: WireEvent) -> bool:
        if e["event"] in NEW_LINE:
            return True
        return e["event"] == EventKind.DREW and e["reason"] in OWN_DRAWS

    def _stage(
        self,
        e: CutEvent
        | DealtEvent
        | TurnedUpEvent
        | ShufflePenaltyEvent
        | CountEvent
        | HandEndedEvent,
    ) -> Text:
        """An event of the deal, the stock or the scoring in words."""
        match e["event"]:
            case EventKind.CUT:
                return self._cut(e)
            case EventKind.DEALT:
                return self._dealt(e)
            case EventKind.TURNED_UP:
                return self._turned_up(e)
            case EventKind.SHUFFLE_PENALTY:
                return self._shuffle_penalty(e)
            case EventKind.COUNT:
                return self._count(e["count"])
            case EventKind.HAND_ENDED:
                return self._hand_ended(e)

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
    ) -> Text:
        """A move, or what a move caused, in words."""
        match e["event"]:
            case EventKind.PLAYED:
                return self._played(e)
            case EventKind.SUIT_NAMED:
                return self._suit_named(e)
            case EventKind.DREW:
                return self._drew(e)
            case EventKind.SKIPPED:
                return self._skipped(e)
            case EventKind.REVERSED:
                where = self.style.direction(e["direction"])
                return fill(_("Play now goes {direction}"), direction=where)
            case EventKind.PLAY_AGAIN:
                return self._play_again(e)
            case EventKind.PASSED:
                return self._said(
                    e["seat"], _("You kept the drawn card"), _("{player} kept the drawn card")
                )
            case EventKind.ANNOUNCED:
                return self._said(e["seat"], _('You: "One card!"'), _('{player}: "One card!"'))
            case EventKind.IDIOT:
                return self._idiot(e)

    # ------------------------------------------------------------ one per kind

    def _cut(self, e: CutEvent) -> Text:
        rounds = []
        for rnd in e["rounds"]:
            cuts = [
                fill(_("{player} {card}"), player=self.who(seat), card=self.style.card(card))
                for seat, card in rnd
            ]
            rounds.append(Text(", ").join(cuts))
        cut = Text("; ").join(rounds)
        dealer = e["dealer"]
        return self._said(
            dealer,
            _("Cut for the deal: {cuts} — you deal"),
            _("Cut for the deal: {cuts} — {player} deals"),
            cuts=cut,
        )

    def _dealt(self, e: DealtEvent) -> Text:
        dealer, size = e["dealer"], e["hand_size"]
        hand = Text(_("Hand {hand}:").format(hand=e["hand_number"]), style="bold")
        mine = ngettext(
            "{hand_no} You deal {n} card each", "{hand_no} You deal {n} cards each", size
        )
        theirs = ngettext(
            "{hand_no} {player} deals {n} card each",
            "{hand_no} {player} deals {n} cards each",
            size,
        )
        return self._said(dealer, mine, theirs, hand_no=hand, n=str(size))

    def _turned_up(self, e: TurnedUpEvent) -> Text:
        return self._said(
            e["seat"],
            _("You turned up {card}"),
            _("{player} turned up {card}"),
            card=self.style.card(e["card"]),
        )

    def _played(self, e: PlayedEvent) -> Text:
        card, seat = e["card"], e["seat"]
        shown = self.style.card(card)
        if card[:1] in WILD_RANKS and e["suit"]:
            out = self._said(
                seat,
                _("You played {card} and named {suit}"),
                _("{player} played {card} and named {suit}"),
                card=shown,
                suit=self.style.suit_text(e["suit"]),
            )
        else:
            out = self._said(seat, _("You played {card}"), _("{player} played {card}"), card=shown)
        if e["announced"]:
            out.append(" — ")
            out.append(_('"One card!"'))
        return out

    def _suit_named(self, e: SuitNamedEvent) -> Text:
        suit = self.style.suit_text(e["suit"])
        return self._said(e["seat"], _("You named {suit}"), _("{player} named {suit}"), suit=suit)

    def _drew(self, e: DrewEvent) -> Text:
        n, cards, seat = e["n"], e["cards"], e["seat"]
        if cards and n == 1:
            out = self._said(
                seat,
                _("You drew {card}"),
                _("{player} drew {card}"),
                card=self.style.cards(list(cards)),
            )
        else:
            out = self._said(
                seat,
                ngettext("You drew a card", "You drew {n} cards", n),
                ngettext("{player} drew a card", "{player} drew {n} cards", n),
                n=str(n),
            )
        reason = DRAW_REASONS.get(e["reason"])
        if reason is not None:
            out.append(" ")
            out.append(str(reason))
        if cards and n != 1:  # how many first (a count can take a dozen), then which
            out.append(": ")
            out.append_text(self.style.cards(list(cards)))
        return out

    def _shuffle_penalty(self, e: ShufflePenaltyEvent) -> Text:
        seat, penalty = e["seat"], e["penalty"]
        if e["stock_size"]:
            mine = ngettext(
                "You shuffled the discard pile into a new stock: {n}-point penalty",
                "You shuffled the discard pile into a new stock: {n}-point penalty",
                penalty,
            )
            theirs = ngettext(
                "{player} shuffled the discard pile into a new stock: {n}-point penalty",
                "{player} shuffled the discard pile into a new stock: {n}-point penalty",
                penalty,
            )
        else:
            mine = ngettext(
                "Nothing left to draw: you pay a {n}-point penalty and the hand ends",
                "Nothing left to draw: you pay a {n}-point penalty and the hand ends",
                penalty,
            )
            theirs = ngettext(
                "Nothing left to draw: {player} pays a {n}-point penalty and the hand ends",
                "Nothing left to draw: {player} pays a {n}-point penalty and the hand ends",
                penalty,
            )
        return self._said(seat, mine, theirs, n=str(penalty))

    @staticmethod
    def _count(count: int) -> Text:
        if count:
            return fill(_("The count is {n}"), "bold", n=str(count))
        return Text(_("The count is over"))

    def _skipped(self, e: SkippedEvent) -> Text:
        forms = SKIP_REASONS.get(e["reason"])
        if forms is None:
            return self._said(e["seat"], _("You are skipped"), _("{player} is skipped"))
        return self._said(e["seat"], str(forms[0]), str(forms[1]))

    def _play_again(self, e: PlayAgainEvent) -> Text:
        seat, cards = e["seat"], e["cards"]
        if cards > 1:
            return self._said(
                seat,
                ngettext(
                    "You must play {n} more card (a king)",
                    "You must play {n} more cards (a king)",
                    cards,
                ),
                ngettext(
                    "{player} must play {n} more card (a king)",
                    "{player} must play {n} more cards (a king)",
                    cards,
                ),
                n=str(cards),
            )
        return self._said(seat, _("You play again"), _("{player} plays again"))

    def _idiot(self, e: IdiotEvent) -> Text:
        seat, target = e["seat"], e["target"]
        if seat == self.me:
            return fill(_("You called idiot on {target}"), "bold", target=self.who(target))
        if target == self.me:
            return fill(_("{player} called idiot on you"), "bold", player=self.who(seat))
        said = _("{player} called idiot on {target}")
        return fill(said, "bold", player=self.who(seat), target=self.who(target))

    def _hand_ended(self, e: HandEndedEvent) -> Text:
        out = fill(_("Hand {hand} is over"), "bold", hand=str(e["hand_number"]))
        gone = [r["seat"] for r in e["results"] if r["went_out"]]
        if gone:
            out.append(" — ")
            went = ngettext("{players} went out", "{players} went out", len(gone))
            out.append(went.format(players=word_list([self.who(g) for g in gone])))
        if e["game_over"]:
            winners = e["winners"]
            out.append(". ")
            if winners == [self.me]:
                out.append(_("Game over: you win!"))
            else:
                names = word_list([self.who(w) for w in winners])
                won = ngettext(
                    "Game over: {players} wins!", "Game over: {players} win!", len(winners)
                )
                out.append(won.format(players=names))
        return out


class Narrator:
    """The event log's words (the core's :class:`~craits.client.core.session.Narration`):
    a table's events as its seat (or a spectator) reads them, and a timeout move led
    by whom the server played for.

    Args:
        style: how cards are written.
    """

    def __init__(self, style: CardStyle):
        self.style = style

    def events(self, model: TableModel, events: Sequence[WireEvent]) -> list[Text]:
        """``events`` in lines of words (:meth:`Describer.update`) for ``model``'s seat."""
        return Describer(self.style, model.name_of, model.seat).update(events)

    def timed_out(self, model: TableModel, seat: int, lines: list[Text]) -> list[Text]:
        """``lines`` (a timeout move's, in words) led by whom the server played for."""
        if seat == model.seat:
            prefix = Text(_("Time's up — the server played for you:") + " ", style="bold")
        else:
            said = _("Time's up — the server played for {player}:").format(
                player=model.name_of(seat)
            )
            prefix = Text(said + " ")
        if lines:
            return [prefix + lines[0], *lines[1:]]
        return [prefix]
