"""Games whose people are all offline (issue 23), over real sockets.

The table info counts the seats held by people and how many of them are
connected (protocol §10: ``people``, ``people_connected``; a private table's
lobby entry too, naming nobody); a table whose people are all offline is
abandoned after the shorter grace (``--abandon-offline-after``), sooner than a
game someone is still at; a game nobody plays, a person connected but away,
is abandoned after the abandon time (``--abandon-after``), its record saying
``nobody_playing`` (protocol §11.1, docs/records.md).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from craits.server.app import Server, ServerConfig

from tests.support.processes import open_player
from tests.support.server import Player


async def table_of_two(
    port: int, name: str, names: tuple[str, str], **extra: Any
) -> tuple[Player, Player]:
    """Two players sit at a new two-seat table ``name`` (a private one with
    ``private=True``); its game starts."""
    first, second = [await open_player(port, n) for n in names]
    await first.send({"type": "create_table", "name": name, "seats": 2, **extra})
    code = (await first.expect("table_created")).get("code")
    for p in (first, second):
        message = {"type": "join", "table": name, "name": p.name}
        if code is not None:
            message["code"] = code
        await p.send(message)
        await p.expect("joined")
    await first.expect("update")
    await second.expect("update")
    return first, second


async def both_away(port: int, name: str, names: tuple[str, str]) -> tuple[Player, Player]:
    """Two players at a table whose turns time out at once (300 ms): both
    seats are soon away, their connections open, and the game is on hold."""
    first, second = await table_of_two(port, name, names, turn_timeout_ms=300)
    await first.expect("table_info", timeout=10, where=lambda m: m["table"]["on_hold"])
    return first, second


async def record_of(player: Player, table: str, token: str | None = None) -> dict[str, Any]:
    """The record of the (one) game played at ``table`` (a private table's with
    the ``token`` of one of its seats, protocol §7.3)."""
    proof = {"tokens": [token]} if token is not None else {}
    await player.send({"type": "list_records", **proof})
    games = (await player.expect("records"))["games"]
    (game,) = [g for g in games if g["table"] == table]
    await player.send({"type": "get_record", "game": game["id"], **proof})
    return dict((await player.expect("record"))["record"])


async def test_a_table_whose_people_are_all_offline_closes_sooner_than_one_on_hold(
    config: ServerConfig, tmp_path: Path
) -> None:
    srv = Server(replace(config, data_dir=tmp_path, abandon_after=600.0, abandon_offline_after=0.5))
    await srv.start()
    try:
        wes = await open_player(srv.port, "Wes")
        await wes.send({"type": "list_tables", "watch": True})
        await wes.expect("tables")
        ana, ben = await table_of_two(srv.port, "gone", ("Ana", "Ben"), private=True)
        cy, di = await both_away(srv.port, "held", ("Cy", "Di"))
        for p in (ana, ben):
            await p.close()

        def offline(m: dict[str, Any]) -> bool:
            t = m["table"]
            return bool(t["name"] == "gone" and t["people"] == 2 and t["people_connected"] == 0)

        entry = await wes.expect("table_info", where=offline)
        assert entry["table"]["players"] == []  # the lobby tells it, naming nobody
        await wes.expect("table_closed", timeout=10, where=lambda m: m["name"] == "gone")
        held = srv.tables["held"]  # someone is still at this one: it stays
        assert held.status.playing and held.status.on_hold()
        assert (await record_of(wes, "gone", ana.token))["abandoned"] == "nobody_connected"
        for p in (wes, cy, di):
            await p.close()
    finally:
        await srv.stop()


async def test_a_game_nobody_plays_is_abandoned_after_the_abandon_time(
    config: ServerConfig, tmp_path: Path
) -> None:
    """Both players away, both connected: the game waits for one of them
    (on hold) for ``abandon_after`` at most, then ends as abandoned."""
    srv = Server(replace(config, data_dir=tmp_path, abandon_after=0.5))
    await srv.start()
    try:
        cy, di = await both_away(srv.port, "idle", ("Cy", "Di"))
        closed = await cy.expect("table_closed", timeout=10)
        assert closed["name"] == "idle" and "idle" not in srv.tables
        record = await record_of(cy, "idle")
        assert record["abandoned"] == "nobody_playing" and record["complete"] is False
        for p in (cy, di):
            await p.close()
    finally:
        await srv.stop()
