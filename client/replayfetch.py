"""A finished game's record with its frames, fetched from a server
(``craits-client HOST --replay-game N``): ``get_record``, then each hand's
frames with ``get_replay``, a page at a time (protocol §7.3). No Textual; the
replay viewer (:mod:`craits.client.replay`) shows what it returns.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

from craits.protocol import ProtocolError
from craits.protocol.client import ConnectError, Connection
from craits.protocol.types import GameRecord, ReplayFrame
from craits.protocol.vocab import ClientMessage, ErrorCode, ServerMessage

from .known_hosts import ServerTrust


async def _answer(conn: Connection, kind: ServerMessage) -> dict[str, Any]:
    """The next message of type ``kind`` (an ``error`` raises; unknown types are skipped).

    Raises:
        ConnectError: the server refused (its message says why).
    """
    while True:
        try:
            message = await conn.recv_message()
        except ProtocolError as exc:
            if exc.code == ErrorCode.UNKNOWN_TYPE:
                continue  # a message this client does not know (protocol §14)
            raise
        if message["type"] == kind:
            return cast(dict[str, Any], message)
        if message["type"] == ServerMessage.ERROR:
            raise ConnectError(str(message["message"]))


async def _frames(conn: Connection, game: int, hand: int) -> list[ReplayFrame]:
    """Every frame of hand ``hand`` (1 for the first) of game ``game``, page by page."""
    frames: list[ReplayFrame] = []
    while True:
        await conn.send(
            {"type": ClientMessage.GET_REPLAY, "game": game, "hand": hand, "offset": len(frames)}
        )
        page = await _answer(conn, ServerMessage.REPLAY)
        frames += page["frames"]
        if not page["frames"] or len(frames) >= page["total"]:
            return frames


async def fetch_record(
    host: str,
    port: int,
    name: str,
    game: int,
    timeout: float = 30.0,
    tls: ServerTrust | None = None,
) -> GameRecord:
    """The record of finished game ``game`` at ``host:port``, every hand with
    its ``frames`` (``docs/records.md``), by one short connection (over TLS with
    ``tls``: nobody is asked to trust a certificate, one that does not verify
    is refused).

    Raises:
        ConnectError: unreachable, refused (no such game, a server before
            ``get_replay``: the message says so), or no answer in ``timeout`` seconds.
    """
    if tls is not None:
        conn = await tls.open(host, port, name, timeout=min(timeout, 5.0))
    else:
        conn = await Connection.open(host, port, name, timeout=min(timeout, 5.0))
    where = f"{host}:{port}"
    try:
        async with asyncio.timeout(timeout):
            await conn.send({"type": ClientMessage.GET_RECORD, "game": game})
            record = cast(GameRecord, (await _answer(conn, ServerMessage.RECORD))["record"])
            for n, hand in enumerate(record["hands"], 1):
                hand["frames"] = await _frames(conn, game, n)
            return record
    except ConnectError as exc:
        raise ConnectError(f"{where} refused: {exc}") from None
    except TimeoutError:
        raise ConnectError(f"no record of game {game} from {where} in {timeout:.0f} s") from None
    except (asyncio.IncompleteReadError, OSError):
        raise ConnectError(f"{where} closed the connection") from None
    except ProtocolError as exc:
        raise ConnectError(f"bad data from {where} ({exc.message})") from None
    finally:
        await conn.close()
