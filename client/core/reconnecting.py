"""The link to the server: connect, read, and reconnect with backoff. No Textual.

:class:`Link` keeps one :class:`~craits.protocol.client.Connection` up for as
long as it runs: after a drop it waits (0.5 s, 1 s, 2 s… with jitter) and tries
again, saying why in :attr:`Link.detail`. It hands each message to its owner
and decides nothing about what the messages mean.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Protocol, TypedDict

from craits.protocol import VERSION, ProtocolError, encode
from craits.protocol.client import ConnectError, Connection
from craits.protocol.messages import parse_server_message
from craits.protocol.tls import fingerprint
from craits.protocol.types import ClientMsg, ServerMsg
from craits.protocol.vocab import ErrorCode

from .saved.known_hosts import ServerTrust

log = logging.getLogger(__name__)


class LinkOptions(TypedDict, total=False):
    """The keyword options of :class:`Link` a :class:`~craits.client.core.session.Session`
    passes through (seconds; the protocol version; how to trust a TLS server)."""

    connect_timeout: float
    retry_base: float
    retry_max: float
    protocol_version: int
    tls: ServerTrust | None
    forwarded_for: str | None


class LinkState(StrEnum):
    """The state of the connection."""

    CONNECTING = "connecting"
    """The first try, not connected yet."""
    ONLINE = "online"
    """Connected and past the handshake."""
    RECONNECTING = "reconnecting"
    """The connection dropped; trying again (with backoff)."""


class LinkOwner(Protocol):
    """What a :class:`Link` reports to."""

    def link_changed(self) -> None:
        """:attr:`Link.state` or :attr:`Link.detail` changed."""

    def connected(self, first: bool) -> None:
        """The connection is up (``first``: for the first time); messages follow."""

    def received(self, message: ServerMsg) -> None:
        """A message from the server (of a type this client knows, with its keys)."""

    def unreachable(self, why: str) -> None:
        """The first connection failed (``why`` in one line); the link gives up."""


class Link:
    """One connection to ``host:port``, kept up while :meth:`run` runs.

    Args:
        owner: told of every change and message.
        name: the player's name, sent in hello.
        connect_timeout: seconds allowed for connecting and the handshake.
        retry_base: the first pause between tries, in seconds; it doubles up
            to ``retry_max``.
        protocol_version: the version sent in hello.
        tls: connect with TLS, trusting the server as this says; None: plain TCP.
        forwarded_for: the address of the person this client speaks for, sent in
            each hello (``craits-web``, a relay the server trusts; protocol §4.1).
    """

    def __init__(
        self,
        owner: LinkOwner,
        host: str,
        port: int,
        name: str,
        *,
        connect_timeout: float = 5.0,
        retry_base: float = 0.5,
        retry_max: float = 8.0,
        protocol_version: int = VERSION,
        tls: ServerTrust | None = None,
        forwarded_for: str | None = None,
    ):
        self.owner = owner
        self.forwarded_for = forwarded_for
        self.tls = tls
        self.host = host
        self.port = port
        self.name = name
        self.connect_timeout = connect_timeout
        self.retry_base = retry_base
        self.retry_max = retry_max
        self.protocol_version = protocol_version
        self.state = LinkState.CONNECTING
        self.detail = ""
        """Words about the link: why it dropped, when the next try is."""
        self.attempt = 0
        """Tries since the link was last up."""
        self.welcome: Mapping[str, Any] = {}
        """The server's last ``welcome`` (protocol §4.1); empty before the first."""
        self._conn: Connection | None = None
        self._connected_once = False
        self._moving = False

    @property
    def online(self) -> bool:
        """Whether a connection is up."""
        return self._conn is not None and self.state == LinkState.ONLINE

    def peer_fingerprint(self) -> str | None:
        """The SHA-256 of the certificate the server showed on the connection up
        (64 lowercase hex digits), or None without TLS or without a connection."""
        conn = self._conn
        if conn is None:
            return None
        tls = conn.writer.get_extra_info("ssl_object")
        der = tls.getpeercert(binary_form=True) if tls is not None else None
        return fingerprint(der) if der else None

    def _set(self, state: LinkState, detail: str | None = None) -> None:
        self.state = state
        if detail is not None:
            self.detail = detail
        self.owner.link_changed()

    def send(self, message: ClientMsg) -> bool:
        """Queue a message for sending; False when there is no connection."""
        conn = self._conn
        if conn is None:
            return False
        try:
            conn.writer.write(encode(message))
        except (OSError, RuntimeError, TypeError):
            return False
        return True

    def close(self) -> None:
        """Drop the connection at once (the client is quitting)."""
        conn = self._conn
        self._conn = None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.writer.transport.abort()

    def move(self, host: str, port: int) -> None:
        """Go to another node of a cluster (a ``redirect``, protocol §7.4): drop
        this connection and connect to ``host:port`` at once, without the
        backoff; reconnections go there from now on."""
        self.host, self.port = host, port
        self._moving = True
        conn = self._conn
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.writer.transport.abort()

    async def run(self) -> None:
        """Connect, read, and reconnect with backoff, until cancelled, or until
        the first connection fails (:meth:`LinkOwner.unreachable`)."""
        while True:
            self._set(LinkState.RECONNECTING if self._connected_once else LinkState.CONNECTING)
            try:
                conn = await self._open()
            except ConnectError as exc:
                if not self._connected_once:
                    self.owner.unreachable(str(exc))
                    return
                await self._backoff(str(exc))
                continue
            why = await self._serve(conn)
            if self._moving:
                self._moving = False  # a redirect: straight to the other node
                continue
            await self._backoff(why)

    async def _open(self) -> Connection:
        """One try at connecting, over TLS if asked.

        Raises:
            ConnectError: the try failed (why, in one line).
        """
        timeout, version = self.connect_timeout, self.protocol_version
        forwarded = self.forwarded_for
        if self.tls is not None:
            return await self.tls.open(
                self.host,
                self.port,
                self.name,
                timeout=timeout,
                version=version,
                forwarded_for=forwarded,
            )
        return await Connection.open(
            self.host,
            self.port,
            self.name,
            timeout=timeout,
            version=version,
            forwarded_for=forwarded,
        )

    async def _serve(self, conn: Connection) -> str:
        """Read messages until the connection ends; why it ended, in words."""
        first = not self._connected_once
        self._connected_once = True
        self._conn = conn
        self.welcome = conn.welcome
        self.attempt = 0
        self._set(LinkState.ONLINE, "")
        heartbeat = conn.welcome.get("heartbeat_ms")
        silence = 3 * heartbeat / 1000 if isinstance(heartbeat, int) and heartbeat > 0 else 60
        why = "the server closed the connection"
        try:
            self.owner.connected(first)
            while True:
                async with asyncio.timeout(silence):
                    message = await conn.recv_frame()
                if message is not None:
                    self._hand_on(message)
        except TimeoutError:
            why = "the server went silent"
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            pass
        except ProtocolError as exc:
            why = f"bad data from the server ({exc.message})"
        finally:
            if self._conn is conn:
                self._conn = None
            await conn.close()
        return why

    def _hand_on(self, message: Mapping[str, Any]) -> None:
        """Give a message to the owner, typed; one of a type this client does not
        know is skipped (protocol §14), as is one without a key its type needs."""
        try:
            typed = parse_server_message(message)
        except ProtocolError as exc:
            if exc.code != ErrorCode.UNKNOWN_TYPE:
                log.warning("skipped a message from the server: %s", exc.message)
            return
        self.owner.received(typed)

    async def _backoff(self, why: str) -> None:
        """Wait before the next try: 0.5 s, 1 s, 2 s… up to ``retry_max``, with jitter."""
        self.attempt += 1
        delay = min(self.retry_max, self.retry_base * 2 ** (self.attempt - 1))
        delay *= random.uniform(0.8, 1.2)
        shown = f"{delay:.1f}" if delay < 10 else f"{delay:.0f}"
        self._set(LinkState.RECONNECTING, f"{why}; try {self.attempt} in {shown} s")
        await asyncio.sleep(delay)
        self._set(LinkState.RECONNECTING, f"{why}; trying again (try {self.attempt})")
