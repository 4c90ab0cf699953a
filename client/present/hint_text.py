"""A hint in words (protocol §7.6, ``docs/bots.md`` "Hints"): the line the table
screen shows under the prompt, and the card to point at in the hand.

For instance ``Hint: play 8♠ and name ♦ (expected −3.1 points; next best 6♠
+1.4; Q♥ +12.0)``: the expert's choice, then the next best choices, each with the
seat's expected points at the end of the hand (low is good).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from craits.protocol.types import Hint
from rich.text import Text

from ..core.model import TableModel
from .card_style import CardStyle

HINT_STYLE = "italic cyan"


def _points(x100: int | None) -> str:
    """Points in hundredths as read: ``−3.1``, ``+12.0`` (a real minus sign)."""
    if x100 is None:
        return "?"
    value = x100 / 100
    sign = "−" if value < 0 else "+"
    return f"{sign}{abs(value):.1f}"


def describe(
    action: Mapping[str, Any] | None,
    kind: str,
    style: CardStyle,
    name_of: Callable[[int | None], str],
    short: bool = False,
) -> str:
    """A hint's action in words: ``play 8♠ and name ♦`` (``short``: ``8♠ naming ♦``),
    ``draw``, ``take the count``, ``keep the drawn card``, ``say "one card"``,
    ``call idiot on Ben``… None is the call not made (``let it go``) or "one card"
    not said."""
    if action is None:
        return "let it go" if kind == "idiot" else 'stay silent (no "one card")'
    if "play" in action:
        card = style.label(str(action["play"]))
        words = card if short else f"play {card}"
        if action.get("suit") is not None:
            words += f"{' naming' if short else ' and name'} {style.suit(str(action['suit']))}"
        if action.get("announce"):
            words += ', saying "one card"'
        return words
    if "name_suit" in action:
        return f"name {style.suit(str(action['name_suit']))}"
    if "idiot" in action:
        return f"call idiot on {name_of(int(action['idiot']))}"
    if action.get("announce"):
        return 'say "one card"'
    if "draw" in action:
        return "take the count" if kind == "count" else "draw"
    if "pass" in action:
        return "keep the drawn card"
    return str(dict(action))


def hint_line(hint: Hint, model: TableModel, style: CardStyle) -> Text:
    """The hint in one line: the expert's move and expected points, then the next
    best choices with theirs (``docs/bots.md``: points at the end of the hand)."""
    choices = hint["choices"]
    kind = hint["kind"]

    def said(action: Mapping[str, Any] | None, short: bool = False) -> str:
        return describe(action, kind, style, model.name_of, short)

    words = f"Hint: {said(hint['expert'])}"
    if choices and choices[0]["points_x100"] is not None:
        words += f" (expected {_points(choices[0]['points_x100'])} points"
        others = [f"{said(c['action'], True)} {_points(c['points_x100'])}" for c in choices[1:]]
        words += f"; next best {'; '.join(others)})" if others else ")"
    else:
        words += " (the only sensible move)"
    return Text(words, style=HINT_STYLE)


def hint_card(hint: Hint) -> str | None:
    """The card the hint plays (to point at in the hand), or None."""
    expert: Mapping[str, Any] | None = hint["expert"]
    card = None if expert is None else expert.get("play")
    return None if card is None else str(card)


def hint_key(model: TableModel, online: bool) -> bool | None:
    """The hint key's state (the table's keys, :data:`~.presenter.KeyState`): hidden
    from a spectator and before a game, greyed out offline and when the seat has
    nothing to do (the server lists it no action)."""
    if model.spectator or model.view is None:
        return False
    return True if online and model.legal else None
