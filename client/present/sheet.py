"""The running score sheet, as on paper: a line per hand played, a column per seat;
in each cell the hand's points (R9), the shuffle penalties paid in it (R10) and the
running total. Pure functions of the model's sheet (the ``state``'s
``score_sheet``, then each ``hand_ended`` event; protocol §7.1, §9); no Textual.
"""

from __future__ import annotations

from craits.protocol.i18n import _, ngettext
from craits.protocol.types import ScoreSheetRow
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.model import TableModel, seat_value
from .card_style import CardStyle
from .results import HEADINGS


def sheet_cell(row: ScoreSheetRow, seat: int, stacked: bool = False, arrow: str = "→") -> Text:
    """One seat's cell for one hand: ``12 (+5) → 42`` — points, (+penalties), total;
    ``stacked``: ``12+5`` over the total, for a narrow sheet."""
    points = seat_value(row["points"], seat)
    penalty = seat_value(row["penalties"], seat)
    out = Text(f"{points}", style="dim" if points == 0 and not penalty else "")
    if penalty:
        out.append(f"+{penalty}" if stacked else f" (+{penalty})", style="bold")
    out.append("\n" if stacked else f" {arrow} ", style="dim")
    out.append(str(seat_value(row["scores"], seat)), style="bold")
    return out


ASCII_HEAD = box.Box("    \n    \n -- \n    \n    \n    \n    \n    \n", ascii=True)
"""A rule under the names and nothing else, in ASCII (rich's ``SIMPLE_HEAD`` drawn with ``-``)."""

STACK_WIDTH = 16
"""Columns a seat needs for a one-line cell (``110 (+20) → 4130``); narrower, the
cells are stacked on two lines."""


def _seats(model: TableModel) -> int:
    if model.view is not None:
        return model.view["players"]
    widest = max((len(r["scores"]) for r in model.sheet), default=0)
    return max(widest, len(model.players))


def _header(model: TableModel, seat: int, width: int, more: str = "…") -> Text:
    """The seat's name over its column, cut to ``width`` (``(you)`` when it fits)."""
    name = model.name_of(seat)
    me = seat == model.seat
    you = " " + _("(you)")
    if me and len(name) + len(you) <= width:
        return Text.assemble((name, "bold underline"), (you, "dim"))
    if len(name) > width:
        name = name[: max(1, width - len(more))] + more
    return Text(name, style="bold underline" if me else "bold")


def _cell_width(cell: Text) -> int:
    return max((len(line) for line in cell.plain.split("\n")), default=0)


def _current(model: TableModel) -> list[int] | None:
    """The totals now, when they differ from the sheet's last line (a shuffle
    penalty paid in the hand in play, R10), else None."""
    view = model.view
    if view is None:
        return None
    last = model.sheet[-1]["scores"] if model.sheet else [0] * len(view["scores"])
    return list(view["scores"]) if list(view["scores"]) != list(last) else None


def score_sheet(model: TableModel, style: CardStyle, width: int | None = None) -> RenderableType:
    """The whole sheet: a line per hand ended, then the totals now. For a sheet
    ``width`` columns wide that cannot give each seat :data:`STACK_WIDTH`, each
    cell takes two lines (points and penalties over the total)."""
    seats = _seats(model)
    stacked = width is not None and 6 + seats * STACK_WIDTH > width
    hands = "?" if model.view is None else model.view["hands_in_game"]
    dash = "-" if style.ascii else "—"
    played = ngettext(
        "Score sheet {dash} {n} of {of} hands played",
        "Score sheet {dash} {n} of {of} hands played",
        len(model.sheet),
    )
    title = Text(played.format(dash=dash, n=len(model.sheet), of=hands), style="bold")
    key = Text(
        _(
            "Each cell: the hand's points, + the shuffle penalties paid in it, then the total. "
            "Lowest total wins."
        ),
        style="dim",
    )
    if not model.sheet and model.view is None:
        return Group(title, Text(_("No game yet."), style="dim"))
    rows = _rows(model, seats, stacked, style)
    return Group(title, _table(model, rows, seats, stacked, width, style), key)


def _rows(model: TableModel, seats: int, stacked: bool, style: CardStyle) -> list[list[Text]]:
    """The sheet's lines: the hand's number, then a cell per seat; a line for the
    hand in play when a shuffle penalty moved the totals since the last hand; a
    line of zeros before the first hand ends."""
    arrow = "->" if style.ascii else "→"
    rows = [
        [Text(str(row["hand_number"])), *(sheet_cell(row, s, stacked, arrow) for s in range(seats))]
        for row in model.sheet
    ]
    current = _current(model)
    view = model.view
    if current is not None and view is not None:
        last = model.sheet[-1]["scores"] if model.sheet else [0] * seats
        more = "..." if style.ascii else "…"
        cells = [Text(f"{view['hand_number']}{more}", style="italic")]
        for s in range(seats):
            paid = seat_value(current, s) - seat_value(last, s)
            cell = Text((f"+{paid}\n" if stacked else f"(+{paid}) ") if paid else "", style="bold")
            cell.append(str(seat_value(current, s)), style="bold")
            cells.append(cell)
        rows.append(cells)
    if not rows:
        dash = "-" if style.ascii else "—"
        rows.append([Text(dash, style="dim"), *(Text("0", style="dim") for _ in range(seats))])
    return rows


def _table(
    model: TableModel,
    rows: list[list[Text]],
    seats: int,
    stacked: bool,
    width: int | None,
    style: CardStyle,
) -> Table:
    """The sheet's ``rows`` under the seats' names, each column as wide as its
    cells and (room allowing) its name."""
    t = Table(
        box=ASCII_HEAD if style.ascii else box.SIMPLE_HEAD,
        padding=(0, 0 if stacked else 1),
        pad_edge=False,
    )
    more = "..." if style.ascii else "…"
    room = max(6, ((width or 100) - 6) // max(1, seats) - (1 if stacked else 3))
    t.add_column(str(HEADINGS["hand"]), justify="right", no_wrap=True)
    for seat in range(seats):
        need = max(_cell_width(r[seat + 1]) for r in rows)
        you = len(_("(you)")) + 1 if seat == model.seat else 0
        w = max(need, min(len(model.name_of(seat)) + you, room))
        t.add_column(_header(model, seat, w, more), justify="right", no_wrap=True, min_width=w)
    for r in rows:
        t.add_row(*r, end_section=stacked)
    return t
