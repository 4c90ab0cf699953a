"""Null is never a value (protocol §3): every optional field of every client
message, and of an action, is refused with ``bad_message`` when sent as nil,
over real sockets. ``{"play": card, "suit": null}`` used to pass as "no suit".

The fields come from the schemas the server checks
(:data:`craits.protocol.messages.SCHEMAS`) and the play's optional fields
(:data:`craits.protocol.vocab.PLAY_FIELDS`), so a field added later is held
to the rule without a word here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.protocol.messages import SCHEMAS
from craits.protocol.vocab import PLAY_FIELDS, ClientMessage
from craits.server.app import Server

from tests.support.server import Player

GOOD: dict[str, Any] = {
    "version": 1,
    "name": "Ana",
    "table": "t",
    "seats": 2,
    "token": "x",
    "id": 1,
    "action": {"draw": True},
    "text": "hi",
    "game": 1,
    "hand": 1,
    "seat": 0,
    "locked": True,
    "key": "ab" * 32,
    "signature": "cd" * 64,
    "server": "localhost:7777",
    "code": "4F7K-Q2MZ",
    "password": "correct horse",
    "device": 1,
}
"""A good value of each field that some message requires."""

OPTIONAL = [
    (kind, field)
    for kind, schema in SCHEMAS.items()
    for field, (_, required) in schema.items()
    if not required
]


def test_every_required_field_has_a_good_value_here() -> None:
    required = {f for schema in SCHEMAS.values() for f, (_, req) in schema.items() if req}
    assert required <= GOOD.keys(), required - GOOD.keys()
    assert len(OPTIONAL) >= 20  # the walk below covers something


def _message(kind: ClientMessage, field: str) -> dict[str, Any]:
    """A ``kind`` message with its required fields good and ``field`` nil."""
    schema = SCHEMAS[kind]
    message: dict[str, Any] = {"type": str(kind)}
    message.update({f: GOOD[f] for f, (_, required) in schema.items() if required})
    message[field] = None
    return message


@pytest.mark.parametrize(("kind", "field"), OPTIONAL, ids=lambda v: str(v))
async def test_an_optional_field_sent_as_nil_is_refused(
    server: Server, kind: ClientMessage, field: str
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    player = Player(Connection(reader, writer), "Ana")  # no hello yet: one may be the test
    try:
        if kind != ClientMessage.HELLO:
            await player.send({"type": "hello", "version": 1, "name": "Ana"})
            await player.expect("welcome")
        await player.send(_message(kind, field))
        reply = await player.expect("error")
        assert reply["code"] == "bad_message", reply
        assert f"{kind}.{field}:" in reply["message"], reply
    finally:
        await player.close()


@pytest.mark.parametrize("field", PLAY_FIELDS)
async def test_a_plays_optional_field_sent_as_nil_is_refused(
    connect: Callable[..., Any], field: str
) -> None:
    """``{"play": "8S", "suit": null}`` is not "no suit", as
    ``{"play": "8S", "announce": null}`` is not "no announcement"."""
    ana = await connect("Ana")
    await ana.send({"type": "act", "id": 7, "action": {"play": "8S", field: None}})
    reply = await ana.expect("error")
    assert reply["code"] == "bad_message" and reply["id"] == 7, reply
    assert f"act.action.{field}:" in reply["message"], reply
