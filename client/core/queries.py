"""Short connections that ask a server one thing (``--list``, ``--replay-game``):
open one (plain or TLS), and read the answer to a request. No Textual.
"""

from __future__ import annotations

from typing import Any, cast

from craits.protocol import ProtocolError
from craits.protocol.client import Connection
from craits.protocol.vocab import ErrorCode, ServerMessage

from ..errors import Refused
from .saved.known_hosts import ServerTrust


async def open_short(
    host: str, port: int, name: str, timeout: float, tls: ServerTrust | None
) -> Connection:
    """A connection to ``host:port`` that has said hello as ``name``, within
    ``timeout`` seconds (over TLS with ``tls``: nobody is asked to trust a
    certificate, one that does not verify is refused).

    Raises:
        ConnectError: unreachable, refused, not trusted, or no welcome in time.
    """
    if tls is not None:
        return await tls.open(host, port, name, timeout=timeout)
    return await Connection.open(host, port, name, timeout=timeout)


async def answer(conn: Connection, kind: ServerMessage) -> dict[str, Any]:
    """The next message of type ``kind``; messages of types this client does
    not know are skipped (protocol §14), others of known types too.

    Raises:
        Refused: the server answered an error.
        ProtocolError: a message that is not one.
    """
    while True:
        try:
            message = await conn.recv_message()
        except ProtocolError as exc:
            if exc.code == ErrorCode.UNKNOWN_TYPE:
                continue
            raise
        if message["type"] == kind:
            return cast(dict[str, Any], message)
        if message["type"] == ServerMessage.ERROR:
            raise Refused(str(message["code"]), str(message["message"]))
