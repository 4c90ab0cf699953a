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
        True for a good signature; False for a bad one, and for a key or a
        signature of the wrong length or type (bad input from the network is an
        answer, never an exception).
    """
    if not isinstance(public_key, bytes) or len(public_key) != PUBLIC_KEY_BYTES:
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
