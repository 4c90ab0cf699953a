"""The table's parts as a newcomer meets them: every client message has its
handler, and a table's state changes only as protocol §11.1 draws them."""

from __future__ import annotations

from typing import Any

import pytest
from craits.protocol import SCHEMAS
from craits.protocol.vocab import ClientMessage, TableState
from craits.server.app import Server
from craits.server.engine import Rules
from craits.server.net.handlers import HANDLERS

from tests.support.server import settle


def test_every_client_message_has_one_handler() -> None:
    assert set(HANDLERS) == set(ClientMessage) == set(SCHEMAS)


async def test_a_table_changes_state_only_as_the_protocol_draws_it(server: Server) -> None:
    table = server.create_table("s", 2, Rules(), None, None)
    assert table.status.state is TableState.WAITING and table.status.waiting
    with pytest.raises(RuntimeError, match="no way from stopped to playing"):
        table.status.become(TableState.STOPPED)
        table.status.become(TableState.PLAYING)
    assert (
        table.status.state is TableState.STOPPED
        and table.status.halted
        and not table.status.holds_game
    )
    server.close_table(table)


async def test_a_finished_game_can_start_again_and_a_stopped_table_refuses(
    server: Server, connect: Any
) -> None:
    ana, ben = await connect("Ana"), await connect("Ben")
    await ana.send({"type": "create_table", "name": "f", "seats": 2})
    await ana.expect("table_created")
    for p in (ana, ben):
        await p.send({"type": "join", "table": "f", "name": p.name})
        await p.expect("joined")
    await settle([ana, ben], 1)
    table = server.tables["f"]
    assert table.status.playing and table.status.holds_game
    table.status.become(TableState.FINISHED)
    await ana.send({"type": "new_game"})
    await settle([ana, ben], 2)
    assert table.status.playing
    table.stop_on_error()  # what an unexpected error does
    await ana.expect("error", where=lambda m: m["code"] == "table_stopped")
    await ana.send({"type": "start"})
    assert (await ana.expect("error"))["code"] == "table_stopped"
