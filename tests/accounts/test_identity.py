"""The Ed25519 login (docs/accounts.md, *Identity*): real keys, real signatures."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from craits.protocol.identity import (
    LOGIN_DOMAIN,
    KeyFileError,
    load_key,
    load_or_create_key,
    login_message,
    public_key_bytes,
    server_identity,
    sign_login,
)
from craits.server.accounts.identity import (
    SMALL_ORDER_Y,
    Challenge,
    NonceSpent,
    is_small_order,
    usable_public_key,
    verify_login,
)
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

IDENTITY = server_identity("play.example.org", 7777)


def test_the_message_is_domain_nonce_identity() -> None:
    nonce = bytes(range(32))
    message = login_message(nonce, IDENTITY)
    assert message == b"craits-login-v1" + nonce + b"play.example.org:7777"
    assert message.startswith(LOGIN_DOMAIN)


def test_server_identity_forms() -> None:
    assert server_identity("Play.Example.org", 7777) == "play.example.org:7777"
    assert server_identity("::1", 7777) == "[::1]:7777"
    fp = "AB:" * 31 + "AB"
    assert server_identity("h", 1, fp) == "h:1#sha256:" + "ab" * 32
    for bad in (("", 1, None), ("h", 0, None), ("h", 70000, None), ("h", 1, "abc")):
        with pytest.raises(ValueError):
            server_identity(*bad)


def test_bad_nonce_lengths_are_refused() -> None:
    with pytest.raises(ValueError):
        login_message(b"short", IDENTITY)
    with pytest.raises(ValueError):
        Challenge(IDENTITY, nonce=b"x" * 31)


def test_a_good_signature_logs_in_once() -> None:
    key = Ed25519PrivateKey.generate()
    challenge = Challenge(IDENTITY)
    signature = sign_login(key, challenge.nonce, IDENTITY)
    assert challenge.verify(public_key_bytes(key), signature)
    assert challenge.spent
    with pytest.raises(NonceSpent):  # the same signature replayed on the connection
        challenge.verify(public_key_bytes(key), signature)


def test_a_wrong_signature_spends_the_nonce_too() -> None:
    key, other = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    challenge = Challenge(IDENTITY)
    forged = sign_login(other, challenge.nonce, IDENTITY)
    assert not challenge.verify(public_key_bytes(key), forged)
    good = sign_login(key, challenge.nonce, IDENTITY)
    with pytest.raises(NonceSpent):
        challenge.verify(public_key_bytes(key), good)


def test_a_signature_is_good_for_its_own_nonce_and_server_only() -> None:
    key = Ed25519PrivateKey.generate()
    public = public_key_bytes(key)
    first, second = Challenge(IDENTITY), Challenge(IDENTITY)
    assert first.nonce != second.nonce
    signature = sign_login(key, first.nonce, IDENTITY)
    assert not second.verify(public, signature)  # replayed on another connection
    elsewhere = Challenge(server_identity("evil.example.org", 7777), nonce=first.nonce)
    assert not elsewhere.verify(public, signature)  # relayed to another server
    tls = server_identity("play.example.org", 7777, "00" * 32)
    assert not verify_login(public, signature, first.nonce, tls)
    assert verify_login(public, signature, first.nonce, IDENTITY)


@pytest.mark.parametrize(
    ("public", "signature"),
    [
        (b"", b""),
        (b"\x00" * 32, b"\x00" * 64),
        (b"k" * 31, b"s" * 64),
        (b"k" * 32, b"s" * 63),
        ("not bytes", b"s" * 64),
        (b"k" * 32, 12345),
    ],
)
def test_garbage_keys_and_signatures_are_refused_not_raised(
    public: object, signature: object
) -> None:
    challenge = Challenge(IDENTITY)
    assert not challenge.verify(public, signature)  # type: ignore[arg-type]


def test_the_key_file_is_made_once_with_mode_0600(tmp_path: Path) -> None:
    directory = tmp_path / "config" / "craits"
    assert load_key(directory) is None
    key = load_or_create_key(directory)
    path = directory / "identity.pem"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_or_create_key(directory)
    assert public_key_bytes(again) == public_key_bytes(key)
    assert [p.name for p in directory.iterdir()] == ["identity.pem"]


def test_a_key_file_readable_by_others_is_refused(tmp_path: Path) -> None:
    load_or_create_key(tmp_path)
    os.chmod(tmp_path / "identity.pem", 0o644)
    with pytest.raises(KeyFileError, match="readable by others"):
        load_or_create_key(tmp_path)


def test_a_key_file_that_is_not_a_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "identity.pem"
    path.write_bytes(b"-----BEGIN PRIVATE KEY-----\nnonsense\n-----END PRIVATE KEY-----\n")
    os.chmod(path, 0o600)
    with pytest.raises(KeyFileError, match="not a private key"):
        load_key(tmp_path)


P = 2**255 - 19
D = (-121665 * pow(121666, -1, P)) % P


def test_the_small_order_points_are_the_curves() -> None:
    """y = 1 (order 1), −1 (order 2), 0 (order 4: x² = −1), and the two order-8
    points, whose double has y = 0: d·y⁴ + 2·y² − 1 = 0."""
    assert {0, 1, P - 1} < SMALL_ORDER_Y and len(SMALL_ORDER_Y) == 5
    for y in SMALL_ORDER_Y - {0, 1, P - 1}:
        assert (D * pow(y, 4, P) + 2 * y * y - 1) % P == 0


def encodings(y: int) -> list[bytes]:
    """A y's encodings: both sign bits, and y + p where that still fits 255 bits."""
    found = []
    for value in (y, y + P):
        if value < 2**255:
            found += [value.to_bytes(32, "little"), (value | 1 << 255).to_bytes(32, "little")]
    return found


def test_small_order_keys_are_refused_whatever_their_encoding() -> None:
    """The all-zero key passes OpenSSL's check with the all-zero signature for
    about one message in four: without this check, a key no one holds."""
    for y in SMALL_ORDER_Y:
        for key in encodings(y):
            assert is_small_order(key) and not usable_public_key(key)
            for _ in range(16):  # each try has a fresh nonce
                assert not Challenge(IDENTITY).verify(key, bytes(64))
    good = public_key_bytes(Ed25519PrivateKey.generate())
    assert usable_public_key(good) and not is_small_order(good)


def test_processes_starting_at_once_keep_one_key(tmp_path: Path) -> None:
    """Several clients' first runs at the same moment (real processes): every one
    ends with the same key, and no partial file is left behind."""
    script = (
        "import sys; from pathlib import Path;"
        "from craits.protocol.identity import load_or_create_key, public_key_bytes;"
        "print(public_key_bytes(load_or_create_key(Path(sys.argv[1]))).hex())"
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path / "cfg")], stdout=subprocess.PIPE
        )
        for _ in range(6)
    ]
    keys = {run.communicate(timeout=60)[0].strip() for run in runs}
    assert all(run.returncode == 0 for run in runs)
    assert len(keys) == 1
    assert [p.name for p in (tmp_path / "cfg").iterdir()] == ["identity.pem"]
