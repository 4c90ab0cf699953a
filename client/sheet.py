"""The running score sheet, as on paper: a line per hand played, a column per seat;
in each cell the hand's points (R9), the shuffle penalties paid in it (R10) and the
running total. Pure functions of the model's sheet (the ``state``'s
``score_sheet``, then each ``hand_ended`` event; protocol §7.1, §9); no Textual.
"""

from __future__ import annotations

from craits.protocol.types import ScoreSheetRow
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .cards import CardStyle
from .model import TableModel


def _at(values: list[int], seat: int) -> int:
    return values[seat] if 0 <= seat < len(values) else 0


def sheet_cell(row: ScoreSheetRow, seat: int) -> Text:
    """One seat's cell for one hand: ``12 (+5)  42`` — points, penalties, total."""
    points = _at(row["points"], seat)
    penalty = _at(row["penalties"], seat)
    out = Text(f"{points}", style="dim" if points == 0 and not penalty else "")
    if penalty:
        out.append(f" (+{penalty})", style="bold")
    out.append("  ")
    out.append(str(_at(row["scores"], seat)), style="bold")
    return out


def _seats(model: TableModel) -> int:
    if model.view is not None:
        return model.view["players"]
    widest = max((len(r["scores"]) for r in model.sheet), default=0)
    return max(widest, len(model.players))


def _header(model: TableModel, seat: int) -> Text:
    name = Text(model.name_of(seat), style="bold")
    if seat == model.seat:
        name.append(" (you)", style="dim")
    return name


def _current(model: TableModel) -> list[int] | None:
    """The totals now, when they differ from the sheet's last line (a shuffle
    penalty paid in the hand in play, R10), else None."""
    view = model.view
    if view is None:
        return None
    last = model.sheet[-1]["scores"] if model.sheet else [0] * len(view["scores"])
    return list(view["scores"]) if list(view["scores"]) != list(last) else None


def score_sheet(model: TableModel, style: CardStyle) -> RenderableType:
    """The whole sheet: a line per hand ended, then the totals now."""
    seats = _seats(model)
    hands = "?" if model.view is None else model.view["hands_in_game"]
    title = Text(f"Score sheet — {len(model.sheet)} of {hands} hands played", style="bold")
    key = Text(
        "Each cell: the hand's points, (+shuffle penalties paid in it), then the total. "
        "Lowest total wins.",
        style="dim",
    )
    if not model.sheet and model.view is None:
        return Group(title, Text("No game yet.", style="dim"))
    t = Table(
        box=box.ASCII2 if style.ascii else box.SIMPLE_HEAD,
        expand=True,
        padding=(0, 1),
        pad_edge=False,
    )
    t.add_column("Hand", justify="right", no_wrap=True)
    for seat in range(seats):
        t.add_column(_header(model, seat), justify="right", overflow="fold")
    for row in model.sheet:
        t.add_row(Text(str(row["hand_number"])), *(sheet_cell(row, s) for s in range(seats)))
    current = _current(model)
    view = model.view
    if current is not None and view is not None:
        last = model.sheet[-1]["scores"] if model.sheet else [0] * seats
        cells = []
        for s in range(seats):
            paid = _at(current, s) - _at(last, s)
            cell = Text(f"(+{paid})  " if paid else "", style="bold")
            cell.append(str(_at(current, s)), style="bold")
            cells.append(cell)
        t.add_row(Text(f"{view['hand_number']}…", style="italic"), *cells)
    if not model.sheet and current is None:
        t.add_row(Text("—", style="dim"), *(Text("0", style="dim") for _ in range(seats)))
    return Group(title, t, key)
