"""The secrets an account checks: recovery codes, pairing codes, passwords
(docs/accounts.md, *Secrets*).

* **Recovery codes** — :data:`RECOVERY_CODES` of them, made at registration and
  shown once: 12 characters of Crockford's base 32 (60 random bits), printed in
  groups of four (``K7QM-2XRT-9PWD``). Each works once.
* **Pairing codes** — made on a logged-in device for a new one: 8 characters
  (40 random bits, ``4F7K-Q2MZ``), good for :data:`PAIRING_TTL` seconds and once.
* **Passwords** — optional, for browser visitors: 8–256 characters (NFKC).

Codes are read forgivingly (:func:`normalize_code`: any case, spaces and dashes
ignored, O read as 0, I and L as 1). All three are stored only as argon2id hashes
(:class:`SecretHasher`), hashed and checked in the event loop's default executor
so the loop never waits on argon2. Wrong guesses are limited per address and per
account (:class:`AttemptLimiter`). None of them is ever logged.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base 32: no I, L, O nor U, so nothing reads as something else."""

RECOVERY_CODES = 10
"""How many recovery codes an account gets at registration."""

RECOVERY_CODE_LENGTH = 12
"""Characters of a recovery code (60 bits)."""

PAIRING_CODE_LENGTH = 8
"""Characters of a pairing code (40 bits)."""

PAIRING_TTL = 300.0
"""Seconds a pairing code is good for."""

MIN_PASSWORD, MAX_PASSWORD = 8, 256
"""The shortest and longest password, in characters after NFKC."""

_READS_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})

K = TypeVar("K")


class InvalidPassword(ValueError):
    """A password too short or too long."""


def _code(length: int) -> str:
    raw = "".join(secrets.choice(ALPHABET) for _ in range(length))
    return "-".join(raw[i : i + 4] for i in range(0, length, 4))


def recovery_codes() -> list[str]:
    """:data:`RECOVERY_CODES` fresh recovery codes, as shown (``XXXX-XXXX-XXXX``)."""
    return [_code(RECOVERY_CODE_LENGTH) for _ in range(RECOVERY_CODES)]


def pairing_code() -> str:
    """A fresh pairing code, as shown (``XXXX-XXXX``)."""
    return _code(PAIRING_CODE_LENGTH)


def normalize_code(typed: str) -> str:
    """A code as typed, in the form it is hashed in: upper case, no spaces nor
    dashes, O as 0, I and L as 1. Text that cannot be a code comes back as it
    is, less those, and simply fails to match."""
    return "".join(typed.upper().split()).replace("-", "").translate(_READS_AS)


def normalize_password(password: str) -> str:
    """The password in the form it is hashed in (NFKC).

    Raises:
        InvalidPassword: shorter than 8 or longer than 256 characters.
    """
    form = unicodedata.normalize("NFKC", password)
    if not MIN_PASSWORD <= len(form) <= MAX_PASSWORD:
        raise InvalidPassword(f"a password is {MIN_PASSWORD}–{MAX_PASSWORD} characters")
    return form


@dataclass(frozen=True)
class HashParams:
    """argon2id's cost: ``time_cost`` passes over ``memory_kib`` KiB in
    ``parallelism`` lanes.

    :data:`PRODUCTION` is the only default anywhere; :data:`FOR_TESTS` is the
    cheapest argon2 accepts, for the tests alone (a hash made with one set of
    parameters verifies under any other: the parameters are in the hash).
    """

    time_cost: int
    memory_kib: int
    parallelism: int


PRODUCTION = HashParams(time_cost=3, memory_kib=65536, parallelism=4)
"""RFC 9106's second recommended setting (argon2-cffi's default): 64 MiB, 3 passes."""

FOR_TESTS = HashParams(time_cost=1, memory_kib=8, parallelism=1)
"""The least argon2 accepts: for tests only, never for a server."""


