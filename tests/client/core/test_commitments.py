"""The client keeps the shuffle commitments it receives, and a record forged
throughout (one seat's cards of a deal put in another order, every salt,
commitment, hand and result computed again) passes ``verify_record.py`` alone
but fails against them (issue 11, the records gap; ``docs/records.md``).
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from craits.client.core.saved.commitments import FORMAT, CommitmentStore, read, server_dir
from craits.protocol.types import Commitment
from craits.server.app import Server, ServerConfig
from craits.server.engine import hand_size
from craits.server.journal.records import build_record, check_published, verify_record
from craits.server.table.fairness import commitment

from tests.support.client import wait_for
from tests.support.paths import REPO
from tests.support.server import Player, strip_seat

VERIFY = [sys.executable, str(REPO / "scripts" / "verify_record.py")]


@pytest.fixture
def config(tmp_path: Path) -> ServerConfig:
    """The client tests' fast settings, with a journal (games get ids and records)."""
    return ServerConfig(
        host="127.0.0.1",
        port=0,
        analyse_finished=0,  # no background analyses (their own tests turn them on)
        heartbeat=5.0,
        hello_timeout=1.0,
        frame_timeout=1.0,
        turn_timeout=0.0,
        min_turn_timeout=0.0,  # a table here times out in 0.1 s
        hand_pause=0.01,
        bot_delay=0.0,
        away_delay=0.0,
        rate=100_000.0,
        burst=100_000.0,
        data_dir=tmp_path / "data",
    )


async def ben_plays_until_hand(ben: Player, hand: int, rng: random.Random) -> None:
    """Ben plays random legal turns (Ana's turns time out, then the server
    plays them) until hand ``hand`` is dealt. Should Ben be slow enough to time
    out too (a loaded machine), he says he is back, or the game would wait."""
    acted = -1
    async with asyncio.timeout(90):
        while ben.view is None or ben.view["hand_number"] < hand:
            v = ben.view
            mine = v is not None and v["phase"] == "play" and v["to_act"] == ben.seat
            if mine and v is not None and acted != ben.seq:
                turn = [a for a in v["legal"] if "idiot" not in a]
                await ben.act(strip_seat(rng.choice(turn)), seq=True)
                acted = ben.seq
            try:
                m = await ben.recv(0.5)
            except TimeoutError:
                acted = -1  # refused (stale): look again, act again
                continue
            if m["type"] == "table_info" and m["table"]["players"][ben.seat]["away"]:
                await ben.send({"type": "back"})


def journal_record(server: Server, game: int) -> dict[str, Any]:
    """The record of ``game`` as the server's journal holds it now."""
    assert server.journal is not None
    server.out.commit_journal()
    row = server.journal.game(game)
    assert row is not None
    return build_record(row)


