"""A finished game's post-game analysis, asked of a server (protocol §7.6) for the
replay viewer (``craits-client HOST --replay-game N``): its marks show beside the
moves. No Textual.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Any

from craits.protocol import ProtocolError
from craits.protocol.client import ConnectError
from craits.protocol.messages import MAX_RECORD_TOKENS
from craits.protocol.vocab import ClientMessage, ServerMessage

from ..errors import Refused
from .queries import answer, open_short
from .saved.known_hosts import ServerTrust

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` when the server says it is analysing (``total`` 0: not counted yet)."""


async def fetch_analysis(
    host: str,
    port: int,
    name: str,
    game: int,
    wait: float,
    tls: ServerTrust | None = None,
    tokens: Sequence[str] = (),
    on_running: Progress | None = None,
) -> dict[str, Any]:
    """Game ``game``'s analysis (``docs/bots.md``, "The result") from ``host:port``,
    by one short connection: at once if the server keeps it, else once it is done,
    ``wait`` seconds at most (``on_running`` told first how far it is). ``tokens``:
    as for the record (a private table's game).

    Raises:
        ConnectError: unreachable, refused (no such game, too busy, a server
            without analyses: the message says so), not done in ``wait`` seconds,
            or not an analysis.
    """
    where = f"{host}:{port}"
    conn = await open_short(host, port, name, 5.0, tls)
    try:
        asked: dict[str, Any] = {"type": ClientMessage.ANALYSIS, "game": game}
        if tokens:
            asked["tokens"] = list(tokens[:MAX_RECORD_TOKENS])
        await conn.send(asked)
        async with asyncio.timeout(wait):
            got = await answer(conn, ServerMessage.ANALYSIS)
            if got["state"] != "ready" and on_running is not None:
                on_running(int(got["done"]), int(got["total"]))
            while got["state"] != "ready":
                got = await answer(conn, ServerMessage.ANALYSIS)
        found = json.loads(got["analysis"])
        if not isinstance(found, dict) or found.get("format") != "craits-analysis":
            raise ConnectError(f"{where} sent no analysis of game {game}")
        return found
    except Refused as exc:
        raise ConnectError(f"{where} gave no analysis: {exc}") from None
    except TimeoutError:
        raise ConnectError(f"{where} did not finish the analysis in {wait:.0f} s") from None
    except (asyncio.IncompleteReadError, OSError):
        raise ConnectError(f"{where} closed the connection") from None
    except (ProtocolError, ValueError, KeyError) as exc:
        raise ConnectError(f"bad analysis from {where} ({exc})") from None
    finally:
        await conn.close()
