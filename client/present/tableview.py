"""What the drawn table shows, as plain values: one :class:`SeatView` per seat,
placed around the table with this client's seat at the bottom, and the
:class:`MiddleView` (the discard pile's top card, the suit in force, the stock,
the count). No Textual and no drawing: :mod:`craits.client.present.felt` draws these.

The client decides no rule here: every value is read from the server's view
(protocol §7) and the table's information (§11).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from craits.protocol.i18n import LazyString, _, lazy_pgettext
from craits.protocol.vocab import Phase

from ..core.model import TableModel, seat_value, turn_on_hold


class Side(StrEnum):
    """Where a seat sits around the drawn table."""

    BOTTOM = "bottom"
    LEFT = "left"
    TOP = "top"
    RIGHT = "right"


SIDES_BY_OTHERS: dict[int, tuple[int, int, int]] = {
    0: (0, 0, 0),
    1: (0, 1, 0),
    2: (1, 0, 1),
    3: (1, 1, 1),
    4: (1, 2, 1),
    5: (1, 3, 1),
    6: (2, 2, 2),
    7: (2, 3, 2),
}
"""How many of the other seats sit on the left, at the top and on the right."""


@dataclass(frozen=True, slots=True)
class Badge:
    """A word on a seat saying how it is doing (never shown by colour alone).

    Attributes:
        long: the word when there is room ("dealer", "ONE CARD").
        short: the word when there is not ("D", "1!").
        alert: drawn in reverse video (it asks for someone's attention).
    """

    long: LazyString
    short: LazyString
    alert: bool = False


# TRANSLATORS: the words on a seat at the table: a long one, and a short one where
# the seat is narrow (keep the short one short: 1 to 7 letters)
DEALER = Badge(lazy_pgettext("seat badge", "dealer"), lazy_pgettext("seat badge, short", "D"))
BOT = Badge(lazy_pgettext("seat badge", "bot"), lazy_pgettext("seat badge, short", "bot"))
AWAY = Badge(lazy_pgettext("seat badge", "away"), lazy_pgettext("seat badge, short", "away"))
OFFLINE = Badge(lazy_pgettext("seat badge", "offline"), lazy_pgettext("seat badge, short", "off"))
ONE_CARD = Badge(
    lazy_pgettext("seat badge", "ONE CARD"),
    lazy_pgettext("seat badge, short", "1 card"),
    alert=True,
)
UNSAID = Badge(
    lazy_pgettext("seat badge", "1 card, unsaid!"),
    lazy_pgettext("seat badge, short", "unsaid!"),
    alert=True,
)
LOSES_TURN = Badge(
    lazy_pgettext("seat badge", "loses a turn"), lazy_pgettext("seat badge, short", "skip")
)
PAUSED = Badge(lazy_pgettext("seat badge", "paused"), lazy_pgettext("seat badge, short", "paused"))
"""The seat to act while the game is on hold: it waits, like everyone (protocol §11.4)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as drawn.

    Attributes:
        seat: the seat's number.
        side: where it sits around the table.
        name: the player's name ("" for an empty seat).
        me: this client's own seat.
        to_act: it is this seat's turn.
        cards: cards in its hand (None before the game).
        score: its points in this game so far (None before the game).
        penalty: its shuffle penalties this game, in points (R9).
        seconds: the turn timer, whole seconds left (None: no timer shown).
        badges: its badges, in order.
    """

    seat: int
    side: Side
    name: str
    me: bool = False
    to_act: bool = False
    cards: int | None = None
    score: int | None = None
    penalty: int = 0
    seconds: int | None = None
    badges: tuple[Badge, ...] = ()


@dataclass(frozen=True, slots=True)
class MiddleView:
    """The middle of the table.

    Attributes:
        top: the discard pile's top card (a card code), or None.
        suit: the suit in force when it differs from the top card's (an 8 or 9
            named it), else None.
        stock: cards in the stock.
        discard: cards in the discard pile.
        count: the count in progress (R6), 0 when none.
        direction: 1 clockwise, -1 counter-clockwise.
        hand: "hand n/15" or the like; "" before the game.
        waiting: what the middle says before the game ("" during it).
    """

    top: str | None = None
    suit: str | None = None
    stock: int = 0
    discard: int = 0
    count: int = 0
    direction: int = 1
    hand: str = ""
    waiting: str = ""


def sides(count: int) -> list[Side]:
    """The sides of ``count`` other seats, in the order of play from the bottom
    seat: up the left, along the top from left to right, down the right (so
    clockwise play runs clockwise on screen)."""
    left, top, right = SIDES_BY_OTHERS.get(
        count, (count // 3, count - 2 * (count // 3), count // 3)
    )
    return [Side.LEFT] * left + [Side.TOP] * top + [Side.RIGHT] * right


def bottom_seat(model: TableModel) -> int:
    """The seat drawn at the bottom: this client's, or seat 0 when watching."""
    return model.seat if model.seat is not None and not model.spectator else 0


