"""TLS for a client: the contexts, the certificate fingerprint, and how trust fails.

A client reaches a TLS server (protocol §2) in one of two ways:

* **verified** — the certificate chain is checked against the system's
  certificate authorities (plus ``cafile``, if given) and the host name against
  the certificate, as a web browser does (:func:`verifying_context`);
* **pinned** — the certificate is accepted if, and only if, its SHA-256
  fingerprint (of its DER form, :func:`fingerprint`) is the one expected,
  whoever signed it and whatever names it holds (:func:`pinning_context`): what
  a self-hosted server with a self-signed certificate needs.

:func:`open_tls` opens a connection either way and raises
:class:`UntrustedCertificate` (verification failed and nothing is pinned: the
caller may ask the user, then pin), :class:`CertificateMismatch` (pinned, and
the certificate is another one) or :class:`NotTls` (the server answered
something that is not TLS). Nothing here keeps pins between runs: the terminal
client does, in ``craits.client.core.saved.known_hosts``.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import cast

from .address import normalize_fingerprint
from .errors import ConnectError


class TlsError(ConnectError):
    """A TLS connection could not be trusted or set up; ``str()`` says why in one line."""


class UntrustedCertificate(TlsError):
    """The server's certificate did not verify, and no fingerprint was pinned.

    Attributes:
        host, port: the server.
        fingerprint: the certificate's SHA-256, 64 lowercase hex digits.
        why: what the verification said, e.g. ``self-signed certificate``.
    """

    def __init__(self, host: str, port: int, fingerprint: str, why: str):
        self.host, self.port, self.fingerprint, self.why = host, port, fingerprint, why
        super().__init__(
            f"the certificate of {host}:{port} is not trusted ({why}); "
            f"its SHA-256 fingerprint is {format_fingerprint(fingerprint)} — if that is "
            f"the server's (ask its operator), connect with --tls-fingerprint {fingerprint}"
        )


class CertificateMismatch(TlsError):
    """The server's certificate is not the one pinned.

    Attributes:
        host, port: the server.
        expected: the pinned fingerprint (64 lowercase hex digits).
        got: the fingerprint of the certificate the server showed.
    """

    def __init__(self, host: str, port: int, expected: str, got: str):
        self.host, self.port, self.expected, self.got = host, port, expected, got
        super().__init__(
            f"the certificate of {host}:{port} is not the one expected: its SHA-256 "
            f"fingerprint is {format_fingerprint(got)}, not {format_fingerprint(expected)}"
        )


class NotTls(TlsError):
    """The server answered, but not with TLS (a plain Craits server, most likely)."""

    def __init__(self, host: str, port: int, why: str):
        self.host, self.port = host, port
        super().__init__(
            f"{host}:{port} does not speak TLS ({why}); "
            "connect without --tls (an address without craitss://)"
        )


@dataclass(frozen=True)
class TlsOptions:
    """How a client trusts a TLS server.

    Attributes:
        cafile: a PEM file of certificate authorities trusted besides the
            system's (``--tls-ca``), or None.
        fingerprint: the pinned SHA-256 of the server's certificate (64 hex
            digits, any spelling :func:`~craits.protocol.address.normalize_fingerprint`
            reads); None to verify against the certificate authorities.
    """

    cafile: str | None = None
    fingerprint: str | None = None

    def pinned(self, fingerprint: str | None) -> TlsOptions:
        """These options with ``fingerprint`` pinned (None: verify instead)."""
        return TlsOptions(self.cafile, fingerprint)


MIN_VERSION = ssl.TLSVersion.TLSv1_2
"""The oldest TLS spoken, by client and server (TLS 1.3 is preferred when both have it)."""


def fingerprint(der: bytes) -> str:
    """The SHA-256 of a certificate in DER form, as 64 lowercase hex digits."""
    return hashlib.sha256(der).hexdigest()


def format_fingerprint(fp: str) -> str:
    """A fingerprint as people compare it: ``AB:CD:…`` (32 pairs of upper-case hex)."""
    upper = fp.upper()
    return ":".join(upper[i : i + 2] for i in range(0, len(upper), 2))


@functools.lru_cache(maxsize=8)
def verifying_context(cafile: str | None = None) -> ssl.SSLContext:
    """A client context that checks the chain (system CAs, and ``cafile``) and the host name.

    Made once per ``cafile`` and shared (loading the system's certificate
    authorities takes tens of milliseconds); callers must not change it.

    Raises:
        TlsError: ``cafile`` cannot be read or holds no certificate.
    """
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    context.minimum_version = MIN_VERSION
    if cafile is not None:
        try:
            context.load_verify_locations(cafile=cafile)
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
            raise TlsError(f"cannot read the certificate authorities in {cafile}: {why}") from None
    return context


def pinning_context() -> ssl.SSLContext:
    """A client context that accepts any certificate: the caller compares its
    fingerprint with the pinned one before it sends anything (:func:`open_tls`)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = MIN_VERSION
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _peer_fingerprint(ssl_object: ssl.SSLObject | None) -> str:
    """The SHA-256 fingerprint of the certificate the server showed.

    Raises:
        TlsError: the server showed no certificate.
    """
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    if not der:
        raise TlsError("the server showed no certificate")
    return fingerprint(der)


