"""The account flows end to end over a real store (SQLite and PostgreSQL), real
Ed25519 and real argon2id (docs/accounts.md)."""

from __future__ import annotations

import pytest
from craits.protocol.identity import public_key_bytes, server_identity, sign_login
from craits.server.accounts.identity import Challenge
from craits.server.accounts.secrets import PAIRING_TTL, SecretHasher
from craits.server.accounts.service import AccountService, Refused
from craits.server.accounts.store import AccountStore
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

IDENTITY = server_identity("127.0.0.1", 7777)


class Clock:
    """Settable seconds (both the wall clock and the limiters' clock here)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(store: AccountStore, hasher: SecretHasher, clock: Clock) -> AccountService:
    return AccountService(store, hasher, clock=clock, monotonic=clock)


class Device:
    """A client's key, signing each new connection's challenge."""

    def __init__(self) -> None:
        self.key = Ed25519PrivateKey.generate()
        self.public = public_key_bytes(self.key)

    def connect(self) -> tuple[Challenge, bytes]:
        challenge = Challenge(IDENTITY)
        return challenge, sign_login(self.key, challenge.nonce, IDENTITY)


async def refused(reason: str, call: object) -> Refused:
    with pytest.raises(Refused) as caught:
        await call  # type: ignore[misc]
    assert caught.value.reason == reason
    return caught.value


async def test_register_then_log_in_on_a_later_connection(service: AccountService) -> None:
    laptop = Device()
    challenge, signature = laptop.connect()
    registered = await service.register(challenge, "Maria", laptop.public, signature, "laptop")
    assert len(registered.recovery_codes) == 10 and registered.device.label == "laptop"
    challenge, signature = laptop.connect()
    account, device = await service.login(challenge, laptop.public, signature)
    assert account.id == registered.account.id and device.id == registered.device.id
    again = await service.store.accounts.by_id(account.id)
    assert again is not None and again.last_seen is not None


async def test_forged_and_replayed_signatures_are_refused(service: AccountService) -> None:
    laptop, thief = Device(), Device()
    challenge, signature = laptop.connect()
    await service.register(challenge, "maria", laptop.public, signature, "laptop")
    challenge, _ = laptop.connect()
    forged = sign_login(thief.key, challenge.nonce, IDENTITY)
    await refused("bad_signature", service.login(challenge, laptop.public, forged))
    challenge, signature = laptop.connect()
    await service.login(challenge, laptop.public, signature)
    await refused("bad_signature", service.login(challenge, laptop.public, signature))  # replay
    fresh, _ = laptop.connect()
    await refused("bad_signature", service.login(fresh, laptop.public, signature))  # other nonce
    challenge, signature = thief.connect()
    await refused("unknown_key", service.login(challenge, thief.public, signature))


async def test_a_registered_name_cannot_be_taken_by_another_key(service: AccountService) -> None:
    first, second = Device(), Device()
    challenge, signature = first.connect()
    await service.register(challenge, "Maria", first.public, signature, "laptop")
    for other in ("maria", "MARIA", "ｍａｒｉａ"):
        challenge, signature = second.connect()
        await refused(
            "name_taken", service.register(challenge, other, second.public, signature, "x")
        )
    challenge, signature = second.connect()
    await refused("invalid_name", service.register(challenge, " ", second.public, signature, "x"))
    challenge, signature = first.connect()
    await refused("key_in_use", service.register(challenge, "other", first.public, signature, "x"))


async def test_pairing_adds_a_device_once_and_expires(
    service: AccountService, clock: Clock
) -> None:
    laptop, phone, tablet = Device(), Device(), Device()
    challenge, signature = laptop.connect()
    registered = await service.register(challenge, "maria", laptop.public, signature, "laptop")
    code = await service.start_pairing(registered.account.id)
    challenge, signature = phone.connect()
    typed = code.lower().replace("-", " ")
    account, device = await service.pair(
        challenge, "Maria", typed, phone.public, signature, "phone", "198.51.100.7"
    )
    assert account.id == registered.account.id and device.label == "phone"
    challenge, signature = phone.connect()
    assert (await service.login(challenge, phone.public, signature))[0].id == account.id
    challenge, signature = tablet.connect()  # the same code again: spent
    await refused(
        "bad_code",
        service.pair(challenge, "maria", code, tablet.public, signature, "t", "198.51.100.7"),
    )
    late = await service.start_pairing(registered.account.id)
    clock.now += PAIRING_TTL
    challenge, signature = tablet.connect()
    await refused(
        "bad_code",
        service.pair(challenge, "maria", late, tablet.public, signature, "t", "198.51.100.7"),
    )


async def test_a_revoked_device_cannot_log_in(service: AccountService) -> None:
    laptop, phone = Device(), Device()
    challenge, signature = laptop.connect()
    registered = await service.register(challenge, "maria", laptop.public, signature, "laptop")
    code = await service.start_pairing(registered.account.id)
    challenge, signature = phone.connect()
    _, device = await service.pair(challenge, "maria", code, phone.public, signature, "phone", "a")
    assert await service.store.accounts.revoke_device(registered.account.id, device.id, 0.0)
    challenge, signature = phone.connect()
    await refused("unknown_key", service.login(challenge, phone.public, signature))


async def test_a_recovery_code_adds_a_device_once(service: AccountService) -> None:
    lost, new = Device(), Device()
    challenge, signature = lost.connect()
    registered = await service.register(challenge, "maria", lost.public, signature, "laptop")
    code = registered.recovery_codes[4]
    challenge, signature = new.connect()
    await service.recover(challenge, "maria", code, new.public, signature, "new laptop", "a")
    other = Device()
    challenge, signature = other.connect()
    await refused(
        "bad_code", service.recover(challenge, "maria", code, other.public, signature, "x", "a")
    )
    challenge, signature = other.connect()  # a pairing code is not a recovery code, nor the reverse
    await refused(
        "bad_code",
        service.pair(
            challenge, "maria", registered.recovery_codes[5], other.public, signature, "x", "a"
        ),
    )


async def test_wrong_codes_are_limited_per_address_and_per_account(
    service: AccountService, clock: Clock
) -> None:
    laptop, guesser = Device(), Device()
    challenge, signature = laptop.connect()
    registered = await service.register(challenge, "maria", laptop.public, signature, "laptop")
    code = await service.start_pairing(registered.account.id)
    for i in range(10):
        challenge, signature = guesser.connect()
        await refused(
            "bad_code",
            service.pair(
                challenge, "maria", f"WRONG{i:03}", guesser.public, signature, "x", "203.0.113.5"
            ),
        )
    challenge, signature = guesser.connect()  # even the right code, from that address
    wait = await refused(
        "too_many_attempts",
        service.pair(challenge, "maria", code, guesser.public, signature, "x", "203.0.113.5"),
    )
    assert wait.retry_after > 0
    for i in range(10):  # a second address, until the account's own limit (20)
        challenge, signature = guesser.connect()
        await refused(
            "bad_code",
            service.pair(
                challenge, "maria", f"AGAIN{i:03}", guesser.public, signature, "x", "203.0.113.6"
            ),
        )
    challenge, signature = guesser.connect()
    await refused(
        "too_many_attempts",
        service.pair(challenge, "maria", code, guesser.public, signature, "x", "192.0.2.1"),
    )
    clock.now += 3600  # an hour later: the code has expired, the limits have passed
    challenge, signature = guesser.connect()
    await refused(
        "bad_code",
        service.pair(challenge, "maria", code, guesser.public, signature, "x", "192.0.2.1"),
    )


async def test_passwords_for_browser_visitors(service: AccountService) -> None:
    laptop = Device()
    challenge, signature = laptop.connect()
    registered = await service.register(challenge, "maria", laptop.public, signature, "laptop")
    await refused(
        "bad_password", service.password_login("maria", "anything at all", "a")
    )  # none set
    await refused("invalid_password", service.set_password(registered.account.id, "short"))
    await service.set_password(registered.account.id, "correct horse battery")
    stored = await service.store.accounts.password_hash(registered.account.id)
    assert stored is not None and "correct horse" not in stored
    assert (
        await service.password_login("MARIA", "correct horse battery", "a")
    ).id == registered.account.id
    await refused("bad_password", service.password_login("maria", "wrong horse battery", "a"))
    await refused("bad_password", service.password_login("nobody", "correct horse battery", "a"))
    for _ in range(8):
        await refused("bad_password", service.password_login("maria", "wrong horse battery", "a"))
    await refused(
        "too_many_attempts", service.password_login("maria", "correct horse battery", "a")
    )
    await service.set_password(registered.account.id, None)
    await refused("bad_password", service.password_login("maria", "correct horse battery", "b"))


async def test_malformed_requests_get_a_refusal_not_a_crash(service: AccountService) -> None:
    """What a broken or hostile client may send where text is expected."""
    laptop, phone = Device(), Device()
    challenge, signature = laptop.connect()
    registered = await service.register(challenge, "maria", laptop.public, signature, 12345)  # type: ignore[arg-type]
    assert registered.device.label == "device"
    for code in (None, 42, "x" * 10_000):
        challenge, signature = phone.connect()
        await refused(
            "bad_code", service.pair(challenge, "maria", code, phone.public, signature, "p", "a")
        )  # type: ignore[arg-type]
    for name in (None, 42, ""):
        challenge, signature = phone.connect()
        await refused(
            "bad_code", service.recover(challenge, name, "ABCD", phone.public, signature, "p", "b")
        )  # type: ignore[arg-type]
    await refused("invalid_password", service.set_password(registered.account.id, 42))  # type: ignore[arg-type]
    await refused("bad_password", service.password_login("maria", None, "c"))  # type: ignore[arg-type]
    challenge, signature = phone.connect()
    await refused("invalid_name", service.register(challenge, None, phone.public, signature, "p"))  # type: ignore[arg-type]
    challenge, _ = phone.connect()
    await refused("bad_signature", service.login(challenge, phone.public, "not bytes"))  # type: ignore[arg-type]
