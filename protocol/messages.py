"""The messages a client may send, their schemas, and the error codes.

:func:`validate` checks a decoded message against its schema before anything
else sees it: unknown types, missing or extra fields, wrong types, integers
out of range, bad card or suit codes all raise :class:`ProtocolError` naming
the problem. ``docs/protocol.md`` documents every message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .actions import Action, ActionFormError, parse_action
from .vocab import ERROR_MEANINGS
from .wire import ProtocolError

MAX_NAME = 24
"""Longest display name or table name, in characters."""
MAX_CHAT = 300
"""Longest chat message, in characters."""
MAX_TOKEN = 128
"""Longest resume token accepted, in characters."""
MAX_ID = 2**53
"""Action ids are integers 0 … 2^53 (safe in every language's numbers)."""
MAX_TURN_TIMEOUT_MS = 3_600_000
"""Longest turn timeout a table may have: one hour, in milliseconds."""

_CARD = re.compile(r"[A23456789TJQK][SHDC]\Z")
_NAME_BAD = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")

ERROR_CODES: dict[str, str] = {str(code): meaning for code, meaning in ERROR_MEANINGS.items()}
"""Every error code the server sends, with its meaning."""


Check = Callable[[Any, str], Any]


def _fail(where: str, what: str) -> ProtocolError:
    return ProtocolError("bad_message", f"{where}: {what}")


def integer(lo: int, hi: int) -> Check:
    """A check for an integer in ``lo…hi`` (booleans are not integers)."""

    def check(v: Any, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise _fail(where, f"must be an integer, not {_kind(v)}")
        if not lo <= v <= hi:
            raise _fail(where, f"must be {lo}..{hi}")
        return v

    return check


def string(lo: int, hi: int) -> Check:
    """A check for a string of ``lo…hi`` characters."""

    def check(v: Any, where: str) -> str:
        if not isinstance(v, str):
            raise _fail(where, f"must be a string, not {_kind(v)}")
        if not lo <= len(v) <= hi:
            raise _fail(where, f"must be {lo}..{hi} characters")
        return v

    return check


def name(v: Any, where: str) -> str:
    """A display or table name: 1…24 characters, no control characters or brackets,
    surrounding spaces removed."""
    if not isinstance(v, str):
        raise _fail(where, f"must be a string, not {_kind(v)}")
    v = v.strip()
    if not 1 <= len(v) <= MAX_NAME:
        raise _fail(where, f"must be 1..{MAX_NAME} characters")
    if _NAME_BAD.search(v):
        raise _fail(where, "must not hold control characters or square brackets")
    return v


def boolean(v: Any, where: str) -> bool:
    """A check for true or false."""
    if not isinstance(v, bool):
        raise _fail(where, f"must be true or false, not {_kind(v)}")
    return v


def true(v: Any, where: str) -> bool:
    """A check for the value true."""
    if v is not True:
        raise _fail(where, "must be true")
    return v


def card(v: Any, where: str) -> str:
    """A card code (``"TD"``: rank ``A23456789TJQK`` then suit ``SHDC``)."""
    if not isinstance(v, str) or not _CARD.match(v):
        raise _fail(where, "must be a card code such as 'TD'")
    return v


def suit(v: Any, where: str) -> str:
    """A suit code: ``S``, ``H``, ``D`` or ``C``."""
    if not isinstance(v, str) or v not in ("S", "H", "D", "C"):
        raise _fail(where, "must be a suit: S, H, D or C")
    return v


def rules(v: Any, where: str) -> dict[str, bool | int]:
    """Rules options: a map of option name to true/false or an integer (checked by the server)."""
    if not isinstance(v, dict):
        raise _fail(where, f"must be a map, not {_kind(v)}")
    if len(v) > 32:
        raise _fail(where, "too many options")
    for key, value in v.items():
        if not isinstance(key, str) or len(key) > 40:
            raise _fail(where, "option names must be strings")
        if isinstance(value, bool):
            continue
        if not isinstance(value, int) or not -1000 <= value <= 1000:
            raise _fail(f"{where}.{key}", "must be true, false or a small integer")
    return v


def action(v: Any, where: str) -> Action:
    """An action (protocol §6): ``{"play": card, "suit"?, "announce"?}``,
    ``{"draw": true}``, ``{"pass": true}``, ``{"announce": true}``,
    ``{"idiot": seat}`` or ``{"name_suit": suit}``; checked by the one parser,
    :func:`craits.protocol.actions.parse_action`. The result's seat is
    :data:`~craits.protocol.actions.NO_SEAT`: the server knows who acts."""
    try:
        return parse_action(v, where=where)
    except ActionFormError as exc:
        raise ProtocolError("bad_message", str(exc)) from None


SCHEMAS: dict[str, dict[str, tuple[Check, bool]]] = {
    "hello": {
        "version": (integer(0, 2**31), True),
        "name": (name, False),
        "client": (string(0, 64), False),
    },
    "ping": {"nonce": (integer(0, MAX_ID), False)},
    "pong": {"nonce": (integer(0, MAX_ID), False)},
    "list_tables": {"watch": (boolean, False), "offset": (integer(0, 1_000_000), False)},
    "create_table": {
        "name": (name, True),
        "seats": (integer(2, 8), True),
        "rules": (rules, False),
        "turn_timeout_ms": (integer(0, MAX_TURN_TIMEOUT_MS), False),
    },
    "join": {"table": (name, True), "name": (name, True)},
    "spectate": {"table": (name, True)},
    "resume": {"token": (string(1, MAX_TOKEN), True)},
    "leave": {},
    "back": {},
    "start": {},
    "new_game": {},
    "close_table": {},
    "add_bot": {"level": (string(1, 16), False)},
    "act": {
        "id": (integer(0, MAX_ID), True),
        "action": (action, True),
        "seq": (integer(0, MAX_ID), False),
    },
    "chat": {"text": (string(1, MAX_CHAT), True)},
    "list_records": {},
    "get_record": {"game": (integer(0, MAX_ID), True)},
}
"""Every message type a client may send, with its fields: (check, required)."""


def _kind(v: Any) -> str:
    if v is None:
        return "nil"
    return {bool: "a boolean", int: "an integer", str: "a string", bytes: "binary"}.get(
        type(v), f"a {type(v).__name__}"
    )


def _fields(msg: dict[str, Any], spec: dict[str, tuple[Check, bool]], where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in msg:
        if key not in spec:
            raise _fail(where, f"unexpected field {str(key)[:40]!r}")
    for key, (check, required) in spec.items():
        if key in msg:
            out[key] = check(msg[key], f"{where}.{key}" if where else key)
        elif required:
            raise _fail(where, f"missing field {key!r}")
    return out


def validate(msg: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Check a decoded client message against its schema.

    Returns:
        ``(type, fields)``: the message type and its checked fields (names
        stripped of surrounding spaces).

    Raises:
        ProtocolError: ``unknown_type`` or ``bad_message``, naming the problem.
    """
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a string field 'type'")
    spec = SCHEMAS.get(kind)
    if spec is None:
        raise ProtocolError("unknown_type", f"unknown message type {kind[:40]!r}")
    body = {k: v for k, v in msg.items() if k != "type"}
    return kind, _fields(body, spec, kind)
