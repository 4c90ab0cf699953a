"""A short game of a player and a bot at a real journaled server, watched by a spectator
from before the deal to the end, then exported with ``craits-server export
--frames``: what the replay tests compare the frames with."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from craits.protocol.client import Connection
from craits.protocol.vocab import LogEntryKind, Phase
from craits.server.app import Server, ServerConfig
from craits.server.bots import choose
from craits.server.engine import Game, Rules, action_from_dict, view
from craits.server.table.fairness import RecordingShuffle, shuffle_entries
from craits.server.table.ports import Entry

from tests.support.processes import run_export
from tests.support.server import Player, strip_seat

TABLE = "replayed"


@dataclass
class WatchedGame:
    """The game's journal, its exported record (with frames), and every
    ``update`` the spectator received, in order."""

    data: Path
    record_file: Path
    record: dict[str, Any]
    updates: list[dict[str, Any]]


def quick_config(data: Path) -> ServerConfig:
    """A journaled server on a free loopback port whose bots play at once."""
    return ServerConfig(
        host="127.0.0.1",
        port=0,
        analyse_finished=0,  # no background analyses (their own tests turn them on)
        turn_timeout=0.0,
        hand_pause=0.01,
        bot_delay=0.0,
        away_delay=0.0,
        rate=100_000.0,
        burst=100_000.0,
        data_dir=data,
    )


async def watch_game(data: Path, level: str = "basic") -> list[dict[str, Any]]:
    """Ana (random legal moves) and a bot of ``level`` play a short game (R2) at
    a real server keeping its journal in ``data``, watched from before the deal
    by the table's creator; the updates the spectator received, in order. (A
    table of bots alone waits for a person, protocol §11.4.)"""
    srv = Server(quick_config(data))
    await srv.start()
    try:
        eve = Player(await Connection.open("127.0.0.1", srv.port, name="Eve"), "Eve")
        ana = Player(await Connection.open("127.0.0.1", srv.port, name="Ana"), "Ana")
        rules = {"short_game": True}
        await eve.send({"type": "create_table", "name": TABLE, "seats": 2, "rules": rules})
        await eve.expect("table_created")
        await eve.send({"type": "spectate", "table": TABLE})
        await eve.expect("state")
        await ana.send({"type": "join", "table": TABLE, "name": "Ana"})
        await ana.expect("joined")
        await eve.send({"type": "add_bot", "level": level})
        watching = asyncio.create_task(_watch(eve))
        await _play(ana, random.Random(7))
        updates = await watching
        await ana.close()
        await eve.close()
    finally:
        await srv.stop()
    return updates


async def _watch(eve: Player) -> list[dict[str, Any]]:
    """Every update until the game is over."""
    updates: list[dict[str, Any]] = []
    while not updates or updates[-1]["view"]["phase"] != "game_over":
        updates.append(await eve.expect("update", timeout=30))
    return updates


async def _play(ana: Player, rng: random.Random) -> None:
    """Ana's random legal turn actions (no idiot calls) until the game is over."""
    while True:
        message = await ana.expect("update", timeout=30)
        view = message["view"]
        if view["phase"] == "game_over":
            return
        if view["phase"] == "play" and view["to_act"] == ana.seat:
            turn = [a for a in view["legal"] if "idiot" not in a]
            await ana.act(strip_seat(rng.choice(turn)), seq=True)


async def exported_game(root: Path) -> WatchedGame:
    """:func:`watch_bot_game`, then its record exported with ``--frames``."""
    data = root / "data"
    updates = await watch_game(data)
    out = root / "record.json"
    run = run_export(data, out, "--game", "1", "--frames")
    assert run.returncode == 0, run.stderr
    return WatchedGame(data, out, json.loads(out.read_text()), updates)


def random_game_log(players: int, seed: int) -> list[Entry]:
    """A whole game of random bots (the longest hands) as a journal's log."""
    rng = random.Random(seed)
    source = RecordingShuffle(random.Random(seed))
    game, _ = Game.start(players, Rules(short_game=True), source)
    log: list[Entry] = [*shuffle_entries(source.take()), (LogEntryKind.START, {})]
    while game.phase != Phase.GAME_OVER:
        if game.phase == Phase.HAND_OVER:
            game.next_hand()
            log += [*shuffle_entries(source.take()), (LogEntryKind.NEXT_HAND, {})]
            continue
        seat = game.to_act
        assert seat is not None
        action = choose("random", view(game, seat), rng)
        assert action is not None
        game.apply(action_from_dict(action, seat))
        log += shuffle_entries(source.take())
        log.append((LogEntryKind.ACTION, {"seat": seat, "id": None, "action": action}))
    return log
