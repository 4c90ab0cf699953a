"""The actions a seat can take (RULES.md R3–R7, R11).

The action types are defined once, with their one parser, in
:mod:`craits.protocol.actions` (which depends on nothing but the vocabulary);
this module gives the engine's names for them and the dict form with a
``seat`` used by rule vectors and game records
(``{"seat": 1, "play": "8S", "suit": "D"}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from craits.protocol.actions import (
    Action,
    ActionFormError,
    Announce,
    CallIdiot,
    Draw,
    NameSuit,
    Pass,
    Play,
    action_to_wire,
    parse_action,
)

from .errors import InvalidAction

__all__ = [
    "Action",
    "Announce",
    "CallIdiot",
    "Draw",
    "NameSuit",
    "Pass",
    "Play",
    "action_from_dict",
    "action_to_dict",
]


def action_from_dict(data: Mapping[str, Any], seat: int | None = None) -> Action:
    """Parse the dict form of an action (vectors README, "Actions").

    ``seat`` overrides (or supplies) the acting seat, as the server does from
    the connection; otherwise the dict's ``seat`` names it. The form is checked
    by :func:`craits.protocol.actions.parse_action`, the one parser.

    Raises:
        InvalidAction: the dict names no kind or several, has unknown keys,
            or holds a value of the wrong type or a bad card or suit code.
    """
    if seat is None:
        seat = data.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise InvalidAction("seat must be an integer")
    form = {k: v for k, v in data.items() if k != "seat"}
    try:
        return parse_action(form, seat, where="")
    except ActionFormError as exc:
        raise InvalidAction(str(exc)) from None


def action_to_dict(action: Action) -> dict[str, Any]:
    """The dict form of ``action`` with its seat, the inverse of :func:`action_from_dict`."""
    return {"seat": action.seat, **action_to_wire(action)}
