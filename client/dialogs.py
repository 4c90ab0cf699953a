"""Dialogs: open a table, ask a name, choose a suit or a seat, confirm, the rules."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from importlib import resources
from typing import TypeVar

from craits.protocol.messages import MAX_NAME, undrawable
from craits.protocol.types import CreateTableMsg, RulesMap
from craits.protocol.vocab import SUIT_NAMES, SUIT_SYMBOLS, ClientMessage
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Markdown, Select, Static

from .cards import CardStyle
from .model import TableModel
from .options import RULE_OPTIONS, switched_value
from .sheet import score_sheet

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


class OptionBox(Checkbox):
    """A checkbox that reads on or off without colour, as plain text too:
    ``[X]`` when on, ``[ ]`` when off."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]
        """The mark inside the box."""
        return "X" if self.value else " "

    @property
    def _button(self) -> Content:
        """The box: its brackets in the label's colour (Textual draws its sides
        in the box's background colour, for half blocks), the mark as Textual
        styles it."""
        inner = self.get_visual_style("toggle--button")
        return Content.assemble(self.BUTTON_LEFT, (self.BUTTON_INNER, inner), self.BUTTON_RIGHT)


class DigitInput(Input):
    """A one-digit field: a typed digit replaces the one there (no Backspace needed)."""

    def insert_text_at_cursor(self, text: str) -> None:
        """Take the last digit typed as the whole value."""
        digit = text[-1:]
        if not digit.isdigit():
            self.restricted()
            return
        self.value = digit
        self.cursor_position = len(self.value)


TURN_TIMES: list[tuple[str, int]] = [
    ("15 s", 15),
    ("30 s", 30),
    ("1 min", 60),
    ("2 min", 120),
    ("5 min", 300),
    ("no limit", 0),
]
"""The turn times a new table may have, ``(label, seconds)``; 0: no limit. The
server refuses a turn shorter than its shortest (10 s by default; protocol §5)."""
DEFAULT_TURN_TIME = 60
"""The turn time a new table gets unless its creator chooses another, seconds."""


PRIVATE_LABEL = "Private: by invite only"
"""The new-table dialog's private choice (short: it fits a phone's width)."""
PRIVATE_MEANS = "only people with its invite code may join or watch"
"""What a private table is, under its choice."""


