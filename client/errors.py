"""The client's errors, each raised where the client meets the outside (a file, a
server's answer); its coded ones share the protocol's coded base
(:class:`~craits.protocol.errors.CodedError`). Imports nothing of the client.
"""

from __future__ import annotations

from craits.protocol.client import ConnectError
from craits.protocol.errors import CodedError


class Refused(ConnectError, CodedError):
    """A server answered a short request (``--list``, ``--replay-game``) with an
    error: ``code`` is its code (as the server sent it, maybe one this client does
    not know), ``str()`` and ``message`` its words (protocol §5, §12). A
    :class:`~craits.protocol.client.ConnectError` too: the request failed.
    """

    def __init__(self, code: str, message: str) -> None:
        CodedError.__init__(self, code, message)


class RecordError(Exception):
    """A file is not a readable Craits game record (``craits-client --replay
    FILE``, ``docs/records.md``); ``str()`` says why in one line."""
