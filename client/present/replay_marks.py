"""The post-game analysis' marks in the replay viewer (protocol §7.6, ``docs/bots.md``
"Post-game analysis"): each marked decision beside the move that made it, as a
chess site marks moves — ``?!`` an inaccuracy, ``?`` a mistake, ``??`` a blunder —
with the points it lost against the expert's choice, and the way to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from craits.protocol.i18n import LazyString, _, lazy_pgettext
from rich.text import Text

from .card_style import CardStyle
from .hint_text import describe

SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""Each mark's sign, as chess annotates moves."""

MARKS: dict[str, LazyString] = {
    # TRANSLATORS: the post-game analysis' marks of a move, as chess annotates them
    "inaccuracy": lazy_pgettext("analysis mark", "inaccuracy"),
    "mistake": lazy_pgettext("analysis mark", "mistake"),
    "blunder": lazy_pgettext("analysis mark", "blunder"),
}
"""Each mark in words."""
STYLES = {"inaccuracy": "bold yellow", "mistake": "bold dark_orange", "blunder": "bold red"}


class Marks:
    """The marked decisions of an analysis (``docs/bots.md``, "The result"), by the
    replay's step: hand ``h`` (0-based) and frame ``move + 1`` (frame 0 is the deal).

    Args:
        analysis: the analysis document (its ``decisions``; unmarked ones are left out).
    """

    def __init__(self, analysis: Mapping[str, Any]):
        marked = [e for e in analysis.get("decisions", []) if e.get("mark") in SYMBOLS]
        self.at: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
        for e in marked:
            self.at.setdefault((int(e["hand"]) - 1, int(e["move"]) + 1), []).append(e)
        self.places = sorted(self.at)
        """Where the marks are, in order: ``(hand, frame)``."""

    def __len__(self) -> int:
        return sum(len(v) for v in self.at.values())

    def next_after(self, hand: int, frame: int) -> tuple[int, int] | None:
        """The first place with a mark after ``(hand, frame)`` (None: no more)."""
        return next((p for p in self.places if p > (hand, frame)), None)

    def lines(self, hand: int, frame: int, style: CardStyle, name_of: Any) -> list[Text]:
        """The marks of the step at ``(hand, frame)``, a line each: ``?? blunder —
        Ana lost 21.3 points: the expert would play 7♥``."""
        out = []
        for e in self.at.get((hand, frame), []):
            mark, kind = e["mark"], e["kind"]
            line = Text(f"{SYMBOLS[mark]} {MARKS[mark]}", style=STYLES[mark])
            expert = describe(e.get("expert"), kind, style, name_of)
            # TRANSLATORS: after a mark of the analysis ("?? blunder");
            # {move} a hint's move ("play 7♥")
            said = _(" — {player} lost {points} points: the expert would {move}")
            points = f"{float(e['lost']):.1f}"
            line.append(said.format(player=name_of(e["seat"]), points=points, move=expert))
            out.append(line)
        return out
