"""The server's errors, in one place (the rules engine's are its own:
:mod:`craits.server.engine.errors`).

Every error that carries a wire error code (protocol §12) derives from the one
coded base the protocol and the client share, :class:`~craits.protocol.errors.CodedError`
(``code``, ``message``): a connection answers any of them the same way, and a
caller catches the family with ``except CodedError``.

- :class:`TableError` (coded): a request refused, by a table, the lobby or the
  records; :class:`TablePaused` (coded): the journal could not be written, the
  table paused.
- :class:`JournalError` and its kinds (:class:`JournalDamaged`,
  :class:`JournalUnwritable`, :class:`JournalLocked`): the journal cannot be
  read or written; :class:`NoSuchHand`: a replay asked for a hand the game did
  not deal.
- The operator's: :class:`ConfigError` (a setting), :class:`TlsSetupError` (a
  certificate or key), :class:`BindError` (an address besides the game's),
  :class:`MetricsUnavailable`, :class:`ProbeFailed` (``craits-server status``).
- :class:`BotError`: ``craits-bot`` cannot go on.

This module imports nothing of the server: every room may import it.
"""

from __future__ import annotations

from craits.protocol.errors import CodedError
from craits.protocol.vocab import ErrorCode


class TableError(CodedError):
    """A lobby or table request refused; ``code`` is the wire error code (protocol §12).

    Args:
        code: the wire error code.
        message: why, in one line (also ``str()`` of the error).
    """

    code: ErrorCode

    def __init__(self, code: ErrorCode, message: str):
        super().__init__(code, message)


class TablePaused(TableError):
    """The journal could not be written: the table paused (protocol §11.1)."""

    def __init__(self, message: str):
        super().__init__(ErrorCode.TABLE_PAUSED, message)


class JournalError(Exception):
    """The journal could not be written or read; the message says why."""


class JournalDamaged(JournalError):
    """The journal's file is damaged: SQLite finds it malformed or not a database."""


class JournalUnwritable(JournalError):
    """The journal cannot be written (a read-only file, directory or file
    system, a full disk)."""


class JournalLocked(JournalError):
    """Another server holds the journal."""


class AccountStoreError(Exception):
    """The account store cannot be opened (``--accounts-db``, ``accounts.db``):
    unreachable, not a database, or made by a newer release."""


class NoSuchHand(LookupError):
    """``get_replay`` named a hand the game did not deal; ``str()`` says so."""


class ConfigError(ValueError):
    """A setting that cannot be used: an unknown key, a value of the wrong type
    or out of its choices, an unreadable file. ``str()`` is one line naming the
    key and its source."""


class TlsSetupError(Exception):
    """The certificate or key cannot be used; ``str()`` says why in one line."""


class BindError(Exception):
    """An address besides the game's (the metrics', the web page's) cannot be
    bound; ``str()`` says so in one line."""


class MetricsUnavailable(RuntimeError):
    """``prometheus_client`` is not installed; ``str()`` says how to get it."""


class ProbeFailed(Exception):
    """The probe failed; ``status`` is the exit status, ``str()`` says why in one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class BotError(Exception):
    """The bot cannot go on; ``str()`` says why in one line."""
