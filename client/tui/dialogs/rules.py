"""The rules page: the rules, every key, and what each mark on the screen means."""

from __future__ import annotations

from importlib import resources

from craits.protocol.vocab import SUIT_SYMBOLS
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Markdown

from .base import ASCII_TEXT, Dialog


def rules_text(ascii: bool = False) -> str:
    """The rules summary bundled with the client (Markdown); with ``ascii`` every
    character is ASCII (suits as letters, the screen's marks as ``--ascii`` draws them)."""
    text = (
        resources.files(__package__ or "craits.client.tui.dialogs")
        .joinpath("rules_help.md")
        .read_text(encoding="utf-8")
    )
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
