"""``craits-bot`` over real TCP: whole games against a real server, ids, and clean errors."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from importlib.metadata import entry_points
from typing import Any

import pytest
from craits.protocol.vocab import (
    CONNECTION_CLOSING_ERRORS,
    LOST_RACE_ERRORS,
    SEAT_LOST_ERRORS,
    ErrorCode,
)
from craits.protocol.vocab import TURN_ACTIONS as TURN_KEYS
from craits.protocol.wire import MAX_SERVER_FRAME, decode, encode, frame_length
from craits.server.app import Server, ServerConfig
from craits.server.bots.network.bot import (
    FATAL_CODES,
    IDLESS_ACT_CODES,
    RACE_CODES,
    BotClient,
    BotStats,
    connect_bot,
)
from craits.server.errors import BotError

pytestmark = pytest.mark.timeout(60)


def _record_acts(bot: BotClient, sent: list[dict[str, Any]]) -> None:
    """Keep a copy of every ``act`` the bot sends."""
    send = bot.link.send

    def spy(message: dict[str, Any]) -> None:
        if message.get("type") == "act":
            sent.append(message)
        send(message)

    bot.link.send = spy  # type: ignore[method-assign]


async def test_two_network_bots_play_a_whole_short_game(server: Server) -> None:
    """One bot creates a two-seat short-game table, another joins; both see the end."""
    stats = BotStats()
    lines: list[str] = []
    ana = BotClient(
        "t1",
        "Ana",
        level="basic",
        think=0,
        create=2,
        rules={"short_game": True},
        rng=random.Random(1),
        stats=stats,
        say=lines.append,
    )
    ben = BotClient("t1", "Ben", level="random", think=0, rng=random.Random(2), stats=stats)
    acts: dict[str, list[dict[str, Any]]] = {"Ana": [], "Ben": []}
    await connect_bot("127.0.0.1", server.port, ana)
    _record_acts(ana, acts["Ana"])
    await ana.joined
    await connect_bot("127.0.0.1", server.port, ben)
    _record_acts(ben, acts["Ben"])
    assert await asyncio.wait_for(ana.done, 30) == 0
    assert await asyncio.wait_for(ben.done, 30) == 0
    for bot in (ana, ben):
        assert bot.view is not None and bot.view["phase"] == "game_over"
        assert bot.view["hand_number"] == 8
        assert bot.games_played == 1
    assert ana.view is not None and ben.view is not None
    assert ana.view["scores"] == ben.view["scores"]
    assert stats.errors == {} and stats.dropped == 0
    assert stats.moves == len(stats.rtts) > 50
    sent = acts["Ana"] + acts["Ben"]
    # A bot stops reading at the game-over update: an off-turn call ("one card",
    # idiot) it sent as the other's last play ended the game is never answered.
    # That is the only act that may go unanswered: its bot's last, not a turn's.
    unanswered = 0
    for bot in (ana, ben):
        if bot.in_flight.pending is not None and not bot.in_flight.acked:
            last = acts[bot.name][-1]
            assert last["id"] == bot.in_flight.pending, (bot.name, last)
            assert not any(k in last["action"] for k in TURN_KEYS), (bot.name, last)
            unanswered += 1
    assert stats.moves == len(sent) - sum(stats.races.values()) - unanswered
    # A seat never reuses an action id; actions never carry the seat.
    for mine in acts.values():
        ids = [a["id"] for a in mine]
        assert len(set(ids)) == len(ids)
    assert all("seat" not in a["action"] for a in sent)
    assert any("game over" in line for line in lines)


class TestPracticeTable:
    """A server started like ``craits-server --bots 3``."""

    @pytest.fixture
    def config(self, config: ServerConfig) -> ServerConfig:
        """The test server's settings, with the ``--bots 3`` practice table."""
        config.bots = 3
        return config

    async def test_craits_bot_finishes_a_game_against_three_server_bots(
        self, server: Server
    ) -> None:
        """``craits-bot HOST:PORT --table practice`` exits 0 once the game is over."""
        await _practice_game(server)


async def _practice_game(server: Server) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "craits.server.bots",
        f"127.0.0.1:{server.port}",
        "--table",
        "practice",
        "--think-ms",
        "0",
        "--name",
        "Zed",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 40)
    assert proc.returncode == 0, err.decode()
    text = out.decode()
    assert "Zed: seated at table 'practice', seat 3" in text
    assert "game over" in text
    assert err == b""


