"""Small widgets of the table screen: the hand, the seats, the pile."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from .cards import CardStyle
from .model import TableModel

CELL = 6
"""Columns per card in the hand: ``[10♥]`` and a space."""


class HandView(Widget, can_focus=True):
    """This seat's cards in a row (wrapping): playable ones in brackets and bold,
    the others dimmed, the chosen one in reverse; numbers underneath for the
    digit keys. A click chooses a card; a click on the chosen card plays it."""

    DEFAULT_CSS = """
    HandView { height: auto; min-height: 2; }
    """

    class Clicked(Message):
        """A card was clicked: ``index`` in the shown order."""

        def __init__(self, index: int):
            super().__init__()
            self.index = index

    def __init__(self, style: CardStyle, **kwargs: Any):
        super().__init__(**kwargs)
        self.style = style
        self.cards: list[str] = []
        self.playable: set[str] = set()
        self.selected: int | None = None
        self.note: Text | None = None

    def show(
        self,
        cards: list[str],
        playable: set[str],
        selected: int | None,
        note: Text | None = None,
    ) -> None:
        """Show ``cards``; ``note`` replaces them when there are none (watching, no game)."""
        self.cards = cards
        self.playable = playable
        self.selected = selected
        self.note = note
        self.refresh(layout=True)

    def per_line(self) -> int:
        """Cards per row at the current width."""
        return max(1, self.content_size.width // CELL) if self.content_size.width else 8

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """Two lines (cards, numbers) per row of cards."""
        if not self.cards:
            return 2
        per = max(1, width // CELL)
        rows = (len(self.cards) + per - 1) // per
        return 2 * rows

    def render(self) -> Text:
        """The cards, in rows of as many as fit."""
        if not self.cards:
            return self.note or Text("")
        per = self.per_line()
        out = Text()
        for start in range(0, len(self.cards), per):
            row = self.cards[start : start + per]
            numbers = Text()
            for i, card in enumerate(row, start):
                playable = card in self.playable
                label = self.style.label(card)
                cell = f"[{label}]" if playable else f" {label} "
                style = "bold" if playable else "dim"
                if card[-1:] in "HD":
                    style += " red"
                if i == self.selected:
                    style += " reverse"
                out.append(cell, style=style)
                out.append(" " * (CELL - len(cell)))
                key = str(i + 1) if i < 9 else ("0" if i == 9 else "")
                numbers.append(key.center(len(cell)) + " " * (CELL - len(cell)), style="dim")
            out.append("\n")
            out.append_text(numbers)
            if start + per < len(self.cards):
                out.append("\n")
        return out

    def on_click(self, event: events.Click) -> None:
        """Choose (or play) the clicked card."""
        offset = event.get_content_offset(self)
        if offset is None or not self.cards:
            return
        per = self.per_line()
        row = offset.y // 2
        col = offset.x // CELL
        if col >= per:
            return
        index = row * per + col
        if 0 <= index < len(self.cards):
            self.post_message(self.Clicked(index))


def seat_lines(model: TableModel, style: CardStyle, timer: bool = True) -> Text:
    """One line per seat: whose turn, name, cards, score, and how the seat is doing
    (and the turn timer, unless ``timer`` is false: offline, it would be stale)."""
    view = model.view
    out = Text()
    if view is None:
        players = model.players
        capacity = int((model.info or {}).get("seats") or len(players))
        for i in range(max(capacity, len(players))):
            if i:
                out.append("\n")
            p = model.player(i) if i < len(players) else {}
            if not p:
                out.append("   (empty seat)", style="dim")
                continue
            out.append("   ")
            out.append(str(p.get("name", "?")), style="bold underline" if i == model.seat else "")
            out.append_text(_flags(p))
        return out
    sizes = model.hand_sizes()
    scores = list(view.get("scores") or [])
    unannounced = set(view.get("unannounced") or [])
    one_card = set(view.get("one_card") or [])
    lost = list(view.get("lost_turns") or [])
    to_act = view.get("to_act")
    dealer = view.get("dealer")
    left = model.seconds_left() if timer else None
    out.append("  Player          Cards  Score", style="dim")
    for seat in range(model.seat_count()):
        out.append("\n")
        turn = seat == to_act and view.get("phase") == "play"
        out.append(f"{style.turn_marker} " if turn else "  ", style="bold")
        name = model.name_of(seat)
        if len(name) > 12:
            name = name[:11] + "…"
        me = seat == model.seat
        out.append(name, style="bold underline" if me else ("bold" if turn else ""))
        out.append(" " * (12 - len(name)))
        out.append(" D" if seat == dealer else "  ", style="dim")
        n = sizes[seat] if seat < len(sizes) else 0
        out.append(f" {n:>5}")
        score = scores[seat] if seat < len(scores) else 0
        out.append(f"  {score:>5}")
        pen = model.penalties_paid(seat)
        if pen:
            out.append(f" (+{pen})", style="dim")
        if seat in unannounced:
            out.append(" 1 card, unsaid!", style="bold reverse")
        elif seat in one_card:
            out.append(" ONE CARD", style="bold reverse")
        if seat < len(lost) and lost[seat]:
            out.append(" loses turn", style="italic")
        out.append_text(_flags(model.player(seat)))
        if turn and left is not None:
            secs = int(left + 0.999)
            out.append(
                f" {secs // 60}:{secs % 60:02d}", style="bold" if secs > 10 else "bold reverse"
            )
    return out


def _flags(p: dict[str, Any]) -> Text:
    out = Text()
    if p.get("bot"):
        out.append(" bot", style="dim")
    elif p and not p.get("connected"):
        out.append(" offline", style="italic")
    elif p.get("away"):
        out.append(" away", style="italic")
    return out


def pile_lines(model: TableModel, style: CardStyle) -> Text:
    """The top card, the suit in force, the count, direction, stock and discard."""
    view = model.view
    out = Text()
    if view is None:
        return Text("No game yet.", style="dim")
    top = view.get("top")
    out.append("Top ")
    if top:
        out.append_text(style.card(top))
    else:
        out.append("—")
    suit = view.get("suit")
    if suit:
        out.append("   Suit in force ")
        out.append_text(style.suit_text(suit))
        if top and suit != top[-1]:
            out.append(f" (named, not {style.suit(top[-1])})", style="bold")
    count = view.get("count") or 0
    if count:
        out.append(f"   COUNT {count}", style="bold reverse")
        out.append(": play A or 2, or draw", style="bold")
    out.append("\n")
    out.append(
        f"Stock {view.get('stock_size', '?')} · discard {view.get('discard_size', '?')} · "
        f"{style.direction(int(view.get('direction') or 1))}",
        style="dim",
    )
    return out
