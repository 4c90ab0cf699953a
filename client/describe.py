"""The game's events in words: "Ana played 7♥ — Ben drew a card".

Events are the server's dicts (``{"event": kind, ...}``); names come from the
table, and are shown as plain text (never parsed as markup).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text

from .cards import CardStyle

DRAW_REASONS = {
    "turn": "",
    "count": " for the count",
    "six": " after a 6",
    "king": " in a king's run",
    "five": " (a 5)",
    "seven": " (a 7)",
    "idiot": " as the idiot penalty",
    "jack": " (a jack)",
    "queen": " (the queen of spades)",
}
NEW_LINE = frozenset(
    {"cut", "dealt", "played", "suit_named", "passed", "announced", "idiot", "hand_ended"}
)
"""Events that start a new line of the log (a move, or a new stage of the game)."""
SKIP_REASONS = {
    "four": "skipped by a 4",
    "lost_turn": "loses a turn",
    "jack": "loses the turn to a jack",
    "queen": "loses the turn to the queen of spades",
}


class Describer:
    """Turns events into short sentences for one seat's (or a spectator's) log."""

    def __init__(self, style: CardStyle, name_of: Callable[[int | None], str], me: int | None):
        self.style = style
        self._name_of = name_of
        self.me = me

    def who(self, seat: Any) -> str:
        """``You`` for this seat, else the seat's name."""
        if not isinstance(seat, int):
            return "?"
        return "You" if seat == self.me else self._name_of(seat)

    def _verb(self, seat: Any, mine: str, theirs: str) -> str:
        return mine if seat == self.me else theirs

    def event(self, e: dict[str, Any]) -> Text | None:
        """One event in words, or None for events not worth a line."""
        kind = e.get("event")
        seat = e.get("seat")
        out = Text()
        s = self.style
        if kind == "cut":
            out.append("Cut for the deal: ")
            rounds = e.get("rounds") or []
            for r, rnd in enumerate(rounds):
                if r:
                    out.append("; again: ")
                for i, pair in enumerate(rnd):
                    if i:
                        out.append(", ")
                    out.append(f"{self.who(pair[0])} ")
                    out.append_text(s.card(pair[1]))
            out.append(
                f" — {self.who(e.get('dealer'))} {self._verb(e.get('dealer'), 'deal', 'deals')}"
            )
            return out
        if kind == "dealt":
            out.append(f"Hand {e.get('hand_number')}: ", style="bold")
            dealer = e.get("dealer")
            out.append(
                f"{self.who(dealer)} {self._verb(dealer, 'deal', 'deals')} "
                f"{e.get('hand_size')} card{'s' if e.get('hand_size') != 1 else ''} each"
            )
            return out
        if kind == "turned_up":
            out.append(f"{self.who(seat)} turned up ")
            out.append_text(s.card(e.get("card", "")))
            return out
        if kind == "played":
            card = str(e.get("card", ""))
            out.append(f"{self.who(seat)} played ")
            out.append_text(s.card(card))
            if card[:1] in ("8", "9") and e.get("suit"):
                out.append(" and named ")
                out.append_text(s.suit_text(e["suit"]))
            if e.get("announced"):
                out.append(' — "One card!"')
            return out
        if kind == "suit_named":
            out.append(f"{self.who(seat)} named ")
            out.append_text(s.suit_text(e.get("suit", "")))
            return out
        if kind == "drew":
            n = e.get("n", 1)
            cards = e.get("cards")
            reason = DRAW_REASONS.get(str(e.get("reason")), "")
            out.append(f"{self.who(seat)} drew ")
            if cards:
                out.append_text(s.cards(list(cards)))
            else:
                out.append("a card" if n == 1 else f"{n} cards")
            out.append(reason)
            return out
        if kind == "shuffle_penalty":
            penalty = e.get("penalty")
            if e.get("stock_size"):
                out.append(
                    f"{self.who(seat)} shuffled the discard pile into a new stock: "
                    f"{penalty}-point penalty"
                )
            else:
                out.append(
                    f"Nothing left to draw: {self.who(seat)} pay{'s' if seat != self.me else ''}"
                )
                out.append(f" a {penalty}-point penalty and the hand ends")
            return out
        if kind == "count":
            count = e.get("count", 0)
            if count:
                out.append(f"The count is {count}", style="bold")
            else:
                out.append("The count is over")
            return out
        if kind == "skipped":
            what = SKIP_REASONS.get(str(e.get("reason")), "skipped")
            if seat == self.me:
                what = what.replace("loses", "lose").replace("skipped", "are skipped")
                if what.startswith("are") or what.startswith("lose"):
                    return Text(f"You {what}")
            return Text(f"{self.who(seat)} {'is ' if what.startswith('skipped') else ''}{what}")
        if kind == "reversed":
            return Text(f"Play now goes {self.style.direction(int(e.get('direction') or 1))}")
        if kind == "play_again":
            cards = e.get("cards", 1)
            if cards and cards > 1:
                return Text(f"{self.who(seat)} must play {cards} more cards (a king)")
            return Text(f"{self.who(seat)} {self._verb(seat, 'play', 'plays')} again")
        if kind == "passed":
            return Text(f"{self.who(seat)} kept the drawn card")
        if kind == "announced":
            return Text(f'{self.who(seat)}: "One card!"')
        if kind == "idiot":
            target = e.get("target")
            return Text(
                f"{self.who(seat)} called idiot on {self.who(target).replace('You', 'you')}",
                style="bold",
            )
        if kind == "hand_ended":
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
        return None

    def update(self, events: list[dict[str, Any]]) -> list[Text]:
        """The events of one update as lines: each move starts a line, and what it
        caused follows it after a dash ("Ana played 7♥ — Ben drew a card (a 7)")."""
        lines: list[Text] = []
        for e in events:
            if not isinstance(e, dict):
                continue
            text = self.event(e)
            if text is None:
                continue
            if not lines or self._starts_line(e):
                lines.append(text)
            else:
                lines[-1] = Text(" — ").join([lines[-1], text])
        return lines

    @staticmethod
    def _starts_line(e: dict[str, Any]) -> bool:
        kind = e.get("event")
        if kind in NEW_LINE:
            return True
        return kind == "drew" and e.get("reason") in ("turn", "count", "six", "king")
