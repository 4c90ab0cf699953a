"""The drawn table without a terminal (:mod:`craits.client.present.felt`,
:mod:`craits.client.present.tableview`): seats placed around for 2 to 8 players, none
overlapping, every name and badge in words; faces in three sizes; the hand
overlapped then wrapped; ASCII only with ``--ascii``."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from craits.client.present.canvas import Canvas, Rect
from craits.client.present.card_style import CardStyle
from craits.client.present.felt import (
    CardPainter,
    FaceSize,
    Flight,
    HandPainter,
    TablePainter,
    face_size,
    hand_rows,
)
from craits.client.present.tableview import (
    MiddleView,
    Side,
    sides,
)
from rich.cells import cell_len

from tests.client.views import table_of

SIZES = {FaceSize.COMPACT: (50, 14), FaceSize.FULL: (75, 27), FaceSize.LARGE: (130, 36)}


def overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("players", range(2, 9))
def test_every_seat_is_drawn_apart_with_its_name(players: int, size: FaceSize) -> None:
    width, height = SIZES[size]
    canvas = Canvas(width, height)
    seats = table_of(players)
    middle = MiddleView(top="7H", suit="S", stock=30, count=4, direction=-1)
    plan = TablePainter(canvas, CardStyle(), size).table(seats, middle)
    rects = list(plan.seats.values())
    for i, a in enumerate(rects):
        assert a.x >= 0 and a.x + a.w <= width and a.y >= 0 and a.y + a.h <= height, a
        for b in rects[i + 1 :]:
            assert not overlaps(a, b), (a, b, canvas.text())
    text = canvas.text()
    for s in seats:
        assert f"P{s.seat}" in text, text
    assert "▶ P0 (you)" in text  # the seat to act, by a marker and not colour alone
    assert "0:42" in text  # its turn timer
    assert "dealer" in text or " D " in text or "D\n" in text, text
    if players > 2:
        assert "ONE CARD" in text or "1 card" in text, text
    assert "COUNT 4" in text, text


WIDE = "漢字漢字漢字漢字漢字漢字"
"""A name of 12 characters that a terminal draws in 24 cells."""
LONG = "Bartholomew-Featherstone"
"""A name of the longest length, 24 narrow characters."""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("ascii", [False, True])
def test_names_are_measured_as_the_terminal_draws_them(
    players: int, size: FaceSize, ascii: bool
) -> None:
    """Wide names (CJK, emoji: two cells a character) and long ones keep every
    row of the table as wide as the table and every seat's frame whole; a name
    too long for its seat is cut with a mark (issue 23: a wide name shifted the
    felt, a long one broke its seat frame)."""
    width, height = SIZES[size]
    names = [WIDE, LONG, "😀 Bo 😀", "Zoë"]
    seats = [replace(s, name=names[i % len(names)]) for i, s in enumerate(table_of(players))]
    canvas = Canvas(width, height)
    plan = TablePainter(canvas, CardStyle(ascii), size).table(seats, MiddleView(top="7H", stock=30))
    rows = [canvas.line(y).plain for y in range(height)]
    drawn = "\n".join(rows)
    for row in rows:
        assert cell_len(row) == width, drawn
    for seat in seats:
        rect = plan.seats[seat.seat]
        line = cells(rows[rect.y])[rect.x : rect.x + rect.w]  # the seat's first row
        shown = "".join(line).strip(" ─-+╭╮┏┓━#=")
        if "…" in shown or "~" in shown:
            marker = CardStyle(ascii).turn_marker
            assert shown.rstrip("…~").rstrip() in f"{marker} {seat.name} (you)", (shown, drawn)
        else:
            assert seat.name in shown, (shown, drawn)
        framed = rect.h >= 4 and line[0] in "╭┏+#"
        if framed:  # the corners of the frame where the seat's rectangle says
            assert line[-1] in "╮┓+#", (seat.name, drawn)
            bottom = cells(rows[rect.y + rect.h - 1])[rect.x : rect.x + rect.w]
            assert bottom[0] in "╰┗+#" and bottom[-1] in "╯┛+#", (seat.name, drawn)


def cells(row: str) -> list[str]:
    """``row`` as a terminal's cells: a wide character, then an empty cell."""
    out: list[str] = []
    for ch in row:
        out += [ch, ""] if cell_len(ch) == 2 else [ch]
    return out


def test_canvas_writes_a_wide_character_in_two_cells_and_never_half_of_one() -> None:
    canvas = Canvas(7, 1)
    canvas.put(0, 0, "ab漢字cd")
    assert canvas.line(0).plain == "ab漢字c" and cell_len(canvas.line(0).plain) == 7
    canvas.put(3, 0, "x")  # over the right half of 漢: its left half goes too
    assert canvas.line(0).plain == "ab x字c"
    canvas.put(5, 0, "漢")  # over 字's right half and c
    assert canvas.line(0).plain == "ab x 漢"
    clipped = Canvas(4, 1)
    clipped.put(-1, 0, "字ab漢")  # cut by the edges: blanks, not halves
    assert clipped.line(0).plain == " ab " and cell_len(clipped.line(0).plain) == 4