def forged(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with hand 1's deal changed where nobody can tell from the
    record: the first seat's cards in reverse order (the same hand), its
    commitment computed again, and every hand and result rebuilt."""
    log = copy.deepcopy(record["log"])
    shuffles = [d for k, d in log if k == "shuffle"]
    n = len(record["players"])
    first = record["hands"][0]
    deal = next(  # hand 1's deck: the shuffle whose order deals what was dealt
        d
        for d in shuffles
        if [d["order"][s : hand_size(1) * n : n] for s in range(n)]
        == [first["dealt"][(first["dealer"] + 1 + s) % n] for s in range(n)]
    )
    cards = deal["order"][0 : hand_size(1) * n : n]
    deal["order"][0 : hand_size(1) * n : n] = cards[::-1]
    deal["sha256"] = commitment(bytes.fromhex(deal["salt"]), deal["order"])
    row = {
        "id": record["game"],
        "table": record["table"],
        "players": record["players"],
        "rules": record["rules"],
        "started": record["started"],
        "finished": record["finished"],
        "entries": [(k, d) for k, d in log],
    }
    return build_record(row)


async def test_the_client_keeps_the_commitments_it_receives_and_they_catch_a_forged_record(
    server: Server, connect: Any, make_app: Any, tmp_path: Path
) -> None:
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2, "turn_timeout_ms": 100})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    joined = await ben.expect("joined")
    ben.seat = joined["seat"]
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model and app.model.view, what="the deal")
        game = app.model.info["game"]
        assert isinstance(game, int) and game == server.tables["t1"].gamelog.game_id
        await ben_plays_until_hand(ben, 3, random.Random(4))
        record = journal_record(server, game)
        recorded = [d["sha256"] for k, d in record["log"] if k == "shuffle"]
        folder = tmp_path / "commitments" / server_dir(f"127.0.0.1:{server.port}")
        path = folder / f"game-{game}.json"

        def all_saved() -> bool:
            kept = read(path)
            return kept is not None and kept.commitments == recorded

        await wait_for(pilot, all_saved, what="every commitment saved")
    saved = json.loads(path.read_text())
    assert saved["format"] == FORMAT and saved["game"] == game and saved["table"] == "t1"
    assert saved["server"] == f"localhost:{server.port}" and saved["from_start"] is True
    assert saved["players"] == ["Ben", "Ana"]
    # what Ben was sent is what Ana's client kept: the cut's, hand 1's, hand 2's, hand 3's…
    sent = [c["sha256"] for m in ben.received for c in m.get("commitments", ()) if "view" in m]
    assert list(dict.fromkeys(sent)) == saved["commitments"]
    assert len(saved["commitments"]) >= 4

    # the forged record passes every check the record alone allows
    fake = forged(record)
    assert verify_record(record) == [] and verify_record(fake) == []
    assert fake["hands"][0]["dealt"] != record["hands"][0]["dealt"]
    assert sorted(map(sorted, fake["hands"][0]["dealt"])) == sorted(
        map(sorted, record["hands"][0]["dealt"])
    )
    # …but not what was published during play
    assert check_published(record, saved["commitments"]) == []
    problems = check_published(fake, saved["commitments"])
    assert problems and "is not in the record" in problems[0]

    true_file, fake_file = tmp_path / "true.json", tmp_path / "fake.json"
    true_file.write_text(json.dumps(record))
    fake_file.write_text(json.dumps(fake))
    alone = subprocess.run([*VERIFY, str(fake_file)], capture_output=True, text=True)
    assert alone.returncode == 0 and alone.stdout.startswith("OK"), alone.stdout
    given = subprocess.run(
        [*VERIFY, "--commitments", str(path), str(fake_file)], capture_output=True, text=True
    )
    assert given.returncode == 1 and given.stdout.startswith("FAIL"), given.stdout
    assert "received during play" in given.stdout
    found = subprocess.run(
        [*VERIFY, "--saved-in", str(tmp_path / "commitments"), str(true_file), str(fake_file)],
        capture_output=True,
        text=True,
    )
    lines = found.stdout.splitlines()
    assert found.returncode == 1 and len(lines) == 2, found.stdout
    assert lines[0].startswith(f"OK {true_file}") and str(path) in lines[0]
    assert f"holds the {len(recorded)} commitments received during play" in lines[0]
    assert lines[1].startswith(f"FAIL {fake_file}")
    # --saved alone reads the client's own state folder, and a FILE after it is a
    # record, not the folder (it once took the FILE for its folder and failed)
    state = tmp_path / "state"
    shutil.copytree(tmp_path / "commitments", state / "craits" / "commitments")
    env = {**os.environ, "XDG_STATE_HOME": str(state)}
    default = subprocess.run(
        [*VERIFY, "--saved", str(true_file)], capture_output=True, text=True, env=env
    )
    assert default.returncode == 0, default.stdout + default.stderr
    assert f"holds the {len(recorded)} commitments received during play" in default.stdout
    # a list of digests does as well as the client's file
    digests = tmp_path / "digests.json"
    digests.write_text(json.dumps(saved["commitments"]))
    listed = subprocess.run(
        [*VERIFY, "--commitments", str(digests), str(fake_file)], capture_output=True, text=True
    )
    assert listed.returncode == 1 and listed.stdout.startswith("FAIL")


def digests(*names: str) -> list[Commitment]:
    """Commitments named for the test (any string stands for a digest here)."""
    return [{"sha256": n} for n in names]


def test_the_store_merges_what_it_receives_across_restarts_of_the_client(tmp_path: Path) -> None:
    root = tmp_path / "commitments"
    store = CommitmentStore(root)
    store.received("localhost:7777", "t1", 5, ["Ana", "Ben"], digests("cut", "d1"), first=True)
    store.received("localhost:7777", "t1", 5, [], digests("d1", "r1"))  # a state repeats d1
    path = store.path("127.0.0.1", 5)  # one server, however its address is written
    assert path == root / "localhost_7777" / "game-5.json"
    kept = read(path)
    assert kept is not None and kept.commitments == ["cut", "d1", "r1"] and kept.from_start
    # the client starts again and resumes: the hand's state brings d2 (and r1 again)
    again = CommitmentStore(root)
    again.received("localhost:7777", "t1", 5, ["Ana", "Ben"], digests("r1", "d2"))
    kept = read(path)
    assert kept is not None and kept.commitments == ["cut", "d1", "r1", "d2"]
    assert kept.players == ["Ana", "Ben"]
    # a server started afresh at that address hands out game 5 again: its first
    # update starts the file over
    again.received("localhost:7777", "t1", 5, ["Cy", "Di"], digests("new-cut"), first=True)
    kept = read(path)
    assert kept is not None and kept.commitments == ["new-cut"] and kept.players == ["Cy", "Di"]
    # no journal on the server, no game id: nothing kept
    store.received("localhost:7777", "t2", None, [], digests("x"))
    assert sorted(p.name for p in (root / "localhost_7777").iterdir()) == ["game-5.json"]


def test_a_store_it_cannot_write_is_no_error(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    store = CommitmentStore(blocked / "commitments")
    store.received("localhost:7777", "t1", 1, [], digests("a"), first=True)  # no exception
    assert read(store.path("localhost:7777", 1)) is None
