"""The felt drawn whole (a Pilot test against a real server): at 80×24 and up,
for every seat count 2–8, the table's frame is intact and the words on it (the
direction of play, the count) are whole and inside it. Read back from the
rendered rows of the table widget (:mod:`tests.client.present.feltcheck`), not by
comparing pictures."""

from __future__ import annotations

from typing import Any

import pytest
from craits.client.present.canvas import Canvas
from craits.client.present.card_style import CardStyle
from craits.client.present.felt import FaceSize, TablePainter, face_size
from craits.client.present.tableview import MiddleView
from craits.client.tui.screens.table_screen import TableScreen

from tests.client.present.feltcheck import felt_faults
from tests.client.views import table_of
from tests.support.client import script, shown_in, wait_for
from tests.support.server import strip_seat

ANA = ["3C", "4C", "5C", "6C", "7C", "9C", "JC", "QC"]
CID = ["2H", "3D", "4D", "5D", "6D", "7D", "9D", "JD"]
BEN = ["3S", "4S", "5S", "6S", "7S", "9S", "JS", "QS"]
"""Ben (seat 0) deals; Ana (seat 1, this client) and Cid (seat 2)."""

SIZES = [(80, 24), (90, 28), (100, 30), (120, 40), (160, 45), (200, 50)]
"""Terminal sizes from the least with the log beside the table, through each face size."""

MIDDLES = [
    MiddleView(top="TH", stock=30, direction=-1),
    MiddleView(top="TH", suit="S", stock=104, direction=-1),
    MiddleView(top="2H", stock=30, count=2, direction=-1),
    MiddleView(top="AS", suit=None, stock=30, count=12, direction=1),
]
"""What lies on the felt: the longest words (counter-clockwise, a suit named, the count)."""


def felt_rows(app: Any) -> tuple[list[str], Any]:
    """The table widget's rows as the screen shows them, and where its felt is."""
    felt = app.screen.query_one("#felt")
    return shown_in(app, felt), felt.plan.felt


def on_felt(rows: list[str], felt: Any) -> str:
    """The words on the felt (inside its frame, when it has one), joined, the
    spaces at each row's ends dropped (so "counter-" ending a row joins "clockwise")."""
    edge = 1 if rows[felt.y][felt.x] in ("╭", "+") else 0
    inside = [
        row[felt.x + edge : felt.x + felt.w - edge]
        for row in rows[felt.y + edge : felt.y + felt.h - edge]
    ]
    return "".join(row.strip() for row in inside)


async def three_at_table(server: Any, connect: Any, make_app: Any, ascii: bool) -> Any:
    """Ben opens a three-seat table (no turn timer), Ana (the app) and Cid sit;
    Ben deals and turns up 10♥, which reverses: Cid plays first. Returns the app."""
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 3, "turn_timeout_ms": 0})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    deal = [card for trio in zip(ANA, CID, BEN, strict=True) for card in trio]
    script(server.tables["t1"], ["2C", "AC", "KC"], [*deal, "TH"])
    app = make_app("Ana", table="t1", ascii=ascii)
    return app


@pytest.mark.parametrize("ascii", [False, True])
async def test_the_felt_is_whole_at_every_seat_count_and_size(
    server: Any, connect: Any, make_app: Any, ascii: bool
) -> None:
    app = await three_at_table(server, connect, make_app, ascii)
    async with app.run_test(size=(80, 24)) as pilot:
        app.animation_level = "none"
        await wait_for(pilot, lambda: app.model is not None and app.model.seat == 1, what="seat")
        cid = await connect("Cid")
        await cid.send({"type": "join", "table": "t1", "name": "Cid"})
        update = await cid.expect("update", where=lambda m: m["view"]["to_act"] == 2)
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, TableScreen)
                and app.model.view is not None
                and app.model.view["to_act"] == 2
            ),
            what="the deal",
        )
        await pilot.pause(0.1)
        # the turned-up 10 reversed the play: the words say so whole, inside the frame
        rows, felt = felt_rows(app)
        assert felt_faults(rows, felt, ascii, 0, -1) == [], "\n".join(rows)
        assert "counter-clockwise" in on_felt(rows, felt), "\n".join(rows)
        # Cid plays 2♥: the count is on against Ana, in its box inside the frame
        play = next(a for a in update["view"]["legal"] if a.get("play") == "2H")
        await cid.act(strip_seat(play))
        await wait_for(pilot, lambda: app.model.view["count"] == 2, what="the count")
        await pilot.pause(0.1)
        rows, felt = felt_rows(app)
        assert felt_faults(rows, felt, ascii, 2, -1) == [], "\n".join(rows)
        assert "COUNT 2" in on_felt(rows, felt), "\n".join(rows)
        # every seat count, the longest words, at each size, with a hand of one
        # row of cards and of two: drawn as the table widget draws, at the size
        # the screen's layout gives it
        widget = app.screen.query_one("#felt")
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await pilot.pause(0.1)
            width, height = widget.content_size
            face = face_size(*size)
            for rows_high in (height, height - face.height - 2):  # a second row of cards
                for players in range(2, 9):
                    for middle in MIDDLES:
                        check_felt(width, rows_high, players, middle, ascii, face)


def check_felt(
    width: int, height: int, players: int, middle: MiddleView, ascii: bool, face: FaceSize
) -> None:
    """Draw the table of ``players`` seats with ``middle`` on ``width`` ×
    ``height`` cells as the table widget does; read its rows back: seats apart
    and off the felt, the pile drawn, the frame whole, the words whole."""
    canvas = Canvas(width, height)
    plan = TablePainter(canvas, CardStyle(ascii), face).table(table_of(players), middle)
    rows = [canvas.line(y).plain for y in range(height)]
    where = f"{width}x{height}, {players} seats, {middle}:\n" + "\n".join(rows)
    assert plan.felt is not None and plan.top is not None, where
    rects = [*plan.seats.values(), plan.felt]
    for i, a in enumerate(rects):
        assert a.y >= 0 and a.y + a.h <= height, where
        for b in rects[i + 1 :]:
            apart = a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
            assert apart, (a, b, where)
    assert felt_faults(rows, plan.felt, ascii, middle.count, middle.direction) == [], where
    if middle.count:
        assert f"COUNT {middle.count}" in on_felt(rows, plan.felt), where
    for seat in table_of(players):
        assert f"P{seat.seat}" in "".join(rows), where
