"""Pilot tests of the lobby against a real server: its columns under a storm of
table changes and at 80 columns, and the key that seats bots."""

from __future__ import annotations

import asyncio
from typing import Any

from craits.client.present.presenter import lobby_row
from craits.client.tui.dialogs.base import ChoiceDialog
from craits.client.tui.screens.lobby_screen import column_widths
from craits.client.tui.screens.table_screen import TableScreen
from craits.protocol.client import Connection
from rich.text import Text
from textual.widgets import DataTable

from tests.support.client import screen_text, script, wait_for, wait_text
from tests.support.server import Player

RULES = {"short_game": True, "face_cards": True, "play_drawn_card": True, "idiot_card": True}


async def _six_at_once(port: int) -> list[Player]:
    """Six clients started at once: each connects, opens a table and sits at it."""

    async def one(i: int) -> Player:
        name = f"Player-number-{i}"
        p = Player(await Connection.open("127.0.0.1", port, name=name), name)
        await p.send({"type": "create_table", "name": f"table-{i}", "seats": 6, "rules": RULES})
        await p.expect("table_created")
        await p.send({"type": "join", "table": f"table-{i}", "name": name})
        await p.expect("joined")
        return p

    return list(await asyncio.gather(*(one(i) for i in range(6))))


def _cells_whole(app: Any) -> None:
    """Every cell of the list is on screen whole, in its column (wrapped, at most),
    and no line runs past the screen's right edge."""
    lines = screen_text(app).splitlines()
    header = next(i for i, line in enumerate(lines) if "Rules" in line and "Table" in line)
    starts = [
        lines[header].index(label)
        for label in ("Table", "Seats", "State", "Watching", "Players", "Rules")
    ]
    ends = [*starts[1:], app.size.width]
    body = lines[header + 1 : header + 1 + 3 * len(app.tables)]
    columns = [
        "".join("".join(line[a:b].split()) for line in body)
        for a, b in zip(starts, ends, strict=True)
    ]
    for info in app.tables.values():
        for i, cell in enumerate(lobby_row(info)):
            assert "".join(cell.plain.split()) in columns[i], (cell.plain, "\n".join(lines))
    for line in lines:
        assert len(line.rstrip()) <= app.size.width


async def test_the_columns_are_laid_out_at_once_under_a_storm_of_changes(
    server: Any, make_app: Any
) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        players = await _six_at_once(server.port)
        await wait_for(
            pilot,
            lambda: (
                len(app.tables) == 6 and all(len(t["players"]) == 1 for t in app.tables.values())
            ),
            what="six tables, each with its player",
        )
        # laid out as the list is drawn, not later when the app is idle: right
        # after a change, each column is already as wide as its widest cell
        lobby = app.screen
        lobby.sync()
        table = lobby.query_one(DataTable)
        columns = table.ordered_columns
        for i, column in enumerate(columns):
            widest = max(len(str(table.get_cell_at((r, i)))) for r in range(table.row_count))
            assert column.get_render_width(table) >= min(widest, 24) + 2, column.label
        # and the last column reaches the right edge: nothing bunched at the left
        assert sum(c.get_render_width(table) for c in columns) >= table.size.width - 2
        await pilot.pause(0.1)
        _cells_whole(app)
        header = next(line for line in screen_text(app).splitlines() if "Rules" in line)
        row = next(line for line in screen_text(app).splitlines() if "table-0" in line)
        assert row.index("short,") == header.index("Rules"), (header, row)
        for p in players:
            await p.close()


async def test_the_rules_column_is_not_clipped_at_80_columns(server: Any, make_app: Any) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        players = await _six_at_once(server.port)
        await wait_for(
            pilot,
            lambda: (
                all(len(t["players"]) == 1 for t in app.tables.values()) and len(app.tables) == 6
            ),
            what="six tables",
        )
        await pilot.pause(0.1)
        _cells_whole(app)
        assert "no timer" in screen_text(app)
        for p in players:
            await p.close()


