"""A finished game's record with its frames, fetched from a server
(``craits-client HOST --replay-game N``): ``get_record``, then each hand's
frames with ``get_replay``, a page at a time (protocol §7.3). No Textual; the
replay viewer (:mod:`craits.client.tui.replay_app`) shows what it returns.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any, cast

from craits.protocol import ProtocolError
from craits.protocol.client import ConnectError, Connection
from craits.protocol.messages import MAX_RECORD_TOKENS
from craits.protocol.types import GameRecord, ReplayFrame
from craits.protocol.vocab import ClientMessage, ErrorCode, ServerMessage

from ..errors import Refused
from .queries import answer, open_short
from .saved.known_hosts import ServerTrust

log = logging.getLogger(__name__)


BUSY_TRIES = 10
"""How many times a request answered ``records_busy`` is asked again."""


Busy = Callable[[float], None]
"""Told the seconds a fetch waits because the server said ``records_busy``."""


def _log_busy(wait: float) -> None:
    log.info("the server is busy rebuilding games: asking again in %g s", wait)


async def _ask(
    conn: Connection, request: dict[str, Any], kind: ServerMessage, on_busy: Busy = _log_busy
) -> dict[str, Any]:
    """Send ``request`` and return its answer of type ``kind``; while the server
    answers ``records_busy`` (protocol §7.3), tell ``on_busy`` and wait the
    seconds it says, and ask again.

    Raises:
        ConnectError: the server refused (its message says why).
    """
    for _ in range(BUSY_TRIES):
        await conn.send(request)
        try:
            return await answer(conn, kind)
        except Refused as exc:
            if exc.code != ErrorCode.RECORDS_BUSY:
                raise
            said = re.search(r"ask again in (\d+(?:\.\d+)?) s", str(exc))
            wait = min(float(said.group(1)), 60.0) if said else 1.0
            on_busy(wait)
            await asyncio.sleep(wait)
    raise ConnectError("the server stayed too busy rebuilding games; try again later")


async def _frames(
    conn: Connection, game: int, hand: int, on_busy: Busy, proof: dict[str, Any]
) -> list[ReplayFrame]:
    """Every frame of hand ``hand`` (1 for the first) of game ``game``, page by
    page (``proof``: the ``tokens`` field, or nothing)."""
    frames: list[ReplayFrame] = []
    while True:
        asked = {
            "type": ClientMessage.GET_REPLAY,
            "game": game,
            "hand": hand,
            "offset": len(frames),
            **proof,
        }
        page = await _ask(conn, asked, ServerMessage.REPLAY, on_busy)
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
    on_busy: Busy = _log_busy,
    tokens: Sequence[str] = (),
) -> GameRecord:
    """The record of finished game ``game`` at ``host:port``, every hand with
    its ``frames`` (``docs/records.md``), by one short connection (over TLS with
    ``tls``: nobody is asked to trust a certificate, one that does not verify
    is refused).

    ``tokens``: the tokens this client held at the server
    (:class:`~craits.client.core.saved.record_keys.RecordKeys`), sent with every request:
    a private table's game is given only to a request whose token proves a
    seat there, or its creator (protocol §7.3).

    A request answered ``records_busy`` is asked again after the seconds the
    server says (within ``timeout``); ``on_busy`` is told each wait first.

    Raises:
        ConnectError: unreachable, refused (no such game, a server before
            ``get_replay``: the message says so), or no answer in ``timeout`` seconds.
    """
    conn = await open_short(host, port, name, min(timeout, 5.0), tls)
    where = f"{host}:{port}"
    try:
        async with asyncio.timeout(timeout):
            proof = {"tokens": list(tokens[:MAX_RECORD_TOKENS])} if tokens else {}
            asked = {"type": ClientMessage.GET_RECORD, "game": game, **proof}
            answer = await _ask(conn, asked, ServerMessage.RECORD, on_busy)
            record = cast(GameRecord, answer["record"])
            for n, hand in enumerate(record["hands"], 1):
                hand["frames"] = await _frames(conn, game, n, on_busy, proof)
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
