"""``craits-client --replay FILE``: step through a recorded game, every hand visible.

A game record (``docs/records.md``) exported with ``craits-server export
--frames`` holds, per hand, the table after every move as the server replayed
it. :class:`TableReplay` draws those frames with the live table's widgets (the
seats around the table, the discard pile, the stock, the count, the suit in
force), the hand of the seat to act as card faces and every hand in words, the
step in words as the live log says it, and a hand's result as the live summary
shows it: → and ← step a move, PgDn and PgUp a hand. A record without frames is
shown hand by hand (:class:`HandByHand`): the cards dealt, the moves, the
scoring, and a line on how to get frames. The viewer decides no rule: it draws
what the record holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, cast

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
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.filter import Monochrome, NoColor
from textual.screen import Screen
from textual.widgets import Footer, Static

from .core.model import sort_key
from .core.saved.prefs import PrefsStore
from .errors import RecordError
from .looks import Looks
from .present import presenter, tableview
from .present.card_style import CardStyle
from .present.replayview import ABANDONED, NO_FRAMES_HINT, Replay, Step, has_frames, record_model
from .present.results import hand_table, standings, summary
from .present.sheet import score_sheet
from .widgets import AsciiFilter, FeltView, FixedText, HandView, WrappedLog

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


class HandByHand(Screen[None]):
    """A record without frames, hand by hand (←/→): every hand as dealt, the
    moves in words and the scoring; a line on top says how to get frames."""

    DEFAULT_CSS = """
    HandByHand #hint { padding: 0 1; color: $text-muted; height: auto; }
    HandByHand #hand { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,p,pageup,left_square_bracket", "previous", "Previous hand", key_display="←"),
        Binding("right,n,pagedown,right_square_bracket", "next", "Next hand", key_display="→"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, record: GameRecord, style: CardStyle):
        super().__init__()
        self.record = record
        self.style = style
        self.index = 0

    def compose(self) -> ComposeResult:
        """The hint, the hand, the footer with the keys."""
        yield FixedText(id="topbar")
        yield Static(Text(NO_FRAMES_HINT, style="italic"), id="hint")
        with VerticalScroll():
            yield Static(id="hand")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Show the first hand."""
        players = ", ".join(str(p) for p in self.record["players"])
        self.query_one("#topbar", FixedText).update(
            Text(f"Replay · table {self.record['table']} · {players}", style="bold")
        )
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


RESULT_WIDTH = 110
"""Below this many columns a hand's result takes the whole width (the log gives way)."""


