"""The ``--bots`` practice tables (protocol §11.8, issue 23), over real sockets.

``practice`` used to be the only one: a person who left its game mid-way kept
it from everyone for half an hour. Now one practice table is always free while
fewer than ``--max-practice-tables`` are open: a newcomer who finds one taken
sits at the next (``practice-2``…), opened as the last free one is taken; a
practice table closes when its game is done with (abandoned, or over and its
person gone), and the free tables beyond one close with it.
"""

from __future__ import annotations

from dataclasses import replace

from craits.server.app import Server, ServerConfig

from tests.support.processes import open_player
from tests.support.server import Player


async def lobby_watcher(port: int) -> Player:
    """A connection that watches the lobby (protocol §7.2)."""
    wes = await open_player(port, "Wes")
    await wes.send({"type": "list_tables", "watch": True})
    await wes.expect("tables")
    return wes


async def sit(port: int, name: str, table: str) -> Player:
    """``name`` sits at practice table ``table``; its game starts."""
    p = await open_player(port, name)
    await p.send({"type": "join", "table": table, "name": name})
    await p.expect("joined")
    await p.expect("update")
    return p


def practice_tables(srv: Server) -> list[str]:
    return sorted(n for n in srv.tables if n.startswith("practice"))


async def test_a_newcomer_who_finds_practice_taken_gets_a_table_of_their_own(
    config: ServerConfig,
) -> None:
    srv = Server(replace(config, bots=2, max_practice_tables=3))
    await srv.start()
    opened: list[Player] = []
    try:
        wes = await lobby_watcher(srv.port)
        opened.append(wes)
        assert practice_tables(srv) == ["practice"]
        ana = await sit(srv.port, "Ana", "practice")
        opened.append(ana)
        new = await wes.expect(
            "table_info",
            where=lambda m: m["table"]["name"] == "practice-2" and m["table"]["seated"] == 2,
        )
        assert new["table"]["state"] == "waiting" and new["table"]["seats"] == 3  # its bots, a seat
        await ana.close()  # gone mid-game: practice waits for her, practice-2 for anyone
        ben = await open_player(srv.port, "Ben")
        opened.append(ben)
        await ben.send({"type": "join", "table": "practice", "name": "Ben"})
        refused = await ben.expect("error")
        assert refused["code"] == "table_full" and "'practice-2' is free" in refused["message"]
        await ben.send({"type": "join", "table": "practice-2", "name": "Ben"})
        await ben.expect("joined")
        await wes.expect("table_info", where=lambda m: m["table"]["name"] == "practice-3")
        opened.append(await sit(srv.port, "Cy", "practice-3"))
        assert practice_tables(srv) == ["practice", "practice-2", "practice-3"]  # the limit
        dan = await open_player(srv.port, "Dan")
        opened.append(dan)
        await dan.send({"type": "join", "table": "practice-3", "name": "Dan"})
        refused = await dan.expect("error")
        assert refused["code"] == "table_full"
        assert "every practice table is in use" in refused["message"]
        await dan.send({"type": "create_table", "name": "practice-4", "seats": 2})
        assert (await dan.expect("error"))["code"] == "table_exists"  # kept for the server
    finally:
        for p in opened:
            await p.close()
        await srv.stop()


async def test_practice_tables_close_when_done_and_one_stays_free(config: ServerConfig) -> None:
    """Ana leaves ``practice`` mid-game; abandoned, it is opened afresh, and
    ``practice-2``, free beside it, is closed: the lobby holds one free table."""
    srv = Server(replace(config, bots=1, abandon_after=0.5))
    await srv.start()
    try:
        wes = await lobby_watcher(srv.port)
        ana = await sit(srv.port, "Ana", "practice")
        await wes.expect("table_info", where=lambda m: m["table"]["name"] == "practice-2")
        await ana.close()
        await wes.expect("table_closed", timeout=10, where=lambda m: m["name"] == "practice")
        await wes.expect("table_closed", timeout=10, where=lambda m: m["name"] == "practice-2")
        assert practice_tables(srv) == ["practice"]
        assert srv.tables["practice"].status.waiting
        await wes.close()
    finally:
        await srv.stop()


async def test_a_server_at_its_cap_of_tables_opens_no_more_practice_tables(
    config: ServerConfig,
) -> None:
    """``practice`` taken on a server holding all the tables it may: no
    ``practice-2``, and the player who took it is told nothing of it."""
    srv = Server(replace(config, bots=1, max_tables=1))
    await srv.start()
    try:
        ana = await sit(srv.port, "Ana", "practice")
        await ana.drain(0.3)
        assert [m for m in ana.received if m["type"] == "error"] == []
        assert practice_tables(srv) == ["practice"]
        await ana.close()
    finally:
        await srv.stop()