def test_seats_run_clockwise_from_the_bottom() -> None:
    # up the left, along the top, down the right: play runs clockwise on screen
    assert sides(7) == [Side.LEFT] * 2 + [Side.TOP] * 3 + [Side.RIGHT] * 2
    assert sides(1) == [Side.TOP]
    assert sides(2) == [Side.LEFT, Side.RIGHT]


@pytest.mark.parametrize("size", list(FaceSize))
def test_a_face_shows_rank_and_suit_in_its_corners(size: FaceSize) -> None:
    canvas = Canvas(size.width, size.height)
    CardPainter(canvas, CardStyle(), size).face(0, 0, "TH")
    rows = canvas.text().splitlines()
    assert rows[1].startswith("│10♥")
    if size is not FaceSize.COMPACT:
        assert rows[-2].endswith("10♥│")
        assert "♥" in rows[size.height // 2]


def test_faces_grow_with_the_terminal() -> None:
    assert face_size(80, 24) is FaceSize.COMPACT
    assert face_size(120, 40) is FaceSize.FULL
    assert face_size(200, 50) is FaceSize.LARGE
    assert face_size(160, 30) is FaceSize.FULL


def test_a_long_hand_overlaps_then_wraps() -> None:
    cards = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "AC"]
    canvas = Canvas(50, 5)
    plan = HandPainter(canvas, CardStyle(), FaceSize.COMPACT).hand(cards, {"7C"}, 0)
    assert len(plan.spots) == 12 and all(s.y == 0 for s in plan.spots)  # one row, overlapped
    labels = canvas.text().splitlines()[1] + canvas.text().splitlines()[2]
    for label in ("2♣", "10♣", "A♣"):
        assert label in labels, canvas.text()
    assert "7♣" in canvas.text().splitlines()[1]  # the playable card, raised a row
    assert hand_rows(13, 50, FaceSize.COMPACT) == 2  # then a second row
    assert hand_rows(30, 50, FaceSize.COMPACT) == 3


def test_ascii_faces_and_table_are_ascii() -> None:
    canvas = Canvas(75, 27)
    TablePainter(canvas, CardStyle(True), FaceSize.FULL).table(
        table_of(5), MiddleView(top="8D", suit="C", stock=20)
    )
    assert canvas.text().isascii(), canvas.text()
    assert "8D" in canvas.text()


@pytest.mark.parametrize("ascii_", [False, True])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_the_felt_drawn_again_alone_equals_the_whole_table_drawn(
    players: int, size: FaceSize, ascii_: bool
) -> None:
    """A card sliding in, landing, and its frame going back to plain draw only
    the felt again, over a copy of the last drawing: cell for cell what drawing
    the whole table would give."""
    width, height = SIZES[size]
    seats, style = table_of(players), CardStyle(ascii=ascii_)
    middle = MiddleView(top="9S", suit="H", stock=30, discard=4, count=0, direction=-1)
    steps: list[tuple[bool, Flight | None]] = [
        (True, Flight("9S", players - 1, 0.0)),
        (True, Flight("9S", 1, 0.5)),
        (True, None),
        (False, None),
    ]
    last = Canvas(width, height)
    plan = TablePainter(last, style, size).table(seats, middle, fresh=True, flight=steps[0][1])
    for fresh, flight in steps[1:]:
        again = Canvas(width, height)
        again.copy_from(last)
        top = TablePainter(again, style, size).felt(plan, middle, fresh=fresh, flight=flight)
        whole = Canvas(width, height)
        expected = TablePainter(whole, style, size).table(seats, middle, fresh=fresh, flight=flight)
        assert top == expected.top
        assert again.text() == whole.text()
        assert (again.chars, again.styles, again.grounds) == (
            whole.chars,
            whole.styles,
            whole.grounds,
        )
        last = again


@pytest.mark.parametrize("ascii_", [False, True])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_a_card_sliding_in_over_the_table_drawn_without_it_equals_the_table_drawn_with_it(
    players: int, size: FaceSize, ascii_: bool
) -> None:
    """The table drawn without the sliding card, then the card drawn over it
    (:meth:`TablePainter.flight`, the pile's place emptied): cell for cell the table
    drawn with the card on its way, from every seat, at each step."""
    width, height = SIZES[size]
    seats, style = table_of(players), CardStyle(ascii=ascii_)
    for seat, progress, count in itertools.product(range(players), (0.0, 0.5), (0, 2)):
        middle = MiddleView(top="9S", suit="H", stock=30, discard=4, count=count, direction=-1)
        flight = Flight("9S", seat, progress)
        over = Canvas(width, height)
        plan = TablePainter(over, style, size).table(seats, middle, fresh=True)
        TablePainter(over, style, size).flight(plan, flight)
        whole = Canvas(width, height)
        TablePainter(whole, style, size).table(seats, middle, fresh=True, flight=flight)
        assert (over.chars, over.styles, over.grounds) == (
            whole.chars,
            whole.styles,
            whole.grounds,
        ), (seat, progress, count, over.text(), whole.text())
