"""``--ascii``: whatever is drawn reaches the terminal as ASCII only."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

ASCII_PUNCTUATION = {
    "—": "-",
    "–": "-",
    "·": ".",
    "…": ".",
    "•": "*",
    "▶": ">",
    "◀": "<",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "↻": "@",
    "↺": "@",
    "×": "x",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "⏎": "E",
    "✓": "v",
    "✗": "x",
    "\u00a0": " ",
}
"""Single-cell ASCII stand-ins for the characters the client and Textual draw."""


@lru_cache(maxsize=4096)
def ascii_char(ch: str) -> str:
    """An ASCII stand-in for ``ch`` as wide as it (in cells): box drawing to
    ``+ - | = #``, blocks (scroll bars) to ``#``, letters to their base letter,
    anything else to ``?``."""
    if ch.isascii():
        return ch
    if ch in ASCII_PUNCTUATION:
        return ASCII_PUNCTUATION[ch]
    width = cell_len(ch)
    if width == 0:
        return ""
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):
        heavy = "HEAVY" in name or "DOUBLE" in name
        if "HORIZONTAL" in name and "VERTICAL" not in name:
            return "=" if heavy else "-"
        if "VERTICAL" in name and "HORIZONTAL" not in name:
            return "#" if heavy else "|"
        return "#" if heavy else "+"
    if 0x2580 <= ord(ch) <= 0x259F or 0x25A0 <= ord(ch) <= 0x25FF:
        return "#" * width
    base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    if len(base) == width:
        return base
    return "?" * width


@lru_cache(maxsize=8192)
def ascii_text(text: str) -> str:
    """``text`` with every character made ASCII (:func:`ascii_char`), as wide."""
    if text.isascii():
        return text
    return "".join(ascii_char(ch) for ch in text)


class AsciiFilter(LineFilter):
    """``--ascii``: whatever is drawn (our widgets', Textual's borders, scroll
    bars, punctuation from the network) reaches the terminal as ASCII only."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        """Each segment's text made ASCII, as wide as it was."""
        return [
            seg if seg.text.isascii() else Segment(ascii_text(seg.text), seg.style, seg.control)
            for seg in segments
        ]
