"""The account flows a connection goes through: register, log in, pair a device,
recover, passwords (docs/accounts.md). Each checks what it must in the order
that costs least to an attacker's benefit: the signature (cheap, and it spends
the connection's nonce), then the attempt limits, then argon2 (in the executor),
then the store's atomic spend.

The handlers (with the wiring) turn :class:`Refused`'s ``reason`` into the
protocol's error codes; this module knows nothing of the wire.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from .identity import Challenge, NonceSpent
from .model import Account, Device, InvalidKey, KeyInUse, NameTaken
from .names import InvalidName
from .secrets import (
    PAIRING_TTL,
    PER_ACCOUNT,
    PER_ADDRESS,
    AttemptLimiter,
    InvalidPassword,
    SecretHasher,
    normalize_code,
    normalize_password,
    pairing_code,
    recovery_codes,
)
from .store import AccountStore


class Refused(Exception):
    """An account request refused.

    Attributes:
        reason: ``bad_signature`` (wrong, or the nonce spent), ``unknown_key``
            (no account has it, or it was revoked), ``invalid_name``,
            ``name_taken``, ``invalid_key``, ``key_in_use``, ``bad_code`` (wrong,
            used, expired, or no such name), ``bad_password``,
            ``invalid_password``, ``too_many_attempts``.
        retry_after: seconds to wait, for ``too_many_attempts``; else 0.
    """

    def __init__(self, reason: str, retry_after: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


@dataclass(frozen=True)
class Registered:
    """A new account, its first device, and its recovery codes (show them once)."""

    account: Account
    device: Device
    recovery_codes: list[str]


MAX_CODE_CHARS = 64
"""A typed code longer than this is wrong without hashing it."""

MAX_LABEL = 40
"""A device label's length kept (characters)."""


def _label(label: object) -> str:
    """A device's label as kept: text, trimmed to :data:`MAX_LABEL`, "device" if none."""
    if not isinstance(label, str) or not label.strip():
        return "device"
    return label.strip()[:MAX_LABEL]


def _signed(challenge: Challenge, public_key: bytes, signature: bytes) -> None:
    try:
        good = challenge.verify(public_key, signature)
    except NonceSpent:
        good = False
    if not good:
        raise Refused("bad_signature")


