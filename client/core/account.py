"""The player's account on the server connected to (protocol §7.5, docs/accounts.md):
the device key, the servers registered with, logging in after each ``welcome``,
registering a name, and the account's records asked from the lobby (profile,
leaderboard). No Textual.

**Key and saved files.** The device key is ``identity.pem`` in the account
directory (by default the platform's config directory,
:func:`~.saved.accounts.default_account_dir`), made by
:func:`craits.protocol.identity.load_or_create_key` (mode 0600) the first time the
player registers; ``accounts.json`` beside it names the servers registered with
(:class:`~.saved.accounts.SavedAccounts`). A client that never registers makes no
key and writes nothing.

**Logging in.** After each ``welcome`` (the first connection and every
reconnection), a server this device registered with is sent ``login``, signed over
the connection's nonce and the server identity (``host:port`` as the client reached
it, with ``#sha256:`` and the certificate's fingerprint over TLS). Refused (a
revoked key, an account gone, the store down), the player plays on as a guest and
is told so. Each signed request spends the nonce: the next asks ``challenge`` first.

**Errors.** Error messages carry no request tag: while a request of this module
waits for its answer, the account errors (§12.4) are its answer
(:meth:`Account.refused`, asked first by :class:`~.refusals.Refusals`).
"""

from __future__ import annotations

import logging
import platform
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from craits.protocol.account_types import (
    ChallengeMsg,
    ChallengeRequestMsg,
    LeaderboardLine,
    LeaderboardMsg,
    LeaderboardRequestMsg,
    LoggedInMsg,
    LoginMsg,
    Profile,
    ProfileMsg,
    ProfileRequestMsg,
    RegisteredMsg,
    RegisterMsg,
)
from craits.protocol.i18n import _, _l
from craits.protocol.identity import (
    KeyFileError,
    load_key,
    load_or_create_key,
    public_key_bytes,
    server_identity,
    sign_login,
)
from craits.protocol.vocab import ClientMessage, ErrorCode

from .saved.accounts import SavedAccounts
from .saved.server_keys import server_key

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from .news import Listener
    from .reconnecting import Link

log = logging.getLogger(__name__)

LEADERBOARD_LINES = 50
"""How many lines of the leaderboard are asked (the protocol's default page)."""

ACCOUNT_ERRORS = frozenset(
    {
        ErrorCode.BAD_SIGNATURE,
        ErrorCode.BAD_SERVER_IDENTITY,
        ErrorCode.UNKNOWN_KEY,
        ErrorCode.NAME_REGISTERED,
        ErrorCode.INVALID_ACCOUNT_NAME,
        ErrorCode.INVALID_KEY,
        ErrorCode.KEY_IN_USE,
        ErrorCode.ALREADY_LOGGED_IN,
        ErrorCode.ACCOUNTS_UNAVAILABLE,
        ErrorCode.TOO_MANY_ATTEMPTS,
        ErrorCode.NOT_LOGGED_IN,
        ErrorCode.NO_SUCH_ACCOUNT,
        ErrorCode.BAD_MESSAGE,
    }
)
"""The errors that answer this module's requests (protocol §12.4, and
``bad_message``) while one waits."""


REFUSED_WORDS = {
    ErrorCode.NAME_REGISTERED: _l("That name is someone's on this server: choose another."),
    ErrorCode.INVALID_ACCOUNT_NAME: _l(
        'That name cannot be registered ("player", or characters a name may not hold).'
    ),
    ErrorCode.ACCOUNTS_UNAVAILABLE: _l("The server cannot reach its accounts now: try later."),
}
"""Refusals said in the client's words (else the server's are shown)."""


class Waiting(StrEnum):
    """The signed request sent and not answered yet."""

    NOTHING = "nothing"
    LOGIN = "login"
    REGISTER = "register"


def device_label() -> str:
    """This device's label for the account's list of devices: the machine's name
    (40 characters at most), or ``terminal``."""
    return platform.node()[:40] or "terminal"


