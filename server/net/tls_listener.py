"""TLS for the server: the certificate, and the handshake before a connection is a client.

``craits-server --tls-cert FILE --tls-key FILE`` serves TLS instead of plain
TCP (protocol §2). :func:`load_context` reads the certificate and key once, at
start, into a context speaking TLS 1.2 or later (1.3 preferred) with the
standard library's defaults (no compression, forward-secret ciphers) and no
renegotiation, and says
in one line what is wrong with them if they do not load.

Each accepted TCP connection is first a :class:`Handshake`: it upgrades itself
with :meth:`asyncio.loop.start_tls`, bounded by the server's hello timeout (a
peer that trickles its handshake, or never sends one, holds its place no
longer than a peer that never says hello), then hands the TLS transport to a
:class:`~craits.server.net.connection.Client` like any other. A handshake that
fails (a plain-TCP client at the TLS port, a client that does not trust the
certificate, a timeout) is one line in the log, and the connection is closed.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from craits.protocol.tls import MIN_VERSION, Held, fingerprint

from ..errors import TlsSetupError
from .connection import Client, bound_buffers

if TYPE_CHECKING:
    from ..app import Server

log = logging.getLogger("craits.server")


def _read(path: Path, what: str, marker: bytes) -> None:
    """Check that ``path`` can be read and holds a PEM block ending in ``marker``.

    Raises:
        TlsSetupError: it cannot be read, or holds no such block.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TlsSetupError(f"cannot read the TLS {what} {path}: {exc.strerror or exc}") from None
    if b"-----BEGIN " not in data or marker not in data:
        raise TlsSetupError(f"{path} holds no PEM {what} (a -----BEGIN … block)")


def load_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server context for the PEM certificate chain ``cert`` and its private key ``key``.

    Raises:
        TlsSetupError: a file cannot be read, is not PEM, or the key is not the
            certificate's (the message names the file).
    """
    _read(cert, "certificate", b"CERTIFICATE-----")
    _read(key, "private key", b"PRIVATE KEY-----")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = MIN_VERSION
    context.options |= ssl.OP_NO_RENEGOTIATION  # TLS 1.2's, a peer's way to make work
    try:
        context.load_cert_chain(cert, key)
    except ssl.SSLError as exc:
        reason = str(exc.reason or "")
        if reason == "KEY_VALUES_MISMATCH":
            why = f"the key {key} is not the key of the certificate {cert}"
        else:
            why = f"cannot load the certificate {cert} with the key {key}: {exc}"
        raise TlsSetupError(why) from None
    return context


def certificate_fingerprint(cert: Path) -> str:
    """The SHA-256 fingerprint of the first certificate in the PEM file ``cert``
    (the server's own: what clients pin, protocol §2), 64 lowercase hex digits.

    Raises:
        TlsSetupError: the file holds no PEM certificate.
    """
    text = cert.read_text(encoding="ascii", errors="replace")
    begin, end = "-----BEGIN CERTIFICATE-----", "-----END CERTIFICATE-----"
    start = text.find(begin)
    stop = text.find(end, start)
    if start < 0 or stop < 0:
        raise TlsSetupError(f"{cert} holds no PEM certificate")
    return fingerprint(ssl.PEM_cert_to_DER_cert(text[start : stop + len(end)]))


class TlsClient(Client):
    """A :class:`Client` over TLS: the same, but for what the end of the peer's
    stream returns (the TLS layer closes the connection itself)."""

    def eof_received(self) -> bool:
        """The peer finished sending: close, as a :class:`Client` does."""
        super().eof_received()
        return False


def _why(exc: BaseException) -> str:
    """A failed handshake in a few words, for the log."""
    if isinstance(exc, ssl.SSLError) and exc.reason:
        reason = str(exc.reason).lower().replace("_", " ")
        if reason in ("wrong version number", "http request", "unknown protocol"):
            return f"{reason}, not TLS (a client without --tls?)"
        return reason
    if isinstance(exc, ConnectionAbortedError):
        return "not finished within the hello timeout"
    if isinstance(exc, ConnectionResetError):
        return "the client closed the connection (one that does not trust the certificate?)"
    return str(exc) or type(exc).__name__


class Handshake(asyncio.Protocol):
    """One accepted TCP connection, before its TLS handshake is done (see the module).

    Args:
        server: the server; its ``hello_timeout`` bounds the handshake, its
            ``max_connections`` the handshakes in progress at once.
        context: the server's TLS context (:func:`load_context`).
        pending: the handshakes in progress, shared by the listener's connections.
    """

    def __init__(
        self, server: Server, context: ssl.SSLContext, pending: set[asyncio.Task[None]]
    ) -> None:
        self.server = server
        self.context = context
        self.pending = pending
        self.peer = "?"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Start the handshake (or turn the connection away if the server is full)."""
        raw = cast(asyncio.Transport, transport)
        # nothing may be read before start_tls takes the transport over
        raw.pause_reading()
        peer = raw.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        server = self.server
        # As many handshakes at once as connections, no more (each ends within
        # the hello timeout); once one ends, its Client counts against the cap
        # and is told server_full if the server is full (protocol §4.7).
        if len(self.pending) >= server.config.max_connections:
            log.debug("connection %s: too many TLS handshakes at once; closed", self.peer)
            raw.abort()
            return
        # The kernel's buffer is bounded below the TLS layer, whose own buffer
        # the Client's bounds then cover (protocol §4.5).
        bound_buffers(raw, server.config.send_buffer)
        task = asyncio.get_running_loop().create_task(self._upgrade(raw))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _upgrade(self, raw: asyncio.Transport) -> None:
        """Shake hands; then hand the TLS transport to a new :class:`Client`."""
        holder = Held()  # the first frame may come with the handshake's end
        loop = asyncio.get_running_loop()
        try:
            transport = await loop.start_tls(
                raw,
                holder,
                self.context,
                server_side=True,
                ssl_handshake_timeout=self.server.config.hello_timeout,
            )
        except Exception as exc:  # ssl.SSLError, a reset, the deadline: one line, never more
            log.info("connection %s: TLS handshake failed: %s; closed", self.peer, _why(exc))
            raw.abort()
            return
        if transport is None or holder.lost or transport.is_closing():
            return  # the peer went away as the handshake ended
        if self.server.stopping:  # (a Client would be told shutdown; nobody waits for it)
            transport.abort()
            return
        client = TlsClient(self.server)
        transport.set_protocol(client)
        client.connection_made(transport)
        for data in holder.data:
            if client.closed:
                return
            client.data_received(data)
        if holder.eof and not client.closed:
            client.eof_received()


class TlsListener:
    """The protocol factory of a TLS server (for :meth:`asyncio.loop.create_server`):
    every connection starts as a :class:`Handshake`."""

    def __init__(self, server: Server, context: ssl.SSLContext) -> None:
        self.server = server
        self.context = context
        self.pending: set[asyncio.Task[None]] = set()
        """The handshakes in progress."""

    def __call__(self) -> Handshake:
        return Handshake(self.server, self.context, self.pending)

    def stop(self) -> None:
        """Give up the handshakes in progress (the server stops)."""
        for task in list(self.pending):
            task.cancel()


def accepting(server: Server) -> Callable[[], asyncio.Protocol]:
    """The protocol factory of every port ``server`` listens on: a
    :class:`Client` per connection, or over TLS (``config.tls``) a
    :class:`Handshake` first (:class:`TlsListener`)."""
    if server.config.tls is None:
        return lambda: Client(server)
    return TlsListener(server, server.config.tls)
