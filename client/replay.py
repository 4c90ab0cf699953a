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
from typing import ClassVar, cast

from craits.protocol.actions import (
    ActionFormError,
    Announce,
    CallIdiot,
    Draw,
    NameSuit,
    Pass,
    Play,
    parse_action,
)
from craits.protocol.types import GameRecord, HandEndedEvent, Move, RecordHand
from craits.protocol.vocab import AbandonReason
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from .cards import CardStyle, sort_key
from .results import cancelled_text


class RecordError(Exception):
    """The file is not a readable Craits game record; ``str()`` says why in one line."""


RECORD_FORMAT = "craits-record"
"""The ``format`` of a game record (``docs/records.md``)."""

DAMAGED = (KeyError, IndexError, TypeError, ValueError)
"""What reading a damaged record's hand raises."""


def load_record(path: Path) -> GameRecord:
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
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path} is not a Craits game record")
    if not isinstance(record.get("hands"), list) or not isinstance(record.get("players"), list):
        raise RecordError(f"{path} is a damaged Craits game record")
    # the format and the lists checked; a hand damaged further is shown as such
    return cast(GameRecord, record)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def describe_move(move: Move, names: list[str], style: CardStyle) -> Text:
    """One move of the record in words, e.g. "Ana plays 8♠ and names ♦"."""
    line = Text(_name(names, move["seat"]) + " ")
    try:
        action = parse_action(move["action"], move["seat"])
    except ActionFormError:
        line.append("does something this viewer does not know")
        return line
    match action:
        case Play(card=card, suit=suit, announce=announce):
            line.append("plays ")
            line.append_text(style.card(card))
            if suit:
                line.append(" and names ")
                line.append_text(style.suit_text(suit))
            if announce:
                line.append(", announcing one card")
        case Draw():
            line.append("draws")
        case Pass():
            line.append("keeps the drawn card")
        case Announce():
            line.append("announces one card")
        case CallIdiot(target=target):
            line.append(f'calls "idiot" on {_name(names, target)}')
        case NameSuit(suit=suit):
            line.append("names ")
            line.append_text(style.suit_text(suit))
    return line


def _title(record: GameRecord, hand: RecordHand, style: CardStyle) -> Text:
    names = record["players"]
    title = Text(
        f"Hand {hand['hand_number']} of {len(record['hands'])} — "
        f"{_name(names, hand['dealer'])} deals; turned up ",
        style="bold",
    )
    if hand["turned_up"]:
        title.append_text(style.card(hand["turned_up"]))
    return title


def _dealt(names: list[str], hand: RecordHand, style: CardStyle) -> Table:
    dealt = Table(title="Dealt", show_header=False, box=None, padding=(0, 1))
    for seat, cards in enumerate(hand["dealt"]):
        dealt.add_row(Text(names[seat]), style.cards(sorted(cards, key=sort_key)))
    return dealt


def _moves(names: list[str], hand: RecordHand, style: CardStyle) -> Text:
    moves = Text()
    for i, move in enumerate(hand["moves"], 1):
        moves.append(f"{i:>3}. ")
        moves.append_text(describe_move(move, names, style))
        moves.append("\n")
    return moves


def _scoring(names: list[str], result: HandEndedEvent, style: CardStyle) -> list[RenderableType]:
    scores = Table(title="Scoring", box=None, padding=(0, 1))
    for col in ("player", "left in hand", "threes cancelled", "points", "total", "penalties"):
        scores.add_column(col)
    totals = result["scores"]
    pressure = result["pressure"]
    for r in result["results"]:
        seat = r["seat"]
        cancelled = cancelled_text(r["cancelled"], style, sep=" ")
        if r["cancelled"]:
            cancelled.append(" ")
        scores.add_row(
            Text(names[seat] + (" (out)" if r["went_out"] else "")),
            style.cards(r["cards"]),
            cancelled,
            str(r["points"]),
            str(totals[seat]) if seat < len(totals) else "",
            str(pressure[seat]) if seat < len(pressure) else "",
        )
    parts: list[RenderableType] = [Text(""), scores]
    if result["game_over"]:
        winners = ", ".join(names[s] for s in result["winners"])
        parts.append(Text(f"\nGame over — won by {winners}", style="bold"))
    return parts


ABANDONED: dict[str, str] = {
    AbandonReason.NOBODY_CONNECTED: "abandoned, nobody was connected",
    AbandonReason.CLOSED_BY_CREATOR: "abandoned, its creator closed the table",
}
"""A record's ``abandoned`` in words (``docs/records.md``)."""


def render_hand(record: GameRecord, index: int, style: CardStyle) -> RenderableType:
    """Everything about hand ``index`` of the record, every hand visible."""
    names = [str(n) for n in record["players"]]
    hand = record["hands"][index]
    parts: list[RenderableType] = [
        _title(record, hand, style),
        Text(""),
        _dealt(names, hand, style),
        Text(""),
        Text("Moves", style="bold"),
        _moves(names, hand, style),
    ]
    if hand["result"] is not None:
        parts += _scoring(names, hand["result"], style)
    why = ABANDONED.get(record.get("abandoned") or "")
    if why is not None and index == len(record["hands"]) - 1:
        parts.append(Text(f"\nThe game ended here, unfinished: {why}.", style="bold"))
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

    def __init__(self, record: GameRecord, ascii: bool = False):
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
        self.sub_title = f"table {self.record['table']} — {players}"
        self.show()

    def show(self) -> None:
        """Render the current hand."""
        if not self.record["hands"]:
            self.query_one("#hand", Static).update("This record holds no hand.")
            return
        try:
            shown: RenderableType = render_hand(self.record, self.index, self.style)
        except DAMAGED as exc:
            shown = Text(f"Hand {self.index + 1} of this record is damaged ({exc!r}).")
        self.query_one("#hand", Static).update(shown)
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
