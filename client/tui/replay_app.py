"""``craits-client --replay FILE``: step through a recorded game, every hand visible.

A game record (``docs/records.md``) exported with ``craits-server export
--frames`` holds, per hand, the table after every move as the server replayed
it. :class:`~.screens.replay_screens.TableReplay` draws those frames with the
live table's widgets (the seats around the table, the discard pile, the stock,
the count, the suit in force), the hand of the seat to act as card faces and
every hand in words, the step in words as the live log says it, and a hand's
result as the live summary shows it: → and ← step a move, PgDn and PgUp a hand.
A record without frames is shown hand by hand
(:class:`~.screens.replay_screens.HandByHand`): the cards dealt, the moves, the
scoring, and a line on how to get frames. The viewer decides no rule: it draws
what the record holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from craits.protocol.types import GameRecord
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from ..core.saved.prefs import PrefsStore
from ..present.card_style import CardStyle
from ..present.replay_marks import Marks
from ..present.replayview import Replay, has_frames
from .appearance import Appearance
from .screens.replay_screens import DAMAGED, HandByHand, TableReplay
from .widgets.ascii_filter import AsciiFilter


class ReplayApp(App[None]):
    """Steps through a game record, all hands visible: move by move on the
    game's table when the record has frames (``craits-server export
    --frames``), else hand by hand (:class:`HandByHand`)."""

    TITLE = "Craits — replay"
    CSS_PATH = "craits.tcss"
    ASCII_KEYS: ClassVar[dict[str, str]] = {"←→": "<- ->", "⏎": "Enter", "?": "?"}
    """Key names shown with ``--ascii``."""

    def __init__(
        self,
        record: GameRecord,
        ascii: bool = False,
        prefs: Path | None = None,
        analysis: Mapping[str, Any] | None = None,
    ):
        """``prefs``: the folder of the client's preferences, whose theme and
        motion the viewer takes and keeps, as the client does (None: Textual's
        defaults, nothing kept); ``analysis``: the game's post-game analysis
        (protocol §7.6), whose marks show beside the moves (``m``: the next one)."""
        super().__init__()
        self.appearance = Appearance(self, PrefsStore(prefs)) if prefs is not None else None
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
                if analysis is not None:
                    self.replay.marks = Marks(analysis)
            except DAMAGED:
                self.replay = None  # damaged frames: hand by hand, as without

    def on_mount(self) -> None:
        """The kept theme and motion."""
        if self.appearance is not None:
            self.appearance.apply()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette: Textual's commands, then the looks (theme, motion)."""
        yield from super().get_system_commands(screen)
        if self.appearance is not None:
            yield from self.appearance.commands(screen)

    def get_key_display(self, binding: Binding) -> str:
        """Key names for the Footer; plain letters with ``--ascii``."""
        shown = super().get_key_display(binding)
        return self.ASCII_KEYS.get(shown, shown) if self.style.ascii else shown

    def get_default_screen(self) -> Screen[None]:
        """The table move by move, or the hands one by one."""
        if self.replay is not None:
            return TableReplay(self.replay)
        return HandByHand(self.record, self.style)
