"""The rules page: the rules, every key, and what each mark on the screen means, in
the player's language (``rules_help.md``, ``rules_help.de.md``, ``rules_help.el.md``:
a page per language, written whole rather than glued from messages; in the
pseudo-language the English page with its every line marked, docs/i18n.md)."""

from __future__ import annotations

import re
from importlib import resources

from craits.protocol import i18n
from craits.protocol.i18n import N_
from craits.protocol.vocab import SUIT_SYMBOLS
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from ..messages import LanguageChanged, follow_news
from ..widgets.key_footer import KeyFooter
from .base import ASCII_TEXT, Dialog

_MARKDOWN_LEAD = re.compile(r"^(#+ |- |\s+)?")
"""What starts a Markdown line and is no text: a heading's hashes, a bullet, an indent."""


def pseudo_markdown(text: str) -> str:
    """``text`` (Markdown) in the pseudo-language: each line's words, each table
    cell's, between the markers (:func:`~craits.protocol.i18n.pseudo`); the
    Markdown around them kept, so the page is laid out as the real ones are."""
    out = []
    for line in text.splitlines():
        if not line.strip() or set(line) <= set("|-: "):
            out.append(line)
        elif line.startswith("|"):
            cells = line.strip().strip("|").split("|")
            out.append("| " + " | ".join(i18n.pseudo(c.strip()) for c in cells) + " |")
        else:
            lead = _MARKDOWN_LEAD.match(line)
            head = lead.group() if lead else ""
            out.append(head + i18n.pseudo(line[len(head) :]))
    return "\n".join(out) + "\n"


def rules_text(ascii: bool = False, lang: str | None = None) -> str:
    """The rules summary bundled with the client (Markdown) in ``lang`` (the one
    spoken now if None; English for one without a page); with ``ascii`` every
    character is ASCII (suits as letters, the screen's marks as ``--ascii`` draws them)."""
    lang = i18n.language() if lang is None else lang
    folder = resources.files(__package__ or "craits.client.tui.dialogs")
    page = folder.joinpath(f"rules_help.{lang}.md")
    if not page.is_file():
        page = folder.joinpath("rules_help.md")
    text = page.read_text(encoding="utf-8")
    if lang == i18n.PSEUDO:
        text = pseudo_markdown(text)
    if ascii:
        for letter, symbol in SUIT_SYMBOLS.items():
            text = text.replace(symbol, letter)
        for fancy, plain in ASCII_TEXT.items():
            text = text.replace(fancy, plain)
    return text


class RulesScreen(Dialog[None]):
    """The rules and the keys, scrollable; Escape, q or ? closes."""

    BINDINGS = [  # noqa: RUF012
        Binding("escape,q,question_mark", "close", N_("Close")),
    ]

    def __init__(self, ascii: bool = False):
        super().__init__()
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        """The bundled rules text (suits as letters with ``ascii``)."""
        with VerticalScroll(id="rules", classes="dialog"):
            yield Markdown(rules_text(self.ascii))
        yield KeyFooter()

    def on_mount(self) -> None:
        """Focus the text, so arrows and Page Up/Down scroll it; follow the news (a
        language chosen meanwhile)."""
        follow_news(self)
        self.query_one("#rules").focus()

    @on(LanguageChanged)
    def _language(self, message: LanguageChanged) -> None:
        """Another language: its page."""
        self.query_one(Markdown).update(rules_text(self.ascii))

    def action_close(self) -> None:
        """Back to the game."""
        self.finish(None)
