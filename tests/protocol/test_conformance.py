"""The types of ``craits.protocol.types`` are what a real server sends.

A real server on a loopback port, real connections: a game played out to its
end with bots, a spectator, chat, a refusal, records, a resume that replaces
a connection, leaving, a table closing, and a turn timeout answered with
``back``. Every message received is read with ``parse_server_message`` and
checked, key by key and value by value, against its TypedDict.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import typing
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.protocol.identity import public_key_bytes, server_identity, sign_login
from craits.protocol.messages import parse_server_message
from craits.protocol.types import (
    SERVER_MESSAGE_TYPES,
    LegalAction,
    ServerMsg,
    UpdateMsg,
    View,
    action_map,
)
from craits.protocol.vocab import EventKind, Phase, ServerMessage
from craits.server.accounts.secrets import FOR_TESTS
from craits.server.app import Server, ServerConfig
from craits.server.net.analysis_requests import AnalysisDesk, use_desk
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.protocol.shapes import problems

STAGE = 20.0
"""Seconds any one stage may take (generous: the machine is shared)."""


class Peer:
    """A connection that checks every message it receives against the types."""

    def __init__(self, conn: Connection, seen: Counter[str], events: Counter[str]) -> None:
        self.conn = conn
        self.seen = seen
        self.events = events
        self.view: View | None = None
        self.seq = 0
        self.token = ""
        self.seat: int | None = None
        self._id = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.conn.send(message)

    async def recv(self) -> ServerMsg:
        message = await self.conn.recv_message()
        assert not problems(message, SERVER_MESSAGE_TYPES[ServerMessage(message["type"])]), (
            problems(message, SERVER_MESSAGE_TYPES[ServerMessage(message["type"])]),
            message,
        )
        assert not problems(message, ServerMsg)
        self.seen[message["type"]] += 1
        if message["type"] == ServerMessage.UPDATE:
            self.events.update(e["event"] for e in message["events"])
            self.view, self.seq = message["view"], message["seq"]
        elif message["type"] == ServerMessage.STATE:
            self.view, self.seq = message["view"], message["seq"]
        elif message["type"] == ServerMessage.JOINED:
            self.token, self.seat = message["token"], message["seat"]
        return message

    async def expect(self, kind: ServerMessage, where: Callable[[Any], bool] | None = None) -> Any:
        async with asyncio.timeout(STAGE):
            while True:
                message = await self.recv()
                if message["type"] == kind and (where is None or where(message)):
                    return message

    async def act(self, entry: LegalAction) -> int:
        self._id += 1
        await self.send(
            {"type": "act", "id": self._id, "action": action_map(entry), "seq": self.seq}
        )
        return self._id

    def my_legal(self) -> list[LegalAction]:
        view = self.view
        if view is None or view["phase"] != Phase.PLAY:
            return []
        return view["legal"]


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        analyse_finished=0,  # no background analyses (their own tests turn them on)
        # Eve says nothing while a whole game is played (~10 s on a busy
        # machine): two silent heartbeats of 5 s dropped her (§4.2)
        heartbeat=60.0,
        turn_timeout=0.0,
        min_turn_timeout=0.0,  # its clock table times out in 0.8 s
        hand_pause=0.01,
        bot_delay=0.0,
        away_delay=0.5,
        rate=100_000.0,
        burst=100_000.0,
        data_dir=tmp_path,
        account_hashing=FOR_TESTS,
    )
    srv = Server(config)
    use_desk(srv, AnalysisDesk(budget=300))  # a quick analysis: its shape is what is checked
    await srv.start()
    yield srv
    await srv.stop()


@pytest.fixture
async def peers(server: Server) -> AsyncIterator[Callable[[str], Any]]:
    seen: Counter[str] = Counter()
    events: Counter[str] = Counter()
    opened: list[Peer] = []

    async def open_peer(name: str) -> Peer:
        conn = await Connection.open("127.0.0.1", server.port, name=name)
        assert not problems(parse_server_message(conn.welcome), ServerMsg)
        seen["welcome"] += 1
        peer = Peer(conn, seen, events)
        opened.append(peer)
        return peer

    open_peer.seen = seen  # type: ignore[attr-defined]
    open_peer.events = events  # type: ignore[attr-defined]
    yield open_peer
    for peer in opened:
        await peer.conn.close()


async def ask_hint(ana: Peer) -> bool:
    """Ana asks for a hint (§7.6): True when one comes, False when she has nothing
    to decide (a draw she cannot avoid)."""
    await ana.send({"type": "hint"})
    async with asyncio.timeout(STAGE):
        while True:
            message = await ana.recv()
            if message["type"] == ServerMessage.HINT:
                assert message["hint"]["seat"] == ana.seat and message["hint"]["choices"]
                return True
            if message["type"] == ServerMessage.ERROR:
                assert message["code"] == "nothing_to_decide", message
                return False


async def play_out(ana: Peer, stale_once: bool = True) -> UpdateMsg:
    """Ana takes her first legal action whenever she has one, until the game is
    over; she asks for a hint until she gets one."""
    refused = not stale_once
    hinted = False
    async with asyncio.timeout(STAGE * 2):
        while True:
            message = await ana.recv()
            if message["type"] == ServerMessage.UPDATE:
                ended = [e for e in message["events"] if e["event"] == EventKind.HAND_ENDED]
                if ended and ended[-1]["game_over"]:
                    return message
            if message["type"] in (ServerMessage.UPDATE, ServerMessage.STATE) and ana.my_legal():
                if not refused:
                    refused = True
                    ana._id += 1
                    stale = {"draw": True}
                    await ana.send({"type": "act", "id": ana._id, "action": stale, "seq": 0})
                    await ana.expect(ServerMessage.ERROR, lambda m: m.get("id") == ana._id)
                if not hinted and ana.my_legal():
                    hinted = await ask_hint(ana)
                if ana.my_legal():  # the game waits for her: act on the newest view
                    await ana.act(ana.my_legal()[0])


@pytest.mark.timeout(900)  # a hint and an analysis in worker processes, on 2 busy cores
async def test_every_message_of_a_whole_session_fits_its_type(
    peers: Callable[[str], Any],
) -> None:
    ana: Peer = await peers("Ana")
    await ana.send({"type": "list_tables", "watch": True})
    await ana.expect(ServerMessage.TABLES)
    await ana.send({"type": "ping", "nonce": 5})
    assert (await ana.expect(ServerMessage.PONG))["nonce"] == 5
    rules = {"short_game": True, "play_drawn_card": True, "face_cards": True}
    await ana.send({"type": "create_table", "name": "conf", "seats": 3, "rules": rules})
    await ana.expect(ServerMessage.TABLE_CREATED)
    await ana.send({"type": "join", "table": "conf", "name": "Ana"})
    await ana.expect(ServerMessage.STATE)

    eve: Peer = await peers("Eve")
    await eve.send({"type": "spectate", "table": "conf"})
    await eve.expect(ServerMessage.STATE, lambda m: m["seat"] is None)
    await ana.send({"type": "chat", "text": "gl hf"})
    await eve.expect(ServerMessage.CHAT)
    # Eve goes now: a spectator who reads nothing while the game is played out
    # falls behind by a whole game's updates, and the server drops her (§4.5)
    await eve.send({"type": "leave"})
    await eve.expect(ServerMessage.LEFT)
    await ana.send({"type": "add_bot", "level": "random"})
    await ana.send({"type": "add_bot"})
    last = await play_out(ana)
    assert last["view"]["phase"] == Phase.GAME_OVER

    await ana.send({"type": "list_records"})
    records = await ana.expect(ServerMessage.RECORDS)
    assert records["games"]
    await ana.send({"type": "get_record", "game": records["games"][0]["id"]})
    record = await ana.expect(ServerMessage.RECORD)
    assert record["record"]["complete"]
    await ana.send({"type": "get_replay", "game": records["games"][0]["id"], "hand": 1})
    replay = await ana.expect(ServerMessage.REPLAY)
    assert replay["frames"] and replay["total"] >= len(replay["frames"])
    await ana.send({"type": "analysis", "game": records["games"][0]["id"], "seat": 0})
    assert (await ana.expect(ServerMessage.ANALYSIS))["state"] == "running"
    async with asyncio.timeout(600):  # the analysis, in a worker process, on a busy machine
        done = await ana.conn.recv_message()
    assert done["type"] == ServerMessage.ANALYSIS and done["state"] == "ready", done
    assert not problems(done, SERVER_MESSAGE_TYPES[ServerMessage.ANALYSIS])
    analysed = json.loads(done["analysis"])
    assert analysed["format"] == "craits-analysis" and analysed["decisions"]
    assert {e["seat"] for e in analysed["decisions"]} == {0}
    ana.seen[ServerMessage.ANALYSIS] += 1

    ben: Peer = await peers("Ben")
    await ben.send({"type": "resume", "token": ana.token})
    await ben.expect(ServerMessage.RESUMED)
    await ben.expect(ServerMessage.STATE)
    await ana.expect(ServerMessage.ERROR, lambda m: m["code"] == "replaced")
    await ben.send({"type": "leave"})
    await ben.expect(ServerMessage.LEFT)
    await ana.expect(ServerMessage.TABLE_CLOSED, lambda m: m["name"] == "conf")

    # a turn timeout, then away play, then back: a deadline
    carl: Peer = await peers("Carl")
    dana: Peer = await peers("Dana")
    await carl.send({"type": "create_table", "name": "clock", "seats": 3, "turn_timeout_ms": 800})
    await carl.expect(ServerMessage.TABLE_CREATED)
    await carl.send({"type": "join", "table": "clock", "name": "Carl"})
    await carl.expect(ServerMessage.JOINED)
    await dana.send({"type": "join", "table": "clock", "name": "Dana"})
    await dana.expect(ServerMessage.JOINED)
    await carl.send({"type": "add_bot"})
    await carl_times_out_and_comes_back(carl, dana)

    # a private table (protocol §11.9): its code, to its creator; its lobby entry
    fay: Peer = await peers("Fay")
    await fay.send({"type": "create_table", "name": "hush", "seats": 3, "private": True})
    code = (await fay.expect(ServerMessage.TABLE_CREATED))["code"]
    await fay.send({"type": "join", "table": "hush", "name": "Fay"})
    assert (await fay.expect(ServerMessage.INVITE))["code"] == code
    await dana.send({"type": "list_tables"})
    await dana.expect(ServerMessage.TABLES)
    await fay.send({"type": "lock", "locked": True})
    await fay.expect(ServerMessage.TABLE_INFO, lambda m: m["table"]["locked"])
    # the games a player holds a seat at (§11.11)
    await fay.send({"type": "my_games", "tokens": ["not-a-token"]})
    assert (await fay.expect(ServerMessage.GAMES))["games"] == []

    await accounts(peers)

    seen: Counter[str] = peers.seen  # type: ignore[attr-defined]
    events: Counter[str] = peers.events  # type: ignore[attr-defined]
    # a single server never redirects: tests/server/test_cluster.py checks `redirect`
    assert set(ServerMessage) - set(seen) == {ServerMessage.PING, ServerMessage.REDIRECT}, seen
    assert {"cut", "dealt", "turned_up", "played", "drew", "hand_ended"} <= set(events), events


def signed(peer: Peer, key: Ed25519PrivateKey, nonce: str) -> dict[str, str]:
    """A signed request's fields: ``key`` signs ``nonce`` for the server the peer reached."""
    identity = server_identity("127.0.0.1", peer.conn.writer.get_extra_info("peername")[1])
    signature = sign_login(key, bytes.fromhex(nonce), identity)
    return {"key": public_key_bytes(key).hex(), "signature": signature.hex(), "server": identity}


