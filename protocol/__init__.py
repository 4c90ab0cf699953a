"""The Craits wire protocol: framing, msgpack encoding, message schemas.

See ``docs/protocol.md`` for every message. This package imports nothing of
the server or the client.
"""

from .messages import ERROR_CODES, MAX_CHAT, MAX_NAME, SCHEMAS, validate
from .wire import (
    DEFAULT_PORT,
    MAX_FRAME,
    MAX_SERVER_FRAME,
    SUPPORTED_VERSIONS,
    VERSION,
    ProtocolError,
    decode,
    encode,
    frame_length,
)

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
    "ProtocolError",
    "decode",
    "encode",
    "frame_length",
    "validate",
]