class Account:
    """This device's account on the server connected to (see the module's notes).

    Args:
        directory: where the device key and ``accounts.json`` are kept; None:
            accounts off (craits-web's visitors, whose identity is the browser's).
        link: the connection (its host, port, ``welcome`` and certificate).
        listener: told in words when the player is logged in or refused.
    """

    def __init__(self, directory: Path | None, link: Link, listener: Listener):
        self.directory = directory
        self._link = link
        self._listener = listener
        self._saved = SavedAccounts(directory) if directory is not None else None
        self._nonce: bytes | None = None
        self._waiting = Waiting.NOTHING
        self._after_challenge: Callable[[], None] | None = None
        self._then: Callable[[], None] | None = None
        self._wanted_name = ""
        self._watchers: list[Callable[[], object]] = []
        self.name: str | None = None
        """The account this connection is logged in as, or None (a guest)."""
        self.recovery_codes: list[str] = []
        """The codes of the registration just made, until :meth:`codes_shown`."""
        self.profile: Profile | None = None
        """The account's own profile, once asked after logging in."""
        self.leaderboard: list[LeaderboardLine] | None = None
        """The leaderboard's first lines, once asked (:meth:`ask_leaderboard`)."""
        self.problem = ""
        """The last refusal of a register or login, in words (empty: none)."""

    # ------------------------------------------------------------ state

    @property
    def enabled(self) -> bool:
        """Whether this client keeps accounts (it has an account directory)."""
        return self._saved is not None

    @property
    def busy(self) -> bool:
        """Whether a register or login waits for its answer."""
        return self._waiting != Waiting.NOTHING

    def server(self) -> str:
        """This server's key in ``accounts.json`` (``HOST:PORT``)."""
        return server_key(self._link.host, self._link.port)

    def remembered(self) -> str | None:
        """The name this device registered on this server, or None."""
        return self._saved.name_for(self.server()) if self._saved is not None else None

    def watch(self, callback: Callable[[], object]) -> Callable[[], None]:
        """Have ``callback`` called after each change; returns what stops it."""
        self._watchers.append(callback)

        def stop() -> None:
            if callback in self._watchers:
                self._watchers.remove(callback)

        return stop

    def _changed(self) -> None:
        for callback in list(self._watchers):
            callback()

    def codes_shown(self) -> None:
        """The player confirmed the recovery codes written down: forget them."""
        self.recovery_codes = []
        self._changed()

    # ---------------------------------------------------------- requests

    def welcomed(self, then: Callable[[], None]) -> None:
        """A connection is up (its ``welcome`` read): take its nonce, and log in if
        this device registered with this server; ``then`` once logged in or
        refused (at once when no login is asked), so that no seat is asked under
        a registered name before the login is through (the server answers a
        ``login`` later than a ``join`` sent after it). Each connection starts a guest."""
        self.name, self.profile, self._waiting = None, None, Waiting.NOTHING
        self._after_challenge, self._then = None, then
        nonce = self._link.welcome.get("nonce")
        self._nonce = bytes.fromhex(nonce) if isinstance(nonce, str) and len(nonce) == 64 else None
        if self._nonce is not None and self.remembered() is not None:
            self._signed(self._login)
        else:
            self._proceed()
        self._changed()

    def _proceed(self) -> None:
        """Run what waited for the login (once)."""
        then, self._then = self._then, None
        if then is not None:
            then()

    def register(self, name: str) -> bool:
        """Register ``name`` with this device's key (made now if there is none).

        Returns False, with :attr:`problem` saying why, when nothing was sent:
        accounts off, offline, a server without accounts, a request waiting, or
        the key file unusable.
        """
        problem = self._cannot_sign()
        if not problem and self.name is not None:
            problem = _("You are logged in as {name} already.").format(name=self.name)
        if not problem:
            try:
                load_or_create_key(self._dir())
            except (KeyFileError, OSError) as exc:
                problem = _("The device key cannot be used: {why}").format(why=exc)
        self.problem = problem
        if problem:
            self._changed()
            return False
        self._wanted_name = name.strip()
        return self._signed(self._register)

    def ask_leaderboard(self) -> bool:
        """Ask the leaderboard's first lines; False when offline."""
        return self._link.send(
            LeaderboardRequestMsg(type=ClientMessage.LEADERBOARD, limit=LEADERBOARD_LINES)
        )

    def _dir(self) -> Path:
        assert self.directory is not None  # (checked by _cannot_sign)
        return self.directory

    def _cannot_sign(self) -> str:
        """Why no signed request can be sent now, or empty."""
        if not self.enabled:
            return _("Accounts are not kept by this client.")
        if not self._link.online:
            return _("Not connected to the server.")
        if "nonce" not in self._link.welcome:
            return _("This server has no accounts.")
        if self.busy:
            return _("Still waiting for the server's answer.")
        return ""

    def _signed(self, send: Callable[[], None]) -> bool:
        """Send a signed request now, or after a fresh nonce comes (``challenge``)."""
        if self._nonce is not None:
            send()
            return True
        self._after_challenge = send
        return self._link.send(ChallengeRequestMsg(type=ClientMessage.CHALLENGE))

    def _signature(self, key: Ed25519PrivateKey) -> tuple[str, str, str]:
        """The key, the signature and the server identity signed, as the wire has
        them; spends the nonce kept."""
        nonce, self._nonce = self._nonce, None
        assert nonce is not None
        identity = server_identity(self._link.host, self._link.port, self._link.peer_fingerprint())
        signature = sign_login(key, nonce, identity)
        return public_key_bytes(key).hex(), signature.hex(), identity

    def _login(self) -> None:
        try:
            key = load_key(self._dir())
        except KeyFileError as exc:
            self._listener.said(str(exc), "error", 8.0, None)
            self._proceed()
            return
        if key is None:  # (the key was removed: a guest, as a new device)
            self._proceed()
            return
        public, signature, identity = self._signature(key)
        if self._link.send(
            LoginMsg(type=ClientMessage.LOGIN, key=public, signature=signature, server=identity)
        ):
            self._waiting = Waiting.LOGIN

    def _register(self) -> None:
        key = load_key(self._dir())
        assert key is not None  # (made by register)
        public, signature, identity = self._signature(key)
        sent = self._link.send(
            RegisterMsg(
                type=ClientMessage.REGISTER,
                name=self._wanted_name,
                key=public,
                signature=signature,
                server=identity,
                device=device_label(),
            )
        )
        if sent:
            self._waiting = Waiting.REGISTER
        self._changed()

    # ---------------------------------------------------------- answers

    def take_challenge(self, m: ChallengeMsg) -> None:
        """A fresh nonce came: send the signed request that waited for it."""
        self._nonce = bytes.fromhex(m["nonce"])
        send, self._after_challenge = self._after_challenge, None
        if send is not None:
            send()

    def take_registered(self, m: RegisteredMsg) -> None:
        """Registered: remember this server, keep the codes to show once."""
        self._waiting = Waiting.NOTHING
        name = m["account"]["name"]
        self.name, self.recovery_codes, self.problem = name, list(m["recovery_codes"]), ""
        assert self._saved is not None
        try:
            self._saved.remember(self.server(), name)
        except OSError as exc:
            self._listener.said(
                _("Could not remember the account ({why}): log in again next time.").format(
                    why=exc.strerror
                ),
                "error",
                8.0,
                None,
            )
        self._ask_profile()
        self._changed()

    def take_logged_in(self, m: LoggedInMsg) -> None:
        """Logged in (after ``login``)."""
        self._waiting = Waiting.NOTHING
        self.name, self.problem = m["account"]["name"], ""
        self._listener.said(
            _("Logged in as {name}.").format(name=self.name), "information", 3.0, None
        )
        self._proceed()
        self._ask_profile()
        self._changed()

    def take_profile(self, m: ProfileMsg) -> None:
        """A profile came: the account's own is kept (another's is let go)."""
        if self.name is not None and m["profile"]["name"] == self.name:
            self.profile = m["profile"]
            self._changed()

    def take_leaderboard(self, m: LeaderboardMsg) -> None:
        """The leaderboard's lines came."""
        self.leaderboard = list(m["lines"])
        self._changed()

    def _ask_profile(self) -> None:
        self._link.send(ProfileRequestMsg(type=ClientMessage.PROFILE))

    def refused(self, code: ErrorCode | None, text: str) -> bool:
        """An error came: True when it answers this module's request waiting
        (then the player is told, and nothing more is to be said)."""
        if self._waiting == Waiting.NOTHING or code not in ACCOUNT_ERRORS:
            return False
        waiting, self._waiting = self._waiting, Waiting.NOTHING
        words = REFUSED_WORDS.get(code) if code is not None else None
        self.problem = text = str(words) if words is not None else text
        if waiting == Waiting.LOGIN:
            self._listener.said(
                _("Could not log in ({why}): you play as a guest.").format(why=text),
                "warning",
                8.0,
                None,
            )
            self._proceed()
        self._changed()
        return True
