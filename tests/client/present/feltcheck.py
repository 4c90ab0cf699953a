"""Reading a drawn table's felt back from its rendered rows: is its frame whole,
and are its words whole (the direction of play, the count)?"""

from __future__ import annotations

from craits.client.present.canvas import ASCII, ASCII_HEAVY, HEAVY, ROUND, Frame, Rect


def felt_faults(rows: list[str], felt: Rect, ascii: bool, count: int, direction: int) -> list[str]:
    """What is wrong with the felt drawn in ``rows`` (the table widget's rows)
    at ``felt``: a frame cell overwritten, the count's box open, the count or
    the direction's words cut. An empty list when all is well."""
    plain, heavy = (ASCII, ASCII_HEAVY) if ascii else (ROUND, HEAVY)
    arrows = set("<>^v") if ascii else set("←→↑↓")
    faults: list[str] = []
    x0, y0, x1, y1 = felt.x, felt.y, felt.x + felt.w - 1, felt.y + felt.h - 1
    framed = rows[y0][x0] == plain.tl
    if framed:
        corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
        for (x, y), corner in zip(corners, (plain.tl, plain.tr, plain.bl, plain.br), strict=True):
            if rows[y][x] != corner:
                faults.append(f"corner ({x},{y}) is {rows[y][x]!r}, not {corner!r}")
        for y in (y0, y1):
            edge = rows[y][x0 + 1 : x1]
            if set(edge) - {plain.h, " "} - arrows:
                faults.append(f"edge row {y} is {edge!r}")
        for y in range(y0 + 1, y1):
            for x in (x0, x1):
                if rows[y][x] != plain.v and rows[y][x] not in arrows:
                    faults.append(f"side ({x},{y}) is {rows[y][x]!r}")
    inner = (
        [row[x0 + 1 : x1] for row in rows[y0 + 1 : y1]]
        if framed
        else [row[x0 : x1 + 1] for row in rows[y0 : y1 + 1]]
    )
    squeezed = "".join(line.strip() for line in inner)
    if count:
        said = f"COUNT {count}"
        at = [i for i, line in enumerate(inner) if said in line]
        if not at:
            faults.append(f"{said!r} is not on the felt whole")
        else:
            faults += _box_faults(inner, at[0], inner[at[0]].index(said), heavy)
    else:
        words = "counter-clockwise" if direction < 0 else "clockwise"
        parts = {words[i : i + 5] for i in range(len(words) - 4)}
        if any(part in squeezed for part in parts) and words not in squeezed:
            faults.append(f"the direction is cut: {squeezed!r}")
    return faults


def _box_faults(inner: list[str], i: int, pos: int, heavy: Frame) -> list[str]:
    """Whether the count's words at row ``i``, column ``pos`` of ``inner`` are
    in a whole box: when the row over them is a heavy edge, it runs from corner
    to corner, the count's row has a side under each corner, and the row under
    the words is the box's bottom edge, as wide."""
    above = inner[i - 1] if i > 0 else ""
    if pos >= len(above) or above[pos] != heavy.h:
        return []  # the count on one line (no room for its box)
    start, end = pos, pos
    while start > 0 and above[start - 1] == heavy.h:
        start -= 1
    while end + 1 < len(above) and above[end + 1] == heavy.h:
        end += 1
    start, end = start - 1, end + 1
    faults = []
    if start < 0 or end >= len(above) or (above[start], above[end]) != (heavy.tl, heavy.tr):
        faults.append(f"the count's box has no corner above: {above!r}")
    line = inner[i]
    if start < 0 or end >= len(line) or (line[start], line[end]) != (heavy.v, heavy.v):
        faults.append(f"the count's box has a side missing: {line!r}")
    below = inner[i + 1] if i + 1 < len(inner) else ""
    if max(start, 0) >= len(below) or below[max(start, 0) : end + 1] != (
        heavy.bl + heavy.h * (end - start - 1) + heavy.br
    ):
        faults.append(f"the count's box is open below: {below!r}")
    return faults
