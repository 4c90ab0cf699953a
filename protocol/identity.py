"""A player's identity: the Ed25519 key pair and the login message it signs.

Shared by both sides (docs/accounts.md, *Identity*): the client builds the
message and signs it with the key it keeps in a file; the server builds the same
message and checks the signature (``craits.server.accounts.identity``).

**The login message** is domain-separated and bound to one connection::

    b"craits-login-v1" ‖ nonce (32 bytes) ‖ server identity (UTF-8)

* the domain, 15 fixed bytes, keeps a login signature from ever being valid as
  anything else the key might sign later (a new version gets a new domain);
* the nonce is the server's, fresh for each connection and spent by its first
  use, so a signature is good for one connection only;
* the server identity is the server as the client reached it
  (:func:`server_identity`: ``host:port``, and ``#sha256:<fingerprint>`` when
  TLS is on), so a signature made for one server cannot be relayed to another.

Domain and nonce have fixed lengths, so the message splits one way only.

**The key file** (:func:`load_or_create_key`) holds the private key as
unencrypted PKCS#8 PEM, made once, mode 0600, in a directory the caller names
(the terminal client's config directory). This module imports no Textual and
nothing of the server or the client.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

LOGIN_DOMAIN = b"craits-login-v1"
"""The first bytes of every login message (15 bytes)."""

NONCE_BYTES = 32
"""The length of the server's login nonce."""

PUBLIC_KEY_BYTES = 32
"""The length of a raw Ed25519 public key."""

SIGNATURE_BYTES = 64
"""The length of an Ed25519 signature."""

KEY_FILE_NAME = "identity.pem"
"""The key file's name in its directory."""

KEY_FILE_MODE = 0o600
"""The key file's permissions: its owner reads and writes it, nobody else."""


class KeyFileError(Exception):
    """The key file exists but cannot be used (unreadable, not an Ed25519 key,
    or readable by others than its owner)."""


def server_identity(host: str, port: int, fingerprint: str | None = None) -> str:
    """The server as the client reached it, as the login message holds it.

    Args:
        host: the host name or address the client connected to, as typed (an
            IPv6 address without brackets; it is bracketed here).
        port: the TCP port, 1–65535.
        fingerprint: the SHA-256 of the server's TLS certificate (64 hex digits,
            any case) when TLS is on, else None.

    Returns:
        ``host:port`` or ``host:port#sha256:<64 lowercase hex digits>``; the host
        is lowercased (host names are case-insensitive).

    Raises:
        ValueError: an empty host, a port out of range, or a fingerprint that
            is not 64 hex digits.
    """
    host = host.strip().lower()
    if not host:
        raise ValueError("empty host")
    if not 1 <= port <= 65535:
        raise ValueError(f"port out of range: {port}")
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    text = f"{host}:{port}"
    if fingerprint is not None:
        digits = fingerprint.replace(":", "").lower()
        if len(digits) != 64 or any(c not in "0123456789abcdef" for c in digits):
            raise ValueError("a TLS fingerprint is 64 hex digits")
        text += f"#sha256:{digits}"
    return text


def login_message(nonce: bytes, identity: str) -> bytes:
    """The bytes a login or registration signs (see the module's docstring).

    Args:
        nonce: the server's nonce for this connection, :data:`NONCE_BYTES` long.
        identity: :func:`server_identity` of the server as the client reached it.

    Raises:
        ValueError: the nonce is not 32 bytes, or the identity is empty.
    """
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"a login nonce is {NONCE_BYTES} bytes, not {len(nonce)}")
    if not identity:
        raise ValueError("empty server identity")
    return LOGIN_DOMAIN + nonce + identity.encode("utf-8")


def public_key_bytes(key: Ed25519PrivateKey | Ed25519PublicKey) -> bytes:
    """The raw 32-byte public key of ``key`` (what the wire and the store hold)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def sign_login(key: Ed25519PrivateKey, nonce: bytes, identity: str) -> bytes:
    """Sign the login message for ``nonce`` and ``identity``: 64 bytes.

    Raises:
        ValueError: as :func:`login_message`.
    """
    return key.sign(login_message(nonce, identity))


def key_path(directory: Path) -> Path:
    """Where :func:`load_or_create_key` keeps the key in ``directory``."""
    return directory / KEY_FILE_NAME


def load_key(directory: Path) -> Ed25519PrivateKey | None:
    """The key kept in ``directory``, or None when there is none yet.

    Raises:
        KeyFileError: the file is there but readable by group or others, not a
            PEM private key, or not an Ed25519 key.
    """
    path = key_path(directory)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise KeyFileError(f"{path}: {exc.strerror}") from exc
    if os.name == "posix" and path.stat().st_mode & 0o077:
        raise KeyFileError(f"{path} is readable by others: chmod 600 it (or remove it)")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise KeyFileError(f"{path} is not a private key") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path} is not an Ed25519 key")
    return key


def load_or_create_key(directory: Path) -> Ed25519PrivateKey:
    """The key kept in ``directory``, made there first if there is none.

    The directory is made (mode 0700) if missing; the file is created
    exclusively with mode 0600 before a byte is written, so the key is never
    readable by others, and two processes starting at once keep one key (the
    loser of the race reads the winner's).

    Raises:
        KeyFileError: as :func:`load_key`.
        OSError: the directory or the file cannot be made.
    """
    key = load_key(directory)
    if key is not None:
        return key
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    path = key_path(directory)
    partial = path.with_name(f".{KEY_FILE_NAME}.{os.getpid()}.tmp")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, KEY_FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
            out.flush()
            os.fsync(out.fileno())
        with contextlib.suppress(FileExistsError):  # another process made one meanwhile
            os.link(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    kept = load_key(directory)
    if kept is None:  # pragma: no cover - removed between link and read
        raise KeyFileError(f"{path} vanished while it was made")
    return kept