async def accounts(peers: Callable[[str], Any]) -> None:
    """Every account message (§7.5): register, login, pairing, devices,
    passwords, profile, history, leaderboard."""
    gus: Peer = await peers("Gus")
    key = Ed25519PrivateKey.generate()
    await gus.send(
        {"type": "register", "name": "Gus", **signed(gus, key, gus.conn.welcome["nonce"])}
    )
    registered = await gus.expect(ServerMessage.REGISTERED)
    await gus.send({"type": "challenge"})
    await gus.expect(ServerMessage.CHALLENGE)
    await gus.send({"type": "pair_start"})
    code = (await gus.expect(ServerMessage.PAIRING_CODE))["code"]
    phone: Peer = await peers("Gus")
    other = Ed25519PrivateKey.generate()
    nonce = phone.conn.welcome["nonce"]
    await phone.send(
        {"type": "pair_finish", "name": "Gus", "code": code, **signed(phone, other, nonce)}
    )
    paired = await phone.expect(ServerMessage.LOGGED_IN)
    await gus.send({"type": "revoke_device", "device": paired["device"]})
    await gus.expect(ServerMessage.DEVICES)
    await gus.send({"type": "devices"})
    await gus.expect(ServerMessage.DEVICES)
    again: Peer = await peers("Gus")
    await again.send({"type": "login", **signed(again, key, again.conn.welcome["nonce"])})
    assert (await again.expect(ServerMessage.LOGGED_IN))["device"] == registered["device"]
    await gus.send({"type": "set_password", "password": "a long password"})
    await gus.expect(ServerMessage.PASSWORD_SET)
    visitor: Peer = await peers("v")
    await visitor.send({"type": "password_login", "name": "Gus", "password": "a long password"})
    await visitor.expect(ServerMessage.LOGGED_IN)
    await gus.send({"type": "profile"})
    await gus.expect(ServerMessage.PROFILE)
    await gus.send({"type": "history", "name": "Gus"})
    await gus.expect(ServerMessage.HISTORY)
    await gus.send({"type": "leaderboard"})
    await gus.expect(ServerMessage.LEADERBOARD)


