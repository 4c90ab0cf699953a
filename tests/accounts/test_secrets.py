"""Recovery and pairing codes, argon2id off the loop, attempt limits
(docs/accounts.md, *Secrets*): real argon2 at the tests' parameters."""

from __future__ import annotations

import asyncio
import re

import pytest
from craits.server.accounts.secrets import (
    FOR_TESTS,
    PRODUCTION,
    AttemptLimiter,
    InvalidPassword,
    Limit,
    SecretHasher,
    normalize_code,
    normalize_password,
    pairing_code,
    recovery_codes,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_recovery_codes_are_ten_distinct_typable_codes() -> None:
    codes = recovery_codes()
    assert len(codes) == 10 and len(set(codes)) == 10
    for code in codes:
        assert re.fullmatch(
            r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", code
        )
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}", pairing_code())


def test_codes_are_read_forgivingly() -> None:
    assert normalize_code(" k7qm-2xrt 9pwd ") == "K7QM2XRT9PWD"
    assert normalize_code("oil0") == "0110"


def test_passwords_have_bounds() -> None:
    assert normalize_password("ｐａｓｓｗｏｒｄ") == "password"  # NFKC: full-width is plain
    for bad in ("short", "x" * 257):
        with pytest.raises(InvalidPassword):
            normalize_password(bad)


def test_the_production_parameters_are_not_the_tests() -> None:
    assert SecretHasher().params == PRODUCTION
    assert PRODUCTION.memory_kib >= 65536 and PRODUCTION.time_cost >= 3


async def test_hashes_verify_and_are_salted() -> None:
    hasher = SecretHasher(FOR_TESTS)
    code = normalize_code(pairing_code())
    first, second = await hasher.hash(code), await hasher.hash(code)
    assert first.startswith("$argon2id$") and first != second and code not in first
    assert await hasher.verify(first, code) and await hasher.verify(second, code)
    assert not await hasher.verify(first, code[:-1] + ("0" if code[-1] != "0" else "1"))
    assert not await hasher.verify("not a hash", code)


async def test_first_match_finds_the_right_code() -> None:
    hasher = SecretHasher(FOR_TESTS)
    codes = [normalize_code(c) for c in recovery_codes()]
    hashes = await hasher.hash_all(codes)
    candidates = list(enumerate(hashes))
    assert await hasher.first_match(candidates, codes[7]) == 7
    assert await hasher.first_match(candidates, normalize_code(pairing_code())) is None


async def test_hashing_runs_off_the_event_loop() -> None:
    """A production-cost hash (tens of milliseconds) runs in another thread: the
    loop goes on running a ticking task meanwhile."""
    hasher = SecretHasher()
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    ticker = asyncio.create_task(tick())
    encoded = await hasher.hash("correct horse battery staple")
    ticker.cancel()
    assert ticks > 1  # a hash on the loop itself would have let the ticker run not once
    assert await hasher.verify(encoded, "correct horse battery staple")


def test_the_limiter_refuses_after_the_limit_and_forgives_with_time() -> None:
    clock = Clock()
    limiter = AttemptLimiter(Limit(failures=3, window=60), clock=clock)
    address, account = ("address", "203.0.113.9"), ("account", 42)
    for _ in range(3):
        assert limiter.retry_after(address, account) == 0
        limiter.failed(address, account)
    assert limiter.retry_after(address) == pytest.approx(60)
    assert limiter.retry_after(("address", "198.51.100.1")) == 0  # another address may
    assert limiter.retry_after(("address", "198.51.100.1"), account) == pytest.approx(60)
    clock.now += 59
    assert limiter.retry_after(account) == pytest.approx(1)
    clock.now += 1
    assert limiter.retry_after(address, account) == 0


def test_the_window_slides() -> None:
    clock = Clock()
    limiter = AttemptLimiter(Limit(failures=2, window=10), clock=clock)
    limiter.failed("k")
    clock.now += 6
    limiter.failed("k")
    assert limiter.retry_after("k") == pytest.approx(4)
    clock.now += 4
    assert limiter.retry_after("k") == 0
    limiter.failed("k")
    assert limiter.retry_after("k") == pytest.approx(6)


def test_success_forgets_and_keys_are_bounded() -> None:
    clock = Clock()
    limiter = AttemptLimiter(Limit(failures=1, window=10), clock=clock, max_keys=3)
    limiter.failed("a")
    limiter.succeeded("a")
    assert limiter.retry_after("a") == 0
    for key in "bcdef":
        limiter.failed(key)
    assert len(limiter) == 3
    assert limiter.retry_after("f") > 0
