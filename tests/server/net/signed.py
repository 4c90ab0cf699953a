"""A test client with an Ed25519 key, over a real connection (protocol §7.5)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from craits.protocol.client import Connection
from craits.protocol.identity import public_key_bytes, server_identity, sign_login
from craits.server.accounts.secrets import FOR_TESTS
from craits.server.app import Server, ServerConfig
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.support.server import Player

PASSED_OVER = frozenset({"table_info", "update", "state", "chat", "deadline", "tables"})
"""What a table sends a member that :meth:`Device.ask` reads past."""


def fast_hashing(config: ServerConfig) -> ServerConfig:
    """``config`` with argon2id at its test cost."""
    config.account_hashing = FOR_TESTS
    return config


class Device:
    """A test client with a key: a real connection that signs its nonce."""

    def __init__(self, player: Player, port: int, key: Ed25519PrivateKey | None = None) -> None:
        self.player = player
        self.key = key or Ed25519PrivateKey.generate()
        self.nonce = bytes.fromhex(player.conn.welcome["nonce"])
        self.identity = server_identity("127.0.0.1", port)

    def signed(self, nonce: bytes | None = None, identity: str | None = None) -> dict[str, str]:
        """The key, a signature over ``nonce`` (the connection's), and the identity."""
        identity = identity or self.identity
        signature = sign_login(self.key, nonce or self.nonce, identity)
        return {
            "key": public_key_bytes(self.key).hex(),
            "signature": signature.hex(),
            "server": identity,
        }

    async def ask(self, message: dict[str, Any], reply: str) -> dict[str, Any]:
        """Send ``message``; its reply, ``reply`` or an error (the table's
        messages between are read and passed over)."""
        await self.player.send(message)
        async with asyncio.timeout(20.0):
            while True:
                got = await self.player.recv(20.0)
                if got["type"] in (reply, "error"):
                    return got
                assert got["type"] in PASSED_OVER, got

    async def challenge(self) -> None:
        got = await self.ask({"type": "challenge"}, "challenge")
        self.nonce = bytes.fromhex(got["nonce"])

    async def register(self, name: str) -> dict[str, Any]:
        message = {"type": "register", "name": name, **self.signed(), "device": "laptop"}
        return await self.ask(message, "registered")

    async def login(self) -> dict[str, Any]:
        return await self.ask({"type": "login", **self.signed()}, "logged_in")


async def devices(server: Server) -> AsyncIterator[Callable[..., Any]]:
    """Open :class:`Device` connections to ``server``; all closed at the end."""
    opened: list[Player] = []

    async def _device(name: str = "p", key: Ed25519PrivateKey | None = None) -> Device:
        conn = await Connection.open("127.0.0.1", server.port, name=name)
        player = Player(conn, name)
        opened.append(player)
        return Device(player, server.port, key)

    yield _device
    for p in opened:
        await p.close()


def error(reply: dict[str, Any], code: str) -> None:
    """``reply`` is the error ``code``."""
    assert reply["type"] == "error" and reply["code"] == code, reply