class SecretHasher:
    """argon2id hashing and checking, off the event loop.

    Every call runs in the running loop's default executor (a worker thread;
    argon2 releases the GIL), so the loop goes on serving while a hash is made.

    Args:
        params: the cost of new hashes; :data:`PRODUCTION` unless a test says.
    """

    def __init__(self, params: HashParams = PRODUCTION) -> None:
        self.params = params
        self._hasher = PasswordHasher(
            time_cost=params.time_cost,
            memory_cost=params.memory_kib,
            parallelism=params.parallelism,
            type=Type.ID,
        )

    def _verify(self, encoded: str, secret: str) -> bool:
        try:
            return self._hasher.verify(encoded, secret)
        except (VerificationError, InvalidHashError):
            return False

    def _first_match(self, candidates: Sequence[tuple[K, str]], secret: str) -> K | None:
        for key, encoded in candidates:
            if self._verify(encoded, secret):
                return key
        return None

    async def hash(self, secret: str) -> str:
        """The argon2id hash of ``secret`` (its PHC string, salt and parameters in it)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self._hasher.hash, secret)

    async def hash_all(self, secrets_: Sequence[str]) -> list[str]:
        """The hashes of several secrets, in one executor job, in order."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, lambda: [self._hasher.hash(s) for s in secrets_])

    async def verify(self, encoded: str, secret: str) -> bool:
        """Whether ``secret`` is the one ``encoded`` was made from (False for a
        malformed hash too)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self._verify, encoded, secret)

    async def first_match(self, candidates: Sequence[tuple[K, str]], secret: str) -> K | None:
        """The key of the first ``(key, hash)`` pair ``secret`` matches, else None
        (one executor job; used for an account's unused recovery codes or its
        pending pairing codes)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, self._first_match, candidates, secret)


@dataclass(frozen=True)
class Limit:
    """At most ``failures`` wrong guesses in any ``window`` seconds."""

    failures: int
    window: float


PER_ADDRESS = Limit(failures=10, window=600.0)
"""Wrong codes or passwords from one address: 10 in 10 minutes."""

PER_ACCOUNT = Limit(failures=20, window=3600.0)
"""Wrong codes or passwords against one account, from anywhere: 20 an hour."""


class AttemptLimiter:
    """Wrong guesses counted per key (an address, an account), in a sliding window.

    A caller asks :meth:`retry_after` for every key an attempt concerns before
    checking a secret, refuses while it is above 0, and reports the outcome with
    :meth:`failed` or :meth:`succeeded`.

    Args:
        limit: how many failures in what window.
        clock: seconds, monotonic (:func:`time.monotonic`; tests pass their own).
        max_keys: keys kept at most; past it, the keys whose failures are all
            out of the window go first, then the oldest.
    """

    def __init__(
        self,
        limit: Limit,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.limit = limit
        self._clock = clock
        self._max_keys = max_keys
        self._failures: dict[Hashable, deque[float]] = {}

    def _recent(self, key: Hashable, now: float) -> deque[float] | None:
        times = self._failures.get(key)
        if times is None:
            return None
        while times and times[0] <= now - self.limit.window:
            times.popleft()
        if not times:
            del self._failures[key]
            return None
        return times

    def retry_after(self, *keys: Hashable) -> float:
        """Seconds until every one of ``keys`` may try again: 0 when all may now."""
        now = self._clock()
        wait = 0.0
        for key in keys:
            times = self._recent(key, now)
            if times is not None and len(times) >= self.limit.failures:
                wait = max(wait, times[-self.limit.failures] + self.limit.window - now)
        return wait

    def failed(self, *keys: Hashable) -> None:
        """Count a wrong guess against each of ``keys``."""
        now = self._clock()
        for key in keys:
            times = self._recent(key, now)
            if times is None:
                if len(self._failures) >= self._max_keys:
                    self._make_room(now)
                times = self._failures[key] = deque(maxlen=self.limit.failures)
            times.append(now)

    def succeeded(self, *keys: Hashable) -> None:
        """Forget the failures of ``keys`` (a right guess)."""
        for key in keys:
            self._failures.pop(key, None)

    def _make_room(self, now: float) -> None:
        for key in list(self._failures):
            self._recent(key, now)
        while len(self._failures) >= self._max_keys:
            del self._failures[next(iter(self._failures))]

    def __len__(self) -> int:
        """How many keys have failures kept (expired ones included until touched)."""
        return len(self._failures)
