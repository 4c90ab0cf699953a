"""The post-game analysis from the command line (docs/bots.md, "Post-game analysis"):
``scripts/analyse_game.py GAME_ID|RECORD`` (the expert package's command with the
journal's reader) and ``python -m craits.server.bots.expert.analyse RECORD``, as an
operator runs them.

The game is real: two people play a short game on a real server over loopback
(tests/server's ``finished_game``), and the journal it wrote is read by the
command, as by ``craits-server export``. The analysis the command prints is the
very analysis of the exported record, by game id or by file, as JSON; the text
names every player with their summary and lists every marked decision.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from craits.server.app import Server, ServerConfig
from craits.server.bots.expert.analyse import describe_action, render_text
from craits.server.bots.expert.analysis import MARKS, analyse
from craits.server.bots.recorded import bot_record
from craits.server.engine import Rules

from tests.support.processes import run_export
from tests.support.server import finished_game, unfinished_journal

REPO = Path(__file__).resolve().parents[4]
ANALYSE = [sys.executable, str(REPO / "scripts" / "analyse_game.py")]
MODULE = [sys.executable, "-m", "craits.server.bots.expert.analyse"]
BUDGET = "1000"

pytestmark = pytest.mark.timeout(900)  # whole analyses in subprocesses, on 2 busy cores


def _run(
    *args: str, stdin: str | None = None, command: list[str] = ANALYSE
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command, *args], capture_output=True, text=True, input=stdin, timeout=600
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


def _exported(data: Path, out: Path) -> dict[str, Any]:
    done = run_export(data, out, "--game", "1")
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(out.read_text())
    return record


async def test_a_finished_game_of_the_journal_is_analysed_as_its_exported_record(
    config: ServerConfig, tmp_path: Path
) -> None:
    """By game id from the data directory, and from the exported file: the same
    analysis as :func:`analyse` of the record, seed and budget given; the text names
    every player with their decisions and lists each marked decision."""
    data = await _finished_journal(config, tmp_path / "data")
    record = _exported(data, tmp_path / "game-1.json")
    expected = analyse(record, seed=7, budget=int(BUDGET))
    by_id = _run("1", "--data-dir", str(data), "--json", "--seed", "7", "--budget", BUDGET)
    assert by_id.returncode == 0, by_id.stderr
    assert json.loads(by_id.stdout) == expected
    by_file = _run(
        str(tmp_path / "game-1.json"), "--json", "--seed", "7", "--budget", BUDGET, command=MODULE
    )
    assert by_file.returncode == 0, by_file.stderr
    assert json.loads(by_file.stdout) == expected
    pooled = _run("1", "--data-dir", str(data), "--json", "--seed", "7", "--budget", BUDGET,
                  "--workers", "2")  # fmt: skip
    assert pooled.returncode == 0, pooled.stderr
    assert json.loads(pooled.stdout) == expected

    text = _run("1", "--data-dir", str(data), "--seed", "7", "--budget", BUDGET)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert text.stdout.startswith("Game 1 at table 'r': 2 players")
    assert max(len(line) for line in lines if not line.startswith("  ")) < 80
    for s in expected["players"]:
        row = next(line for line in lines if line.split()[:2] == [str(s["seat"]), s["name"]])
        assert row.split()[2:] == [
            str(s["decisions"]),
            f"{s['lost']:.1f}",
            f"{s['average_lost']:.2f}",
            str(s["inaccuracies"]),
            str(s["mistakes"]),
            str(s["blunders"]),
        ]
    marked = [e for e in expected["decisions"] if e["mark"] in MARKS]
    listed = lines[lines.index("Marked decisions:") + 1 :] if marked else []
    heads = [line for line in listed if line.startswith("  hand")]
    assert len(heads) == len(marked) and len(listed) == 2 * len(marked)
    for line, e in zip(heads, marked, strict=True):
        assert line.startswith(f"  hand {e['hand']:2} move {e['move']:3}")
        assert f"{e['mark'].upper()}: {e['lost']:.1f}" in line
    every = render_text(expected, record, every=True).splitlines()
    heads = [line for line in every[every.index("Every decision:") + 1 :] if line[2:6] == "hand"]
    assert len(heads) == len(expected["decisions"])
    assert len(expected["decisions"]) >= 10


async def test_a_game_still_in_play_is_refused_unless_asked(
    config: ServerConfig, tmp_path: Path
) -> None:
    """A game dealt and still in play: refused, saying how to ask for it; with
    ``--unfinished`` analysed as it stands."""
    data = await unfinished_journal(config, tmp_path / "data")
    refused = _run("1", "--data-dir", str(data), "--budget", BUDGET)
    assert refused.returncode == 1 and refused.stdout == ""
    assert "game 1 is still in play (--unfinished" in refused.stderr
    done = _run("1", "--data-dir", str(data), "--budget", BUDGET, "--unfinished", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["format"] == "craits-analysis"


def test_what_cannot_be_analysed_is_said_in_one_line(tmp_path: Path) -> None:
    """No journal, a file that is no record or does not replay, a bad budget, a game id
    to the expert package's own command (which has no journal reader): exit status 1
    (2 for usage), one line on standard error, nothing on standard output."""
    (tmp_path / "empty").mkdir()
    record = bot_record(["basic", "basic"], seed=3, rules=Rules(short_game=True))
    log = [list(e) for e in record["log"]]
    i = next(i for i, (k, d) in enumerate(log) if k == "action" and "play" in d["action"])
    log[i] = ["action", {"seat": log[i][1]["seat"], "id": None, "action": {"play": "XX"}}]
    (tmp_path / "broken.json").write_text(json.dumps({**record, "log": log}))
    (tmp_path / "text.json").write_text("not json")
    cases = [
        (ANALYSE, ["1", "--data-dir", str(tmp_path / "empty")], 1, "no journal at"),
        (ANALYSE, ["nowhere.json"], 1, "cannot read a record from nowhere.json"),
        (ANALYSE, [str(tmp_path / "text.json")], 1, "cannot read a record from"),
        (ANALYSE, [str(tmp_path / "broken.json")], 1, f"entry {i}"),
        (ANALYSE, ["-"], 1, "not a game record"),
        (ANALYSE, [str(tmp_path / "text.json"), "--budget", "0"], 2, "--budget and --workers"),
        (MODULE, ["1"], 1, "a game id is read from the server's journal by"),
    ]
    for command, args, status, says in cases:
        done = _run(*args, stdin="[1, 2]", command=command)
        assert done.returncode == status, (args, done.stderr)
        assert done.stdout == "" and says in done.stderr, (args, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_record_on_standard_input_is_analysed() -> None:
    """``-`` reads the record from standard input (a bot game's, with no server)."""
    record = bot_record(["easy", "basic"], seed=4, rules=Rules(short_game=True))
    done = _run("-", "--json", "--budget", BUDGET, stdin=json.dumps(record), command=MODULE)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == analyse(record, budget=int(BUDGET))


def test_actions_are_described_in_words() -> None:
    """Each form of protocol §6 as the text shows it."""
    assert (
        describe_action({"play": "8S", "suit": "H", "announce": True}) == '8♠ naming ♥, "one card"'
    )
    assert describe_action({"play": "TD"}) == "10♦"
    assert describe_action({"draw": True}, "count") == "take the count"
    assert describe_action({"draw": True}) == "draw"
    assert describe_action({"pass": True}, "drawn") == "keep the drawn card"
    assert describe_action({"name_suit": "C"}, "turned_suit") == "name ♣"
    assert describe_action({"idiot": 2}, "idiot") == "call idiot on seat 2"
    assert describe_action(None, "idiot") == "no call"
    assert describe_action({"announce": True}, "one_card") == 'say "one card"'
    assert describe_action(None, "one_card") == 'silent (no "one card")'
