"""Game records: exported from the journal, fetched from the lobby, verified,
and a tampered record refused (provably fair deals)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from craits.server.app import Server, ServerConfig
from craits.server.journal.records import verify_record
from craits.server.table.fairness import commitment

from tests.support.paths import REPO
from tests.support.processes import run_export
from tests.support.server import finished_game, unfinished_journal

VERIFY = [sys.executable, str(REPO / "scripts" / "verify_record.py")]


@pytest.fixture
async def journaled(config: ServerConfig, tmp_path: Path) -> AsyncIterator[Server]:
    config.data_dir = tmp_path / "data"
    srv = Server(config)
    await srv.start()
    yield srv
    await srv.stop()


async def test_a_finished_game_is_fetched_from_the_lobby_and_verifies(journaled: Server) -> None:
    players, final = await finished_game(journaled)
    ana = players[0]
    await ana.send({"type": "list_records"})
    listed = await ana.expect("records")
    (entry,) = listed["games"]
    assert entry["players"] == ["Ana", "Ben"] and entry["finished"]
    await ana.send({"type": "get_record", "game": entry["id"]})
    record = (await ana.expect("record"))["record"]
    assert verify_record(record) == []
    assert len(record["hands"]) == 8
    assert [s["score"] for s in sorted(record["standings"], key=lambda s: s["seat"])] == final[
        "scores"
    ]
    assert record["winners"] == final["result"]["winners"]
    # every commitment published during play is in the record, with its salt and order
    published = {c["sha256"] for p in players for m in p.received for c in m.get("commitments", ())}
    recorded = {d["sha256"] for k, d in record["log"] if k == "shuffle"}
    assert published and published <= recorded
    for p in players:
        await p.close()


async def test_tampered_records_fail_verification(journaled: Server) -> None:
    players, _ = await finished_game(journaled)
    await players[0].send({"type": "list_records"})
    (entry,) = (await players[0].expect("records"))["games"]
    await players[0].send({"type": "get_record", "game": entry["id"]})
    record = (await players[0].expect("record"))["record"]

    # a different deck order under the same commitment
    swapped = copy.deepcopy(record)
    shuffle = next(d for k, d in swapped["log"] if k == "shuffle")
    shuffle["order"][0], shuffle["order"][1] = shuffle["order"][1], shuffle["order"][0]
    assert any("commitment" in p for p in verify_record(swapped))

    # a consistent new commitment, but the game no longer replays to the record
    forged = copy.deepcopy(record)
    deals = [d for k, d in forged["log"] if k == "shuffle"]
    last = deals[-1]
    last["order"] = last["order"][::-1]
    last["sha256"] = commitment(bytes.fromhex(last["salt"]), last["order"])
    problems = verify_record(forged)
    assert problems and all("commitment" not in p for p in problems)

    # a changed score
    scored = copy.deepcopy(record)
    scored["standings"][0]["score"] += 1
    assert verify_record(scored) == ["the replay does not give the recorded standings"]
    for p in players:
        await p.close()


async def test_export_command_and_verify_script(journaled: Server, tmp_path: Path) -> None:
    players, _ = await finished_game(journaled)
    for p in players:
        await p.close()
    assert journaled.config.data_dir is not None
    out = tmp_path / "records"
    run = run_export(journaled.config.data_dir, out)
    assert run.returncode == 0, run.stderr
    (path,) = sorted(out.glob("craits-game-*.json"))
    ok = subprocess.run([*VERIFY, str(path)], capture_output=True, text=True)
    assert ok.returncode == 0 and ok.stdout.startswith("OK"), ok.stdout
    record = json.loads(path.read_text())
    winners = ", ".join(record["players"][w] for w in record["winners"])
    assert f"8 hands, won by {winners}" in ok.stdout and "unfinished" not in ok.stdout
    action = next(d for k, d in record["log"] if k == "action")
    action["seat"] = 1 - action["seat"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    fail = subprocess.run([*VERIFY, str(bad)], capture_output=True, text=True)
    assert fail.returncode == 1 and fail.stdout.startswith("FAIL")


def test_verify_script_help_and_usage(tmp_path: Path) -> None:
    help_run = subprocess.run([*VERIFY, "--help"], capture_output=True, text=True)
    assert help_run.returncode == 0, help_run.stderr
    assert help_run.stdout.startswith("usage: verify_record.py") and "FILE" in help_run.stdout
    assert "cannot read" not in help_run.stdout + help_run.stderr
    bare = subprocess.run(VERIFY, capture_output=True, text=True)
    assert bare.returncode == 2 and "usage:" in bare.stderr
    listed = tmp_path / "list.json"
    listed.write_text("[]")
    not_a_record = subprocess.run([*VERIFY, str(listed)], capture_output=True, text=True)
    assert not_a_record.returncode == 1
    assert not_a_record.stdout.startswith("FAIL") and "Traceback" not in not_a_record.stderr


async def test_an_unfinished_record_says_so(config: ServerConfig, tmp_path: Path) -> None:
    data = await unfinished_journal(config, tmp_path / "data")
    out = tmp_path / "records"
    run = run_export(data, out, "--unfinished")
    assert run.returncode == 0, run.stderr
    path = out / "craits-game-1.json"
    ok = subprocess.run([*VERIFY, str(path)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout
    assert ok.stdout == f"OK {path}: 1 hand, unfinished (no final standings)\n"
