"""``craits-client --replay FILE``: a real recorded game stepped through hand by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from craits.client.replay import ReplayApp, load_record
from craits.server.app import Server, ServerConfig
from textual.containers import VerticalScroll

from tests.client.conftest import screen_text
from tests.server.conftest import finished_game


@pytest.fixture
async def record(config: ServerConfig, tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """The record of a whole short game played over TCP at a journaled server."""
    config.data_dir = tmp_path / "data"
    srv = Server(config)
    await srv.start()
    players, _ = await finished_game(srv)
    ana = players[0]
    await ana.send({"type": "list_records"})
    (entry,) = (await ana.expect("records"))["games"]
    await ana.send({"type": "get_record", "game": entry["id"]})
    rec = (await ana.expect("record"))["record"]
    for p in players:
        await p.close()
    await srv.stop()
    yield rec


async def test_replay_steps_through_every_hand_with_all_hands_shown(
    record: dict[str, Any],
) -> None:
    app = ReplayApp(record, ascii=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = screen_text(app)
        assert "Hand 1 of 8" in screen
        # every seat's dealt cards are on screen (ASCII suits: 7H -> 7H)
        for cards in record["hands"][0]["dealt"]:
            for card in cards:
                label = card.replace("T", "10")
                assert label in screen or card in screen, card
        assert app.check_action("previous", ()) is None  # greyed out on the first hand
        for n in range(2, 9):
            await pilot.press("right")
            await pilot.pause()
            assert f"Hand {n} of 8" in screen_text(app)
        assert app.check_action("next", ()) is None
        app.query_one(VerticalScroll).scroll_end(animate=False)
        await pilot.pause()
        assert "Game over" in screen_text(app)
        await pilot.press("left")
        await pilot.pause()
        assert "Hand 7 of 8" in screen_text(app)


def test_replay_of_a_file_that_is_not_a_record_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text(json.dumps({"hello": 1}))
    run = subprocess.run(
        [sys.executable, "-m", "craits.client.cli", "--replay", str(bad)],
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert run.stderr.strip().count("\n") == 0
    assert "not a Craits game record" in run.stderr
    with pytest.raises(Exception, match="cannot read"):
        load_record(tmp_path / "missing.json")
