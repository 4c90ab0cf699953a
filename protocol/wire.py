"""Framing and encoding: each message is a msgpack map in a length-prefixed frame.

A frame is a 4-byte big-endian unsigned length, then that many bytes of
msgpack. A frame longer than :data:`MAX_FRAME` bytes is refused before its
body is read. Decoding accepts only the plain msgpack types (nil, bool, int,
str, bin, array, map with string keys) and refuses floats, ext and timestamp
types, invalid UTF-8, a key given twice in one map and nesting deeper than
:data:`MAX_DEPTH`.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from typing import Any

import msgpack  # type: ignore[import-untyped]  # msgpack ships no type information

from .errors import CodedError
from .vocab import ErrorCode

VERSION = 1
"""The protocol version this code speaks."""
SUPPORTED_VERSIONS = (1,)
"""Protocol versions a server accepts in ``hello``."""
DEFAULT_PORT = 7777
"""The server's default TCP port."""
MAX_FRAME = 64 * 1024
"""Largest frame body accepted, in bytes (client to server)."""
MAX_SERVER_FRAME = 1024 * 1024
"""Largest frame body a client accepts from a server, in bytes."""
MAX_DEPTH = 8
"""Deepest nesting of arrays and maps accepted in a client's message."""
HEADER = struct.Struct(">I")
"""The 4-byte big-endian length prefix."""


class ProtocolError(CodedError):
    """A message that breaks the protocol (a :class:`~craits.protocol.errors.CodedError`).
    ``code`` is the wire error code (an :class:`~craits.protocol.vocab.ErrorCode`),
    ``message`` says why.

    Codes: ``bad_frame`` (not msgpack, bad UTF-8, trailing bytes…),
    ``frame_too_large``, ``bad_message`` (fails its schema), ``unknown_type``;
    the server also raises it with ``hello_first``. ``id``: the ``id`` of an
    ``act`` refused with ``bad_message`` whose own ``id`` was good (the error
    reply carries it, protocol §5), else None.

    Raises:
        ValueError: ``code`` is not an error code of the vocabulary.
    """

    code: ErrorCode

    def __init__(self, code: str, message: str, id: int | None = None):
        super().__init__(ErrorCode(code), message)
        self.id = id


