"""The client's lobby shows a table whose node is down as ``unavailable``
(protocol §7.4, §10): the word in its state column, the row dimmed, no join
or watch, and Enter says why in one line. Pilot against a real cluster: two
nodes on a real redis-server, one of them stopped before the client starts
(the change from listed to unavailable is tested at the protocol level, in
test_node_restart.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.tui.app import CraitsApp
from craits.client.tui.screens.lobby_screen import LobbyScreen
from textual.widgets import DataTable

from tests.support.client import screen_text, wait_for
from tests.support.cluster import RedisProcess, address, node_config, start_nodes, until

Open = Callable[..., Any]


def said(app: Any) -> str:
    """Every notification the app showed, one a line."""
    return "\n".join(str(n.message) for n in app._notifications)


async def test_a_table_whose_node_is_down_is_shown_unavailable_and_enter_says_why(
    redis: RedisProcess, open_player: Open, tmp_path: Path
) -> None:
    a, b = await start_nodes([node_config(redis.url), node_config(redis.url)])
    try:
        ana = await open_player(b.port, "Ana")
        await ana.send({"type": "create_table", "name": "faraway", "seats": 2, "placed": True})
        await ana.expect("table_created")
        await ana.send({"type": "join", "table": "faraway", "name": "Ana"})
        await ana.expect("joined")
        await until(lambda: a.cluster is not None and a.cluster.lobby.node_of("faraway"))
        await b.stop()  # B goes down: its table stays listed, unavailable
        await until(lambda: a.cluster is not None and a.cluster.lobby.is_down(address(b)))
        app = CraitsApp(
            "127.0.0.1",
            a.port,
            "Ben",
            store=TokenStore(tmp_path / "resume-Ben.json"),
            retry_base=0.05,
            retry_max=0.2,
        )
        async with app.run_test(size=(100, 24), notifications=True) as pilot:
            await wait_for(pilot, lambda: "faraway" in app.tables, what="B's table")
            assert app.tables["faraway"].get("unavailable") is True
            await pilot.pause(0.1)
            row = next(line for line in screen_text(app).splitlines() if "faraway" in line)
            assert "unavailable" in row
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            table = lobby.query_one(DataTable)
            cells = table.get_row_at(0)
            for cell in cells:  # each cell dimmed whole
                assert any(
                    str(s.style) == "dim" and s.start == 0 and s.end >= len(cell.plain)
                    for s in cell.spans
                ), cell
            assert lobby.check_action("join", ()) is None  # greyed out
            assert lobby.check_action("spectate", ()) is None
            await pilot.press("enter")
            await wait_for(pilot, lambda: "its server is down" in said(app), what="why")
            assert said(app).count("\n") == 0  # one line
            await pilot.press("j")
            await wait_for(pilot, lambda: said(app).count("its server is down") == 2, what="j")
            assert lobby.session.model is None  # still in the lobby
    finally:
        await a.stop()
        await b.stop()
