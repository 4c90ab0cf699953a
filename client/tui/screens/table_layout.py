"""The table screen's layout for the terminal's size: the log beside the table from 80
columns, under it below (stacked), and a request for a bigger terminal below the least.
"""

from __future__ import annotations

from craits.protocol.i18n import _
from rich.text import Text
from textual.screen import Screen
from textual.widgets import Input, Static

WIDE = (80, 20)
"""The least terminal (columns, rows) for the table beside the log."""


LARGE = (160, 45)
"""From this terminal size: larger card faces, and more room for the log."""


STACKED = (40, 24)
"""The least terminal for the stacked layout (the log under the table); a
phone's browser is about 44 columns by 40 rows or more."""


STACKED_LOG = 9
"""Rows of the log and chat under the table in the stacked layout up to 30 rows;
a taller screen (a phone held upright) gives them half of each row more."""


FELT_LEAST = 7
"""The fewest rows of the drawn table in the stacked layout (two seats of two
rows and the pile between them; the style sheet's ``min-height``)."""


PROMPT_ROWS = 3
"""The prompt's rows (the style sheet's ``#prompt`` height)."""


LOG_LEAST = 3
"""The fewest rows of the game log under the table: one line in its frame."""


CHAT_ROWS = (4, 3)
"""The chat's rows under the table in the stacked layout: two lines, or one
when the screen is low."""


def stacked_rows(rows: int, hand: int) -> tuple[int, int]:
    """The stacked layout's rows under the table, and the chat's among them,
    for ``rows`` rows below the top line (the keys' line excluded) and a hand
    ``hand`` rows high (with its frame).

    The drawn table, the hand and the prompt come first (issue 23: at 40×24 the
    prompt, with ``b: I'm back``, was pushed off the screen): the log and chat
    get what they leave, up to :data:`STACKED_LOG` (and half of each row over
    30); the chat shrinks to one line, then goes, and below :data:`LOG_LEAST`
    rows the log goes too (0, 0) until the hand is shorter again."""
    most = STACKED_LOG + max(0, rows + 2 - 30) // 2
    room = min(most, rows - FELT_LEAST - hand - PROMPT_ROWS)
    if room < LOG_LEAST:
        return 0, 0
    if room >= LOG_LEAST + 2 + CHAT_ROWS[0]:
        return room, CHAT_ROWS[0]
    if room >= LOG_LEAST + CHAT_ROWS[1]:
        return room, CHAT_ROWS[1]
    return room, 0


def fits(width: int, height: int) -> tuple[bool, bool]:
    """Whether a ``width`` × ``height`` terminal takes the stacked layout, and
    whether it is too small for any (then the screen asks for a bigger one)."""
    narrow = width < WIDE[0]
    least = STACKED if narrow else WIDE
    return narrow, width < least[0] or height < least[1]


def too_small_text(width: int, height: int) -> Text:
    """The request shown instead of the table in a terminal too small for it
    (with ``--ascii`` its ``×`` reaches the terminal as ``x``)."""
    out = Text(_("The terminal is too small for the table.") + "\n\n", style="bold")
    out.append(
        _(
            "Make the terminal at least {wide} (or {stacked}, the log under the table); "
            "it is {size} now."
        ).format(
            wide=f"{WIDE[0]}×{WIDE[1]}",
            stacked=f"{STACKED[0]}×{STACKED[1]}",
            size=f"{width}×{height}",
        )
    )
    out.append("\n\n" + _("q leaves the table; the game goes on meanwhile."))
    return out


class TableLayout:
    """Lays the table ``screen`` out for the terminal's size (see the module's notes):
    its classes (``-narrow``, ``-large``, ``-too-small``), and in the stacked layout
    the rows of the log and chat under the table.

    Args:
        screen: the table screen (its ``#right``, ``#chatlog``, ``#hand``, ``#banner``,
            ``#chat-input`` and ``#too-small``).
    """

    def __init__(self, screen: Screen[None]):
        self.screen = screen

    def fit(self, width: int, height: int) -> None:
        """The layout for a terminal of ``width`` × ``height``: side by side from 80
        columns, stacked (the log under the table) below, and a plain request for
        a bigger terminal below the least that can be played."""
        screen = self.screen
        if not (screen.query("#right") and screen.query("#chatlog")):
            # the app is closing as the table opens, or the screen is being taken
            # down (its chat gone before its right column): nothing to lay out
            return
        narrow, small = fits(width, height)
        screen.set_class(narrow, "-narrow")
        screen.set_class(width >= LARGE[0] and height >= LARGE[1], "-large")
        screen.set_class(small, "-too-small")
        if narrow:
            self.stack(height)
        else:
            right = screen.query_one("#right")
            right.styles.height = None  # (as the style sheet says)
            right.display = True
            screen.query_one("#chatlog").styles.height = None
            screen.query_one("#chatlog").display = True
        if small:
            screen.query_one("#too-small", Static).update(too_small_text(width, height))

    def stack(self, height: int | None = None) -> None:
        """In the stacked layout, give the log and chat under the table the rows
        the table, the hand and the prompt leave them (:func:`stacked_rows`) on a
        screen ``height`` rows high (by default the screen's); nothing is laid out
        again when they do not change."""
        screen = self.screen
        height = screen.size.height if height is None else height
        banner = screen.query_one("#banner")
        rows = height - 2 - (banner.outer_size.height if banner.display else 0)
        hand = screen.query_one("#hand").styles.height
        right_rows, chat_rows = stacked_rows(rows, int(hand.value) if hand is not None else 5)
        if screen.query_one("#chat-input").display:  # typing: the line and the log's frame
            right_rows = max(right_rows, LOG_LEAST + 1)
        right, chat = screen.query_one("#right"), screen.query_one("#chatlog")
        if right.styles.height is None or right.styles.height.value != right_rows:
            right.styles.height = right_rows
        right.display = right_rows > 0
        chat.display = chat_rows > 0
        if chat_rows and (chat.styles.height is None or chat.styles.height.value != chat_rows):
            chat.styles.height = chat_rows

    def refocus(self) -> None:
        """Give the screen its focus back after its panels were hidden (a terminal
        too small hides them, and the focus with them): to the chat line if it is
        open, else to the hand, so the game's keys act again."""
        screen = self.screen
        if screen.focused is not None or screen.has_class("-too-small"):
            return
        if not screen.query("#hand"):
            return
        chat = screen.query_one("#chat-input", Input)
        (chat if chat.display else screen.query_one("#hand")).focus()
