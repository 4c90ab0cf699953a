"""The player's display preferences, kept between runs: the theme (light or
dark), the motion level and the language (docs/i18n.md). One JSON file beside the resume tokens
(:mod:`craits.client.core.saved.resume_tokens`); errors reading or writing it are ignored (a
lost preference only means the default comes back).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TypedDict

from craits.protocol.i18n import LANGUAGES

from .files import write_private_json

FILE_NAME = "prefs.json"
THEMES = {"dark": "textual-dark", "light": "textual-light"}
"""The themes offered, by the name the command palette gives them."""
MOTION_LEVELS = ("full", "basic", "none")
"""Textual's animation levels: full (cards fly), basic (reduced motion: only
highlights), none."""


class Prefs(TypedDict, total=False):
    """What is kept: ``theme`` (a Textual theme name), ``motion`` (an animation level),
    ``language`` (one of :data:`craits.protocol.i18n.LANGUAGES`)."""

    theme: str
    motion: str
    language: str


class PrefsStore:
    """The preferences file.

    Args:
        folder: the folder it lives in (the token store's).
    """

    def __init__(self, folder: Path):
        self.path = folder / FILE_NAME

    def load(self) -> Prefs:
        """The kept preferences; unknown or broken values are left out."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        out: Prefs = {}
        if isinstance(data.get("theme"), str):
            out["theme"] = data["theme"]
        if data.get("motion") in MOTION_LEVELS:
            out["motion"] = data["motion"]
        if data.get("language") in LANGUAGES:
            out["language"] = data["language"]
        return out

    def save(self, **changes: str) -> None:
        """Keep ``changes`` (``theme=…``, ``motion=…``, ``language=…``) with what was
        kept before."""
        data = dict(self.load())
        data.update(changes)
        with contextlib.suppress(OSError):  # (a choice not kept: the default comes back)
            write_private_json(self.path, data)