def _server_hostname(host: str) -> str:
    """The name sent in SNI and checked against the certificate (an IP address as it is)."""
    return host.strip("[]")


async def fetch_fingerprint(host: str, port: int) -> str:
    """The SHA-256 fingerprint of ``host:port``'s certificate, by a connection
    that trusts anything, sends nothing and closes at once.

    Raises:
        NotTls: the server does not speak TLS.
        TlsError: the server cut the connection during the handshake.
        OSError: the server cannot be reached.
    """
    context = pinning_context()

    async def upgrade(context: ssl.SSLContext) -> ssl.SSLObject | None:
        _, writer = await asyncio.open_connection(
            host, port, ssl=context, server_hostname=_server_hostname(host)
        )
        writer.transport.abort()
        return cast("ssl.SSLObject | None", writer.get_extra_info("ssl_object"))

    ssl_object = await _handshake(upgrade, context, host, port)
    return _peer_fingerprint(ssl_object)


Upgrade = Callable[[ssl.SSLContext], Awaitable["ssl.SSLObject | None"]]
"""Shakes hands with a context; returns the connection's ``ssl_object``."""


async def _handshake(
    upgrade: Upgrade, context: ssl.SSLContext, host: str, port: int
) -> ssl.SSLObject | None:
    """Run ``upgrade`` with ``context``; a server that answers without TLS is :class:`NotTls`.

    Raises:
        NotTls: an ``ssl.SSLError`` other than a failed verification.
        TlsError: the server cut the connection during the handshake.
        ssl.SSLCertVerificationError: the certificate did not verify.
        OSError: the server cannot be reached.
    """
    try:
        return await upgrade(context)
    except ssl.SSLCertVerificationError:
        raise
    except (ConnectionResetError, ssl.SSLEOFError):
        raise TlsError(f"{host}:{port} cut the connection during the TLS handshake") from None
    except ssl.SSLError as exc:
        why = str(exc.reason or exc).lower().replace("_", " ")
        raise NotTls(host, port, why) from None


async def _trusted(upgrade: Upgrade, host: str, port: int, options: TlsOptions) -> None:
    """Shake hands with ``upgrade``, trusting the server as ``options`` say (see
    :func:`open_tls`); the caller closes the connection if this raises."""
    if options.fingerprint is not None:
        expected = normalize_fingerprint(options.fingerprint)
        got = _peer_fingerprint(await _handshake(upgrade, pinning_context(), host, port))
        if got != expected:
            raise CertificateMismatch(host, port, expected, got)
        return
    try:
        await _handshake(upgrade, verifying_context(options.cafile), host, port)
    except ssl.SSLCertVerificationError as exc:
        why = exc.verify_message or str(exc.reason or exc)
    else:
        return
    raise UntrustedCertificate(host, port, await fetch_fingerprint(host, port), why)


