"""A damaged journal (issue 11, item 6), against real ``craits-server`` processes.

A page of garbage anywhere in the database: the server either refuses to
start with one line and exit status 3, or starts (and logs that the journal
is damaged); never a traceback. ``export`` writes every record it can and
names each one it cannot; ``check`` finds the damage. An action row that does
not replay sets its table aside (rows kept, players told on ``resume``) while
every other table comes back; in a finished game it spoils that record only.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from craits.server.journal.records import verify_record

from tests.support.faulty import (
    FINISHED,
    UNFINISHED,
    BuiltJournal,
    Launched,
    build_journal,
    launch,
    run_cli,
)
from tests.support.processes import open_player

ALL_GAMES = {1, 2, 3, 4, 5}
PAGE = 4096


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuiltJournal:
    return asyncio.run(build_journal(tmp_path_factory.mktemp("built") / "data"))


def _pages(db: Path) -> dict[str, int]:
    """Pages worth damaging, by what they hold: the header, the roots of the
    tables, games and log b-trees, a page in the middle of the log, the last."""
    conn = sqlite3.connect(db)
    try:
        roots = dict(conn.execute("SELECT name, rootpage FROM sqlite_master").fetchall())
        (count,) = conn.execute("PRAGMA page_count").fetchone()
    finally:
        conn.close()
    return {
        "header": 1,
        "tables": roots["tables"],
        "games": roots["games"],
        "log root": roots["log"],
        "log middle": (roots["log"] + count) // 2,
        "last": count,
    }


def _garble(db: Path, page: int) -> None:
    with open(db, "r+b") as f:
        f.seek((page - 1) * PAGE)
        f.write(bytes((i * 131 + 7) % 256 for i in range(PAGE)))


def _exported(out: Path, stderr: str) -> tuple[set[int], set[int]]:
    """The games written to ``out`` and those ``export`` named as not exported."""
    written = {int(p.stem.rsplit("-", 1)[1]) for p in out.glob("*.json")} if out.exists() else set()
    named = {int(n) for n in re.findall(r"game (\d+) not exported", stderr)}
    for p in out.glob("*.json") if out.exists() else []:
        assert verify_record(json.loads(p.read_text())) == [], p
    return written, named


@pytest.mark.parametrize("kind", ["header", "tables", "games", "log root", "log middle", "last"])
async def test_a_page_of_garbage_never_gives_a_traceback(
    kind: str, built: BuiltJournal, tmp_path: Path
) -> None:
    data = built.copy(tmp_path / "data")
    db = data / "craits.db"
    _garble(db, _pages(db)[kind])

    server = await launch(data)
    if server.code is None:  # it started: the damage lies where start does not read
        if kind in ("log middle", "last"):  # found by the quick check all the same
            await _wait_for(server, "is damaged")
        assert server.stop() == 0
    else:
        lines = server.stderr.strip().splitlines()
        assert server.code == 3, server.stderr
        assert len(lines) == 1 and lines[0].startswith("craits-server: the journal "), lines
        assert "is damaged" in lines[0] and "craits-server check" in lines[0]
    assert "Traceback" not in server.stderr

    out = tmp_path / "records"
    run = run_cli("export", "--data-dir", str(data), "--out", str(out), "--unfinished")
    assert "Traceback" not in run.stderr, run.stderr
    written, named = _exported(out, run.stderr)
    if kind == "header":  # not a database any more: one line
        assert run.returncode == 3 and not written
        assert run.stderr.count("\n") == 1 and "is damaged" in run.stderr
    else:  # every record is written or named
        assert written | named == ALL_GAMES and not written & named, run.stderr
        assert run.returncode == (3 if named else 0)

    check = run_cli("check", "--data-dir", str(data))
    assert check.returncode == 3, check.stdout
    assert "Traceback" not in check.stdout + check.stderr
    assert ("is damaged" if kind == "header" else "problem(s) found") in check.stderr


async def _wait_for(server: Launched, text: str, timeout: float = 10) -> None:
    for _ in range(int(timeout / 0.05)):
        if text in server.stderr:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{text!r} never came: {server.stderr}")


def _spoil_a_turn_action(db: Path, game_id: int) -> int:
    """Give the last turn action (play or draw) of game ``game_id`` to the
    other seat, which was not to act: the log no longer replays. Returns the
    number of the game's log rows."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        rows = conn.execute(
            "SELECT n, data FROM log WHERE game_id = ? AND kind = 'action' ORDER BY n DESC",
            (game_id,),
        ).fetchall()
        n, text = next((n, d) for n, d in rows if {"play", "draw"} & set(json.loads(d)["action"]))
        data = json.loads(text)
        data["seat"] = 1 - data["seat"]
        conn.execute(
            "UPDATE log SET data = ? WHERE game_id = ? AND n = ?", (json.dumps(data), game_id, n)
        )
        (count,) = conn.execute("SELECT COUNT(*) FROM log WHERE game_id = ?", (game_id,)).fetchone()
        return int(count)
    finally:
        conn.close()


