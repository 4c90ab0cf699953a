"""The server's side of the Ed25519 login (docs/accounts.md, *Identity*).

Each connection gets one :class:`Challenge`: a fresh 32-byte nonce, sent to the
client, and the server's identity as that client reached it. The client signs
:func:`craits.protocol.identity.login_message` of the two; the challenge checks
the signature once. Its nonce is spent by that first check, right or wrong: a
second check of the same challenge (a replay, or a second guess) is refused
with :class:`NonceSpent`, and the connection must get a new challenge.
"""

from __future__ import annotations

import secrets

from craits.protocol.identity import (
    NONCE_BYTES,
    PUBLIC_KEY_BYTES,
    SIGNATURE_BYTES,
    login_message,
)
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

_P = 2**255 - 19
"""The field prime of Curve25519 (and so of Ed25519)."""

_ORDER_8_Y = 2707385501144840649318225287225658788936804267575313519463743609750303402022
"""The y of a point of order 8 on Ed25519: a root of d·y⁴ + 2·y² − 1 = 0 (mod p),
the points whose double has y = 0 (tests/accounts/test_identity.py checks it)."""

SMALL_ORDER_Y = frozenset({0, 1, _P - 1, _ORDER_8_Y, _P - _ORDER_8_Y})
"""The y-coordinates of the eight points of small order (1, 2, 4 and 8)."""


def is_small_order(public_key: bytes) -> bool:
    """Whether a 32-byte Ed25519 public key is a point of small order.

    Such a key has no private key behind it, and a signature check against it
    can pass without one: with the all-zero key, the all-zero signature passes
    OpenSSL's check for about one message in four. The y-coordinate is read as
    the encoding holds it (sign bit dropped, reduced mod p, so non-canonical
    encodings of those points are caught too).
    """
    y = int.from_bytes(public_key, "little") & ((1 << 255) - 1)
    return y % _P in SMALL_ORDER_Y


def usable_public_key(public_key: object) -> bool:
    """Whether ``public_key`` may be registered or used to log in: 32 bytes,
    a point on the curve, not of small order."""
    if not isinstance(public_key, bytes) or len(public_key) != PUBLIC_KEY_BYTES:
        return False
    if is_small_order(public_key):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key)
    except ValueError:
        return False
    return True


class NonceSpent(Exception):
    """The challenge's nonce was used already: a login takes a fresh one."""


def verify_login(public_key: bytes, signature: bytes, nonce: bytes, identity: str) -> bool:
    """Whether ``signature`` is ``public_key``'s over the login message.

    Args:
        public_key: the raw Ed25519 public key (32 bytes), as a client sent it.
        signature: the signature (64 bytes), as a client sent it.
        nonce: the server's nonce for the connection (32 bytes).
        identity: the server's identity as the client reached it
            (:func:`craits.protocol.identity.server_identity`).

    Returns:
        True for a good signature; False for a bad one, for a key that is not
        :func:`usable_public_key`, and for a signature of the wrong length or
        type (bad input from the network is an answer, never an exception).
    """
    if not usable_public_key(public_key):
        return False
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(public_key)
        key.verify(signature, login_message(nonce, identity))
    except (InvalidSignature, ValueError):
        return False
    return True


class Challenge:
    """One connection's login challenge: a nonce, spent by its first use.

    Args:
        identity: the server's identity as this connection's client reached it.
        nonce: the nonce (32 bytes); by default fresh from :mod:`secrets`. Tests
            and nothing else pass one.

    Raises:
        ValueError: a nonce that is not 32 bytes.
    """

    def __init__(self, identity: str, nonce: bytes | None = None) -> None:
        if nonce is None:
            nonce = secrets.token_bytes(NONCE_BYTES)
        if len(nonce) != NONCE_BYTES:
            raise ValueError(f"a login nonce is {NONCE_BYTES} bytes")
        self.identity = identity
        self.nonce = nonce
        self._spent = False

    @property
    def spent(self) -> bool:
        """Whether the nonce was used (by a good or a bad signature)."""
        return self._spent

    def verify(self, public_key: bytes, signature: bytes) -> bool:
        """Check a signature over this challenge, spending its nonce.

        Returns:
            Whether the signature is ``public_key``'s (see :func:`verify_login`).

        Raises:
            NonceSpent: this challenge was checked before, whatever the answer.
        """
        if self._spent:
            raise NonceSpent("this login nonce was used already")
        self._spent = True
        return verify_login(public_key, signature, self.nonce, self.identity)
