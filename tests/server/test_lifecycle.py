"""A table's life across restarts, with a real ``craits-server`` process:

- remembered replies (protocol §4.8, §11.5) survive a SIGKILL and a restart, for a
  game's last move and a hand's last move (issue 11, faults 5);
- a game nobody is connected to ends after ``--abandon-after``, its record kept
  and marked abandoned, the clock surviving a restart; a creator can end a game
  by closing its table (issue 11, abuse 2).
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from pathlib import Path
from typing import Any

from tests.server.conftest import Player, play_until, settle
from tests.server.processes import SERVER, free_port, open_player, stop_server


async def start(port: int, data: Path, *extra: str) -> asyncio.subprocess.Process:
    """``craits-server`` on ``port`` with its journal in ``data`` (no turn
    timeout, 10 ms between hands, no rate limit) and ``extra`` arguments;
    returns once it accepts connections."""
    proc = await asyncio.create_subprocess_exec(
        *SERVER,
        "--port",
        str(port),
        "--data-dir",
        str(data),
        "--turn-timeout",
        "0",
        "--hand-pause",
        "0.01",
        "--rate",
        "100000",
        "--burst",
        "100000",
        *extra,
        stderr=asyncio.subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while True:
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return proc
        except OSError:
            if time.monotonic() > deadline or proc.returncode is not None:
                raise
            await asyncio.sleep(0.05)


async def kill(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL: no goodbye, no last checkpoint."""
    proc.send_signal(signal.SIGKILL)
    await proc.wait()


async def seated(port: int, table: str, names: list[str], **create: Any) -> list[Player]:
    """``names`` connected and seated at a new ``table`` (the first creates it);
    the game has started once they are all seated."""
    players = [await open_player(port, n) for n in names]
    await players[0].send({"type": "create_table", "name": table, "seats": len(names), **create})
    await players[0].expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    await settle(players, 1)
    return players


async def resumed(port: int, old: Player) -> Player:
    """``old``'s player back on a new connection with its token (its action ids go on)."""
    p = await open_player(port, old.name)
    p.seat, p.token, p._next_id = old.seat, old.token, old._next_id
    await p.send({"type": "resume", "token": old.token})
    await p.expect("resumed")
    await p.expect("state")
    return p


def last_actor(players: list[Player]) -> Player:
    """The player whose action made the last update (its first event names the seat)."""
    last = max(
        (m for p in players for m in p.received if m.get("type") == "update"),
        key=lambda m: m["seq"],
    )
    seat = last["events"][0]["seat"]
    return next(p for p in players if p.seat == seat)


async def resend_after_restart(tmp_path: Path, until: str) -> dict[str, Any]:
    """Play until ``until`` ("game_over", or "hand_over": the end of hand 1),
    SIGKILL the server, start it again, resume the last actor's seat and send
    its last action id again; returns the reply with that id."""
    data, port = tmp_path / "data", free_port()
    pause = "30" if until == "hand_over" else "0.01"  # killed before the next deal
    proc = await start(port, data, "--hand-pause", pause)
    try:
        players = await seated(port, "r", ["Ana", "Ben"], rules={"short_game": True})

        def reached() -> bool:
            v = players[0].view
            return v is not None and v["phase"] == until

        await play_until(players, reached, random.Random(5))
        actor = last_actor(players)
        last_id = actor._next_id
    finally:
        await kill(proc)
    for p in players:
        await p.close()
    proc = await start(port, data)
    try:
        again = await resumed(port, actor)
        await again.send({"type": "act", "id": last_id, "action": {"draw": True}})
        reply = await again.expect("ok", where=lambda m: m.get("id") == last_id)
        await again.close()
        return reply
    except TimeoutError:
        errors = [m for m in again.received if m.get("type") == "error"]
        raise AssertionError(f"no remembered ok for id {last_id}: {errors}") from None
    finally:
        await stop_server(proc)


async def test_a_resent_game_ending_move_gets_its_ok_after_a_sigkill_and_restart(
    tmp_path: Path,
) -> None:
    reply = await resend_after_restart(tmp_path, "game_over")
    assert reply["type"] == "ok"


async def test_a_resent_hand_ending_move_gets_its_ok_after_a_sigkill_and_restart(
    tmp_path: Path,
) -> None:
    reply = await resend_after_restart(tmp_path, "hand_over")
    assert reply["type"] == "ok"
