"""The messages both ways: the client's schemas, checked; the server's, typed.

:func:`validate` (and :func:`parse_client_message`, its typed form) checks a
decoded client message against its schema before anything else sees it:
unknown types, missing or extra fields, wrong types, integers out of range,
bad card or suit codes all raise :class:`ProtocolError` naming the problem.
:func:`parse_server_message` gives a client a decoded server message as a
:data:`~craits.protocol.types.ServerMsg` to narrow on its ``type``.
``docs/protocol.md`` documents every message; :mod:`craits.protocol.types`
types them.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, cast

from .actions import Action, ActionFormError, parse_action
from .types import SERVER_MESSAGE_TYPES, CheckedClientMsg, RulesMap, ServerMsg
from .vocab import ERROR_MEANINGS, SUITS, ClientMessage, ErrorCode, is_card, is_suit
from .wire import ProtocolError

MAX_NAME = 24
"""Longest display name or table name, in characters."""
MAX_CHAT = 300
"""Longest chat message, in characters."""
MAX_TOKEN = 128
"""Longest resume token accepted, in characters."""
MAX_CODE = 64
"""Longest invite code accepted, in characters (the server's are 16, §11.9)."""
MAX_RECORD_TOKENS = 100
"""Most tokens a request for records may send (``tokens``, §7.3)."""
MAX_IP = 45
"""Longest IP address text accepted (an IPv6 address with an IPv4 tail)."""
MAX_ID = 2**53
"""Action ids are integers 0 … 2^53 (safe in every language's numbers)."""
MAX_TURN_TIMEOUT_MS = 3_600_000
"""Longest turn timeout a table may have: one hour, in milliseconds."""
MAX_RULES = 32
"""Most entries in ``create_table.rules``."""
MAX_RULE_NAME = 40
"""Longest option name in ``create_table.rules``, in characters."""
MAX_RULE_VALUE = 1000
"""Integer rules values are -1000 … 1000 (the server checks each option's own values)."""
MAX_SERVER_IDENTITY = 300
"""Longest server identity a login names (``host:port#sha256:…``, §7.5)."""
MAX_SECRET = 1024
"""Longest password or code text accepted by the schema (the server judges it: §7.5)."""
MAX_DEVICE_LABEL = 40
"""Longest device label, in characters (§7.5)."""
PAGE_LIMIT = 100
"""Most entries of one ``history`` or ``leaderboard`` page (§7.5)."""

_NAME_BAD = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")
_SUIT_LIST = ", ".join(SUITS[:-1]) + " or " + SUITS[-1]

ERROR_CODES: dict[str, str] = {str(code): meaning for code, meaning in ERROR_MEANINGS.items()}
"""Every error code the server sends, with its meaning."""


Check = Callable[[object, str], object]
"""A field's check: ``check(value, where)`` returns the value to use (a name
stripped, an action parsed) or raises :class:`ProtocolError` naming ``where``."""


def _fail(where: str, what: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, f"{where}: {what}")


def integer(lo: int, hi: int) -> Check:
    """A check for an integer in ``lo…hi`` (booleans are not integers)."""

    def check(v: object, where: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise _fail(where, f"must be an integer, not {_kind(v)}")
        if not lo <= v <= hi:
            raise _fail(where, f"must be {lo}..{hi}")
        return v

    return check


def string(lo: int, hi: int) -> Check:
    """A check for a string of ``lo…hi`` characters."""

    def check(v: object, where: str) -> str:
        if not isinstance(v, str):
            raise _fail(where, f"must be a string, not {_kind(v)}")
        if not lo <= len(v) <= hi:
            raise _fail(where, f"must be {lo}..{hi} characters")
        return v

    return check


def name(v: object, where: str) -> str:
    """A display or table name: surrounding spaces removed, composed (Unicode
    NFC: an accent typed apart joins its letter), then 1…24 characters, no
    control characters or brackets, nothing a terminal may draw wider or
    narrower than counted (:func:`undrawable`)."""
    if not isinstance(v, str):
        raise _fail(where, f"must be a string, not {_kind(v)}")
    v = unicodedata.normalize("NFC", v.strip())
    if not 1 <= len(v) <= MAX_NAME:
        raise _fail(where, f"must be 1..{MAX_NAME} characters")
    if _NAME_BAD.search(v):
        raise _fail(where, "must not hold control characters or square brackets")
    why = undrawable(v)
    if why is not None:
        raise _fail(where, why)
    return v


_UNDRAWN: dict[str, str] = {
    "Cc": "a control character",
    "Cf": "a format character",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Mn": "a combining mark",
    "Mc": "a combining mark",
    "Me": "a combining mark",
}
"""The Unicode categories a name may not hold, and what they are, in words."""
_JOINING = (
    (0xFE00, 0xFE0F, "a variation selector"),
    (0xE0100, 0xE01EF, "a variation selector"),
    (0x1F1E6, 0x1F1FF, "a flag letter"),
    (0x1F3FB, 0x1F3FF, "a skin-tone modifier"),
)
"""Code point ranges that join the character before them into one picture."""


def undrawable(text: str) -> str | None:
    """Why terminals may draw ``text`` in another number of cells than a
    program counts for it (so a name breaks the frames around it), in words
    naming the first such character; None when there is none.

    Refused: control and format characters (the zero-width joiner of emoji
    sequences such as 👨‍👩‍👧, direction marks), combining marks (accents
    typed apart that do not compose, vowel signs, variation selectors),
    private-use and unassigned characters, flag letters and skin-tone
    modifiers. Letters of any script, CJK (two cells each) and single emoji
    are drawn as counted."""
    for ch in text:
        point = ord(ch)
        what = next((w for lo, hi, w in _JOINING if lo <= point <= hi), None)
        what = what or _UNDRAWN.get(unicodedata.category(ch))
        if what is not None:
            label = unicodedata.name(ch, "")
            shown = f"U+{point:04X}" + (f" {label}" if label else "")
            return f"must not hold {shown}, {what}: terminals do not agree on how wide it is drawn"
    return None


def tokens(v: object, where: str) -> list[str]:
    """Tokens proving who asks for records (§7.3): an array of at most
    :data:`MAX_RECORD_TOKENS` strings of 1…:data:`MAX_TOKEN` characters."""
    if not isinstance(v, list):
        raise _fail(where, f"must be an array, not {_kind(v)}")
    if len(v) > MAX_RECORD_TOKENS:
        raise _fail(where, f"must hold at most {MAX_RECORD_TOKENS} tokens")
    out: list[str] = []
    for i, t in enumerate(v):
        if not isinstance(t, str) or not 1 <= len(t) <= MAX_TOKEN:
            raise _fail(f"{where}[{i}]", f"must be a string of 1..{MAX_TOKEN} characters")
        out.append(t)
    return out


_HEX = re.compile(r"[0-9a-f]*")


def hex_bytes(size: int) -> Check:
    """A check for ``size`` bytes written as ``2 × size`` lowercase hex digits
    (a public key, a signature: §7.5); the text is kept as sent."""

    def check(v: object, where: str) -> str:
        if not isinstance(v, str):
            raise _fail(where, f"must be a string, not {_kind(v)}")
        if len(v) != 2 * size or not _HEX.fullmatch(v):
            raise _fail(where, f"must be {2 * size} lowercase hex digits ({size} bytes)")
        return v

    return check


def boolean(v: object, where: str) -> bool:
    """A check for true or false."""
    if not isinstance(v, bool):
        raise _fail(where, f"must be true or false, not {_kind(v)}")
    return v


def true(v: object, where: str) -> bool:
    """A check for the value true."""
    if v is not True:
        raise _fail(where, "must be true")
    return True


def card(v: object, where: str) -> str:
    """A card code (``"TD"``: rank ``A23456789TJQK`` then suit ``SHDC``, R1)."""
    if not is_card(v):
        raise _fail(where, "must be a card code such as 'TD'")
    assert isinstance(v, str)
    return v


def suit(v: object, where: str) -> str:
    """A suit code: ``S``, ``H``, ``D`` or ``C`` (R1)."""
    if not is_suit(v):
        raise _fail(where, f"must be a suit: {_SUIT_LIST}")
    assert isinstance(v, str)
    return v


def ip_address(v: object, where: str) -> str:
    """An IPv4 or IPv6 address in its usual text form (``203.0.113.7``,
    ``2001:db8::1``; no port; an IPv6 zone is let through, and ignored), as
    ``hello.forwarded_for`` gives it (§4.1)."""
    if not isinstance(v, str):
        raise _fail(where, f"must be a string, not {_kind(v)}")
    try:
        if len(v) <= MAX_IP:
            ipaddress.ip_address(v)
            return v
    except ValueError:
        pass
    raise _fail(where, "must be an IP address such as 203.0.113.7 or 2001:db8::1")


def rules(v: object, where: str) -> RulesMap:
    """Rules options: a map of option name to true/false or an integer (each
    option's name and values are checked by the server: ``bad_rules``)."""
    if not isinstance(v, dict):
        raise _fail(where, f"must be a map, not {_kind(v)}")
    if len(v) > MAX_RULES:
        raise _fail(where, "too many options")
    out: RulesMap = {}
    for key, value in v.items():
        if not isinstance(key, str) or len(key) > MAX_RULE_NAME:
            raise _fail(where, "option names must be strings")
        if not isinstance(value, bool) and (
            not isinstance(value, int) or not -MAX_RULE_VALUE <= value <= MAX_RULE_VALUE
        ):
            raise _fail(f"{where}.{key}", "must be true, false or a small integer")
        out[key] = value
    return out


def time_bank(v: object, where: str) -> dict[str, int]:
    """A time bank (§11.10): ``{"bank_ms": int, "increment_ms": int}``, both
    0…2^31 here (the server checks its own ranges: ``bad_time_control``)."""
    if not isinstance(v, dict):
        raise _fail(where, f"must be a map, not {_kind(v)}")
    out: dict[str, int] = {}
    for key in v:
        if key not in ("bank_ms", "increment_ms"):
            raise _fail(where, f"unexpected field {str(key)[:40]!r}")
    for key in ("bank_ms", "increment_ms"):
        if key not in v:
            raise _fail(where, f"missing field {key!r}")
        out[key] = cast(int, integer(0, 2**31)(v[key], f"{where}.{key}"))
    return out


def action(v: object, where: str) -> Action:
    """An action (protocol §6): ``{"play": card, "suit"?, "announce"?}``,
    ``{"draw": true}``, ``{"pass": true}``, ``{"announce": true}``,
    ``{"idiot": seat}`` or ``{"name_suit": suit}``; checked by the one parser,
    :func:`craits.protocol.actions.parse_action`. The result's seat is
    :data:`~craits.protocol.actions.NO_SEAT`: the server knows who acts."""
    try:
        return parse_action(v, where=where)
    except ActionFormError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(exc)) from None


_SIGNED: dict[str, tuple[Check, bool]] = {
    "key": (hex_bytes(32), True),
    "signature": (hex_bytes(64), True),
    "server": (string(1, MAX_SERVER_IDENTITY), True),
}
"""The fields of a request signed over the connection's nonce (§7.5)."""

ACCOUNT_SCHEMAS: dict[str, dict[str, tuple[Check, bool]]] = {
    ClientMessage.CHALLENGE: {},
    ClientMessage.REGISTER: {
        "name": (name, True),
        **_SIGNED,
        "device": (string(0, MAX_DEVICE_LABEL), False),
    },
    ClientMessage.LOGIN: dict(_SIGNED),
    ClientMessage.PAIR_START: {},
    ClientMessage.PAIR_FINISH: {
        "name": (name, True),
        "code": (string(1, MAX_CODE), True),
        **_SIGNED,
        "device": (string(0, MAX_DEVICE_LABEL), False),
    },
    ClientMessage.DEVICES: {},
    ClientMessage.REVOKE_DEVICE: {"device": (integer(0, MAX_ID), True)},
    ClientMessage.RECOVER: {
        "name": (name, True),
        "code": (string(1, MAX_CODE), True),
        **_SIGNED,
        "device": (string(0, MAX_DEVICE_LABEL), False),
    },
    ClientMessage.SET_PASSWORD: {"password": (string(0, MAX_SECRET), False)},
    ClientMessage.PASSWORD_LOGIN: {
        "name": (name, True),
        "password": (string(0, MAX_SECRET), True),
    },
    ClientMessage.PROFILE: {"name": (name, False)},
    ClientMessage.HISTORY: {
        "name": (name, False),
        "before": (integer(0, MAX_ID), False),
        "limit": (integer(1, PAGE_LIMIT), False),
    },
    ClientMessage.LEADERBOARD: {
        "offset": (integer(0, 1_000_000), False),
        "limit": (integer(1, PAGE_LIMIT), False),
    },
}
"""The account messages' fields (§7.5, issue 26), kept apart from the rest."""

SCHEMAS: dict[str, dict[str, tuple[Check, bool]]] = {
    ClientMessage.HELLO: {
        "version": (integer(0, 2**31), True),
        "name": (name, False),
        "client": (string(0, 64), False),
        "forwarded_for": (ip_address, False),
    },
    ClientMessage.PING: {"nonce": (integer(0, MAX_ID), False)},
    ClientMessage.PONG: {"nonce": (integer(0, MAX_ID), False)},
    ClientMessage.LIST_TABLES: {
        "watch": (boolean, False),
        "offset": (integer(0, 1_000_000), False),
    },
    ClientMessage.CREATE_TABLE: {
        "name": (name, True),
        "seats": (integer(2, 8), True),
        "rules": (rules, False),
        "turn_timeout_ms": (integer(0, MAX_TURN_TIMEOUT_MS), False),
        "placed": (boolean, False),
        "private": (boolean, False),
        "time_bank": (time_bank, False),
        "correspondence_ms": (integer(0, 2**31), False),
        "rated": (boolean, False),
    },
    ClientMessage.JOIN: {
        "table": (name, True),
        "name": (name, True),
        "code": (string(1, MAX_CODE), False),
    },
    ClientMessage.SPECTATE: {"table": (name, True), "code": (string(1, MAX_CODE), False)},
    ClientMessage.RESUME: {"token": (string(1, MAX_TOKEN), True)},
    ClientMessage.LEAVE: {},
    ClientMessage.BACK: {},
    ClientMessage.START: {},
    ClientMessage.NEW_GAME: {},
    ClientMessage.CLOSE_TABLE: {"end_game": (boolean, False)},
    ClientMessage.ADD_BOT: {"level": (string(1, 16), False)},
    ClientMessage.ACT: {
        "id": (integer(0, MAX_ID), True),
        "action": (action, True),
        "seq": (integer(0, MAX_ID), False),
    },
    ClientMessage.CHAT: {"text": (string(1, MAX_CHAT), True)},
    ClientMessage.LIST_RECORDS: {"tokens": (tokens, False)},
    ClientMessage.GET_RECORD: {"game": (integer(0, MAX_ID), True), "tokens": (tokens, False)},
    ClientMessage.GET_REPLAY: {
        "game": (integer(0, MAX_ID), True),
        "hand": (integer(1, 15), True),
        "offset": (integer(0, 1_000_000), False),
        "tokens": (tokens, False),
    },
    ClientMessage.KICK: {"seat": (integer(0, 7), True)},
    ClientMessage.LOCK: {"locked": (boolean, True)},
    ClientMessage.MUTE: {
        "seat": (integer(0, 7), False),
        "watchers": (boolean, False),
        "muted": (boolean, False),
    },
    ClientMessage.HAND_OVER: {"seat": (integer(0, 7), True)},
    ClientMessage.UNBAR: {"name": (name, False)},
    ClientMessage.MY_GAMES: {"tokens": (tokens, False)},
    **ACCOUNT_SCHEMAS,
    ClientMessage.HINT: {},
    ClientMessage.ANALYSIS: {
        "game": (integer(0, MAX_ID), True),
        "seat": (integer(0, 7), False),
        "tokens": (tokens, False),
    },
    # issue 27: between the games (§11.12)
    ClientMessage.REMATCH: {"accept": (boolean, False)},
    ClientMessage.QUICK_PLAY: {
        "name": (name, False),
        "seats": (integer(2, 8), False),
        "rules": (rules, False),
        "table": (name, False),
    },
}
"""Every message type a client may send (:class:`~craits.protocol.vocab.ClientMessage`),
with its fields: (check, required)."""


def _kind(v: object) -> str:
    if v is None:
        return "nil"
    return _KINDS.get(type(v)) or f"a {type(v).__name__}"


_KINDS: dict[type, str] = {
    bool: "a boolean",
    int: "an integer",
    str: "a string",
    bytes: "binary",
    dict: "a map",
}


Schema = dict[str, tuple[Check, bool]]

# keyed by the plain string: looking up an enum member costs more than a str
_SCHEMA_OF: dict[str, tuple[ClientMessage, Schema]] = {
    str(kind): (kind, SCHEMAS[kind]) for kind in ClientMessage
}


def _schema(msg: Mapping[str, object]) -> tuple[str, ClientMessage, Schema]:
    """The ``type`` of a client message, checked against :class:`ClientMessage`:
    as sent, as the vocabulary's member, and its schema."""
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a string field 'type'")
    found = _SCHEMA_OF.get(kind)
    if found is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")
    return kind, found[0], found[1]


def _fields(
    msg: Mapping[str, object], kind: str, spec: Schema, out: dict[str, Any]
) -> dict[str, Any]:
    """Check every field of ``msg`` but its ``type`` into ``out``, and return it.

    Raises:
        ProtocolError: ``bad_message`` naming the field; for an ``act`` whose
            ``id`` is good, with that id (:func:`_act_id`).
    """
    try:
        for key in msg:
            if key not in spec and key != "type":
                raise _fail(kind, f"unexpected field {str(key)[:40]!r}")
        for key, (check, required) in spec.items():
            if key in msg:
                out[key] = check(msg[key], f"{kind}.{key}")
            elif required:
                raise _fail(kind, f"missing field {key!r}")
    except ProtocolError as exc:
        if kind == _ACT:
            exc.id = _act_id(msg)
        raise
    return out


_ACT = ClientMessage.ACT.value


def _act_id(msg: Mapping[str, object]) -> int | None:
    """The ``id`` of an ``act`` that failed its schema check, if the id itself
    is good (an integer 0…2^53): its error reply carries it (protocol §5)."""
    value = msg.get("id")
    return value if type(value) is int and 0 <= value <= MAX_ID else None


def validate(msg: Mapping[str, object]) -> tuple[ClientMessage, dict[str, Any]]:
    """Check a decoded client message against its schema.

    Returns:
        ``(type, fields)``: the message type and its checked fields, without
        ``type`` (names stripped of surrounding spaces; ``act``'s ``action`` an
        :data:`~craits.protocol.actions.Action`). :func:`parse_client_message`
        gives the same as one typed message.

    Raises:
        ProtocolError: ``unknown_type`` or ``bad_message``, naming the problem.
    """
    kind, member, spec = _schema(msg)
    return member, _fields(msg, kind, spec, {})


def parse_client_message(msg: Mapping[str, object]) -> CheckedClientMsg:
    """A decoded client message checked against its schema, as a typed message.

    The result is a new map: ``type`` is the :class:`ClientMessage` member, the
    fields are :func:`validate`'s (names stripped; ``act``'s ``action`` parsed,
    its seat :data:`~craits.protocol.actions.NO_SEAT`). Narrow it on
    ``msg["type"] == ClientMessage.…``.

    Raises:
        ProtocolError: ``unknown_type`` or ``bad_message``, naming the problem.
    """
    kind, member, spec = _schema(msg)
    # the schema of ``kind`` checked every field: the map is that message's TypedDict
    return cast(CheckedClientMsg, _fields(msg, kind, spec, {"type": member}))


_SERVER_REQUIRED: dict[str, frozenset[str]] = {
    # typing sets __required_keys__ on every TypedDict class
    str(kind): frozenset(vars(typed)["__required_keys__"])
    for kind, typed in SERVER_MESSAGE_TYPES.items()
}


def parse_server_message(msg: Mapping[str, Any]) -> ServerMsg:
    """A decoded server message, typed: its ``type`` is checked against
    :class:`~craits.protocol.vocab.ServerMessage` and its required keys are
    present; the values are not checked (the server is trusted, and an
    ``update`` is not walked through). Returns ``msg`` itself; narrow it on
    ``msg["type"] == ServerMessage.…``.

    Raises:
        ProtocolError: ``unknown_type`` for a type this client does not know
            (§14: a client ignores those), ``bad_message`` for no string
            ``type`` or a missing key.
    """
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a message needs a string field 'type'")
    required = _SERVER_REQUIRED.get(kind)
    if required is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind[:40]!r}")
    if not msg.keys() >= required:
        missing = min(required - msg.keys())
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{kind}: missing field {missing!r}")
    # the type is known and its keys are there: the map is that message's TypedDict
    return cast(ServerMsg, msg)