class AccountService:
    """Registration, login and the secrets, over a store.

    Args:
        store: the account store.
        hasher: argon2id (:data:`~.secrets.PRODUCTION` unless a test says).
        clock: wall-clock seconds (times stored, pairing expiry).
        monotonic: the limiters' clock.
    """

    def __init__(
        self,
        store: AccountStore,
        hasher: SecretHasher | None = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.hasher = hasher or SecretHasher()
        self._clock = clock
        self.per_address = AttemptLimiter(PER_ADDRESS, clock=monotonic)
        self.per_account = AttemptLimiter(PER_ACCOUNT, clock=monotonic)

    def now(self) -> float:
        """The service's wall clock, seconds since the epoch (what it stores)."""
        return self._clock()

    async def register(
        self, challenge: Challenge, name: str, public_key: bytes, signature: bytes, label: str
    ) -> Registered:
        """Register ``name`` with the key that signed the connection's challenge.

        Raises:
            Refused: ``bad_signature``, ``invalid_name``, ``name_taken``,
                ``invalid_key``, ``key_in_use``.
        """
        _signed(challenge, public_key, signature)
        now = self._clock()
        try:
            account = await self.store.accounts.create(name, public_key, _label(label), now)
        except InvalidName as exc:
            raise Refused("invalid_name") from exc
        except NameTaken as exc:
            raise Refused("name_taken") from exc
        except InvalidKey as exc:
            raise Refused("invalid_key") from exc
        except KeyInUse as exc:
            raise Refused("key_in_use") from exc
        codes = await self.new_recovery_codes(account.id)
        device = (await self.store.accounts.devices(account.id))[0]
        return Registered(account, device, codes)

    async def login(
        self, challenge: Challenge, public_key: bytes, signature: bytes
    ) -> tuple[Account, Device]:
        """Log in with a device key that signed the connection's challenge.

        Raises:
            Refused: ``bad_signature``, ``unknown_key`` (revoked keys too).
        """
        _signed(challenge, public_key, signature)
        found = await self.store.accounts.by_key(public_key)
        if found is None:
            raise Refused("unknown_key")
        account, device = found
        await self.store.accounts.seen(account.id, device.id, self._clock())
        return account, device

    async def new_recovery_codes(self, account_id: int) -> list[str]:
        """A fresh set of recovery codes for the account (the old set stops
        working); returns them to show once."""
        codes = recovery_codes()
        hashes = await self.hasher.hash_all([normalize_code(c) for c in codes])
        await self.store.codes.set_recovery(account_id, hashes)
        return codes

    async def start_pairing(self, account_id: int) -> str:
        """A pairing code for a logged-in account's new device (good for
        :data:`~.secrets.PAIRING_TTL` seconds, once); returns it to show."""
        code = pairing_code()
        code_hash = await self.hasher.hash(normalize_code(code))
        await self.store.codes.add_pairing(account_id, code_hash, self._clock() + PAIRING_TTL)
        return code

    def _check_limits(self, address: Hashable, account: Account | None) -> tuple[Hashable, ...]:
        keys: tuple[Hashable, ...] = (("address", address),)
        if account is not None:
            keys += (("account", account.id),)
        wait = max(self.per_address.retry_after(keys[0]), self.per_account.retry_after(*keys[1:]))
        if wait > 0:
            raise Refused("too_many_attempts", wait)
        return keys

    def _failed(self, keys: tuple[Hashable, ...]) -> Refused:
        self.per_address.failed(keys[0])
        self.per_account.failed(*keys[1:])
        return Refused("bad_code")

    async def pair(
        self,
        challenge: Challenge,
        name: str,
        code: str,
        public_key: bytes,
        signature: bytes,
        label: str,
        address: Hashable,
    ) -> tuple[Account, Device]:
        """Add the key that signed the challenge to ``name``'s account, with a
        pairing code shown on one of its devices.

        Raises:
            Refused: ``bad_signature``, ``too_many_attempts``, ``bad_code``,
                ``invalid_key``, ``key_in_use``.
        """
        return await self._add_with_code(
            challenge, name, code, public_key, signature, label, address, recovery=False
        )

    async def recover(
        self,
        challenge: Challenge,
        name: str,
        code: str,
        public_key: bytes,
        signature: bytes,
        label: str,
        address: Hashable,
    ) -> tuple[Account, Device]:
        """As :meth:`pair`, with one of the account's recovery codes (spent)."""
        return await self._add_with_code(
            challenge, name, code, public_key, signature, label, address, recovery=True
        )

    async def _add_with_code(
        self,
        challenge: Challenge,
        name: str,
        code: str,
        public_key: bytes,
        signature: bytes,
        label: str,
        address: Hashable,
        *,
        recovery: bool,
    ) -> tuple[Account, Device]:
        _signed(challenge, public_key, signature)
        account = await self.store.accounts.by_name(name)
        keys = self._check_limits(address, account)
        if account is None:
            raise self._failed(keys)
        now = self._clock()
        codes = self.store.codes
        if recovery:
            candidates = await codes.unused_recovery(account.id)
        else:
            candidates = await codes.pending_pairings(account.id, now)
        if not isinstance(code, str) or len(code) > MAX_CODE_CHARS:
            raise self._failed(keys)
        found = await self.hasher.first_match(candidates, normalize_code(code))
        if found is None:
            raise self._failed(keys)
        if recovery:
            spent = await codes.spend_recovery(account.id, found, now)
        else:
            spent = await codes.spend_pairing(account.id, found, now)
        if not spent:  # used by a racing attempt, or expired meanwhile
            raise self._failed(keys)
        self.per_address.succeeded(keys[0])
        self.per_account.succeeded(*keys[1:])
        try:
            device = await self.store.accounts.add_device(
                account.id, public_key, _label(label), now
            )
        except InvalidKey as exc:
            raise Refused("invalid_key") from exc
        except KeyInUse as exc:
            raise Refused("key_in_use") from exc
        await self.store.accounts.seen(account.id, device.id, now)
        return account, device

    async def set_password(self, account_id: int, password: str | None) -> None:
        """Set the account's password (None: remove it).

        Raises:
            Refused: ``invalid_password`` (8–256 characters).
        """
        if password is None:
            await self.store.accounts.set_password_hash(account_id, None)
            return
        if not isinstance(password, str):
            raise Refused("invalid_password")
        try:
            form = normalize_password(password)
        except InvalidPassword as exc:
            raise Refused("invalid_password") from exc
        await self.store.accounts.set_password_hash(account_id, await self.hasher.hash(form))

    async def password_login(self, name: str, password: str, address: Hashable) -> Account:
        """Log in by name and password (browser visitors).

        Raises:
            Refused: ``too_many_attempts``, ``bad_password`` (wrong, no such
                name, or no password set: one answer for all three).
        """
        account = await self.store.accounts.by_name(name)
        keys = self._check_limits(address, account)
        encoded = None if account is None else await self.store.accounts.password_hash(account.id)
        try:
            form = normalize_password(password) if isinstance(password, str) else None
        except InvalidPassword:
            form = None
        if account is None or encoded is None or form is None:
            self._failed(keys)
            raise Refused("bad_password")
        if not await self.hasher.verify(encoded, form):
            self._failed(keys)
            raise Refused("bad_password")
        self.per_address.succeeded(keys[0])
        self.per_account.succeeded(*keys[1:])
        await self.store.accounts.seen(account.id, None, self._clock())
        return account
