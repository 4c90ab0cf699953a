"""The replay viewer's screens: a record's frames move by move on the game's table
(:class:`TableReplay`), or hand by hand in words (:class:`HandByHand`).
"""

from __future__ import annotations

from typing import ClassVar

from craits.protocol.i18n import N_
from craits.protocol.types import GameRecord, HandEndedEvent
from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ...present import presenter, tableview
from ...present.card_style import CardStyle
from ...present.record_text import render_hand
from ...present.replayview import NO_FRAMES_HINT, Replay, Step
from ...present.results import summary
from ...present.sheet import score_sheet
from ..widgets.felt_view import FeltView
from ..widgets.fixed_text import FixedText
from ..widgets.hand_view import HandView
from ..widgets.key_footer import KeyFooter
from ..widgets.wrapped_log import WrappedLog

DAMAGED = (KeyError, IndexError, TypeError, ValueError)
"""What reading a damaged record's hand raises."""


class HandByHand(Screen[None]):
    """A record without frames, hand by hand (←/→): every hand as dealt, the
    moves in words and the scoring; a line on top says how to get frames."""

    DEFAULT_CSS = """
    HandByHand #hint { padding: 0 1; color: $text-muted; height: auto; }
    HandByHand #hand { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "left,p,pageup,left_square_bracket", "previous", N_("Previous hand"), key_display="←"
        ),
        Binding("right,n,pagedown,right_square_bracket", "next", N_("Next hand"), key_display="→"),
        Binding("q", "app.quit", N_("Quit")),
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
        yield KeyFooter(show_command_palette=False)

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
    (:class:`~craits.client.tui.widgets.felt_view.FeltView`, fed as the live table feeds it),
    the hand of the seat to act as card faces (the cards it may play raised),
    every seat's cards in words beside it, the hand's steps so far in the log,
    and at a hand's end its result as the live summary shows it.

    Keys: →/← (or n/p) a move forward or back, PgDn/PgUp (or ]/[) the next or
    previous hand, Home/End the hand's deal or last move, ``m`` the next move the
    post-game analysis marked (with the analysis, protocol §7.6), q leaves.
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
        Binding("right,n", "forward", N_("Move"), key_display="←→"),
        Binding("left,p", "back", N_("Back"), show=False),
        # (before the result's scroll view's own PgDn, PgUp, Home and End: ↑↓ scroll it)
        Binding(
            "pagedown,right_square_bracket",
            "next_hand",
            N_("Next hand"),
            key_display="PgDn",
            priority=True,
        ),
        Binding(
            "pageup,left_square_bracket",
            "previous_hand",
            N_("Prev hand"),
            key_display="PgUp",
            priority=True,
        ),
        Binding("home", "first", N_("Deal"), show=False, priority=True),
        Binding("end", "last", N_("Hand's end"), show=False, priority=True),
        Binding("m", "next_mark", N_("Next mark")),
        Binding("q", "app.quit", N_("Quit")),
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
        yield KeyFooter(show_command_palette=False)

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
        if action == "next_mark":  # hidden without the analysis; greyed after the last mark
            if replay.marks is None:
                return False
            return replay.marks.next_after(*replay.step_place) is not None or None
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

    def action_next_mark(self) -> None:
        """The next move the post-game analysis marked (protocol §7.6)."""
        self._moved(self.replay.to_next_mark())

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
