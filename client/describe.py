"""The game's events in words: "Ana played 7♥ — Ben drew a card".

Events are the server's maps (``{"event": kind, ...}``, protocol §9); names come
from the table, and are shown as plain text (never parsed as markup). One
method per :class:`~craits.protocol.vocab.EventKind` words it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from craits.protocol.vocab import DrawReason, EventKind, SkipReason
from rich.text import Text

from .cards import CardStyle

Event = Mapping[str, Any]
"""One event as the server sends it."""

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
        self._words: dict[str, Callable[[Event], Text]] = {
            EventKind.CUT: self._cut,
            EventKind.DEALT: self._dealt,
            EventKind.TURNED_UP: self._turned_up,
            EventKind.PLAYED: self._played,
            EventKind.SUIT_NAMED: self._suit_named,
            EventKind.DREW: self._drew,
            EventKind.SHUFFLE_PENALTY: self._shuffle_penalty,
            EventKind.COUNT: self._count,
            EventKind.SKIPPED: self._skipped,
            EventKind.REVERSED: self._reversed,
            EventKind.PLAY_AGAIN: self._play_again,
            EventKind.PASSED: self._passed,
            EventKind.ANNOUNCED: self._announced,
            EventKind.IDIOT: self._idiot,
            EventKind.HAND_ENDED: self._hand_ended,
        }

    def who(self, seat: object) -> str:
        """``You`` for this seat, else the seat's name (``?`` if not a seat)."""
        if not isinstance(seat, int):
            return "?"
        return "You" if seat == self.me else self._name_of(seat)

    def _verb(self, seat: object, mine: str, theirs: str) -> str:
        return mine if seat == self.me else theirs

    def event(self, e: Event) -> Text | None:
        """One event in words, or None for events not worth a line."""
        words = self._words.get(str(e.get("event")))
        return words(e) if words is not None else None

    def update(self, events: list[Event]) -> list[Text]:
        """The events of one update as lines: each move starts a line, and what it
        caused follows it after a dash ("Ana played 7♥ — Ben drew a card (a 7)")."""
        lines: list[Text] = []
        for e in events:
            text = self.event(e)
            if text is None:
                continue
            if not lines or self._starts_line(e):
                lines.append(text)
            else:
                lines[-1] = Text(" — ").join([lines[-1], text])
        return lines

    @staticmethod
    def _starts_line(e: Event) -> bool:
        kind = e.get("event")
        if kind in NEW_LINE:
            return True
        return kind == EventKind.DREW and e.get("reason") in OWN_DRAWS

    # ------------------------------------------------------------ one per kind

    def _cut(self, e: Event) -> Text:
        out = Text("Cut for the deal: ")
        for r, rnd in enumerate(e.get("rounds") or []):
            if r:
                out.append("; again: ")
            for i, (seat, card) in enumerate(rnd):
                if i:
                    out.append(", ")
                out.append(f"{self.who(seat)} ")
                out.append_text(self.style.card(card))
        dealer = e.get("dealer")
        out.append(f" — {self.who(dealer)} {self._verb(dealer, 'deal', 'deals')}")
        return out

    def _dealt(self, e: Event) -> Text:
        out = Text()
        out.append(f"Hand {e.get('hand_number')}: ", style="bold")
        dealer = e.get("dealer")
        size = e.get("hand_size")
        out.append(
            f"{self.who(dealer)} {self._verb(dealer, 'deal', 'deals')} "
            f"{size} card{'s' if size != 1 else ''} each"
        )
        return out

    def _turned_up(self, e: Event) -> Text:
        out = Text(f"{self.who(e.get('seat'))} turned up ")
        out.append_text(self.style.card(e.get("card", "")))
        return out

    def _played(self, e: Event) -> Text:
        card = str(e.get("card", ""))
        out = Text(f"{self.who(e.get('seat'))} played ")
        out.append_text(self.style.card(card))
        if card[:1] in WILD_RANKS and e.get("suit"):
            out.append(" and named ")
            out.append_text(self.style.suit_text(e["suit"]))
        if e.get("announced"):
            out.append(' — "One card!"')
        return out

    def _suit_named(self, e: Event) -> Text:
        out = Text(f"{self.who(e.get('seat'))} named ")
        out.append_text(self.style.suit_text(e.get("suit", "")))
        return out

    def _drew(self, e: Event) -> Text:
        n = e.get("n", 1)
        cards = e.get("cards")
        out = Text(f"{self.who(e.get('seat'))} drew ")
        if cards:
            out.append_text(self.style.cards(list(cards)))
        else:
            out.append("a card" if n == 1 else f"{n} cards")
        out.append(DRAW_REASONS.get(str(e.get("reason")), ""))
        return out

    def _shuffle_penalty(self, e: Event) -> Text:
        seat = e.get("seat")
        penalty = e.get("penalty")
        if e.get("stock_size"):
            return Text(
                f"{self.who(seat)} shuffled the discard pile into a new stock: "
                f"{penalty}-point penalty"
            )
        return Text(
            f"Nothing left to draw: {self.who(seat)} pay{'s' if seat != self.me else ''}"
            f" a {penalty}-point penalty and the hand ends"
        )

    def _count(self, e: Event) -> Text:
        count = e.get("count", 0)
        if count:
            return Text(f"The count is {count}", style="bold")
        return Text("The count is over")

    def _skipped(self, e: Event) -> Text:
        seat = e.get("seat")
        what = SKIP_REASONS.get(str(e.get("reason")), "skipped")
        if seat == self.me:
            what = what.replace("loses", "lose").replace("skipped", "are skipped")
            return Text(f"You {what}")
        return Text(f"{self.who(seat)} {'is ' if what.startswith('skipped') else ''}{what}")

    def _reversed(self, e: Event) -> Text:
        return Text(f"Play now goes {self.style.direction(int(e.get('direction') or 1))}")

    def _play_again(self, e: Event) -> Text:
        seat = e.get("seat")
        cards = e.get("cards", 1)
        if cards and cards > 1:
            return Text(f"{self.who(seat)} must play {cards} more cards (a king)")
        return Text(f"{self.who(seat)} {self._verb(seat, 'play', 'plays')} again")

    def _passed(self, e: Event) -> Text:
        return Text(f"{self.who(e.get('seat'))} kept the drawn card")

    def _announced(self, e: Event) -> Text:
        return Text(f'{self.who(e.get("seat"))}: "One card!"')

    def _idiot(self, e: Event) -> Text:
        target = self.who(e.get("target")).replace("You", "you")
        return Text(f"{self.who(e.get('seat'))} called idiot on {target}", style="bold")

    def _hand_ended(self, e: Event) -> Text:
        out = Text()
        out.append(f"Hand {e.get('hand_number')} is over", style="bold")
        gone = [r.get("seat") for r in e.get("results") or [] if r.get("went_out")]
        if gone:
            out.append(" — " + ", ".join(self.who(g) for g in gone) + " went out")
        if e.get("game_over"):
            winners = e.get("winners") or []
            names = ", ".join(self.who(w) for w in winners)
            single = len(winners) == 1 and winners[0] != self.me
            out.append(f". Game over: {names} win{'s' if single else ''}!")
        return out
