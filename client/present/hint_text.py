"""A hint in words (protocol §7.6, ``docs/bots.md`` "Hints"): the line the table
screen shows under the prompt, and the card to point at in the hand.

For instance ``Hint: play 8♠ and name ♦ (expected −3.1 points; next best 6♠
+1.4; Q♥ +12.0)``: the expert's choice, then the next best choices, each with the
seat's expected points at the end of the hand (low is good).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from craits.protocol.i18n import _
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
    # TRANSLATORS: a hint's move, shown after "Hint:" and after "the expert would";
    # {card} a card's index and suit sign (8♠), {suit} a suit sign (♦)
    if action is None:
        return _("let it go") if kind == "idiot" else _('stay silent (no "one card")')
    if "play" in action:
        card = style.label(str(action["play"]))
        suit = None if action.get("suit") is None else style.suit(str(action["suit"]))
        return _play_words(card, suit, bool(action.get("announce")), short)
    if "name_suit" in action:
        return _("name {suit}").format(suit=style.suit(str(action["name_suit"])))
    if "idiot" in action:
        return _("call idiot on {player}").format(player=name_of(int(action["idiot"])))
    if action.get("announce"):
        return _('say "one card"')
    if "draw" in action:
        return _("take the count") if kind == "count" else _("draw")
    if "pass" in action:
        return _("keep the drawn card")
    return str(dict(action))


def _play_words(card: str, suit: str | None, announce: bool, short: bool) -> str:
    """A hint's play in words: ``play 8♠ and name ♦, saying "one card"``; ``short``
    (among the next best): ``8♠ naming ♦``."""
    if suit is None:
        words = card if short else _("play {card}").format(card=card)
    elif short:
        words = _("{card} naming {suit}").format(card=card, suit=suit)
    else:
        words = _("play {card} and name {suit}").format(card=card, suit=suit)
    if announce:
        # TRANSLATORS: after a hint's play: 'play 7♥, saying "one card"'
        words = _('{move}, saying "one card"').format(move=words)
    return words


def hint_line(hint: Hint, model: TableModel, style: CardStyle) -> Text:
    """The hint in one line: the expert's move and expected points, then the next
    best choices with theirs (``docs/bots.md``: points at the end of the hand)."""
    choices = hint["choices"]
    kind = hint["kind"]

    def said(action: Mapping[str, Any] | None, short: bool = False) -> str:
        return describe(action, kind, style, model.name_of, short)

    move = said(hint["expert"])
    if choices and choices[0]["points_x100"] is not None:
        expected = _points(choices[0]["points_x100"])
        others = [f"{said(c['action'], True)} {_points(c['points_x100'])}" for c in choices[1:]]
        if others:
            # TRANSLATORS: points expected at the end of the hand (low is good),
            # then the next best moves
            words = _("Hint: {move} (expected {points} points; next best {others})")
            words = words.format(move=move, points=expected, others="; ".join(others))
        else:
            words = _("Hint: {move} (expected {points} points)").format(move=move, points=expected)
    else:
        words = _("Hint: {move} (the only sensible move)").format(move=move)
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
