"""A game record in words, hand by hand: the cards dealt, each move, the scoring
(the replay viewer's view of a record without frames).
"""

from __future__ import annotations

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
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.model import sort_key
from .card_style import CardStyle
from .replayview import ABANDONED, record_model
from .results import hand_table, standings


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


def _scoring(record: GameRecord, result: HandEndedEvent, style: CardStyle) -> list[RenderableType]:
    """The hand's result as the live summary shows it (points, shuffle
    penalties, totals: :func:`craits.client.present.results.hand_table`)."""
    model = record_model(record)
    parts: list[RenderableType] = [Text(""), Text("Scoring", style="bold")]
    parts.append(hand_table(result, model, style))
    if result["game_over"]:
        parts.append(standings(result, model, style))
    return parts


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
        parts += _scoring(record, hand["result"], style)
    why = ABANDONED.get(record.get("abandoned") or "")
    if why is not None and index == len(record["hands"]) - 1:
        parts.append(Text(f"\nThe game ended here, unfinished: {why}.", style="bold"))
    return Group(*parts)
