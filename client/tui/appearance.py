"""The client's looks, chosen from the command palette (Ctrl+P) and kept
between runs (:mod:`craits.client.core.saved.prefs`): a dark or a light theme, and full or
reduced motion (Textual's animation level; ``TEXTUAL_ANIMATIONS`` in the
environment wins over what was kept)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from textual.app import App, SystemCommand
from textual.screen import Screen
from textual.theme import Theme

from ..core.saved.prefs import THEMES, PrefsStore


class Appearance:
    """Applies and keeps the theme and motion of ``app``.

    Args:
        app: the client.
        prefs: where the choices are kept.
    """

    def __init__(self, app: App[Any], prefs: PrefsStore):
        self.app = app
        self.prefs = prefs

    def apply(self) -> None:
        """Take the kept theme and motion (the environment's motion first)."""
        saved = self.prefs.load()
        if saved.get("theme") in self.app.available_themes:
            self.app.theme = saved["theme"]
        self.app.theme_changed_signal.subscribe(self.app, self._keep_theme)
        if "motion" in saved and "TEXTUAL_ANIMATIONS" not in os.environ:
            self.app.animation_level = saved["motion"]  # type: ignore[assignment]

    def _keep_theme(self, theme: Theme) -> None:
        if self.prefs.load().get("theme") != theme.name:
            self.prefs.save(theme=theme.name)

    def set_theme(self, name: str) -> None:
        """Use the theme ``name`` (``dark`` or ``light``); it is kept."""
        self.app.theme = THEMES[name]

    def set_motion(self, level: str) -> None:
        """Use the animation level ``level`` and keep it."""
        self.app.animation_level = level  # type: ignore[assignment]
        self.prefs.save(motion=level)
        self.app.notify(f"Motion: {MOTION_WORDS[level]}.", timeout=2)

    def commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's entries for the looks."""
        yield SystemCommand(
            "Dark theme", "Light cards on a dark table", lambda: self.set_theme("dark")
        )
        yield SystemCommand(
            "Light theme",
            "Dark text on a light table (light terminals)",
            lambda: self.set_theme("light"),
        )
        for level, words in MOTION_WORDS.items():
            if level != self.app.animation_level:
                yield SystemCommand(
                    f"Motion: {words}",
                    MOTION_HELP[level],
                    lambda level=level: self.set_motion(level),
                )


MOTION_WORDS = {"full": "full", "basic": "reduced", "none": "off"}
"""The motion levels in the palette's words."""
MOTION_HELP = {
    "full": "A card played flies to the pile; new cards are marked",
    "basic": "Reduced motion: nothing moves; the card played and new cards are marked",
    "none": "No motion and no marks",
}
"""What each motion level does."""
