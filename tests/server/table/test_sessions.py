"""Turn timeouts, away seats, disconnects, resume tokens, and shutdown (issue: server)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

from craits.protocol.client import Connection
from craits.server.app import Server
from craits.server.ops.vectors import load_position
from craits.server.table.outcome import Step

from tests.support.processes import SERVER, free_port
from tests.support.server import Player, settle


async def seated_pair(connect: Any, table: str = "t", **create: Any) -> tuple[Player, Player]:
    ana = await connect("Ana")
    ben = await connect("Ben")
    await ana.send({"type": "create_table", "name": table, "seats": 2, **create})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    await settle([ana, ben], 1)
    return ana, ben


async def until(player: Player, cond: Any, limit: int = 400) -> dict[str, Any]:
    """Read messages until ``cond(message)``; at most ``limit`` messages."""
    for _ in range(limit):
        message = await player.recv()
        if cond(message):
            return message
    raise AssertionError("condition not met")


async def test_turn_timeout_plays_for_the_seat_marks_it_away_until_it_is_back(
    server: Server, connect: Any
) -> None:
    ana, ben = await seated_pair(connect, turn_timeout_ms=1000)
    table = server.tables["t"]
    assert ana.view is not None
    late_seat = ana.view["to_act"]
    late, other = ([ana, ben][late_seat], [ana, ben][1 - late_seat])
    assert ana.received[-1]["deadline_ms"] > 0
    start = time.monotonic()
    update = await until(late, lambda m: m["type"] == "update" and "notice" in m)
    assert time.monotonic() - start >= 0.1
    assert update["notice"] == {"kind": "timeout", "seat": late_seat, "name": late.name}
    assert table.seats[late_seat].away
    info = await until(late, lambda m: m["type"] == "table_info")
    assert info["table"]["players"][late_seat]["away"] is True
    assert info["table"]["players"][late_seat]["connected"] is True
    # an away seat has no turn timer: the server plays its turns at once
    game = table.game
    assert game is not None
    if game.phase == "play" and game.to_act == late_seat:
        assert table.clock.deadline is None
    # the player says it is back: its turns wait for it again
    await late.send({"type": "back"})
    info = await until(
        other, lambda m: m["type"] == "table_info" and not m["table"]["players"][late_seat]["away"]
    )
    assert table.seats[late_seat].away is False


async def test_pending_suit_times_out_to_the_turned_up_cards_own_suit(
    server: Server, connect: Any
) -> None:
    """R3: a dealer who does not name a suit in time keeps the card's own suit."""
    ana, _ben = await seated_pair(connect, turn_timeout_ms=100)
    table = server.tables["t"]
    table.close_timers()
    table.gamelog.game = load_position(
        {
            "players": 2,
            "turn": 1,
            "dealer": 0,
            "hands": [["KD", "5C"], ["QH", "2S"]],
            "stock": ["AC", "3D"],
            "discard": ["9H"],
            "pending": {"name_suit": 0},
        },
        table.rules,
    )
    table.publish(Step([]))
    update = await ana.expect("update", where=lambda m: "notice" in m)
    assert [e["event"] for e in update["events"]] == ["suit_named"]
    assert update["events"][0] == {"event": "suit_named", "seat": 0, "suit": "H"}
    assert update["view"]["suit"] == "H"
    assert update["view"]["pending"] is None


async def test_reconnect_gives_back_the_same_seat_and_hand(server: Server, connect: Any) -> None:
    ana, ben = await seated_pair(connect)
    assert ben.view is not None and ben.token is not None
    before = ben.view
    await ben.close()
    info = await ana.expect("table_info", where=lambda m: not m["table"]["players"][1]["connected"])
    assert info["table"]["players"][1]["name"] == "Ben"
    again = Player(await Connection.open("127.0.0.1", server.port, name="x"), "Ben")
    await again.send({"type": "resume", "token": ben.token})
    resumed = await again.expect("resumed")
    assert resumed["seat"] == 1
    state = await again.expect("state")
    now = state["view"]
    for key in ("hand", "scores", "turn", "count", "top", "suit", "hand_sizes", "pressure"):
        assert now[key] == before[key], key
    assert state["table"]["players"][1]["connected"] is True
    await again.close()


