"""The table info object's ``may_start`` (protocol §10, §11.2), over real sockets:
the seats that may start the game, seat bots or start a new game right now."""

from __future__ import annotations

from typing import Any

from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig

from tests.support.server import Player, settle


def may_start(message: dict[str, Any]) -> list[int]:
    return list(message["table"]["may_start"])


async def test_may_start_is_the_creators_seat_then_every_seated_player_once_it_is_gone(
    server: Server, connect: Any
) -> None:
    ana, ben, cy = await connect("Ana"), await connect("Ben"), await connect("Cy")
    await ana.send({"type": "create_table", "name": "m", "seats": 4})
    created = await ana.expect("table_created")
    assert may_start(created) == []  # nobody seated yet
    await ben.send({"type": "join", "table": "m", "name": "Ben"})
    state = await ben.expect("state")
    # the creator is connected but not at the table: the seated may start
    assert may_start(state) == [0]
    await ana.send({"type": "join", "table": "m", "name": "Ana"})
    await ana.expect("joined")
    info = await ben.expect("table_info", where=lambda m: len(m["table"]["players"]) == 2)
    assert may_start(info) == [1]  # the creator is seated: only the creator's seat
    await cy.send({"type": "join", "table": "m", "name": "Cy"})
    state = await cy.expect("state")
    assert may_start(state) == [1]
    # the server agrees: a seat not in the list is refused, the one in it is not
    await cy.send({"type": "add_bot"})
    assert (await cy.expect("error"))["code"] == "not_creator"
    # the creator leaves: Ben and Cy move down to seats 0 and 1, and both may start
    await ana.send({"type": "leave"})
    await ana.expect("left")
    info = await ben.expect("table_info", where=lambda m: len(m["table"]["players"]) == 2)
    assert may_start(info) == [0, 1]
    await cy.send({"type": "add_bot"})
    info = await ben.expect("table_info", where=lambda m: len(m["table"]["players"]) == 3)
    assert info["table"]["players"][2]["bot"] is not None
    assert may_start(info) == [0, 1]  # a bot's seat is never in it


async def test_a_watching_creator_keeps_the_right_and_a_disconnect_hands_it_on(
    server: Server, connect: Any
) -> None:
    ana, ben, cy = await connect("Ana"), await connect("Ben"), await connect("Cy")
    await ana.send({"type": "create_table", "name": "w", "seats": 3})
    await ana.expect("table_created")
    await ana.send({"type": "spectate", "table": "w"})
    await ana.expect("state")
    for p in (ben, cy):
        await p.send({"type": "join", "table": "w", "name": p.name})
        await p.expect("joined")
    state = await cy.expect("state")
    assert may_start(state) == []  # the creator watches: no seated player may start
    await ben.send({"type": "start"})
    assert (await ben.expect("error"))["code"] == "not_creator"
    await ana.send({"type": "start"})  # the creator starts from the spectators' seats
    await settle([ben, cy], 1)
    # during the game the creator's connection drops: the seated players may start
    await ana.close()
    info = await ben.expect("table_info", where=lambda m: m["table"]["spectators"] == 0)
    assert info["table"]["state"] == "playing"
    assert may_start(info) == [0, 1]


async def test_a_seated_creator_who_drops_and_resumes_gets_the_right_back(
    server: Server, connect: Any
) -> None:
    ana, ben = await connect("Ana"), await connect("Ben")
    await ana.send({"type": "create_table", "name": "r", "seats": 2})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "r", "name": p.name})
        await p.expect("joined")
    await settle([ana, ben], 1)
    started = [m for m in ana.received if m["type"] == "table_info"][-1]
    assert started["table"]["state"] == "playing"
    assert may_start(started) == [0]
    assert ana.token is not None
    await ana.close()
    info = await ben.expect("table_info", where=lambda m: not m["table"]["players"][0]["connected"])
    assert may_start(info) == [1]  # Ana's seat has no connection: not in the list
    again = Player(await Connection.open("127.0.0.1", server.port, name="Ana"), "Ana")
    await again.send({"type": "resume", "token": ana.token})
    await again.expect("resumed")
    state = await again.expect("state")
    assert may_start(state) == [0]
    info = await ben.expect("table_info", where=lambda m: m["table"]["players"][0]["connected"])
    assert may_start(info) == [0]
    await again.close()


async def test_a_table_without_creator_lets_every_seated_person_start(
    config: ServerConfig,
) -> None:
    config.bots = 2
    srv = Server(config)
    await srv.start()
    try:
        ana = Player(await Connection.open("127.0.0.1", srv.port, name="Ana"), "Ana")
        await ana.send({"type": "list_tables"})
        tables = await ana.expect("tables")
        (practice,) = tables["tables"]
        assert practice["creator"] is None
        assert practice["may_start"] == []  # bots only: no one to start it
        await ana.send({"type": "join", "table": "practice", "name": "Ana"})
        await ana.expect("joined")  # the third seat fills the table: the game starts
        info = await ana.expect("table_info", where=lambda m: m["table"]["state"] == "playing")
        assert may_start(info) == [2]
        await ana.close()
    finally:
        await srv.stop()
