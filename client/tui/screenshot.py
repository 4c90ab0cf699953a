"""The command palette's Screenshot, in a terminal: an SVG of the screen saved
where it can be, and a notice naming the file (or why it was not saved).

Textual's own command saves into the user's downloads folder and fails with a
bare "Failed to save screenshot" where that folder does not exist (issue 23).
In a browser (``craits-web``) Textual's command stays: the browser downloads it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from platformdirs import user_downloads_path
from textual.app import App, SystemCommand

TITLE = "Screenshot"
"""The palette entry's title (Textual's own, which this one replaces)."""


def screenshot_folders() -> list[Path]:
    """Where a screenshot may go, in order: the user's downloads folder
    (``XDG_DOWNLOAD_DIR``, else ``~/Downloads``), the home folder, the folder
    the client was started in, the temporary folder."""
    return [user_downloads_path(), Path.home(), Path.cwd(), Path(tempfile.gettempdir())]


def screenshot_folder() -> Path:
    """The first of :func:`screenshot_folders` that exists and can be written
    to (the temporary folder if none)."""
    for folder in screenshot_folders():
        with contextlib.suppress(OSError, RuntimeError):
            if folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
                return folder
    return Path(tempfile.gettempdir())


class Screenshots:
    """The palette's Screenshot for ``app`` in a terminal.

    Args:
        app: the client.
    """

    def __init__(self, app: App[Any]):
        self.app = app

    def commands(self, textual: Iterable[SystemCommand]) -> Iterable[SystemCommand]:
        """Textual's palette entries (``textual``), its Screenshot replaced by this one."""
        for command in textual:
            if command.title != TITLE:
                yield command
        yield SystemCommand(
            TITLE,
            "Save an SVG picture of the screen (in Downloads, else the home folder)",
            lambda: self.app.set_timer(0.1, self.save),  # (once the palette is closed)
        )

    def save(self) -> Path | None:
        """Save the screen as SVG and say where; on failure say why. The file, or None."""
        folder = screenshot_folder()
        try:
            saved = Path(self.app.save_screenshot(path=str(folder)))
        except OSError as exc:
            why = exc.strerror or str(exc)
            self.app.notify(
                f"The screenshot was not saved in {folder}: {why}",
                severity="error",
                timeout=8,
                markup=False,
            )
            return None
        self.app.notify(f"Screenshot saved: {saved}", timeout=8, markup=False)
        return saved