class CreateTableDialog(Dialog[CreateTableMsg]):
    """Open a table: its name, seats, RULES.md options and turn time (one of
    :data:`TURN_TIMES`).

    Dismissed with the ``create_table`` fields, or None when cancelled.
    """

    DEFAULT_CSS = """
    CreateTableDialog .form-row #timeout { width: 14; }
    """

    BINDINGS = [  # noqa: RUF012
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "create", "Create"),
    ]

    def __init__(self, default_name: str):
        super().__init__()
        self.default_name = default_name

    def compose(self) -> ComposeResult:
        """The form."""
        # (it scrolls when the terminal is too low for it: a phone's browser)
        with VerticalScroll(id="create", classes="dialog"):
            yield Label("Open a table", classes="dialog-title")
            with Horizontal(classes="form-row"):
                yield Label("Name", classes="form-label")
                yield Input(self.default_name, id="table-name", max_length=MAX_NAME, compact=True)
            with Horizontal(classes="form-row", id="numbers"):
                with Horizontal(classes="form-pair"):
                    yield Label("Seats 2–8", classes="form-label")
                    yield DigitInput(
                        "2",
                        id="seat-count",
                        type="integer",
                        max_length=1,
                        compact=True,
                        tooltip="type a number from 2 to 8",
                    )
                with Horizontal(classes="form-pair"):
                    yield Label("Turn time", classes="form-label")
                    yield Select(
                        TURN_TIMES,
                        value=DEFAULT_TURN_TIME,
                        allow_blank=False,
                        compact=True,
                        id="timeout",
                        tooltip="how long each player has for a turn before the server "
                        "plays for them and marks them away",
                    )
            with Grid(id="options"):
                for opt in RULE_OPTIONS:
                    yield OptionBox(
                        f"{opt.label} ({opt.section})", id=f"opt-{opt.name}", compact=True
                    )
            yield OptionBox(
                PRIVATE_LABEL, id="private", compact=True, tooltip=PRIVATE_MEANS.capitalize()
            )
            yield Static(Text(PRIVATE_MEANS, style="dim"), id="private-means")
            yield Static(id="create-error", classes="error-line")
            with Horizontal(classes="buttons"):
                yield Button("Create", variant="primary", id="do-create", compact=True)
                yield Button("Cancel", id="do-cancel", compact=True)
            yield Static(Text("Tab: next field · Space: switch an option", style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Start in the name field."""
        self.query_one("#table-name", Input).focus()

    def request(self) -> CreateTableMsg | str:
        """The ``create_table`` message, or what is wrong with the form."""
        name = self.query_one("#table-name", Input).value.strip()
        if not name:
            return "The table needs a name."
        if any(c in name for c in "[]") or any(ord(c) < 32 for c in name):
            return "A name cannot hold square brackets or control characters."
        why = undrawable(unicodedata.normalize("NFC", name))
        if why is not None:  # (the server refuses it: protocol §5)
            return f"The name {why}."
        try:
            seats = int(self.query_one("#seat-count", Input).value)
        except ValueError:
            return "Seats: a number from 2 to 8."
        if not 2 <= seats <= 8:
            return "Seats: a number from 2 to 8."
        timeout = self.query_one("#timeout", Select).value
        if not isinstance(timeout, int):  # no blank is offered; never true
            return "Choose a turn time."
        rules: RulesMap = {}
        for opt in RULE_OPTIONS:
            if self.query_one(f"#opt-{opt.name}", Checkbox).value:
                rules[opt.name] = switched_value(opt)
        request = CreateTableMsg(
            type=ClientMessage.CREATE_TABLE,
            name=name,
            seats=seats,
            rules=rules,
            turn_timeout_ms=timeout * 1000,
        )
        if self.query_one("#private", Checkbox).value:
            request["private"] = True  # protocol §11.9
        return request

    def action_create(self) -> None:
        """Check the form and send it."""
        request = self.request()
        if isinstance(request, str):
            self.query_one("#create-error", Static).update(Text(request))
            return
        self.finish(request)

    def action_cancel(self) -> None:
        """Close without opening a table."""
        self.finish(None)

    @on(Button.Pressed, "#do-create")
    def _create_pressed(self) -> None:
        self.action_create()

    @on(Button.Pressed, "#do-cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_create()


class AskDialog(Dialog[str | None]):
    """Ask for one line of text (a name); dismissed with it, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]  # noqa: RUF012

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

    BINDINGS = [Binding("escape", "cancel", "Cancel")]  # noqa: RUF012

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
            yield Label(Text("Escape: cancel", style="dim"))
        yield Footer(compact=True)

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
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
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
                yield Button("Yes (y)", id="yes", variant="primary", compact=True)
                yield Button("No (n)", id="no", compact=True)
        yield Footer(compact=True)

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


def rules_text(ascii: bool = False) -> str:
    """The rules summary bundled with the client (Markdown); with ``ascii`` every
    character is ASCII (suits as letters, the screen's marks as ``--ascii`` draws them)."""
    text = resources.files("craits.client").joinpath("rules_help.md").read_text(encoding="utf-8")
    if ascii:
        for letter, symbol in SUIT_SYMBOLS.items():
            text = text.replace(symbol, letter)
        for fancy, plain in ASCII_TEXT.items():
            text = text.replace(fancy, plain)
    return text


class RulesScreen(Dialog[None]):
    """The rules and the keys, scrollable; Escape, q or ? closes."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def __init__(self, ascii: bool = False):
        super().__init__()
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        """The bundled rules text (suits as letters with ``ascii``)."""
        with VerticalScroll(id="rules", classes="dialog"):
            yield Markdown(rules_text(self.ascii))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Focus the text, so arrows and Page Up/Down scroll it."""
        self.query_one("#rules").focus()

    def action_close(self) -> None:
        """Back to the game."""
        self.finish(None)


class ScoreSheetScreen(Dialog[bool]):
    """The running score sheet (:mod:`craits.client.sheet`): every hand so far,
    points, shuffle penalties and totals per seat. Escape, Enter, ``h`` or ``q``
    closes it; ``l`` closes it with True, for the last hand's summary.

    Args:
        model: the table (read again by :meth:`sync`, after each change).
        style: how cards are drawn.
    """

    DEFAULT_CSS = """
    #score-sheet { width: 100; max-width: 100%; height: auto; max-height: 100%; }
    """
    BINDINGS = [  # noqa: RUF012
        Binding("escape,enter,h,q", "close", "Close"),
        Binding("l", "last_hand", "Last hand"),
    ]

    def __init__(self, model: TableModel, style: CardStyle):
        super().__init__()
        self.model = model
        self.style = style

    def compose(self) -> ComposeResult:
        """The sheet, scrollable."""
        with VerticalScroll(id="score-sheet", classes="dialog"):
            yield Static(id="score-sheet-body")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Draw the sheet; focus it so the arrows scroll."""
        self.sync()
        self.query_one("#score-sheet").focus()

    def sync(self, model: TableModel | None = None) -> None:
        """Draw the sheet again (``model``: the table's, if it changed)."""
        if model is not None:
            self.model = model
        body = self.query_one("#score-sheet-body", Static)
        body.update(score_sheet(self.model, self.style, self.size.width - 4))
        self.refresh_bindings()

    def on_resize(self) -> None:
        """Lay the sheet out again for the new width."""
        self.sync()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``l`` only once a hand has ended."""
        if action == "last_hand":
            return self.model.last_result is not None
        return True

    def action_close(self) -> None:
        """Back to the table."""
        self.finish(False)

    def action_last_hand(self) -> None:
        """The last hand's summary (every hand revealed, the threes…)."""
        self.finish(True)
