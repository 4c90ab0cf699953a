"""The problem screen: why the client cannot go on, shown inside the app, with a retry.

In a terminal the client exits and prints the reason; in a browser (``--web``)
nothing printed is ever seen, so the reason is shown here, over the lobby, with
two visible ways on: try again, or leave.
"""

from __future__ import annotations

from typing import ClassVar

from craits.protocol.i18n import N_
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..widgets.key_footer import KeyFooter


class ProblemScreen(ModalScreen[bool]):
    """Why the game server cannot be reached (or refused us); dismissed with True
    to try again, False to leave.

    Args:
        message: the reason, in words (never read as markup).
    """

    DEFAULT_CSS = """
    ProblemScreen { align: center middle; }
    ProblemScreen > Vertical {
        width: 60; max-width: 100%; height: auto; padding: 1 2;
        border: thick $error; background: $surface;
    }
    ProblemScreen #problem-title { text-style: bold; color: $error; }
    ProblemScreen #problem-text { margin: 1 0; }
    ProblemScreen Horizontal { height: auto; }
    ProblemScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "retry", N_("Try again")),
        Binding("q", "leave", N_("Leave")),
    ]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        """The reason and the two buttons."""
        with Vertical():
            yield Static("Cannot reach the game", id="problem-title")
            yield Static(self.message, id="problem-text", markup=False)
            with Horizontal():
                yield Button("Try again", id="retry", variant="primary")
                yield Button("Leave", id="leave")
        yield KeyFooter()

    def on_mount(self) -> None:
        """The retry button has the focus: Enter tries again."""
        self.query_one("#retry", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Retry or leave."""
        self.dismiss(event.button.id == "retry")

    def action_retry(self) -> None:
        """Try to connect again."""
        self.dismiss(True)

    def action_leave(self) -> None:
        """Leave the program."""
        self.dismiss(False)