async def open_tls(
    host: str, port: int, options: TlsOptions
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Open a TLS connection to ``host:port`` trusted as ``options`` say, as streams.

    Pinned (``options.fingerprint``): any certificate is accepted in the
    handshake, then its fingerprint must be the pinned one, before anything is
    sent. Not pinned: the chain and host name are verified; if they do not
    verify, a second connection fetches the certificate's fingerprint for the
    message (:func:`fetch_fingerprint`).

    Raises:
        UntrustedCertificate: not pinned, and the certificate did not verify.
        CertificateMismatch: pinned, and the certificate is another one.
        NotTls: the server does not speak TLS.
        TlsError: ``options.cafile`` cannot be read, or the server cut the
            connection during the handshake.
        OSError: the server cannot be reached.
    """
    reader, writer = await asyncio.open_connection(host, port)

    async def upgrade(context: ssl.SSLContext) -> ssl.SSLObject | None:
        await writer.start_tls(context, server_hostname=_server_hostname(host))
        return cast("ssl.SSLObject | None", writer.get_extra_info("ssl_object"))

    try:
        await _trusted(upgrade, host, port, options)
    except BaseException:
        writer.transport.abort()
        raise
    return reader, writer


class Held(asyncio.Protocol):
    """Stands in for a connection's protocol while its TLS handshake ends and
    the server is checked: it holds what arrives (the peer may send with its
    last handshake message), and is told nothing else matters."""

    def __init__(self) -> None:
        self.data: list[bytes] = []
        self.eof = False
        self.lost = False

    def data_received(self, data: bytes) -> None:
        """Hold ``data`` for the protocol that takes over."""
        self.data.append(data)

    def eof_received(self) -> bool:
        """Note the end of the peer's stream (the TLS layer then closes)."""
        self.eof = True
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        """Note that the connection is gone (nobody takes over)."""
        self.lost = True


async def start_tls(
    transport: asyncio.Transport,
    protocol: asyncio.Protocol,
    host: str,
    port: int,
    options: TlsOptions,
) -> asyncio.Transport:
    """Upgrade a TCP connection just made to ``host:port`` to TLS, trusted as
    ``options`` say (as :func:`open_tls`), then give it to ``protocol``: its
    ``connection_made`` is called with the TLS transport once the server is
    trusted (and only then), then it is handed what arrived meanwhile.

    Raises:
        as :func:`open_tls`; ``transport`` is then closed and ``protocol`` is
        told nothing.
    """
    loop = asyncio.get_running_loop()
    upgraded: list[asyncio.Transport] = []
    held = Held()

    async def upgrade(context: ssl.SSLContext) -> ssl.SSLObject | None:
        tls = await loop.start_tls(transport, held, context, server_hostname=_server_hostname(host))
        if tls is None or held.lost:
            raise ConnectionResetError("the connection was cut during the handshake")
        upgraded.append(tls)
        return cast("ssl.SSLObject | None", tls.get_extra_info("ssl_object"))

    try:
        await _trusted(upgrade, host, port, options)
    except BaseException:
        transport.abort()
        for tls in upgraded:
            tls.abort()
        raise
    tls = upgraded[-1]
    tls.set_protocol(protocol)
    protocol.connection_made(tls)
    for data in held.data:
        protocol.data_received(data)
    if held.eof:
        protocol.eof_received()
    return tls


__all__ = [
    "MIN_VERSION",
    "CertificateMismatch",
    "Held",
    "NotTls",
    "TlsError",
    "TlsOptions",
    "UntrustedCertificate",
    "fetch_fingerprint",
    "fingerprint",
    "format_fingerprint",
    "open_tls",
    "pinning_context",
    "start_tls",
    "verifying_context",
]
