"""The end of a hand (every hand revealed, threes, points, penalties, totals)
and the end of the game (standings and winners)."""

from __future__ import annotations

import time
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from .cards import CardStyle
from .dialogs import Dialog
from .model import PENALTIES_KEY, TableModel
from .session import Session

GRACE = 0.8
"""Seconds after the summary opens during which Enter or Escape do not close it."""


def hand_table(result: dict[str, Any], model: TableModel, style: CardStyle) -> Table:
    """Every seat's revealed hand, what its threes cancelled, and the points."""
    t = Table(
        box=box.ASCII2 if style.ascii else box.SIMPLE_HEAD,
        expand=True,
        padding=(0, 1),
        pad_edge=False,
    )
    t.add_column("Player", no_wrap=True, max_width=14)
    t.add_column("Cards left", ratio=3)
    t.add_column("Threes cancel", ratio=2)
    t.add_column("Hand", justify="right", no_wrap=True)
    t.add_column("Shuffle", justify="right", no_wrap=True)
    t.add_column("Total", justify="right", no_wrap=True)
    scores = result.get("scores") or []
    penalties = result.get(PENALTIES_KEY)
    if not isinstance(penalties, dict):
        penalties = {}  # (a result from a state message: this client did not see the hand)
    for r in result.get("results") or []:
        if not isinstance(r, dict):
            continue
        seat = r.get("seat")
        name = Text(model.name_of(seat), style="bold" if seat == model.seat else "")
        if seat == model.seat:
            name.append(" (you)", style="dim")
        if r.get("went_out"):
            cards = Text("went out", style="italic")
        else:
            cards = style.cards(list(r.get("cards") or []))
        cancelled = Text()
        for i, pair in enumerate(r.get("cancelled") or []):
            if i:
                cancelled.append(", ")
            cancelled.append_text(style.card(pair[0]))
            cancelled.append("→")
            cancelled.append_text(style.card(pair[1]))
        penalty = penalties.get(seat, 0) if isinstance(seat, int) else 0
        total = scores[seat] if isinstance(seat, int) and seat < len(scores) else "?"
        t.add_row(
            name,
            cards,
            cancelled or Text("—", style="dim"),
            Text(str(r.get("points", "?"))),
            Text(f"+{penalty}" if penalty else "—", style="" if penalty else "dim"),
            Text(str(total), style="bold"),
        )
    return t


def standings(result: dict[str, Any], model: TableModel, style: CardStyle) -> Text:
    """Final standings, lowest total first, and the winner or winners."""
    scores = list(result.get("scores") or [])
    winners = set(result.get("winners") or [])
    order = sorted(range(len(scores)), key=lambda s: (scores[s], s))
    out = Text()
    names = [model.name_of(w) for w in sorted(winners)]
    star = "*" if style.ascii else "★"
    if len(names) == 1:
        out.append(f"{star} {names[0]} wins the game! {star}\n", style="bold")
    elif names:
        out.append(f"{star} Shared win: {', '.join(names)} {star}\n", style="bold")
    place = 0
    last = None
    for i, s in enumerate(order):
        if scores[s] != last:
            place = i + 1
            last = scores[s]
        line = f"{place}. {model.name_of(s)}  {scores[s]} points"
        out.append(line, style="bold" if s in winners else "")
        if s == model.seat:
            out.append("  (you)", style="dim")
        out.append("\n")
    return out


def summary(result: dict[str, Any], model: TableModel, style: CardStyle) -> RenderableType:
    """The whole summary: the hand's table, then the standings if the game is over."""
    hand = result.get("hand_number", "?")
    of = (model.view or {}).get("hands_in_game") or (model.info or {}).get("hands_in_game", "?")
    parts: list[RenderableType] = []
    title = f"Hand {hand} of {of} — scores"
    if result.get("game_over"):
        title = f"Game over after hand {hand}"
    parts.append(Text(title, style="bold"))
    if result.get("game_over"):
        parts.append(standings(result, model, style))
        parts.append(Text(f"The last hand (hand {hand}):", style="bold"))
    parts.append(hand_table(result, model, style))
    return Group(*parts)


class SummaryScreen(Dialog[None]):
    """The hand-end (or game-end) summary; Enter or Escape closes it."""

    BINDINGS = [  # noqa: RUF012
        Binding("enter,escape,h", "close", "Close"),
        Binding("n", "new_game", "New game"),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(self, session: Session, style: CardStyle, result: dict[str, Any]):
        super().__init__()
        self.session = session
        self.style = style
        self.result = result
        self._ready = False
        self._opened = time.monotonic()

    def compose(self) -> ComposeResult:
        """The summary and a line saying what comes next."""
        with VerticalScroll(id="summary", classes="dialog"):
            yield Static(id="summary-body")
            yield Static(id="summary-next", classes="hint")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Show the result."""
        self._opened = time.monotonic()
        self._ready = True
        self.sync()
        self.query_one("#summary").focus()

    def sync(self) -> None:
        """Refresh the text and the "what next" line."""
        if not self._ready:
            return
        model = self.session.model
        if model is None:
            return
        self.query_one("#summary-body", Static).update(summary(self.result, model, self.style))
        nxt = self.query_one("#summary-next", Static)
        if self.result.get("game_over"):
            if model.may_manage():
                nxt.update("n: start a new game · Enter: back to the table")
            else:
                nxt.update("Enter: back to the table")
        elif (
            model.phase == "play"
            and model.view
            and model.view.get("hand_number") != self.result.get("hand_number")
        ):
            if model.my_turn:
                hand = model.view.get("hand_number")
                nxt.update(Text(f"Hand {hand} is dealt: your turn — Enter", style="bold reverse"))
            else:
                nxt.update(Text("The next hand is dealt — Enter: play it", style="bold"))
        else:
            nxt.update("The next hand is coming — Enter: back to the table")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """New game only at the end of a game, for who may start one."""
        if action == "new_game":
            model = self.session.model
            if not self.result.get("game_over") or model is None:
                return False
            if not model.may_manage() or model.state != "finished":
                return None if model.may_manage() else False
            return True
        return True

    def action_close(self) -> None:
        """Back to the table (not in the first moment: an Enter meant for the last
        play must not close the summary before it is read)."""
        if time.monotonic() - self._opened < GRACE:
            return
        self.finish(None)

    def action_new_game(self) -> None:
        """Start a new game at this table."""
        if self.session.new_game():
            self.finish(None)