async def carl_times_out_and_comes_back(carl: Peer, dana: Peer) -> None:
    """Dana plays at once; Carl never does until the server has played for him
    (a ``timeout`` notice), then says ``back`` when his seat is to act again."""

    async def dana_plays() -> None:
        while True:
            message = await dana.recv()
            if message["type"] in (ServerMessage.UPDATE, ServerMessage.STATE) and dana.my_legal():
                await dana.act(dana.my_legal()[0])

    dana_task = asyncio.create_task(dana_plays())
    away = False
    try:
        async with asyncio.timeout(STAGE * 2):
            while True:
                message = await carl.recv()
                if message["type"] != ServerMessage.UPDATE:
                    continue
                notice = message.get("notice")
                if notice is not None and notice["seat"] == carl.seat:
                    away = True
                view = message["view"]
                if away and view["phase"] == Phase.PLAY and view["to_act"] == view["seat"]:
                    await carl.send({"type": "back"})
                    deadline = await carl.expect(ServerMessage.DEADLINE)
                    assert deadline["deadline_ms"] is not None
                    return
    finally:
        dana_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await dana_task


def test_the_checker_finds_what_is_wrong() -> None:
    """The check is real: it names a missing key, a key too many, a wrong code,
    a wrong type deep inside, a bool for an int."""
    good = {"type": "ok", "id": 3}
    assert problems(good, ServerMsg) == []
    assert problems({"type": "ok"}, SERVER_MESSAGE_TYPES[ServerMessage.OK])
    assert problems({"type": "ok", "id": 3, "x": 1}, SERVER_MESSAGE_TYPES[ServerMessage.OK])
    assert problems({"type": "ok", "id": True}, ServerMsg)
    error = {"type": "error", "code": "no_such_code", "message": "m"}
    assert problems(error, SERVER_MESSAGE_TYPES[ServerMessage.ERROR])
    table = {"type": "table_closed", "name": 5}
    assert problems(table, ServerMsg)
    chat = {"type": "chat", "table": "t", "name": "n", "seat": None, "text": "x"}
    assert problems(chat, ServerMsg) == []
    assert problems({**chat, "seat": "0"}, ServerMsg)
    assert typing.get_args(ServerMsg)
