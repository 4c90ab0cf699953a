"""The dialogs' base and the plain questions: a modal screen that closes once, ask for a
name, choose among choices (a suit, a seat, a bot's level), confirm.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from craits.protocol.i18n import N_, _
from craits.protocol.messages import MAX_NAME
from craits.protocol.vocab import SUIT_NAMES
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ...present.card_style import CardStyle
from ..widgets.key_footer import KeyFooter

ResultType = TypeVar("ResultType")


ChoiceType = TypeVar("ChoiceType")


class Dialog(ModalScreen[ResultType]):
    """A modal screen that closes once: a second key press or click arriving
    before it is gone does nothing (a plain ``dismiss`` would pop the screen
    below it)."""

    _finished = False

    def finish(self, result: ResultType | None = None) -> None:
        """Close with ``result``, if this dialog is still the one shown."""
        if self._finished or self.app.screen is not self:
            return
        self._finished = True
        self.dismiss(result)


class AskDialog(Dialog[str | None]):
    """Ask for one line of text (a name); dismissed with it, or None."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012

    def __init__(self, prompt: str, default: str = ""):
        super().__init__()
        self.prompt = prompt
        self.default = default

    def compose(self) -> ComposeResult:
        """A prompt and a field."""
        with Vertical(classes="dialog small"):
            yield Static(Text(self.prompt))
            yield Input(self.default, max_length=MAX_NAME, compact=True)

    def on_mount(self) -> None:
        """Focus the field."""
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.finish(event.value.strip() or None)

    def action_cancel(self) -> None:
        """Close without an answer."""
        self.finish(None)


class ChoiceDialog(Dialog[ChoiceType]):
    """Choose one of a few options by key or click; Escape cancels (dismissed with None).

    Args:
        title: what is asked.
        choices: ``(key, label, value)`` for each option.
        still_valid: for a question about the game: whether it still makes
            sense after an update (if not, the dialog closes by itself).
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]  # noqa: RUF012

    def __init__(
        self,
        title: str | Text,
        choices: list[tuple[str, Text, ChoiceType]],
        still_valid: Callable[[], bool] | None = None,
        *,
        compact: bool = False,
    ):
        super().__init__(classes="-compact" if compact else None)
        self.title_text = title
        self.choices = choices
        self.still_valid = still_valid
        self.compact = compact

    def compose(self) -> ComposeResult:
        """The question and a button per option (in a row when ``compact``)."""
        title = self.title_text
        with Vertical(classes="dialog small choice"):
            yield Static(Text(title) if isinstance(title, str) else title, classes="question")
            row = Horizontal if self.compact else Vertical
            with row(classes="choices"):
                for i, (key, label, _value) in enumerate(self.choices):
                    text = Text.assemble((f"{key}", "bold underline"), "  ", label)
                    yield Button(text, id=f"choice-{i}", compact=True)
            yield Label(Text(_("Escape: cancel"), style="dim"))
        yield KeyFooter()

    def on_mount(self) -> None:
        """Focus the first option."""
        buttons = self.query(Button)
        if buttons:
            buttons.first().focus()

    def on_key(self, event: events.Key) -> None:
        """An option's key chooses it."""
        key = str(event.key).lower()
        for i, (k, _label, value) in enumerate(self.choices):
            if key in (k.lower(), str(i + 1)):
                event.stop()
                self.finish(value)
                return

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("choice-"):
            self.finish(self.choices[int(event.button.id.removeprefix("choice-"))][2])

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.finish(None)


def suit_dialog(
    style: CardStyle,
    title: str | Text,
    suits: list[str],
    still_valid: Callable[[], bool] | None = None,
) -> ChoiceDialog[str]:
    """A dialog offering exactly ``suits`` (the ones the legal actions allow): a
    compact one at the bottom of the screen, so the hand stays in sight."""
    choices: list[tuple[str, Text, str]] = []
    for s in suits:
        text = Text.assemble(style.suit_text(s), " ", (SUIT_NAMES[s], ""))
        choices.append((s.lower(), text, s))
    return ChoiceDialog(title, choices, still_valid, compact=True)


class ConfirmDialog(Dialog[bool]):
    """A yes/no question: ``y`` says yes, ``n`` or Escape no, Enter the button
    with the focus: "No", the safe answer, unless ``yes_first`` (a question
    whose yes does no harm)."""

    BINDINGS = [  # noqa: RUF012
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str, yes_first: bool = False):
        super().__init__()
        self.question = question
        self.yes_first = yes_first

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        with Vertical(classes="dialog small"):
            yield Static(Text(self.question))
            with Horizontal(classes="buttons"):
                yield Button(_("Yes (y)"), id="yes", variant="primary", compact=True)
                yield Button(_("No (n)"), id="no", compact=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        """Focus "No", the safe answer (or "Yes", when that does no harm)."""
        self.query_one("#yes" if self.yes_first else "#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.finish(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer."""
        self.finish(yes)


ASCII_TEXT: dict[str, str] = {
    "→ ↓ ← ↑": "> v < ^",
    "→ along": "> along",
    "↓ down": "v down",
    ") → ": ") -> ",
    " (↻)": "",
    " (↺)": "",
    "▮": "#",
    "▶": ">",
    "↻ ": "",
    "↺ ": "",
    "·": "-",
    "—": "--",
    "–": "-",
    "−": "-",
    "…": "...",
    "←": "Left",
    "→": "Right",
}
"""How the rules page's other non-ASCII characters read with ``--ascii`` (the marks
as the screen then draws them: ``>`` for the turn, the direction in words)."""
