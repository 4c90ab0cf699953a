"""A minimal asyncio client connection: used by the terminal client, bots, tests and load tests.

It frames and decodes messages (with the one frame reader,
:class:`~craits.protocol.wire.FrameReader`), does the hello/welcome handshake,
and answers the server's heartbeat pings. It makes no decision about the game.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import ConnectError
from .messages import parse_server_message
from .types import HelloMsg, PongMsg, ServerMsg
from .vocab import ClientMessage, ServerMessage
from .wire import (
    HEADER,
    MAX_SERVER_FRAME,
    VERSION,
    FrameReader,
    ProtocolError,
    decode,
    encode,
)

if TYPE_CHECKING:
    from .tls import TlsOptions

READ_SIZE = 256 * 1024
"""Most bytes taken from the stream at a time."""
SERVER_DEPTH = 16
"""Deepest nesting accepted in a server's message (the server's go to 9, §2)."""


def parse_address(address: str, default_port: int) -> tuple[str, int]:
    """Split ``HOST[:PORT]`` (or ``[IPv6]:PORT``) into host and port.

    Raises:
        ValueError: the port is not a number 1…65535.
    """
    host, port = address, default_port
    if address.startswith("["):
        end = address.find("]")
        host = address[1:end]
        rest = address[end + 1 :]
        if rest.startswith(":"):
            port = int(rest[1:])
    elif address.count(":") == 1:
        host, p = address.split(":")
        port = int(p)
    if not 1 <= port <= 65535:
        raise ValueError(f"port {port} is out of range")
    return host or "127.0.0.1", port


def _cut_at_once(conn: Connection, exc: BaseException) -> bool:
    """Whether the server cut the connection before a byte of its answer came
    (closed or reset): what a TLS server does to a hello in plain TCP."""
    cut = isinstance(exc, (ConnectionResetError, asyncio.IncompleteReadError))
    return cut and conn._frames.pending == 0 and not conn._bodies


class Connection:
    """One framed msgpack connection to a Craits server.

    Use :meth:`open` to connect and shake hands; then :meth:`send` and
    :meth:`recv` (or :meth:`recv_message`, typed). Pings from the server are
    answered inside :meth:`recv`. Frames are read with a
    :class:`~craits.protocol.wire.FrameReader` limited to
    :data:`~craits.protocol.wire.MAX_SERVER_FRAME`.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer
        self.welcome: dict[str, Any] = {}
        """The server's ``welcome`` (a :class:`~craits.protocol.types.WelcomeMsg`),
        once :meth:`open` shook hands."""
        self._frames = FrameReader(MAX_SERVER_FRAME)
        self._bodies: deque[bytes] = deque()
        self._error: ProtocolError | None = None

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        name: str | None = None,
        timeout: float = 5.0,
        version: int = VERSION,
        tls: TlsOptions | None = None,
        forwarded_for: str | None = None,
    ) -> Connection:
        """Connect to ``host:port`` and complete the handshake within ``timeout`` seconds.

        With ``tls``, the connection is TLS, trusted as its options say
        (:func:`craits.protocol.tls.open_tls`: verified, or pinned by fingerprint;
        protocol §2); without, plain TCP. ``forwarded_for``: the IP address of the
        person this connection speaks for, sent in the hello by a relay the server
        trusts (``craits-web``; protocol §4.1); the server refuses it from others.

        Raises:
            ConnectError: unreachable, timed out, or the server refused the
                hello (e.g. an unsupported version); the message is one line.
                With ``tls``, its subclasses of :class:`craits.protocol.tls.TlsError`
                say why the server was not trusted (``UntrustedCertificate``,
                ``CertificateMismatch``) or does not speak TLS (``NotTls``).
        """
        conn: Connection | None = None
        try:
            async with asyncio.timeout(timeout):
                if tls is None:
                    reader, writer = await asyncio.open_connection(host, port)
                else:
                    from .tls import open_tls  # the ssl module only for TLS

                    reader, writer = await open_tls(host, port, tls)
                conn = cls(reader, writer)
                hello: HelloMsg = {
                    "type": ClientMessage.HELLO,
                    "version": version,
                    "client": "craits",
                }
                if name:
                    hello["name"] = name
                if forwarded_for:
                    hello["forwarded_for"] = forwarded_for
                await conn.send(hello)
                reply = await conn.recv()
        except TimeoutError:
            raise ConnectError(f"no answer from {host}:{port} within {timeout:g} s") from None
        except (OSError, asyncio.IncompleteReadError) as exc:
            if conn is not None and tls is None and _cut_at_once(conn, exc):
                raise ConnectError(
                    f"{host}:{port} closed the connection without answering "
                    "(if it serves TLS, connect with --tls or a craitss:// address)"
                ) from None
            if isinstance(exc, asyncio.IncompleteReadError):
                raise ConnectError(f"{host}:{port} does not speak the Craits protocol") from None
            # asyncio words a refusal "Connect call failed ('127.0.0.1', 1)": say what
            # the error number means instead ("connection refused")
            if exc.errno and not isinstance(exc, socket.gaierror):
                why = os.strerror(exc.errno)
            else:
                why = exc.strerror or str(exc)
            why = why[:1].lower() + why[1:]
            raise ConnectError(f"cannot reach {host}:{port}: {why}") from None
        except ProtocolError:
            raise ConnectError(f"{host}:{port} does not speak the Craits protocol") from None
        if reply.get("type") != ServerMessage.WELCOME:
            await conn.close()
            raise ConnectError(f"{host}:{port} refused: {reply.get('message', reply)}")
        conn.welcome = reply
        return conn

    async def send(self, message: Mapping[str, Any]) -> None:
        """Send one message (a :data:`~craits.protocol.types.ClientMsg`) and
        wait until it may be buffered further.

        Raises:
            ConnectionError: the connection is closed.
        """
        self.writer.write(encode(message))
        await self.writer.drain()

    async def recv(self) -> dict[str, Any]:
        """The next message from the server (heartbeat pings are answered and skipped).

        Raises:
            asyncio.IncompleteReadError: the server closed the connection.
            ProtocolError: the server sent a bad frame.
        """
        while True:
            message = await self.recv_frame()
            if message is not None:
                return message

    async def recv_message(self) -> ServerMsg:
        """The next message from the server, typed (see
        :func:`~craits.protocol.messages.parse_server_message`); heartbeat
        pings are answered and skipped.

        Raises:
            asyncio.IncompleteReadError: the server closed the connection.
            ProtocolError: the server sent a bad frame (``bad_frame``,
                ``frame_too_large``), a message of a type this client does not
                know (``unknown_type``: a caller may skip it and read on, §14),
                or one without a key its type requires (``bad_message``).
        """
        return parse_server_message(await self.recv())

    async def recv_frame(self) -> dict[str, Any] | None:
        """The next frame from the server: a message, or None for a heartbeat
        ping (answered with a pong), so a caller can tell the server is alive.

        Raises:
            asyncio.IncompleteReadError: the server closed the connection.
            ProtocolError: the server sent a bad frame; every good frame before
                it is returned first.
        """
        while not self._bodies:
            if self._error is not None:
                raise self._error
            data = await self.reader.read(READ_SIZE)
            if not data:
                raise asyncio.IncompleteReadError(b"", self._frames.pending or None)
            try:
                self._bodies.extend(self._frames.frames(data))
            except ProtocolError as exc:
                self._error = exc  # after the frames that came before it
        message = decode(self._bodies.popleft(), MAX_SERVER_FRAME, depth=SERVER_DEPTH)
        if message.get("type") == ServerMessage.PING:
            pong: PongMsg = {"type": ClientMessage.PONG}
            if "nonce" in message:
                pong["nonce"] = message["nonce"]
            self.writer.write(encode(pong))
            return None
        return message

    async def close(self) -> None:
        """Close the connection (never raises)."""
        try:
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 1.0)
        except (OSError, TimeoutError):
            pass


__all__ = ["HEADER", "ConnectError", "Connection", "parse_address"]
