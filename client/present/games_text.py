"""``craits-client HOST --games``: the tables where the user holds a seat, as
lines for a terminal or a script (protocol §11.11). Pure: the games and the
time zone in, the text out."""

from __future__ import annotations

import re
from datetime import datetime, tzinfo

from craits.protocol.types import MyGame
from craits.protocol.vocab import TableState
from rich.cells import cell_len

GAP = 2
"""Blank columns between two columns on a terminal."""
HEADER = ["table", "as", "turn", "left", "due", "turns"]
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def span(ms: int) -> str:
    """A time left in words a glance reads: ``2d 3h``, ``5h 07m``, ``4m 05s``, ``9s``."""
    seconds = max(0, ms) // 1000
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {seconds:02d}s"
    return f"{seconds}s"


def _turn(game: MyGame) -> str:
    """Whose turn: ``you``, the player's name, or what the table is doing."""
    if game["your_turn"]:
        return "you"
    if game["to_act_name"] is not None:
        return _plain(game["to_act_name"])
    if game["state"] == TableState.PLAYING:
        return "between hands"
    return str(game["state"])


def _plain(text: str) -> str:
    """Network text made safe for a terminal line."""
    return _UNSAFE.sub("?", text)


def _turns(game: MyGame) -> str:
    """A correspondence game's turn time (``3d``, ``12h``, ``1h 30m``), or ``-``."""
    turn = game.get("correspondence_ms")
    if turn is None:
        return "-"
    for unit, size in (("d", 86_400_000), ("h", 3_600_000)):
        if turn % size == 0:
            return f"{turn // size}{unit}"
    return span(turn)


def row(game: MyGame, zone: tzinfo | None = None) -> list[str]:
    """One game's cells under :data:`HEADER`; ``due`` on the calendar of
    ``zone`` (None: the local one)."""
    left, at = game["deadline_ms"], game["deadline_at_ms"]
    due = "-"
    if at is not None:
        due = datetime.fromtimestamp(at / 1000, zone).astimezone(zone).strftime("%a %d %b %H:%M")
    turn = _turn(game) + (" (on hold)" if game["on_hold"] else "")
    return [
        _plain(game["table"]),
        f"{_plain(game['name'])} (seat {game['seat']})",
        turn,
        span(left) if left is not None else "-",
        due,
        _turns(game),
    ]


def format_games(games: list[MyGame], aligned: bool = False, zone: tzinfo | None = None) -> str:
    """The ``--games`` output: a header, then one line per game in the
    server's order (the user's turns first); tab-separated (for scripts), or
    ``aligned`` under their headers for a terminal, which also says when
    there are none."""
    rows = [HEADER, *(row(g, zone) for g in games)]
    if not aligned:
        return "\n".join("\t".join(r) for r in rows)
    widths = [max(cell_len(r[i]) for r in rows) for i in range(len(HEADER))]
    lines = [
        (" " * GAP)
        .join(c + " " * (w - cell_len(c)) for c, w in zip(r, widths, strict=True))
        .rstrip()
        for r in rows
    ]
    if not games:
        lines.append("(no games: this client holds no seat at this server)")
    return "\n".join(lines)
