"""The Craits wire protocol: framing, msgpack encoding, message schemas and types.

See ``docs/protocol.md`` for every message. The modules:

- :mod:`~craits.protocol.vocab`: the game's vocabulary (card, suit, action,
  event, error, table-state, bot-level and message-type codes), defined once;
- :mod:`~craits.protocol.actions`: the action type and its one parser;
- :mod:`~craits.protocol.types`: a TypedDict for every message, both ways;
- :mod:`~craits.protocol.wire`: framing, encoding, the one frame reader;
- :mod:`~craits.protocol.messages`: the client messages' schemas and their
  check, and the typed reading of a server message;
- :mod:`~craits.protocol.client`: a minimal asyncio client connection;
- :mod:`~craits.protocol.errors`: the one base of the errors that carry a wire code.

This package imports nothing of the server or the client.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .messages import (
        ERROR_CODES,
        MAX_CHAT,
        MAX_NAME,
        SCHEMAS,
        parse_client_message,
        parse_server_message,
        validate,
    )
    from .wire import (
        DEFAULT_PORT,
        MAX_FRAME,
        MAX_SERVER_FRAME,
        SUPPORTED_VERSIONS,
        VERSION,
        FrameReader,
        ProtocolError,
        decode,
        encode,
        frame_length,
    )

# The names above are loaded on first use (PEP 562), so importing the vocabulary
# or the action type (as the pure rules engine does) loads neither msgpack nor
# the framing code.
_HOMES = {
    **dict.fromkeys(
        (
            "ERROR_CODES",
            "MAX_CHAT",
            "MAX_NAME",
            "SCHEMAS",
            "parse_client_message",
            "parse_server_message",
            "validate",
        ),
        "messages",
    ),
    **dict.fromkeys(
        (
            "DEFAULT_PORT",
            "MAX_FRAME",
            "MAX_SERVER_FRAME",
            "SUPPORTED_VERSIONS",
            "VERSION",
            "FrameReader",
            "ProtocolError",
            "decode",
            "encode",
            "frame_length",
        ),
        "wire",
    ),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_PORT",
    "ERROR_CODES",
    "MAX_CHAT",
    "MAX_FRAME",
    "MAX_NAME",
    "MAX_SERVER_FRAME",
    "SCHEMAS",
    "SUPPORTED_VERSIONS",
    "VERSION",
    "FrameReader",
    "ProtocolError",
    "decode",
    "encode",
    "frame_length",
    "parse_client_message",
    "parse_server_message",
    "validate",
]
