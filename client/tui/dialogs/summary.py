"""The end of a hand (every hand revealed, threes, points, penalties, totals)
and the end of the game (standings and winners, then the whole score sheet)."""

from __future__ import annotations

import time
from typing import ClassVar

from craits.protocol.i18n import N_
from craits.protocol.types import HandEndedEvent
from rich.console import Group
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core.model import TableModel
from ...core.session import Session
from ...present.card_style import CardStyle
from ...present.results import (
    new_game_key,
    overtaken,
    rematch_key,
    series_line,
    series_wins,
    summary,
    what_next,
)
from ...present.sheet import score_sheet
from ..messages import LanguageChanged, LinkChanged, TableChanged, TableShown, follow_news, reported
from ..widgets.key_footer import KeyFooter
from .base import Dialog

GRACE = 0.8
"""Seconds after the summary opens during which Enter or Escape do not close it."""


class SummaryScreen(Dialog[None]):
    """The hand-end (or game-end) summary; Enter or Escape closes it.

    Its last line counts down to the next deal (protocol §7.1) and, once the
    next hand is dealt, says whose turn it is. The table goes on under it
    (drawn live), and it leaves by itself (issue 23) when:

    - it becomes this player's turn in the next hand, so the summary never
      hides the player's own turn clock (protocol §11.4);
    - shown at the hand's end (``auto``), not asked for with ``h``: for a
      spectator, once the next hand is dealt (they follow passively); for a
      player, once the next hand's first move is made;
    - the game's end, once a new game starts: every client leaves the result.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape,h", "close", N_("Close")),
        Binding("n", "new_game", N_("New game")),
        Binding("r", "rematch", N_("Rematch")),
        Binding("q", "close", N_("Close"), show=False),
    ]

    def __init__(
        self, session: Session, style: CardStyle, result: HandEndedEvent, auto: bool = False
    ):
        super().__init__()
        self.session = session
        self.style = style
        self.result = result
        self.auto = auto
        """Shown at the hand's end (not asked for): it leaves when the next hand is on."""
        self._dealt_seq: int | None = None  # the update that dealt the next hand, as seen
        self._over_at_open = False  # shown while the game was over: a new game closes it
        self._ready = False
        self._opened = time.monotonic()
        self._turn_at_open = False  # shown again on this player's turn: it stays
        self._drawn: object = None
        self._next_line: Text | None = None
        self._keys: object = ()

    def compose(self) -> ComposeResult:
        """The summary and a line saying what comes next."""
        with VerticalScroll(id="summary", classes="dialog"):
            yield Static(id="summary-body")
            yield Static(id="summary-next", classes="hint")
            yield Static(id="summary-sheet")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Show the result, and follow the game under it (the session's news)."""
        self._opened = time.monotonic()
        self._ready = True
        self._turn_at_open = self._next_turn_is_mine()
        model = self.session.model
        over = model is not None and model.view is not None and not overtaken(self.result, model)
        self._over_at_open = self.result["game_over"] and over
        follow_news(self)
        self.sync()
        self.query_one("#summary").focus()
        self.set_interval(1.0, self._tick)

    def _next_turn_is_mine(self) -> bool:
        """A hand after the summary's is dealt, and it is this player's turn."""
        model = self.session.model
        if model is None or self.result["game_over"] or not model.my_turn or model.spectator:
            return False
        view = model.view
        return view is not None and view["hand_number"] != self.result["hand_number"]

    def _moved_on(self, model: TableModel) -> bool:
        """Whether the summary leaves by itself now (see the class's notes)."""
        result = self.result
        if not overtaken(result, model):
            self._dealt_seq = None
            return False
        if result["game_over"]:
            return self._over_at_open
        if not self.auto:
            return False
        if model.spectator:
            return True
        if self._dealt_seq is None:
            self._dealt_seq = model.seq
        return model.seq > self._dealt_seq

    def _tick(self) -> None:
        """Once a second: the countdown of the last line."""
        model = self.session.model
        if self._ready and model is not None:
            self._show_next(what_next(self.result, model))

    @on(TableShown)
    @on(TableChanged)
    @on(LinkChanged)
    @on(LanguageChanged)
    @reported
    def _changed(self, message: TableShown | TableChanged | LinkChanged | LanguageChanged) -> None:
        """The game goes on under the summary: follow it."""
        self.sync()

    def sync(self) -> None:
        """Refresh the text and the "what next" line. The game goes on under the
        summary, so this comes with every update: each part is drawn again
        only when what it shows changed (a new text lays the screen out, and
        the hand's table is costly to render), and the Footer only when its
        keys did."""
        if not self._ready:
            return
        model = self.session.model
        if model is None:
            return
        if self._next_turn_is_mine():
            if not self._turn_at_open:
                self.finish(None)  # the player's turn: the table, and its clock
                return
        else:
            self._turn_at_open = False
        if self._moved_on(model):
            self.finish(None)  # the next hand (or game) is on: back to the table
            return
        result = self.result
        seats = range(max(len(result["scores"]), len(result["results"])))
        drawn = (
            result,
            [model.name_of(seat) for seat in seats],
            model.seat,
            model.view["hands_in_game"] if model.view is not None else None,
            tuple(model.sheet),
            tuple(series_wins(model)),
            self.size.width,
        )
        if drawn != self._drawn:
            self._drawn = drawn
            width = self.size.width - 4  # (the dialog's border and padding)
            body = summary(result, model, self.style, width)
            self.query_one("#summary-body", Static).update(body)
            sheet = self.query_one("#summary-sheet", Static)
            sheet.display = result["game_over"] and bool(model.sheet)
            if sheet.display:  # the whole game, hand by hand, under what comes next
                series = series_line(model)  # and the games each has won here (§11.12)
                lines = [Text(), score_sheet(model, self.style, self.size.width - 4)]
                sheet.update(Group(*lines, *([Text(), series] if series else [])))
        self._show_next(what_next(result, model))
        keys = (new_game_key(result, model), rematch_key(model))
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def _show_next(self, line: Text) -> None:
        """The "what next" line, drawn again only when it changed."""
        if line != self._next_line:
            self._next_line = line
            self.query_one("#summary-next", Static).update(line)

    def on_resize(self) -> None:
        """Lay the summary out again for the new width (narrow: cards under names)."""
        self.sync()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """New game only at the end of a game, for who may start one."""
        if action == "new_game":
            return new_game_key(self.result, self.session.model)
        if action == "rematch":
            return rematch_key(self.session.model)
        return True

    def action_close(self) -> None:
        """Back to the table (not in the first moment: an Enter meant for the last
        play must not close the summary before it is read)."""
        if time.monotonic() - self._opened < GRACE:
            return
        self.finish(None)

    def action_rematch(self) -> None:
        """Accept the rematch (protocol §11.12): the table's next game starts
        once every player has; the summary stays until it does."""
        self.session.requests.rematch()

    def action_new_game(self) -> None:
        """Start a new game at this table."""
        if self.session.requests.new_game():
            self.finish(None)
