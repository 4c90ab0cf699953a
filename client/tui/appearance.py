"""The client's looks and language, chosen from the command palette (Ctrl+P) and
kept between runs (:mod:`craits.client.core.saved.prefs`): a dark or a light theme,
full or reduced motion (Textual's animation level; ``TEXTUAL_ANIMATIONS`` in the
environment wins over what was kept), and the language (``--lang`` wins over what
was kept; a language chosen applies at once: every screen draws itself again in
it, docs/i18n.md)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

from craits.protocol import i18n
from craits.protocol.i18n import _, _l
from textual.app import App, SystemCommand
from textual.screen import Screen
from textual.theme import Theme

from ..core.saved.prefs import THEMES, PrefsStore

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "el": "Ελληνικά"}
"""Each language by its own name (not translated: a player looks for their own)."""


class Appearance:
    """Applies and keeps the theme and motion of ``app``.

    Args:
        app: the client.
        prefs: where the choices are kept.
        on_language: called when the player chose another language (the App tells
            every screen, :class:`~craits.client.tui.messages.LanguageChanged`).
    """

    def __init__(
        self, app: App[Any], prefs: PrefsStore, on_language: Callable[[], None] = lambda: None
    ):
        self.app = app
        self.prefs = prefs
        self.on_language = on_language

    def apply(self) -> None:
        """Take the kept theme and motion (the environment's motion first)."""
        saved = self.prefs.load()
        if saved.get("theme") in self.app.available_themes:
            self.app.theme = saved["theme"]
        self.app.theme_changed_signal.subscribe(self.app, self._keep_theme)
        if "motion" in saved and "TEXTUAL_ANIMATIONS" not in os.environ:
            self.app.animation_level = saved["motion"]  # type: ignore[assignment]
        if "language" in saved and not getattr(self.app, "language_given", False):
            i18n.set_language(saved["language"])

    def _keep_theme(self, theme: Theme) -> None:
        if self.prefs.load().get("theme") != theme.name:
            self.prefs.save(theme=theme.name)

    def set_theme(self, name: str) -> None:
        """Use the theme ``name`` (``dark`` or ``light``); it is kept."""
        self.app.theme = THEMES[name]

    def set_language(self, lang: str) -> None:
        """Speak ``lang`` (one of :data:`~craits.protocol.i18n.LANGUAGES`) from now
        on and keep it: every screen that follows the news draws itself again in it
        (:class:`~craits.client.tui.messages.LanguageChanged`), every key bar too.

        Raises:
            ValueError: ``lang`` is not a language Craits speaks.
        """
        i18n.set_language(lang)
        self.prefs.save(language=lang)
        self.on_language()
        for screen in self.app.screen_stack:
            screen.refresh_bindings()
        said = _("Language: {language}.").format(language=LANGUAGE_NAMES.get(lang, lang))
        self.app.notify(said, timeout=2, markup=False)

    def set_motion(self, level: str) -> None:
        """Use the animation level ``level`` and keep it."""
        self.app.animation_level = level  # type: ignore[assignment]
        self.prefs.save(motion=level)
        said = _("Motion: {level}.").format(level=MOTION_WORDS[level])
        self.app.notify(said, timeout=2, markup=False)

    def commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's entries for the looks."""
        yield SystemCommand(
            _("Dark theme"), _("Light cards on a dark table"), lambda: self.set_theme("dark")
        )
        yield SystemCommand(
            _("Light theme"),
            _("Dark text on a light table (light terminals)"),
            lambda: self.set_theme("light"),
        )
        for level, words in MOTION_WORDS.items():
            if level != self.app.animation_level:
                yield SystemCommand(
                    _("Motion: {level}").format(level=words),
                    str(MOTION_HELP[level]),
                    lambda level=level: self.set_motion(level),
                )
        for lang in i18n.LANGUAGES:
            if lang != i18n.language():
                yield SystemCommand(
                    # TRANSLATORS: the settings' entry choosing a language ({language}
                    # is its own name: "Deutsch", "Ελληνικά")
                    _("Language: {language}").format(language=LANGUAGE_NAMES[lang]),
                    _("Every text in this language, at once; kept for the next time"),
                    lambda lang=lang: self.set_language(lang),
                )


MOTION_WORDS = {
    "full": _l("full"),
    "basic": _l("reduced"),
    "none": _l("off"),
}
"""The motion levels in the palette's words."""
MOTION_HELP = {
    "full": _l("A card played flies to the pile; new cards are marked"),
    "basic": _l("Reduced motion: nothing moves; the card played and new cards are marked"),
    "none": _l("No motion and no marks"),
}
"""What each motion level does."""