def encode(message: Mapping[str, Any]) -> bytes:
    """One framed message (any message of :mod:`craits.protocol.types`): the
    4-byte length, then the msgpack body. Enum codes of the vocabulary encode
    as the plain strings they are.

    Raises:
        TypeError: the message holds a value msgpack cannot encode.
    """
    body: bytes = msgpack.packb(message, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def pack(value: object) -> bytes:
    """The msgpack encoding of ``value`` (no frame header).

    Raises:
        TypeError: ``value`` holds something msgpack cannot encode.
    """
    body: bytes = msgpack.packb(value, use_bin_type=True)
    return body


def frame(body: bytes) -> bytes:
    """``body`` (an encoded message) framed: the 4-byte length, then the body."""
    return HEADER.pack(len(body)) + body


def map_header(n: int) -> bytes:
    """The msgpack header of a map of ``n`` entries (fixmap, map 16 or map 32)."""
    if n < 16:
        return bytes((0x80 | n,))
    if n < 0x10000:
        return b"\xde" + n.to_bytes(2, "big")
    return b"\xdf" + n.to_bytes(4, "big")


def map_entries(encoded: bytes) -> tuple[int, bytes]:
    """An encoded map taken apart: its number of entries, and the entries'
    encoding. ``map_header(n) + entries`` of several maps with distinct keys is
    the encoding of their union: a way to encode once what many messages share.

    Raises:
        ValueError: ``encoded`` does not start with a msgpack map header.
    """
    if not encoded:
        raise ValueError("not an encoded msgpack map")
    first = encoded[0]
    if 0x80 <= first <= 0x8F:
        return first & 0x0F, encoded[1:]
    if first == 0xDE:
        return int.from_bytes(encoded[1:3], "big"), encoded[3:]
    if first == 0xDF:
        return int.from_bytes(encoded[1:5], "big"), encoded[5:]
    raise ValueError("not an encoded msgpack map")


def frame_length(header: bytes | bytearray, limit: int = MAX_FRAME) -> int:
    """The body length announced by a 4-byte header.

    Raises:
        ProtocolError: ``frame_too_large`` if it exceeds ``limit`` bytes;
            ``bad_frame`` for an empty frame.
    """
    n: int = HEADER.unpack(header)[0]
    if n > limit:
        raise ProtocolError(
            ErrorCode.FRAME_TOO_LARGE, f"frame of {n} bytes exceeds the {limit}-byte limit"
        )
    if n == 0:
        raise ProtocolError(ErrorCode.BAD_FRAME, "empty frame")
    return n


def _refuse_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack ext type {code} is not allowed")


def decode(
    body: bytes, limit: int = MAX_FRAME, depth: int = MAX_DEPTH, *, check_values: bool = True
) -> dict[str, Any]:
    """Decode one frame body into a message map with string keys.

    Every map is built from its entries as sent, so a key given twice in one
    map is refused (protocol §3), and every value is checked on the way:
    floats, bin map keys and nesting deeper than ``depth`` are refused.
    ``check_values=False`` skips those checks (about half the cost of decoding
    an update): for a reader of a server's frames on a hot path, such as the
    network bot. msgpack's length limits (``limit`` bytes; never more than the
    body), valid UTF-8, string or bin map keys and the refusal of ext types
    hold either way.

    Raises:
        ProtocolError: ``bad_frame`` if the body is not one msgpack map of
            plain types (see the module docstring), or a map in it holds a key
            twice.
    """
    try:
        value = _unpack(body, limit, check_values)
    except UnicodeDecodeError:
        raise ProtocolError(ErrorCode.BAD_FRAME, "a string is not valid UTF-8") from None
    except msgpack.ExtraData:
        raise ProtocolError(ErrorCode.BAD_FRAME, "trailing bytes after the message") from None
    except Exception as exc:  # msgpack raises several types for bad input
        raise ProtocolError(ErrorCode.BAD_FRAME, f"not a msgpack message: {_short(exc)}") from None
    if check_values:
        try:
            if type(value) is not list:
                _value(value, depth, 0)  # what is wrong inside comes first
                raise NotPlain("a message must be a msgpack map")
            return _map(value, depth, 0)
        except NotPlain as exc:
            raise ProtocolError(ErrorCode.BAD_FRAME, str(exc)) from None
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.BAD_FRAME, "a message must be a msgpack map")
    return value


def _unpack(body: bytes, limit: int, pairs: bool) -> Any:
    """msgpack's reading of ``body``: with ``pairs``, maps as lists of (key,
    value) pairs and arrays as tuples (for :func:`_map` to build and check).
    Ext types are refused (timestamps included). msgpack's length limits
    default to the body's length: given as ``limit`` only for a longer body.
    (The options are spelt out in each call: passed as ``**kwargs`` they
    cost a third of decoding a ``pong``.)

    Raises:
        Exception: msgpack's, for bad input.
    """
    if len(body) <= limit:
        if pairs:
            return msgpack.unpackb(
                body, use_list=False, object_pairs_hook=list, ext_hook=_refuse_ext, max_ext_len=0
            )
        return msgpack.unpackb(body, ext_hook=_refuse_ext, max_ext_len=0)
    return msgpack.unpackb(
        body,
        use_list=not pairs,
        object_pairs_hook=list if pairs else None,
        ext_hook=_refuse_ext,
        max_ext_len=0,
        max_str_len=limit,
        max_bin_len=limit,
        max_array_len=limit,
        max_map_len=limit,
    )


