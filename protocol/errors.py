"""The one base of every error that carries a wire error code (protocol §12).

:class:`CodedError` is raised by the protocol (:class:`~craits.protocol.wire.ProtocolError`),
the server (a table's refusals) and the client (a server's refusal of a short
request); whoever answers or reports one reads its ``code`` and ``message`` the
same way, and catches the family with ``except CodedError``. This module
imports nothing of the project.

:class:`ConnectError` (no wire code) lives here too, so that the client
connection and the TLS layer both raise it without importing each other.
"""

from __future__ import annotations


class CodedError(Exception):
    """An error with a wire error code: ``code`` (an
    :class:`~craits.protocol.vocab.ErrorCode`, or the code a server sent), and
    ``message``, why in one line (also ``str()`` of the error).

    Args:
        code: the wire error code.
        message: why, in words.
    """

    code: str

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


class ConnectError(Exception):
    """The server could not be reached, or refused the handshake; ``str()`` says why in one line.

    Raised by :meth:`craits.protocol.client.Connection.open`; the TLS errors
    (:class:`craits.protocol.tls.TlsError`) are of this kind too.
    """