def test_column_widths_share_what_is_left_between_players_and_rules() -> None:
    row = [Text(t) for t in ("t1", "1/4", "waiting", "0", "Ana, Ben", "standard; no timer")]
    wide = column_widths(120, [row])
    assert wide[:5] == [5, 5, 7, 8, 8]
    assert sum(wide) + 2 * 6 == 120  # the rules column takes the rest
    long = [*row[:4], Text("Anastasia, Bartholomew, 2 bots"), Text("x" * 80)]
    narrow = column_widths(80, [long])
    assert sum(narrow) + 2 * 6 <= 80
    assert narrow[4] >= 12 and narrow[5] >= 12


async def test_each_b_seats_one_bot_and_shift_b_chooses_the_level(
    server: Any, make_app: Any
) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        app.session.requests.create_table(
            {"type": "create_table", "name": "bots", "seats": 4, "rules": {}}  # type: ignore[typeddict-item]
        )
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        # the fourth seat starts the game: the random bot (seat 3) cuts the 2 and
        # deals (R2), so Ana never deals. A dealer who turns up an 8 or a 9 names
        # its suit first (R3): Ana's suit dialog would cover the table.
        script(server.tables["bots"], ["AC", "KC", "QC", "2C"])
        await wait_text(pilot, app, "b: add a bot")
        await pilot.press("b", "b")
        await wait_for(pilot, lambda: len(app.model.players) == 3, what="two bots")
        assert [p["bot"] for p in app.model.players] == [None, "basic", "basic"]
        # B asks the level, seats one of it, and b then seats that level
        await pilot.press("B")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="the levels")
        await pilot.press("r")
        await wait_for(pilot, lambda: app.model.view is not None, what="the full table")
        names = [p["name"] for p in app.model.players]
        assert names[3].startswith("random-bot"), names
        assert app.model.view["dealer"] == 3
        assert app.screen.bot_level == "random"


async def test_tables_whose_people_are_all_offline_are_listed_last_and_marked(
    server: Any, make_app: Any
) -> None:
    """ "Ada (offline), Bo (offline)" at a game: that table comes after the
    others in the lobby, its state saying offline (protocol §10,
    ``people_connected``), and goes back among them when someone is back."""
    ada, bo = [
        Player(await Connection.open("127.0.0.1", server.port, name=n), n) for n in ("Ada", "Bo")
    ]
    await ada.send({"type": "create_table", "name": "a-game", "seats": 2})
    await ada.expect("table_created")
    for p in (ada, bo):
        await p.send({"type": "join", "table": "a-game", "name": p.name})
        await p.expect("joined")
    await ada.expect("update")
    cy = Player(await Connection.open("127.0.0.1", server.port, name="Cy"), "Cy")
    await cy.send({"type": "create_table", "name": "b-open", "seats": 3})
    await cy.expect("table_created")
    await cy.send({"type": "join", "table": "b-open", "name": "Cy"})
    await cy.expect("joined")
    app = make_app("Eve")
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for(pilot, lambda: len(app.tables) == 2, what="the two tables")

        def listed() -> list[str]:
            table = app.screen.query_one(DataTable)
            return [
                str(table.coordinate_to_cell_key((r, 0)).row_key.value)
                for r in range(table.row_count)
            ]

        assert listed() == ["a-game", "b-open"]
        await ada.close()
        await bo.close()
        await wait_for(pilot, lambda: listed() == ["b-open", "a-game"], what="a-game last")
        row = next(line for line in screen_text(app).splitlines() if "a-game" in line)
        assert "hand 1/15, offline" in row and "Ada (offline), Bo (offline)" in row
        back = Player(await Connection.open("127.0.0.1", server.port, name="Ada"), "Ada")
        await back.send({"type": "resume", "token": ada.token})
        await back.expect("resumed")
        await wait_for(pilot, lambda: listed() == ["a-game", "b-open"], what="a-game back first")
        for p in (back, cy):
            await p.close()
