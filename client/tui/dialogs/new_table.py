"""Open a table: its name, seats, the rules' options, the turn time, private or not."""

from __future__ import annotations

import unicodedata

from craits.protocol.i18n import N_, LazyString, _, _l
from craits.protocol.messages import MAX_NAME, undrawable
from craits.protocol.types import CreateTableMsg, RulesMap
from craits.protocol.vocab import ClientMessage
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ...present.rule_options import RULE_OPTIONS, option_label, switched_value
from ..widgets.key_footer import KeyFooter
from .base import Dialog


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


TURN_TIMES: list[tuple[str | LazyString, int]] = [
    ("15 s", 15),
    ("30 s", 30),
    ("1 min", 60),
    ("2 min", 120),
    ("5 min", 300),
    (_l("no limit"), 0),
]
"""The turn times a new table may have, ``(label, seconds)``; 0: no limit. The
server refuses a turn shorter than its shortest (10 s by default; protocol §5)."""


DEFAULT_TURN_TIME = 60
"""The turn time a new table gets unless its creator chooses another, seconds."""


PRIVATE_LABEL = _l("Private: by invite only")
"""The new-table dialog's private choice (short: it fits a phone's width)."""


PRIVATE_MEANS = _l("only people with its invite code may join or watch")
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
        Binding("escape", "cancel", N_("Cancel")),
        Binding("ctrl+s", "create", N_("Create")),
    ]

    def __init__(self, default_name: str):
        super().__init__()
        self.default_name = default_name

    def compose(self) -> ComposeResult:
        """The form."""
        # (it scrolls when the terminal is too low for it: a phone's browser)
        with VerticalScroll(id="create", classes="dialog"):
            yield Label(_("Open a table"), classes="dialog-title")
            with Horizontal(classes="form-row"):
                yield Label(_("Name"), classes="form-label")
                yield Input(self.default_name, id="table-name", max_length=MAX_NAME, compact=True)
            with Horizontal(classes="form-row", id="numbers"):
                with Horizontal(classes="form-pair"):
                    yield Label(_("Seats 2–8"), classes="form-label")
                    yield DigitInput(
                        "2",
                        id="seat-count",
                        type="integer",
                        max_length=1,
                        compact=True,
                        tooltip=_("type a number from 2 to 8"),
                    )
                with Horizontal(classes="form-pair"):
                    yield Label(_("Turn time"), classes="form-label")
                    yield Select(
                        [(str(label), seconds) for label, seconds in TURN_TIMES],
                        value=DEFAULT_TURN_TIME,
                        allow_blank=False,
                        compact=True,
                        id="timeout",
                        tooltip=_(
                            "how long each player has for a turn before the server "
                            "plays for them and marks them away"
                        ),
                    )
            with Grid(id="options"):
                for opt in RULE_OPTIONS:
                    yield OptionBox(
                        f"{option_label(opt)} ({opt.section})", id=f"opt-{opt.name}", compact=True
                    )
            yield OptionBox(
                str(PRIVATE_LABEL),
                id="private",
                compact=True,
                tooltip=str(PRIVATE_MEANS).capitalize(),
            )
            yield Static(Text(str(PRIVATE_MEANS), style="dim"), id="private-means")
            yield Static(id="create-error", classes="error-line")
            with Horizontal(classes="buttons"):
                yield Button(_("Create"), variant="primary", id="do-create", compact=True)
                yield Button(_("Cancel"), id="do-cancel", compact=True)
            yield Static(Text(_("Tab: next field · Space: switch an option"), style="dim"))
        yield KeyFooter()

    def on_mount(self) -> None:
        """Start in the name field."""
        self.query_one("#table-name", Input).focus()

    def request(self) -> CreateTableMsg | str:
        """The ``create_table`` message, or what is wrong with the form."""
        name = self.query_one("#table-name", Input).value.strip()
        if not name:
            return _("The table needs a name.")
        if any(c in name for c in "[]") or any(ord(c) < 32 for c in name):
            return _("A name cannot hold square brackets or control characters.")
        why = undrawable(unicodedata.normalize("NFC", name))
        if why is not None:  # (the server refuses it: protocol §5)
            return f"The name {why}."
        try:
            seats = int(self.query_one("#seat-count", Input).value)
        except ValueError:
            return _("Seats: a number from 2 to 8.")
        if not 2 <= seats <= 8:
            return _("Seats: a number from 2 to 8.")
        timeout = self.query_one("#timeout", Select).value
        if not isinstance(timeout, int):  # no blank is offered; never true
            return _("Choose a turn time.")
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
