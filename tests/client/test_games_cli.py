"""``craits-client HOST --games`` (protocol §11.11, issue 27): the tables
where the seats this client kept are, the user's turns first, printed by a
real client from a real server; nothing asked without a seat kept."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from craits.client.cli import main
from craits.client.core.saved.record_keys import RecordKeys
from craits.server.app import Server

from tests.support.client import ANA, BEN, deal_order, script

DUE = re.compile(r"\w{3} \d{2} \w{3} \d{2}:\d{2}")


async def seated(
    server: Server, connect: Any, table: str, first: str, second: str, **create: Any
) -> dict[str, Any]:
    """``first`` (seat 0, who deals) and ``second`` (seat 1, who plays first)
    at ``table``, its game started; returns the players by name."""
    players = {n: await connect(n) for n in (first, second)}
    await players[first].send({"type": "create_table", "name": table, "seats": 2, **create})
    await players[first].expect("table_created")
    script(server.tables[table], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    for n in (first, second):
        await players[n].send({"type": "join", "table": table, "name": n})
        await players[n].expect("joined")
    for p in players.values():
        await p.expect("update")
    return players


async def test_games_prints_the_seats_kept_the_users_turns_first(
    server: Server, connect: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    address = f"127.0.0.1:{server.port}"
    club = await seated(server, connect, "club", "Ana", "Ben")  # Ben's turn
    friday = await seated(server, connect, "friday", "Ben", "Ana", correspondence_ms=86_400_000)
    keys = RecordKeys(tmp_path / "state" / "craits")
    keys.keep(address, club["Ana"].token, "club")
    keys.keep(address, friday["Ana"].token, "friday")
    keys.keep(address, "a-token-of-a-table-long-gone", "old")
    code = await asyncio.to_thread(main, [address, "--games", "--name", "Ana"])
    assert code == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert lines[0] == ["table", "as", "turn", "left", "due", "turns"]
    yours, theirs = lines[1:]
    assert yours[:3] == ["friday", "Ana (seat 1)", "you"] and yours[5] == "1d"
    assert yours[3] in ("23h 59m", "1d 0h") and DUE.fullmatch(yours[4])
    assert theirs == ["club", "Ana (seat 0)", "Ben", "-", "-", "-"]  # no turn timeout here


async def test_games_without_a_seat_kept_asks_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    # no server listens there: with no seat kept, none is asked
    code = await asyncio.to_thread(main, ["127.0.0.1:9", "--games"])
    assert code == 0
    assert capsys.readouterr().out == "table\tas\tturn\tleft\tdue\tturns\n"
