"""``craits-server analyse GAME_ID|FILE`` (docs/bots.md, "Post-game analysis"), run as
an operator runs it: the server's command, reading the journal a real server wrote
(two people play a short game over loopback) where the server would find it — its
``--data-dir``, ``CRAITS_DATA_DIR``, the data-dir of the ``--config`` file — and
printing the very analysis of the game's exported record.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from craits.server.app import Server, ServerConfig
from craits.server.bots.expert.analysis import analyse
from craits.server.journal.journal import Journal
from craits.server.net.analysis_requests import AnalysisDesk, use_desk

from tests.server.bots.expert.test_stored_analyses import stored_analysis
from tests.support.processes import SERVER, run_export
from tests.support.server import finished_game, unfinished_journal

BUDGET = "1000"

pytestmark = pytest.mark.timeout(900)  # whole analyses in subprocesses, on 2 busy cores


def _analyse(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CRAITS_")}
    return subprocess.run(
        [*SERVER, "analyse", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={**clean, **(env or {})},
    )


async def _finished_journal(config: ServerConfig, data: Path) -> Path:
    config.data_dir = data
    srv = Server(config)
    await srv.start()
    players, _ = await finished_game(srv)
    for p in players:
        await p.close()
    await srv.stop()
    return data


async def test_the_servers_command_analyses_a_game_of_its_journal(
    config: ServerConfig, tmp_path: Path
) -> None:
    """By game id, with the journal found by ``--data-dir``, ``CRAITS_DATA_DIR`` or the
    ``--config`` file's data-dir, and by the exported record's file: each time the
    analysis of the exported record (same seed, same budget)."""
    data = await _finished_journal(config, tmp_path / "data")
    out = tmp_path / "game-1.json"
    done = run_export(data, out, "--game", "1")
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(out.read_text())
    expected = analyse(record, seed=5, budget=int(BUDGET))
    assert expected["decisions"]
    settings = tmp_path / "craits.toml"
    settings.write_text(f'data-dir = "{data}"\n')
    common = ["--json", "--seed", "5", "--budget", BUDGET]
    runs = [
        _analyse("1", "--data-dir", str(data), *common),
        _analyse("1", *common, env={"CRAITS_DATA_DIR": str(data)}),
        _analyse("1", "--config", str(settings), *common),
        _analyse(str(out), *common),
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == expected
    text = _analyse("1", "--data-dir", str(data), "--seed", "5", "--budget", BUDGET)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Game 1 at table 'r': 2 players")
    assert all(f"{s['seat']:>4}  {s['name']}" in text.stdout for s in expected["players"])


async def test_what_the_command_cannot_analyse_is_said_in_one_line(
    config: ServerConfig, tmp_path: Path
) -> None:
    """A game still in play (unless ``--unfinished``), no such game, no journal, a
    settings file that cannot be read: status 1, one line naming the command."""
    data = await unfinished_journal(config, tmp_path / "data")
    (tmp_path / "empty").mkdir()
    (tmp_path / "bad.toml").write_text("data-dir = [\n")
    cases = [
        (["1", "--data-dir", str(data)], "game 1 is still in play (--unfinished"),
        (["2", "--data-dir", str(data)], "no game 2 in"),
        (["1", "--data-dir", str(tmp_path / "empty")], "no journal at"),
        (["1", "--config", str(tmp_path / "bad.toml")], "bad.toml"),
    ]
    for args, says in cases:
        done = _analyse(*args, "--budget", BUDGET)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stdout == "" and says in done.stderr, (args, done.stderr)
        assert done.stderr.startswith("craits-server analyse: ")
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    as_is = _analyse("1", "--data-dir", str(data), "--unfinished", "--json", "--budget", BUDGET)
    assert as_is.returncode == 0, as_is.stderr
    assert json.loads(as_is.stdout)["format"] == "craits-analysis"
    helped = _analyse("--help")
    assert helped.returncode == 0 and "--config FILE" in helped.stdout


async def test_a_stored_analysis_is_printed_as_stored_when_it_is_the_one_asked_for(
    config: ServerConfig, tmp_path: Path
) -> None:
    """A game the server analysed after it ended: the command prints the document
    the journal holds (marked here to tell it apart) when seed, budget and version
    are those asked for; another budget is judged afresh."""
    config.data_dir, config.analyse_finished = tmp_path / "data", 8
    srv = Server(config)
    use_desk(srv, AnalysisDesk(budget=300))
    await srv.start()
    try:
        players, _ = await finished_game(srv)
        stored = await stored_analysis(srv, 1)
        for p in players:
            await p.close()
    finally:
        await srv.stop()
    marked = {**stored, "marked": "from the store"}
    journal = Journal(tmp_path / "data" / "craits.db")
    try:
        journal.save_analysis(1, marked)
    finally:
        journal.close()
    data = str(tmp_path / "data")
    printed = _analyse("1", "--data-dir", data, "--json", "--budget", "300")
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout) == marked
    afresh = _analyse("1", "--data-dir", data, "--json", "--budget", "301")
    assert afresh.returncode == 0, afresh.stderr
    judged = json.loads(afresh.stdout)
    assert "marked" not in judged and judged["budget"] == 301