async def test_the_creator_who_reconnects_is_still_the_creator(
    server: Server, connect: Any
) -> None:
    ana, ben = await seated_pair(connect, "c")  # Ana created the table; the game runs
    assert ana.token is not None
    await ana.close()
    await ben.expect("table_info", where=lambda m: not m["table"]["players"][0]["connected"])
    await ben.send({"type": "close_table"})
    assert (await ben.expect("error"))["code"] == "not_creator"
    again = Player(await Connection.open("127.0.0.1", server.port, name="Ana"), "Ana")
    await again.send({"type": "resume", "token": ana.token})
    await again.expect("resumed")
    # back on a new connection, Ana is the creator again: refused only for the running game
    await again.send({"type": "close_table"})
    assert (await again.expect("error"))["code"] == "game_running"
    await ben.send({"type": "close_table"})
    assert (await ben.expect("error"))["code"] == "not_creator"
    await again.close()


async def test_a_new_client_process_resumes_with_the_saved_token(
    server: Server, connect: Any
) -> None:
    _ana, ben = await seated_pair(connect)
    assert ben.view is not None
    hand = ben.view["hand"]
    await ben.close()
    script = (
        "import asyncio, json, sys\n"
        "from craits.protocol.client import Connection\n"
        "async def main():\n"
        "    c = await Connection.open('127.0.0.1', int(sys.argv[1]), name='again')\n"
        "    await c.send({'type': 'resume', 'token': sys.argv[2]})\n"
        "    while True:\n"
        "        m = await c.recv()\n"
        "        if m['type'] == 'state':\n"
        "            print(json.dumps({'seat': m['seat'], 'hand': m['view']['hand']}))\n"
        "            break\n"
        "    await c.close()\n"
        "asyncio.run(main())\n"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        script,
        str(server.port),
        str(ben.token),
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 0
    got = json.loads(out)
    assert got == {"seat": 1, "hand": hand}


async def test_a_wrong_token_is_refused_and_learns_nothing(server: Server, connect: Any) -> None:
    _ana, ben = await seated_pair(connect)
    assert ben.token is not None
    eve = await connect("Eve")
    for token in ("x" * 32, ben.token[:-1] + ("A" if ben.token[-1] != "A" else "B"), "t"):
        await eve.send({"type": "resume", "token": token})
        reply = await eve.expect("error")
        assert reply["code"] == "bad_token"
        assert set(reply) == {"type", "code", "message"}
        assert "Ben" not in reply["message"] and "t" not in reply.get("table", "")


async def test_a_token_used_twice_the_newer_connection_wins(server: Server, connect: Any) -> None:
    _ana, ben = await seated_pair(connect)
    newer = await connect("Ben2")
    await newer.send({"type": "resume", "token": ben.token})
    await newer.expect("resumed")
    told = await ben.expect("error")
    assert told["code"] == "replaced"
    # the older connection is no longer at the table
    await ben.send({"type": "chat", "text": "hello?"})
    reply = await ben.expect("error")
    assert reply["code"] == "not_at_table"
    assert server.tables["t"].seats[1].member is not None


async def test_a_left_table_closes_its_tokens(server: Server, connect: Any) -> None:
    ana = await connect("Ana")
    await ana.send({"type": "create_table", "name": "solo", "seats": 3})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "solo", "name": "Ana"})
    await ana.expect("joined")
    token = ana.token
    await ana.send({"type": "leave"})
    await ana.expect("left")
    assert "solo" not in server.tables
    await ana.send({"type": "resume", "token": token})
    assert (await ana.expect("error"))["code"] == "bad_token"


async def _wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.02)


