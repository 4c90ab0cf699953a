"""``craits-client --replay FILE``: step through a recorded game hand by hand.

A game record (``docs/records.md``) holds each hand as dealt, every move, and
the scoring. This viewer shows one hand at a time with every hand visible: the
cards dealt to each seat, the turned-up card, the moves in words, and the
hand's result (which threes cancelled what, points, totals). It renders the
record only; it decides no rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from .cards import CardStyle, sort_key


class RecordError(Exception):
    """The file is not a readable Craits game record; ``str()`` says why in one line."""


def load_record(path: Path) -> dict[str, Any]:
    """Read a game record file.

    Raises:
        RecordError: the file cannot be read, is not JSON, or is not a record.
    """
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError:
        raise RecordError(f"{path} is not a JSON file") from None
    if not isinstance(record, dict) or record.get("format") != "craits-record":
        raise RecordError(f"{path} is not a Craits game record")
    if not isinstance(record.get("hands"), list) or not isinstance(record.get("players"), list):
        raise RecordError(f"{path} is a damaged Craits game record")
    return record


def describe_move(move: dict[str, Any], names: list[str], style: CardStyle) -> Text:
    """One move of the record in words, e.g. "Ana plays 8♠ and names ♦"."""
    seat = move.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    action = move.get("action") or {}
    line = Text(who + " ")
    if "play" in action:
        line.append("plays ")
        line.append_text(style.card(str(action["play"])))
        if action.get("suit"):
            line.append(" and names ")
            line.append_text(style.suit_text(str(action["suit"])))
        if action.get("announce"):
            line.append(", announcing one card")
    elif "draw" in action:
        line.append("draws")
    elif "pass" in action:
        line.append("keeps the drawn card")
    elif "announce" in action:
        line.append("announces one card")
    elif "idiot" in action:
        target = action["idiot"]
        other = names[target] if isinstance(target, int) and 0 <= target < len(names) else "?"
        line.append(f'calls "idiot" on {other}')
    elif "name_suit" in action:
        line.append("names ")
        line.append_text(style.suit_text(str(action["name_suit"])))
    else:
        line.append("does something this viewer does not know")
    return line


def render_hand(record: dict[str, Any], index: int, style: CardStyle) -> RenderableType:
    """Everything about hand ``index`` of the record, every hand visible."""
    names = [str(n) for n in record["players"]]
    hand = record["hands"][index]
    dealer = hand.get("dealer")
    title = Text(
        f"Hand {hand.get('hand_number')} of {len(record['hands'])} — "
        f"{names[dealer] if isinstance(dealer, int) else '?'} deals; turned up ",
        style="bold",
    )
    if hand.get("turned_up"):
        title.append_text(style.card(hand["turned_up"]))
    dealt = Table(title="Dealt", show_header=False, box=None, padding=(0, 1))
    for seat, cards in enumerate(hand.get("dealt") or []):
        dealt.add_row(Text(names[seat]), style.cards(sorted(cards or [], key=sort_key)))
    moves = Text()
    for i, move in enumerate(hand.get("moves") or [], 1):
        moves.append(f"{i:>3}. ")
        moves.append_text(describe_move(move, names, style))
        moves.append("\n")
    parts: list[RenderableType] = [
        title,
        Text(""),
        dealt,
        Text(""),
        Text("Moves", style="bold"),
        moves,
    ]
    result = hand.get("result")
    if isinstance(result, dict):
        scores = Table(title="Scoring", box=None, padding=(0, 1))
        for col in ("player", "left in hand", "threes cancelled", "points", "total", "penalties"):
            scores.add_column(col)
        totals = result.get("scores") or []
        pressure = result.get("pressure") or []
        for r in result.get("results") or []:
            seat = r["seat"]
            cancelled = Text()
            for three, card in r.get("cancelled") or []:
                cancelled.append_text(style.card(three))
                cancelled.append("→")
                cancelled.append_text(style.card(card))
                cancelled.append(" ")
            scores.add_row(
                Text(names[seat] + (" (out)" if r.get("went_out") else "")),
                style.cards(list(r.get("cards") or [])),
                cancelled,
                str(r.get("points")),
                str(totals[seat]) if seat < len(totals) else "",
                str(pressure[seat]) if seat < len(pressure) else "",
            )
        parts += [Text(""), scores]
        if result.get("game_over"):
            winners = ", ".join(names[s] for s in result.get("winners") or [])
            parts.append(Text(f"\nGame over — won by {winners}", style="bold"))
    return Group(*parts)


class ReplayApp(App[None]):
    """Steps through a game record hand by hand (←/→), all hands visible."""

    TITLE = "Craits — replay"
    CSS = "#hand { padding: 0 1; }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,p", "previous", "Previous hand"),
        Binding("right,n", "next", "Next hand"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, record: dict[str, Any], ascii: bool = False):
        super().__init__()
        self.record = record
        self.style = CardStyle(ascii)
        self.index = 0

    def compose(self) -> ComposeResult:
        """The header, the hand, the footer with the keys."""
        yield Header()
        with VerticalScroll():
            yield Static(id="hand")
        yield Footer()

    def on_mount(self) -> None:
        """Show the first hand."""
        players = ", ".join(str(p) for p in self.record["players"])
        self.sub_title = f"table {self.record.get('table')} — {players}"
        self.show()

    def show(self) -> None:
        """Render the current hand."""
        if not self.record["hands"]:
            self.query_one("#hand", Static).update("This record holds no hand.")
            return
        self.query_one("#hand", Static).update(render_hand(self.record, self.index, self.style))
        for scroll in self.query(VerticalScroll):
            scroll.scroll_home(animate=False)  # another hand starts at its top
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out the keys that would go past the first or last hand."""
        if action == "previous":
            return self.index > 0 or None
        if action == "next":
            return self.index < len(self.record["hands"]) - 1 or None
        return True

    def action_previous(self) -> None:
        """The hand before."""
        if self.index > 0:
            self.index -= 1
            self.show()

    def action_next(self) -> None:
        """The hand after."""
        if self.index < len(self.record["hands"]) - 1:
            self.index += 1
            self.show()