def seat_views(model: TableModel, timer: bool = True) -> list[SeatView]:
    """Every seat of the table, the bottom one first, then the others in the
    order of seat numbers after it (``timer``: show the turn's seconds left)."""
    view = model.view
    total = model.seat_count() if view is not None else max(model.capacity, len(model.players))
    if total <= 0:
        return []
    first = bottom_seat(model) % total
    order = [(first + i) % total for i in range(total)]
    placed = [Side.BOTTOM, *sides(total - 1)]
    left = model.seconds_left() if timer and view is not None else None
    out = []
    for seat, side in zip(order, placed, strict=True):
        out.append(_seat_view(model, seat, side, left))
    return out


def _seat_view(model: TableModel, seat: int, side: Side, left: float | None) -> SeatView:
    view = model.view
    player = model.player(seat)
    me = not model.spectator and seat == model.seat
    if view is None:
        if player is None:
            return SeatView(seat, side, "", me=me)
        return SeatView(seat, side, player["name"], me=me, badges=_flags(player))
    held = turn_on_hold(model, seat)  # its turn, paused: no turn mark
    to_act = seat == view["to_act"] and view["phase"] == Phase.PLAY and not held
    badges: list[Badge] = [PAUSED] if held else []
    if seat == view["dealer"]:
        badges.append(DEALER)
    if seat in view["unannounced"]:
        badges.append(UNSAID)
    elif seat in view["one_card"]:
        badges.append(ONE_CARD)
    if seat_value(view["lost_turns"], seat):
        badges.append(LOSES_TURN)
    badges.extend(_flags(player))
    seconds = int(left + 0.999) if to_act and left is not None else None
    return SeatView(
        seat,
        side,
        model.name_of(seat),
        me=me,
        to_act=to_act,
        cards=seat_value(view["hand_sizes"], seat),
        score=seat_value(view["scores"], seat),
        penalty=model.penalties_paid(seat),
        seconds=seconds,
        badges=tuple(badges),
    )


def _flags(player: object) -> tuple[Badge, ...]:
    if not isinstance(player, dict):
        return ()
    if player.get("bot"):
        return (BOT,)
    if not player.get("connected", True):
        return (OFFLINE,)
    if player.get("away"):
        return (AWAY,)
    return ()


def middle_view(model: TableModel) -> MiddleView:
    """The middle of the table from the model's view."""
    view = model.view
    if view is None:
        seats = model.capacity
        waiting = _("Waiting for players ({n}/{seats})").format(n=len(model.players), seats=seats)
        return MiddleView(waiting=waiting)
    top = view["top"]
    suit = view["suit"]
    named = suit if suit and top and suit != top[-1] else None
    return MiddleView(
        top=top,
        suit=named,
        stock=view["stock_size"],
        discard=view["discard_size"],
        count=view["count"],
        direction=view["direction"],
        hand=_("hand {n}/{of}").format(n=view["hand_number"], of=view["hands_in_game"]),
    )
