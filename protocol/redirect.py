"""Following a cluster's ``redirect`` (protocol §7.4): where it sends the
client, and a request that follows it over :class:`~.client.Connection`.

A node of a cluster answers ``join``, ``spectate``, ``resume``,
``create_table`` or ``quick_play`` with ``redirect`` when the table lives (or goes) on another
node; the client connects to the address given and sends the same request
there, at most :data:`MAX_REDIRECTS` times for one request. ``craits-client``
(``craits.client.core.reconnecting``/``session``) and ``craits-bot`` do it in their own
loops; :func:`request` does it for a plain :class:`~.client.Connection`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .address import parse_target
from .client import ConnectError, Connection
from .types import RedirectMsg
from .vocab import ClientMessage, ServerMessage
from .wire import DEFAULT_PORT

MAX_REDIRECTS = 2
"""Redirects followed for one request before giving up (§7.4)."""

ANSWERS: dict[str, frozenset[str]] = {
    ClientMessage.JOIN: frozenset({ServerMessage.JOINED}),
    ClientMessage.SPECTATE: frozenset({ServerMessage.STATE}),
    ClientMessage.RESUME: frozenset({ServerMessage.RESUMED}),
    ClientMessage.CREATE_TABLE: frozenset({ServerMessage.TABLE_CREATED}),
    ClientMessage.QUICK_PLAY: frozenset({ServerMessage.JOINED}),  # §11.13 (issue 27)
}
"""The requests a node may redirect, and the message that answers each when it
is not redirected (an ``error`` may answer any)."""


def redirect_target(message: RedirectMsg) -> tuple[str, int]:
    """The host and port a ``redirect`` sends the client to.

    Raises:
        ValueError: the address is not ``HOST:PORT``.
    """
    target = parse_target(message["address"], DEFAULT_PORT)
    return target.host, target.port


def placed(message: Mapping[str, Any], redirect: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``message`` as it is sent again after ``redirect``: a ``create_table`` gets
    ``"placed": true`` (the node it lands on creates it, §7.4), a ``quick_play``
    the ``table`` the redirect named (§11.13); others are unchanged."""
    again = dict(message)
    if again.get("type") == ClientMessage.CREATE_TABLE:
        again["placed"] = True
    elif again.get("type") == ClientMessage.QUICK_PLAY and redirect is not None:
        again["table"] = redirect.get("table")
    return again


Opener = Callable[[str, int], Awaitable[Connection]]
"""Opens a connection (hello done) to a host and port."""


async def request(
    conn: Connection, message: Mapping[str, Any], opener: Opener
) -> tuple[Connection, dict[str, Any]]:
    """Send ``message`` (a redirectable request, :data:`ANSWERS`) and return its
    answer, following up to :data:`MAX_REDIRECTS` redirects: on each, a new
    connection is opened with ``opener`` and the request sent again there.
    Lobby updates read meanwhile are dropped. Returns the connection that
    answered (``conn`` when not redirected; ``conn`` stays open either way,
    the connections of the hops between are closed) and its answer: the
    message of :data:`ANSWERS`, or an ``error``.

    Raises:
        ConnectError: redirected more than :data:`MAX_REDIRECTS` times, or to
            an address that cannot be reached or read.
        asyncio.IncompleteReadError, ProtocolError: as :meth:`Connection.recv`.
    """
    wanted = ANSWERS[str(message["type"])] | {ServerMessage.ERROR}
    first = conn
    for hop in range(MAX_REDIRECTS + 1):
        await conn.send(message)
        while True:
            reply = await conn.recv()
            kind = reply.get("type")
            if kind in wanted:
                return conn, reply
            if kind == ServerMessage.REDIRECT:
                break
        try:
            host, port = redirect_target(reply)  # type: ignore[arg-type]
        except (KeyError, ValueError):
            raise ConnectError(f"a bad redirect: {reply.get('address')!r}") from None
        if conn is not first:
            await conn.close()
        if hop == MAX_REDIRECTS:
            break
        conn = await opener(host, port)
        message = placed(message, reply)
    raise ConnectError(f"redirected more than {MAX_REDIRECTS} times")


__all__ = ["ANSWERS", "MAX_REDIRECTS", "Opener", "placed", "redirect_target", "request"]