class TableReplay(Screen[None]):
    """A record with frames, move by move on the live game's table: the seats
    around it, the discard pile, the stock, the count and the suit in force
    (:class:`~craits.client.widgets.FeltView`, fed as the live table feeds it),
    the hand of the seat to act as card faces (the cards it may play raised),
    every seat's cards in words beside it, the hand's steps so far in the log,
    and at a hand's end its result as the live summary shows it.

    Keys: →/← (or n/p) a move forward or back, PgDn/PgUp (or ]/[) the next or
    previous hand, Home/End the hand's deal or last move, q leaves.
    """

    DEFAULT_CSS = """
    TableReplay #hands { height: auto; }
    TableReplay #log { min-height: 3; }
    TableReplay #result-box { display: none; height: 1fr; padding: 0 1; }
    TableReplay.-over #result-box { display: block; }
    TableReplay.-over #hand { display: none; }
    TableReplay.-over.-narrow #right { display: none; }
    TableReplay #prompt { height: 3; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "forward", "Move", key_display="←→"),
        Binding("left,p", "back", "Back", show=False),
        # (before the result's scroll view's own PgDn, PgUp, Home and End: ↑↓ scroll it)
        Binding(
            "pagedown,right_square_bracket",
            "next_hand",
            "Next hand",
            key_display="PgDn",
            priority=True,
        ),
        Binding(
            "pageup,left_square_bracket",
            "previous_hand",
            "Prev hand",
            key_display="PgUp",
            priority=True,
        ),
        Binding("home", "first", "Deal", show=False, priority=True),
        Binding("end", "last", "Hand's end", show=False, priority=True),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, replay: Replay):
        super().__init__()
        self.replay = replay
        self.style = replay.style
        self._ready = False

    def compose(self) -> ComposeResult:
        """Top bar; the table, the hand (or the result) and the step in words on
        the left; every hand and the log on the right: the live table's layout."""
        yield FixedText(id="topbar")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield FeltView(self.style, id="felt")
                yield HandView(self.style, id="hand")
                with VerticalScroll(id="result-box"):
                    yield Static(id="result")
                yield FixedText(id="prompt")
            with Vertical(id="right"):
                yield Static(id="hands", classes="panel")
                yield WrappedLog(id="log", indent=2, classes="panel")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        """Titles and the first step."""
        self.query_one("#hands").border_title = "Every hand"
        self.query_one("#log").border_title = "This hand"
        self._ready = True
        self.sync()
        self.call_after_refresh(self.sync)  # (again, now that the panels have their widths)

    def sync(self) -> None:
        """Draw the step the replay stands at."""
        replay = self.replay
        model = replay.model
        self.query_one("#topbar", FixedText).update(replay.topbar())
        felt = self.query_one(FeltView)
        felt.fresh = replay.played_now()  # the card just played, framed heavy ("new!")
        felt.show(tableview.seat_views(model, timer=False), tableview.middle_view(model))
        over = replay.hand_over
        self.set_class(over, "-over")
        self.set_class(self.app.size.width < RESULT_WIDTH, "-narrow")  # the result: full width
        if over and model.last_result is not None:
            self._show_result(model.last_result)
        else:
            self._show_hand()
        hands = self.query_one("#hands", Static)
        hands.update(replay.hands_text(hands.content_size.width))
        self.query_one("#prompt", FixedText).update(replay.prompt())
        log = self.query_one("#log", WrappedLog)
        log.clear()
        bullet = presenter.log_bullet(self.style)
        for line in replay.hand_lines():
            log.add(line, bullet)
        self.refresh_bindings()

    def _show_hand(self) -> None:
        replay = self.replay
        seat = replay.shown_seat
        hand = self.query_one(HandView)
        name = replay.model.name_of(seat)
        hand.border_title = f"{name}'s hand, to act" if seat is not None else "Nobody to act"
        hand.new = replay.drawn_now(seat)
        hand.show(replay.shown_cards(), set(replay.frame["playable"]), None, Text("No cards."))

    def _show_result(self, result: HandEndedEvent) -> None:
        model = self.replay.model
        parts: list[RenderableType] = [summary(result, model, self.style)]
        if model.sheet:
            parts.append(Text())
            parts.append(score_sheet(model, self.style, max(20, self.size.width // 2)))
        self.query_one("#result", Static).update(Group(*parts))
        self.query_one("#result-box", VerticalScroll).scroll_home(animate=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out the keys that would go past the first or last step or hand."""
        replay = self.replay
        hand = replay.step.hand
        if action in ("back", "first"):
            return not replay.at_start() or None
        if action in ("forward", "last"):
            return not replay.at_end() or None
        if action == "previous_hand":
            return hand > 0 or None
        if action == "next_hand":
            return hand < len(replay.frames) - 1 or None
        return True

    def on_resize(self) -> None:
        """Another size: lay the step out for it."""
        if self._ready:
            self.sync()

    def _moved(self, moved: bool) -> None:
        if moved:
            self.sync()
        else:
            self.app.bell()

    def action_forward(self) -> None:
        """The next move (the next hand's deal after a hand's end)."""
        self._moved(self.replay.forward())

    def action_back(self) -> None:
        """The move before."""
        self._moved(self.replay.back())

    def action_next_hand(self) -> None:
        """The next hand's deal."""
        self._moved(self.replay.to_hand(self.replay.step.hand + 1))

    def action_previous_hand(self) -> None:
        """The previous hand's deal (this hand's, from inside it)."""
        step = self.replay.step
        self._moved(self.replay.to_hand(step.hand - 1 if step.index == 0 else step.hand))

    def action_first(self) -> None:
        """The deal of the hand shown."""
        self._moved(self.replay.to_hand(self.replay.step.hand))

    def action_last(self) -> None:
        """The last step of the hand shown."""
        step = self.replay.step
        self.replay.show(Step(step.hand, len(self.replay.frames[step.hand]) - 1))
        self.sync()


class ReplayApp(App[None]):
    """Steps through a game record, all hands visible: move by move on the
    game's table when the record has frames (``craits-server export
    --frames``), else hand by hand (:class:`HandByHand`)."""

    TITLE = "Craits — replay"
    CSS_PATH = "craits.tcss"
    ASCII_KEYS: ClassVar[dict[str, str]] = {"←→": "<- ->", "⏎": "Enter", "?": "?"}
    """Key names shown with ``--ascii``."""

    def __init__(self, record: GameRecord, ascii: bool = False, prefs: Path | None = None):
        """``prefs``: the folder of the client's preferences, whose theme and
        motion the viewer takes and keeps, as the client does (None: Textual's
        defaults, nothing kept)."""
        super().__init__()
        self.looks = Looks(self, PrefsStore(prefs)) if prefs is not None else None
        if self.no_color:  # as the live client: the terminal's own colours
            self._filters[:] = [
                NoColor() if isinstance(f, Monochrome) else f for f in self._filters
            ]
        self.record = record
        self.style = CardStyle(ascii, underline_red=self.no_color)
        if ascii:
            self._filters.append(AsciiFilter())  # nothing but ASCII reaches the terminal
        self.replay: Replay | None = None
        if has_frames(record):
            try:
                self.replay = Replay(record, self.style)
            except DAMAGED:
                self.replay = None  # damaged frames: hand by hand, as without

    def on_mount(self) -> None:
        """The kept theme and motion."""
        if self.looks is not None:
            self.looks.apply()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette: Textual's commands, then the looks (theme, motion)."""
        yield from super().get_system_commands(screen)
        if self.looks is not None:
            yield from self.looks.commands(screen)

    def get_key_display(self, binding: Binding) -> str:
        """Key names for the Footer; plain letters with ``--ascii``."""
        shown = super().get_key_display(binding)
        return self.ASCII_KEYS.get(shown, shown) if self.style.ascii else shown

    def get_default_screen(self) -> Screen[None]:
        """The table move by move, or the hands one by one."""
        if self.replay is not None:
            return TableReplay(self.replay)
        return HandByHand(self.record, self.style)