def _short(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    return text[:120]


class NotPlain(ValueError):
    """A decoded value that is not plain msgpack data (``str()`` says why)."""


_SCALARS = frozenset({str, bool, int, type(None), bytes})


def _map(pairs: list[tuple[Any, Any]], max_depth: int, depth: int) -> dict[str, Any]:
    """The map of ``pairs`` (as msgpack read them), its values checked.

    Containers may sit at depths 0 .. ``max_depth - 1`` (the message itself is
    depth 0); the recursion is bounded by ``max_depth``.

    Raises:
        NotPlain: a key that is not a str, a key given twice, a value that is
            not plain (:func:`_value`).
    """
    if depth >= max_depth:
        raise NotPlain(f"nesting deeper than {max_depth} is not allowed")
    out: dict[str, Any] = {}
    for key, item in pairs:
        if type(key) is not str:
            raise NotPlain("map keys must be strings")
        out[key] = item if type(item) in _SCALARS else _value(item, max_depth, depth + 1)
    if len(out) != len(pairs):
        raise NotPlain("a map holds a key twice")
    return out


def _value(value: Any, max_depth: int, depth: int) -> Any:
    """A container read by msgpack (a map as a list of pairs, an array as a
    tuple) as a plain value: a dict or a list, checked.

    Raises:
        NotPlain: a float, a value of another type, nesting too deep, or a
            map's fault (:func:`_map`).
    """
    kind = type(value)
    if kind is list:
        return _map(value, max_depth, depth)
    if kind is tuple:
        if depth >= max_depth:
            raise NotPlain(f"nesting deeper than {max_depth} is not allowed")
        return [x if type(x) in _SCALARS else _value(x, max_depth, depth + 1) for x in value]
    if kind is float:
        raise NotPlain("floats are not allowed")
    raise NotPlain(f"values of type {kind.__name__} are not allowed")


class FrameReader:
    """The one frame reader: bytes in as they arrive, whole frame bodies out.

    Sans-I/O, so the server's protocol, the client's stream connection and the
    network bot all read frames the same way. Give it what the transport
    delivered; it hands back each complete frame body (length header removed)
    and keeps any unfinished frame for the next call.

    Args:
        limit: the largest body accepted, in bytes (:data:`MAX_FRAME` for a
            server reading clients, :data:`MAX_SERVER_FRAME` for a client).

    A header with a body over ``limit`` or an empty body raises as soon as the
    whole 4-byte header is in: the body is never buffered. A header still
    incomplete is never read as if the missing bytes were zero: it waits in
    :attr:`pending` for the rest.
    """

    __slots__ = ("_buffer", "limit")

    def __init__(self, limit: int = MAX_FRAME) -> None:
        self.limit = limit
        self._buffer = bytearray()

    @property
    def pending(self) -> int:
        """Bytes held of a frame not yet complete (0 between frames): a frame,
        or its header, has begun when this is not 0."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[bytes]:
        """Add ``data`` and return every frame body now complete, in order.

        Raises:
            ProtocolError: ``frame_too_large`` or ``bad_frame`` (an empty
                frame) for a header that announces one; the frames before it
                in ``data`` are lost with it (use :meth:`frames` to get them
                first).
        """
        return list(self.frames(data))

    def frames(self, data: bytes) -> Iterator[bytes]:
        """Add ``data`` (at once) and iterate over every frame body now
        complete, in order. Each header is read only when the frame before it
        has been taken, so every good frame before a bad header is handed out
        before the error: what a server does when it handles each message as
        it comes. Stopping early (the connection closed) keeps the rest.

        Raises:
            ProtocolError: ``frame_too_large`` or ``bad_frame`` (an empty
                frame), raised by the iteration on reaching a header that
                announces one.
        """
        self._buffer += data
        return self._bodies()

    def _bodies(self) -> Iterator[bytes]:
        buffer = self._buffer
        limit = self.limit
        start = 0
        try:
            while len(buffer) - start >= 4:
                end = start + 4 + frame_length(buffer[start : start + 4], limit)
                if end > len(buffer):
                    break
                body = bytes(buffer[start + 4 : end])
                start = end
                yield body
        finally:
            if start:
                del buffer[:start]

    def clear(self) -> None:
        """Forget any partial frame held."""
        self._buffer.clear()