async def test_connection_failure_is_one_clean_line() -> None:
    """An unreachable server: exit 1 and one line on stderr, no traceback."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "craits.server.bots",
        "127.0.0.1:1",
        "--table",
        "t",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 1
    assert out == b""
    assert err.decode().splitlines() == ["craits-bot: cannot reach 127.0.0.1:1: connection refused"]


async def test_refused_join_fails_with_the_reason(server: Server) -> None:
    """Joining a table that does not exist fails with the server's reason."""
    bot = BotClient("nowhere", "Ana", think=0)
    await connect_bot("127.0.0.1", server.port, bot)
    with pytest.raises(BotError, match="no_such_table"):
        await asyncio.wait_for(bot.done, 10)


async def test_craits_bot_sits_at_a_private_table_with_its_invite(
    server: Server,
    connect: Any,
) -> None:
    """``craits-bot LINK`` (an invite link) or ``--table T --code CODE`` sits at
    a private table (issue 23); a wrong code fails with the server's reason."""
    ana = await connect("Ana")
    await ana.send({"type": "create_table", "name": "p", "seats": 4, "private": True})
    code = (await ana.expect("table_created"))["code"]
    await ana.send({"type": "join", "table": "p", "name": "Ana"})
    await ana.expect("joined")
    address = f"127.0.0.1:{server.port}"

    async def bot(*args: str) -> tuple[int | None, str, str]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "craits.server.bots", *args, "--think-ms", "0",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            async with asyncio.timeout(20):
                line = await proc.stdout.readline() if proc.stdout else b""
                if b"seated" not in line:
                    await proc.wait()
        finally:
            if proc.returncode is None:
                proc.terminate()
            out, err = await proc.communicate()
        return proc.returncode, (line + out).decode(), err.decode()

    _, out, _ = await bot(f"craits://{address}/p?code={code}", "--name", "Bob")
    assert "Bob: seated at table 'p'" in out
    _, out, _ = await bot(address, "--table", "p", "--code", code.lower(), "--name", "Cy")
    assert "Cy: seated at table 'p'" in out
    status, out, err = await bot(address, "--table", "p", "--code", "WRONG", "--name", "Di")
    assert status == 1 and "Di: seated" not in out
    assert err.strip() == (
        "craits-bot: server: that invite code is not this table's (bad_invite_code)"
    )
    status, _, err = await bot(address, "--name", "Ed")
    assert status == 1 and "--table" in err


# ------------------------------------------------------------ codes and frames


def test_the_bots_error_code_sets_are_the_vocabularys() -> None:
    """Each set is of vocabulary codes, and holds what the bot has always acted on."""
    for codes in (RACE_CODES, IDLESS_ACT_CODES, FATAL_CODES):
        assert all(isinstance(c, ErrorCode) for c in codes)
    assert RACE_CODES == LOST_RACE_ERRORS
    assert {"stale", "nothing_to_announce", "nothing_to_call_idiot_on"} == RACE_CODES
    assert {
        "not_at_table",
        "spectator",
        "not_seated",
        "game_not_running",
        "bad_message",
    } == IDLESS_ACT_CODES
    assert FATAL_CODES >= CONNECTION_CLOSING_ERRORS | SEAT_LOST_ERRORS
    assert {
        "bad_frame",
        "frame_too_large",
        "unsupported_version",
        "rate_limited",
        "too_many_errors",
        "timeout",
        "server_full",
        "too_many_connections",
        "untrusted_relay",  # a forwarded address from no trusted relay (protocol §4.1)
        "shutdown",
        "replaced",
        "table_stopped",
        "not_at_table",
        "not_seated",
        "spectator",
        "kicked",  # removed by the table's creator (protocol §11.9)
    } == FATAL_CODES


WELCOME = {
    "type": "welcome",
    "version": 1,
    "server": "a scripted peer",
    "heartbeat_ms": 10_000,
    "limits": {
        "max_frame": 65_536,
        "max_name": 24,
        "max_chat": 300,
        "rate": 100,
        "burst": 200,
        "max_tables": 10,
    },
}
"""The server's ``welcome`` (protocol §4.1), as a scripted peer sends it."""


