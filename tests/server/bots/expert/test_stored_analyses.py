"""Post-game analyses made in the background and stored with the game (issue 28;
protocol §7.6, ``docs/bots.md``): a real server on a loopback port with its
journal, real msgpack clients, the expert's real worker processes.

A game played to its end gets its analysis stored in the journal without anyone
asking; after a restart the ``analysis`` request answers ``ready`` at once (no
``running`` first) with the very document stored. With ``analyse_finished`` 0
nothing is analysed until someone asks.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig
from craits.server.net.analysis_requests import AnalysisDesk, desk_of, use_desk

from tests.support.server import Player, finished_game

pytestmark = pytest.mark.timeout(900)  # worker processes on 2 busy cores

BUDGET = 300
"""The analysis' simulated actions per decision here: its storing is what is checked."""

CEILING = 600.0
"""Seconds an analysis of a short game may take on 2 busy cores."""


async def stored_analysis(srv: Server, game: int) -> dict[str, Any]:
    """Game ``game``'s analysis once the journal holds it (read as the server reads it)."""
    journal = srv.journal
    assert journal is not None
    loop = asyncio.get_running_loop()
    until = loop.time() + CEILING
    while loop.time() < until:
        found = await journal.read(lambda reader: reader.analysis(game))
        if found is not None:
            return found
        await asyncio.sleep(0.5)
    raise AssertionError(f"game {game}'s analysis was not stored in {CEILING} s")


async def _player(srv: Server, name: str) -> Player:
    return Player(await Connection.open("127.0.0.1", srv.port, name=name), name)


async def _close(players: list[Player]) -> None:
    for p in players:
        await p.close()


async def test_a_finished_game_is_analysed_stored_and_ready_at_once_after_a_restart(
    config: ServerConfig, tmp_path: Path
) -> None:
    config.data_dir, config.analyse_finished = tmp_path, 8
    srv = Server(config)
    use_desk(srv, AnalysisDesk(budget=BUDGET))
    await srv.start()
    try:
        players, _ = await finished_game(srv)  # nobody asks for its analysis
        stored = await stored_analysis(srv, 1)
        assert stored["game"] == 1 and stored["budget"] == BUDGET and stored["seed"] == 0
        assert {e["seat"] for e in stored["decisions"]} == {0, 1}
        await _close(players)
    finally:
        await srv.stop()

    again = Server(config)
    use_desk(again, AnalysisDesk(budget=BUDGET))
    await again.start()
    try:
        ana, ben = [await _player(again, n) for n in ("Ana", "Ben")]
        await ana.send({"type": "analysis", "game": 1})
        first = await ana.expect("analysis", timeout=30)
        assert first["state"] == "ready", first  # from the store: no "running" first
        assert json.loads(first["analysis"]) == stored
        assert first["done"] == first["total"] == len(stored["decisions"])
        await ben.send({"type": "analysis", "game": 1, "seat": 1})
        mine = await ben.expect("analysis", timeout=30)
        ones = [e for e in stored["decisions"] if e["seat"] == 1]
        assert mine["state"] == "ready" and json.loads(mine["analysis"])["decisions"] == ones
        assert desk_of(again).job(1) is None  # nothing was analysed again
        await _close([ana, ben])
    finally:
        await again.stop()


async def test_with_the_option_off_nothing_is_analysed_until_asked(
    config: ServerConfig, tmp_path: Path
) -> None:
    config.data_dir, config.analyse_finished = tmp_path, 0
    srv = Server(config)
    use_desk(srv, AnalysisDesk(budget=BUDGET))
    await srv.start()
    try:
        (ana, ben), _ = await finished_game(srv)
        await ana.send({"type": "get_record", "game": 1})
        await ana.expect("record", timeout=30)  # the game is written: it would have begun
        assert desk_of(srv).job(1) is None
        assert srv.journal is not None
        assert await srv.journal.read(lambda reader: reader.analysis(1)) is None
        await ben.send({"type": "analysis", "game": 1})
        first = await ben.expect("analysis", timeout=30)
        assert first["state"] == "running"  # made now that it is asked for
        assert desk_of(srv).job(1) is not None
        await _close([ana, ben])
    finally:
        await srv.stop()


async def test_a_stored_analysis_that_cannot_be_read_is_made_again(
    config: ServerConfig, tmp_path: Path
) -> None:
    """A damaged stored document is no error for the asker: the game is analysed again."""
    config.data_dir, config.analyse_finished = tmp_path, 0
    srv = Server(config)
    await srv.start()
    try:
        players, _ = await finished_game(srv)
        await _close(players)
    finally:
        await srv.stop()
    db = sqlite3.connect(tmp_path / "craits.db")
    db.execute("INSERT INTO analyses VALUES (1, 0, ?, '{not json', 0)", (BUDGET,))
    db.commit()
    db.close()
    again = Server(config)
    use_desk(again, AnalysisDesk(budget=BUDGET))
    await again.start()
    try:
        ana = await _player(again, "Ana")
        await ana.send({"type": "analysis", "game": 1})
        first = await ana.expect("analysis", timeout=30)
        assert first["state"] == "running"
        await _close([ana])
    finally:
        await again.stop()