def _rows(db: Path, game_id: int, table: str) -> tuple[Any, ...]:
    conn = sqlite3.connect(db)
    try:
        log = conn.execute(
            "SELECT n, kind, data FROM log WHERE game_id = ? ORDER BY n", (game_id,)
        ).fetchall()
        row = conn.execute("SELECT * FROM tables WHERE name = ?", (table,)).fetchone()
        return (log, row[:-1] if row else None)  # all but the time of the last write
    finally:
        conn.close()


async def _resume(port: int, token: str) -> dict[str, Any]:
    """Resume with ``token``; returns the answer (``resumed`` or ``error``)."""
    p = await open_player(port, "someone")
    try:
        await p.send({"type": "resume", "token": token})
        while True:
            message = await p.recv()
            if message["type"] in ("resumed", "error"):
                return message
    finally:
        await p.close()


async def test_an_unfinished_game_that_does_not_replay_sets_its_table_aside(
    built: BuiltJournal, tmp_path: Path
) -> None:
    """Before: the whole server refused to start (every healthy table unreachable)."""
    data = built.copy(tmp_path / "data")
    db = data / "craits.db"
    _spoil_a_turn_action(db, 4)  # table u1's game
    before = _rows(db, 4, "u1")

    server = await launch(data)
    assert server.code is None, server.stderr
    try:
        assert "table u1: set aside" in server.stderr
        # the other table comes back, whole
        for token in built.tokens["u2"]:
            assert (await _resume(server.port, token))["type"] == "resumed"
        # u1's players are told why their seats are gone
        for token in built.tokens["u1"]:
            answer = await _resume(server.port, token)
            assert answer["type"] == "error" and answer["code"] == "bad_token"
            assert "'u1' was set aside" in answer["message"]
        p = await open_player(server.port, "Cy")
        await p.send({"type": "list_tables"})
        tables = await p.expect("tables")
        assert [t["name"] for t in tables["tables"]] == ["u2"]
        # its name stays taken, so its row cannot be overwritten
        await p.send({"type": "create_table", "name": "u1", "seats": 2})
        assert (await p.expect("error"))["code"] == "table_exists"
        await p.close()
    finally:
        assert server.stop() == 0
    assert "Traceback" not in server.stderr
    assert _rows(db, 4, "u1") == before  # kept for inspection, untouched

    check = run_cli("check", "--data-dir", str(data))
    assert check.returncode == 3
    assert "table 'u1':" in check.stdout and "game 4: does not replay" in check.stdout
    out = tmp_path / "records"
    run = run_cli("export", "--data-dir", str(data), "--out", str(out), "--unfinished")
    assert run.returncode == 3
    assert _exported(out, run.stderr) == (ALL_GAMES - {4}, {4})


async def test_a_finished_game_that_does_not_replay_spoils_its_record_only(
    built: BuiltJournal, tmp_path: Path
) -> None:
    """Before: ``export`` wrote nothing at all (a traceback at the bad game)."""
    data = built.copy(tmp_path / "data")
    _spoil_a_turn_action(data / "craits.db", 2)

    out = tmp_path / "records"
    run = run_cli("export", "--data-dir", str(data), "--out", str(out))
    assert run.returncode == 3 and "Traceback" not in run.stderr
    assert _exported(out, run.stderr) == ({1, 3}, {2})
    assert "game 2 not exported: " in run.stderr

    server = await launch(data)
    assert server.code is None, server.stderr
    try:
        for name in UNFINISHED:
            for token in built.tokens[name]:
                assert (await _resume(server.port, token))["type"] == "resumed"
        p = await open_player(server.port, "Cy")
        await p.send({"type": "get_record", "game": 2})
        answer = await p.expect("error")
        assert answer["code"] == "no_such_game" and "cannot be rebuilt" in answer["message"]
        # still listed (protocol §7.3): the list is the journal's rows, not replayed
        await p.send({"type": "list_records"})
        listed = await p.expect("records")
        assert {g["id"] for g in listed["games"]} == {1, 2, 3}  # FINISHED
        await p.send({"type": "get_record", "game": 1})
        assert (await p.expect("record"))["record"]["game"] == 1
        await p.close()
    finally:
        assert server.stop() == 0
    assert "set aside" not in server.stderr and "Traceback" not in server.stderr

    check = run_cli("check", "--data-dir", str(data))
    assert check.returncode == 3 and "game 2: does not replay" in check.stdout
    assert f"tables: {len(UNFINISHED)} ({len(UNFINISHED)} restore, 0 set aside)" in check.stdout
    assert len(FINISHED) == 3


async def test_check_on_a_whole_journal_says_so(built: BuiltJournal, tmp_path: Path) -> None:
    data = built.copy(tmp_path / "data")
    check = run_cli("check", "--data-dir", str(data))
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.splitlines()[1:] == [
        "integrity: ok",
        "tables: 2 (2 restore, 0 set aside)",
        "games: 5 (5 replay: 3 finished, 2 in play; 0 do not)",
        "craits-server check: the journal is whole",
    ]