async def _scripted_peer(
    script: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
) -> tuple[asyncio.Server, int]:
    """A loopback TCP peer that plays ``script`` against whoever connects: the
    real server never sends a bad frame, so frames the bot must refuse come from here."""
    server = await asyncio.start_server(script, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def _read_message(reader: asyncio.StreamReader) -> dict[str, Any]:
    header = await reader.readexactly(4)
    return decode(await reader.readexactly(frame_length(header)))


async def test_frames_in_pieces_a_ping_answered_then_a_bad_frame_ends_the_bot() -> None:
    """The bot reads frames however the bytes arrive (the protocol's FrameReader),
    skips a message type it does not know (protocol §14), answers a ping with its
    nonce, and stops with one line at an empty frame."""
    pongs: list[dict[str, Any]] = []

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        hello = await _read_message(reader)
        assert hello["type"] == "hello" and hello["client"] == "craits-bot"
        frames = (
            encode(WELCOME)
            + encode({"type": "lobby_news", "text": "a type from a later server"})
            + encode({"type": "ping", "nonce": 7})
        )
        for i in range(len(frames)):  # one byte at a time
            writer.write(frames[i : i + 1])
            await writer.drain()
        await _read_message(reader)  # the join
        pongs.append(await _read_message(reader))
        writer.write(b"\x00\x00\x00\x00")  # an empty frame: not the Craits protocol
        await writer.drain()
        await reader.read()
        writer.close()

    peer, port = await _scripted_peer(script)
    async with peer:
        bot = BotClient("t", "Ana", think=0)
        await connect_bot("127.0.0.1", port, bot)
        with pytest.raises(BotError, match=r"does not speak the Craits protocol \(empty frame\)"):
            await asyncio.wait_for(bot.done, 10)
    assert pongs == [{"type": "pong", "nonce": 7}]
    assert bot.stats.frames_in == 3 and bot.stats.dropped == 0


async def test_a_frame_over_the_limit_ends_the_bot_after_the_frames_before_it() -> None:
    """The welcome in the same bytes as a header over the limit is still handled
    (the bot joins); then the bot stops, the body never read."""
    joins: list[dict[str, Any]] = []

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_message(reader)
        writer.write(encode(WELCOME) + (MAX_SERVER_FRAME + 1).to_bytes(4, "big"))
        await writer.drain()
        joins.append(await _read_message(reader))
        await reader.read()
        writer.close()

    peer, port = await _scripted_peer(script)
    async with peer:
        bot = BotClient("t", "Ana", think=0)
        await connect_bot("127.0.0.1", port, bot)
        with pytest.raises(BotError, match="exceeds the 1048576-byte limit"):
            await asyncio.wait_for(bot.done, 10)
    assert joins == [{"type": "join", "table": "t", "name": "Ana"}]


async def test_a_message_without_a_key_its_type_requires_ends_the_bot() -> None:
    """A known message missing a required key is not the Craits protocol: one line."""

    async def script(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _read_message(reader)
        writer.write(encode(WELCOME))
        await _read_message(reader)  # the join
        writer.write(encode({"type": "joined", "table": "t", "token": "x"}))
        await writer.drain()
        await reader.read()
        writer.close()

    peer, port = await _scripted_peer(script)
    async with peer:
        bot = BotClient("t", "Ana", think=0)
        await connect_bot("127.0.0.1", port, bot)
        with pytest.raises(BotError, match=r"protocol \(joined: missing field 'seat'\)"):
            await asyncio.wait_for(bot.done, 10)


# ------------------------------------------------------------------ commands


def test_craits_bot_entry_point_is_the_bots_cli() -> None:
    """``craits-bot`` is installed from the bots package and answers --help."""
    (entry,) = entry_points(group="console_scripts", name="craits-bot")
    assert entry.value == "craits.server.bots.network.cli:main"
    script = shutil.which("craits-bot", path=os.path.dirname(sys.executable))
    assert script is not None
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: craits-bot")
    assert "--level {random,easy,basic,expert}" in done.stdout


def test_the_bot_runs_as_a_module() -> None:
    """``python -m craits.server.bots``."""
    done = subprocess.run(
        [sys.executable, "-m", "craits.server.bots", "--help"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0 and done.stdout.startswith("usage: craits-bot")
