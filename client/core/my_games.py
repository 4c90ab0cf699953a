"""The tables where this client holds a seat at a server, by one short
connection (``craits-client HOST --games``): ``my_games`` with the resume
tokens the client kept (protocol §11.11). No Textual; the command line prints
what it returns (:func:`craits.client.present.games_text.format_games`).
"""

from __future__ import annotations

import asyncio
from typing import cast

from craits.protocol import ProtocolError
from craits.protocol.client import ConnectError
from craits.protocol.messages import MAX_RECORD_TOKENS
from craits.protocol.types import MyGame, MyGamesMsg
from craits.protocol.vocab import ClientMessage, ErrorCode, ServerMessage

from ..errors import Refused
from .queries import answer, open_short
from .saved.known_hosts import ServerTrust


async def fetch_games(
    host: str,
    port: int,
    name: str,
    tokens: list[str],
    timeout: float = 5.0,
    tls: ServerTrust | None = None,
) -> list[MyGame]:
    """Every table at ``host:port`` where one of ``tokens`` (the newest
    :data:`~craits.protocol.messages.MAX_RECORD_TOKENS`) holds a seat, as the
    server lists them: the user's turns first (protocol §11.11). Without
    tokens the server is not asked.

    Raises:
        ConnectError: unreachable, refused (a server older than ``my_games``
            says so), not trusted, or no answer in time.
    """
    if not tokens:
        return []
    conn = await open_short(host, port, name, timeout, tls)
    try:
        asked: MyGamesMsg = {"type": ClientMessage.MY_GAMES, "tokens": tokens[:MAX_RECORD_TOKENS]}
        await conn.send(asked)
        async with asyncio.timeout(timeout):
            listed = await answer(conn, ServerMessage.GAMES)
            return cast(list[MyGame], listed["games"])
    except Refused as exc:
        if exc.code == ErrorCode.UNKNOWN_TYPE:
            raise ConnectError(f"{host}:{port} cannot list your games (an older server)") from None
        raise ConnectError(f"{host}:{port} refused: {exc}") from None
    except TimeoutError:
        raise ConnectError(f"no list of your games from {host}:{port}") from None
    except (asyncio.IncompleteReadError, OSError):
        raise ConnectError(f"{host}:{port} closed the connection") from None
    except ProtocolError as exc:
        raise ConnectError(f"bad data from {host}:{port} ({exc.message})") from None
    finally:
        await conn.close()
