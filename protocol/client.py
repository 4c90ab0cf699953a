"""A minimal asyncio client connection: used by the terminal client, bots, tests and load tests.

It frames and decodes messages, does the hello/welcome handshake, and answers
the server's heartbeat pings. It makes no decision about the game.
"""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

from .wire import HEADER, MAX_SERVER_FRAME, VERSION, ProtocolError, decode, encode, frame_length


class ConnectError(Exception):
    """The server could not be reached, or refused the handshake; ``str()`` says why in one line."""


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


class Connection:
    """One framed msgpack connection to a Craits server.

    Use :meth:`open` to connect and shake hands; then :meth:`send` and
    :meth:`recv`. Pings from the server are answered inside :meth:`recv`.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer
        self.welcome: dict[str, Any] = {}

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        name: str | None = None,
        timeout: float = 5.0,
        version: int = VERSION,
    ) -> Connection:
        """Connect to ``host:port`` and complete the handshake within ``timeout`` seconds.

        Raises:
            ConnectError: unreachable, timed out, or the server refused the
                hello (e.g. an unsupported version); the message is one line.
        """
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(host, port)
                conn = cls(reader, writer)
                hello: dict[str, Any] = {"type": "hello", "version": version, "client": "craits"}
                if name:
                    hello["name"] = name
                await conn.send(hello)
                reply = await conn.recv()
        except TimeoutError:
            raise ConnectError(f"no answer from {host}:{port} within {timeout:g} s") from None
        except OSError as exc:
            # asyncio words a refusal "Connect call failed ('127.0.0.1', 1)": say what
            # the error number means instead ("connection refused")
            if exc.errno and not isinstance(exc, socket.gaierror):
                why = os.strerror(exc.errno)
            else:
                why = exc.strerror or str(exc)
            why = why[:1].lower() + why[1:]
            raise ConnectError(f"cannot reach {host}:{port}: {why}") from None
        except (asyncio.IncompleteReadError, ProtocolError):
            raise ConnectError(f"{host}:{port} does not speak the Craits protocol") from None
        if reply.get("type") != "welcome":
            await conn.close()
            raise ConnectError(f"{host}:{port} refused: {reply.get('message', reply)}")
        conn.welcome = reply
        return conn

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message and wait until it may be buffered further.

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

    async def recv_frame(self) -> dict[str, Any] | None:
        """The next frame from the server: a message, or None for a heartbeat
        ping (answered with a pong), so a caller can tell the server is alive.

        Raises:
            asyncio.IncompleteReadError: the server closed the connection.
            ProtocolError: the server sent a bad frame.
        """
        header = await self.reader.readexactly(4)
        n = frame_length(header, MAX_SERVER_FRAME)
        message = decode(await self.reader.readexactly(n), MAX_SERVER_FRAME, depth=16)
        if message.get("type") == "ping":
            pong: dict[str, Any] = {"type": "pong"}
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
