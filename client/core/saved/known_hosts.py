"""Trust in TLS servers: the pinned certificates, kept like SSH's ``known_hosts``. No Textual.

A server whose certificate verifies against the certificate authorities (the
system's, and ``--tls-ca``) is trusted as a web browser trusts it. A
self-hosted server's certificate usually does not (it is self-signed): then
the client shows its SHA-256 fingerprint and asks the user, once (trust on
first use); a yes **pins** it, for that server (host and port), in
:class:`KnownHosts` — one text file in the user's state directory, beside the
resume tokens::

    # craits known hosts: HOST:PORT SHA-256 of the server's certificate
    example.org:7777 0ff8eb16e2705703a70985406bc0f85750275514cf979ec56baeea1ebdec84db

From then on that certificate is accepted without asking, and another one is
**refused** with a message naming both fingerprints and this file (the line
to delete, if the operator did change the certificate). A fingerprint given
ahead of time (``--tls-fingerprint``, or ``fp=`` in a ``craitss://`` link) is
a pin too: only that certificate is accepted, and it is kept once it matched.

:class:`ServerTrust` applies all of this for one connection
(:meth:`ServerTrust.open`); protocol §2 says what a client verifies.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import platformdirs
from craits.protocol import VERSION
from craits.protocol.address import normalize_fingerprint
from craits.protocol.client import ConnectError, Connection
from craits.protocol.tls import (
    CertificateMismatch,
    TlsOptions,
    UntrustedCertificate,
    format_fingerprint,
)

from .files import write_private
from .server_keys import server_key

log = logging.getLogger(__name__)

FILE_NAME = "known_hosts"
HEADER = "# craits known hosts: HOST:PORT SHA-256 of the server's certificate\n"

AskTrust = Callable[[UntrustedCertificate, Path], Awaitable[bool]]
"""Asks the user whether to trust a certificate that did not verify (the
fingerprint is in the exception; the path is where the pin will be kept)."""


def default_path() -> Path:
    """Where the pins live: ``<user state dir>/craits/known_hosts``."""
    return Path(platformdirs.user_state_dir("craits")) / FILE_NAME


class KnownHosts:
    """The certificate pinned per server, in one text file (see the module's notes).

    A line that cannot be read is kept as it is and otherwise ignored; errors
    reading the file count as no pins, errors writing it are raised (a pin the
    user asked for must not be silently lost).
    """

    def __init__(self, path: Path | None = None):
        self.path = path if path is not None else default_path()

    def _lines(self) -> list[str]:
        try:
            return self.path.read_text(encoding="utf-8").splitlines(keepends=True)
        except (OSError, UnicodeDecodeError):
            return []

    def get(self, host: str, port: int) -> str | None:
        """The fingerprint pinned for ``host:port`` (64 lowercase hex digits), or None."""
        key = server_key(host, port)
        found = None
        for line in self._lines():
            fields = line.split()
            if len(fields) >= 2 and not fields[0].startswith("#") and fields[0] == key:
                with contextlib.suppress(ValueError):
                    found = normalize_fingerprint(fields[1])
        return found

    def put(self, host: str, port: int, fingerprint: str) -> None:
        """Pin ``fingerprint`` for ``host:port``, replacing the server's earlier pin.

        Raises:
            OSError: the file cannot be written.
        """
        key = server_key(host, port)
        kept = [line for line in self._lines() if line.split()[:1] != [key]]
        if not kept:
            kept = [HEADER]
        elif not kept[-1].endswith("\n"):
            kept[-1] += "\n"
        kept.append(f"{key} {normalize_fingerprint(fingerprint)}\n")
        write_private(self.path, "".join(kept))


class ServerTrust:
    """How the terminal client trusts TLS servers (see the module's notes).

    Args:
        known: the pins kept between runs.
        cafile: certificate authorities trusted besides the system's (a PEM file), or None.
        fingerprint: a pin given ahead of time for the server connected to
            (``--tls-fingerprint``, ``fp=``), or None.
        ask: asks the user to trust a certificate that did not verify; None
            (not interactive) refuses it with a message naming
            ``--tls-fingerprint``. May be set after construction (the App does).
    """

    def __init__(
        self,
        known: KnownHosts,
        *,
        cafile: str | None = None,
        fingerprint: str | None = None,
        ask: AskTrust | None = None,
    ):
        self.known = known
        self.cafile = cafile
        self.fingerprint = normalize_fingerprint(fingerprint) if fingerprint else None
        self.ask = ask

    async def open(
        self,
        host: str,
        port: int,
        name: str | None,
        *,
        timeout: float,
        version: int = VERSION,
        forwarded_for: str | None = None,
    ) -> Connection:
        """Connect to ``host:port`` over TLS and say hello (as
        :meth:`Connection.open <craits.protocol.client.Connection.open>`),
        trusting the server as the module's notes say; a certificate the user
        trusts is pinned before the connection is made again with the pin.

        Raises:
            ConnectError: as ``Connection.open``; a certificate not the one
                pinned, or untrusted and not trusted by the user, with a message
                saying so in one line.
        """
        stored = self.known.get(host, port)
        pin = self.fingerprint or stored
        try:
            conn = await self._open(host, port, name, pin, timeout, version, forwarded_for)
        except UntrustedCertificate as exc:
            if self.ask is None or not await self.ask(exc, self.known.path):
                raise
            pin = exc.fingerprint
            self._remember(host, port, pin)
            return await self._open(host, port, name, pin, timeout, version, forwarded_for)
        if pin is not None and pin != stored:
            self._remember(host, port, pin)
        return conn

    async def _open(
        self,
        host: str,
        port: int,
        name: str | None,
        pin: str | None,
        timeout: float,
        version: int,
        forwarded_for: str | None,
    ) -> Connection:
        options = TlsOptions(self.cafile, pin)
        try:
            return await Connection.open(
                host,
                port,
                name,
                timeout=timeout,
                version=version,
                tls=options,
                forwarded_for=forwarded_for,
            )
        except CertificateMismatch as exc:
            raise ConnectError(self._mismatch(exc)) from None

    def _mismatch(self, exc: CertificateMismatch) -> str:
        """What to say when the certificate is not the one pinned."""
        if self.fingerprint is not None:
            return f"{exc} (the fingerprint given with --tls-fingerprint or fp=)"
        key = server_key(exc.host, exc.port)
        return (
            f"the certificate of {exc.host}:{exc.port} has CHANGED since you trusted it: "
            f"its SHA-256 fingerprint is now {format_fingerprint(exc.got)}, "
            f"not {format_fingerprint(exc.expected)} as pinned in {self.known.path}. "
            "Someone may be in between; if the server's operator did change the "
            f"certificate, delete the line {key} from that file and connect again"
        )

    def _remember(self, host: str, port: int, fingerprint: str) -> None:
        """Pin ``fingerprint`` for the server; a file that cannot be written is
        logged and the connection goes on (the user is asked again next time)."""
        try:
            self.known.put(host, port, fingerprint)
        except OSError as exc:
            log.warning("cannot keep the certificate's fingerprint in %s: %s", self.known.path, exc)