async def _shutdown_with(sig: signal.Signals) -> None:
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        *SERVER,
        "--port",
        str(port),
        "--no-journal",
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        await _wait_for_port(port)
        conn = await Connection.open("127.0.0.1", port, name="Ana")
        await conn.send({"type": "create_table", "name": "t", "seats": 2})
        await conn.recv()
        proc.send_signal(sig)
        told = await asyncio.wait_for(conn.recv(), 5)
        assert told["type"] == "error" and told["code"] == "shutdown"
        rc = await asyncio.wait_for(proc.wait(), 5)
        assert rc == 0
        assert proc.stderr is not None
        log = (await proc.stderr.read()).decode()
        assert "table t: created" in log
        assert "shutting down" in log
        await conn.close()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_sigterm_tells_clients_and_exits_zero() -> None:
    await _shutdown_with(signal.SIGTERM)


async def test_sigint_tells_clients_and_exits_zero() -> None:
    await _shutdown_with(signal.SIGINT)


def test_server_help_and_bad_arguments() -> None:
    out = subprocess.run([*SERVER, "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for flag in ("--host", "--port", "--log-level", "--bots"):
        assert flag in out.stdout
    bad = subprocess.run([*SERVER, "--bots", "9"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr


async def test_a_game_on_hold_says_so_and_a_player_back_late_gets_a_fresh_turn_timer(
    server: Server, connect: Any
) -> None:
    """One person and a bot: the person leaves on their turn, the game is on
    hold (table_info says so; a spectator does not count), and coming back long
    after the turn timeout gives a fresh timer instead of an instant timeout."""
    ana = await connect("Ana")
    cy = await connect("Cy")
    await ana.send({"type": "create_table", "name": "h", "seats": 2, "turn_timeout_ms": 400})
    await ana.expect("table_created")
    await ana.send({"type": "join", "table": "h", "name": "Ana"})
    await ana.expect("joined")
    await cy.send({"type": "spectate", "table": "h"})
    await cy.expect("state")
    await ana.send({"type": "add_bot"})
    await until(ana, lambda m: m["type"] == "update" and m["view"]["to_act"] == ana.seat)
    assert ana.token is not None
    await ana.send({"type": "leave"})
    await ana.expect("left")
    held = await cy.expect("table_info", where=lambda m: m["table"]["on_hold"])
    assert held["table"]["players"][0]["away"] is True
    seq = server.tables["h"].seq
    await asyncio.sleep(0.8)  # twice the turn timeout: nothing is played meanwhile
    assert server.tables["h"].seq == seq
    again = Player(await Connection.open("127.0.0.1", server.port, name="Ana"), "Ana")
    await again.send({"type": "resume", "token": ana.token})
    state = await again.expect("state")
    assert state["view"]["to_act"] == state["seat"]
    assert state["deadline_ms"] is not None and state["deadline_ms"] > 250
    assert state["table"]["on_hold"] is False
    # no timeout is played for Ana the moment she is back
    await again.drain(0.15)
    assert not any(m.get("notice") for m in again.received if m["type"] == "update")
    await again.close()


async def test_a_table_where_every_player_is_away_waits(server: Server, connect: Any) -> None:
    """The server plays for away seats only while someone is still playing:
    once every player is away the game stops until one is back."""
    ana, ben = await seated_pair(connect, turn_timeout_ms=300)
    table = server.tables["t"]
    for _ in range(200):
        if all(s.away for s in table.seats):
            break
        await ana.drain(0.05)
    assert all(s.away for s in table.seats)
    seq = table.seq
    await ana.drain(0.5)
    assert table.seq == seq  # nothing was played while everyone was away
    assert table.clock.deadline is None
    await ben.send({"type": "back"})
    await until(ben, lambda m: m["type"] == "table_info" and not m["table"]["players"][1]["away"])
    # the game goes on: the server plays again (at once for Ana, after the timeout for Ben)
    await ana.drain(0.8)
    assert table.seq > seq
