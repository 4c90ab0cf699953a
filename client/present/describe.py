"""The game's events in words: "Ana played 7♥ — Ben drew a card".

Events are the server's maps (``{"event": kind, ...}``, protocol §9); names come
from the table, and are shown as plain text (never parsed as markup). One
method per :class:`~craits.protocol.vocab.EventKind` words it; the events of
the deal and the scoring are apart from the moves and what they cause.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
from rich.text import Text

from ..core.model import TableModel
from .card_style import CardStyle

DRAW_REASONS: dict[str, str] = {
    DrawReason.TURN: "",
    DrawReason.COUNT: " for the count",
    DrawReason.SIX: " after a 6",
    DrawReason.KING: " in a king's run",
    DrawReason.FIVE: " (a 5)",
    DrawReason.SEVEN: " (a 7)",
    DrawReason.IDIOT: " as the idiot penalty",
    DrawReason.JACK: " (a jack)",
    DrawReason.QUEEN: " (the queen of spades)",
}
"""Why a seat drew, in words after "drew a card"."""

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

SKIP_REASONS: dict[str, str] = {
    SkipReason.FOUR: "skipped by a 4",
    SkipReason.LOST_TURN: "loses a turn",
    SkipReason.JACK: "loses the turn to a jack",
    SkipReason.QUEEN: "loses the turn to the queen of spades",
}
"""Why a seat's turn was skipped, in words after its name."""

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
        return "You" if seat == self.me else self._name_of(seat)

    def _verb(self, seat: int, mine: str, theirs: str) -> str:
        return mine if seat == self.me else theirs

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
                lines[-1] = Text(" — ").join([lines[-1], text])
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
                return Text(f"Play now goes {self.style.direction(e['direction'])}")
            case EventKind.PLAY_AGAIN:
                return self._play_again(e)
            case EventKind.PASSED:
                return Text(f"{self.who(e['seat'])} kept the drawn card")
            case EventKind.ANNOUNCED:
                return Text(f'{self.who(e["seat"])}: "One card!"')
            case EventKind.IDIOT:
                target = self.who(e["target"]).replace("You", "you")
                return Text(f"{self.who(e['seat'])} called idiot on {target}", style="bold")

    # ------------------------------------------------------------ one per kind

    def _cut(self, e: CutEvent) -> Text:
        out = Text("Cut for the deal: ")
        for r, rnd in enumerate(e["rounds"]):
            if r:
                out.append("; again: ")
            for i, (seat, card) in enumerate(rnd):
                if i:
                    out.append(", ")
                out.append(f"{self.who(seat)} ")
                out.append_text(self.style.card(card))
        dealer = e["dealer"]
        out.append(f" — {self.who(dealer)} {self._verb(dealer, 'deal', 'deals')}")
        return out

    def _dealt(self, e: DealtEvent) -> Text:
        out = Text()
        out.append(f"Hand {e['hand_number']}: ", style="bold")
        dealer = e["dealer"]
        size = e["hand_size"]
        out.append(
            f"{self.who(dealer)} {self._verb(dealer, 'deal', 'deals')} "
            f"{size} card{'s' if size != 1 else ''} each"
        )
        return out

    def _turned_up(self, e: TurnedUpEvent) -> Text:
        out = Text(f"{self.who(e['seat'])} turned up ")
        out.append_text(self.style.card(e["card"]))
        return out

    def _played(self, e: PlayedEvent) -> Text:
        card = e["card"]
        out = Text(f"{self.who(e['seat'])} played ")
        out.append_text(self.style.card(card))
        if card[:1] in WILD_RANKS and e["suit"]:
            out.append(" and named ")
            out.append_text(self.style.suit_text(e["suit"]))
        if e["announced"]:
            out.append(' — "One card!"')
        return out

    def _suit_named(self, e: SuitNamedEvent) -> Text:
        out = Text(f"{self.who(e['seat'])} named ")
        out.append_text(self.style.suit_text(e["suit"]))
        return out

    def _drew(self, e: DrewEvent) -> Text:
        n = e["n"]
        cards = e["cards"]
        out = Text(f"{self.who(e['seat'])} drew ")
        if cards and n == 1:
            out.append_text(self.style.cards(list(cards)))
        else:
            out.append("a card" if n == 1 else f"{n} cards")
        out.append(DRAW_REASONS.get(e["reason"], ""))
        if cards and n != 1:  # how many first (a count can take a dozen), then which
            out.append(": ")
            out.append_text(self.style.cards(list(cards)))
        return out

    def _shuffle_penalty(self, e: ShufflePenaltyEvent) -> Text:
        seat = e["seat"]
        penalty = e["penalty"]
        if e["stock_size"]:
            return Text(
                f"{self.who(seat)} shuffled the discard pile into a new stock: "
                f"{penalty}-point penalty"
            )
        return Text(
            f"Nothing left to draw: {self.who(seat)} pay{'s' if seat != self.me else ''}"
            f" a {penalty}-point penalty and the hand ends"
        )

    @staticmethod
    def _count(count: int) -> Text:
        if count:
            return Text(f"The count is {count}", style="bold")
        return Text("The count is over")

    def _skipped(self, e: SkippedEvent) -> Text:
        seat = e["seat"]
        what = SKIP_REASONS.get(e["reason"], "skipped")
        if seat == self.me:
            what = what.replace("loses", "lose").replace("skipped", "are skipped")
            return Text(f"You {what}")
        return Text(f"{self.who(seat)} {'is ' if what.startswith('skipped') else ''}{what}")

    def _play_again(self, e: PlayAgainEvent) -> Text:
        seat = e["seat"]
        cards = e["cards"]
        if cards > 1:
            return Text(f"{self.who(seat)} must play {cards} more cards (a king)")
        return Text(f"{self.who(seat)} {self._verb(seat, 'play', 'plays')} again")

    def _hand_ended(self, e: HandEndedEvent) -> Text:
        out = Text()
        out.append(f"Hand {e['hand_number']} is over", style="bold")
        gone = [r["seat"] for r in e["results"] if r["went_out"]]
        if gone:
            out.append(" — " + ", ".join(self.who(g) for g in gone) + " went out")
        if e["game_over"]:
            winners = e["winners"]
            names = ", ".join(self.who(w) for w in winners)
            single = len(winners) == 1 and winners[0] != self.me
            out.append(f". Game over: {names} win{'s' if single else ''}!")
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
            prefix = Text("Time's up — the server played for you: ", style="bold")
        else:
            prefix = Text(f"Time's up — the server played for {model.name_of(seat)}: ")
        if lines:
            return [prefix + lines[0], *lines[1:]]
        return [prefix]
