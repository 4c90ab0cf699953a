"""The protocol's typed messages and a model built of them, for the client's tests of
the presentation without a server (:mod:`craits.protocol.types`)."""

from __future__ import annotations

from typing import Any

from craits.client.core.model import TableModel
from craits.client.present.tableview import (
    BOT,
    DEALER,
    LOSES_TURN,
    ONE_CARD,
    SeatView,
    Side,
    sides,
)
from craits.protocol.types import SeatInfo, TableInfo, View
from craits.protocol.vocab import Phase, Suit, TableState


def seat(n: int, name: str, **flags: Any) -> SeatInfo:
    """Seat ``n``, held by ``name``, connected (``flags`` override)."""
    info = SeatInfo(seat=n, name=name, connected=True, away=False, bot=None)
    info.update(flags)
    return info


def table_info(**fields: Any) -> TableInfo:
    """Table t1's info: two seats, Ben (its creator) and Ana, at hand 1 (``fields`` override)."""
    info = TableInfo(
        name="t1",
        seats=2,
        players=[seat(0, "Ben"), seat(1, "Ana")],
        state=TableState.PLAYING,
        rules={},
        turn_timeout_ms=0,
        spectators=0,
        creator="Ben",
        hand_number=1,
        hands_in_game=15,
        on_hold=False,
        may_start=[0],
    )
    info.update(fields)
    return info


def view(**fields: Any) -> View:
    """Ana's view (seat 1) of hand 1 at t1, her turn on a K♥ (``fields`` override)."""
    v = View(
        seat=1,
        hand=["7H", "3C"],
        drawn=None,
        legal=[],
        players=2,
        rules={},
        phase=Phase.PLAY,
        hand_number=1,
        hands_in_game=15,
        hand_size=8,
        dealer=0,
        direction=1,
        turn=1,
        to_act=1,
        hand_sizes=[8, 2],
        top="KH",
        suit=Suit.HEARTS,
        count=0,
        again=False,
        jacks=0,
        king_cards=0,
        pending=None,
        deciding_drawn=False,
        stock_size=30,
        discard_size=1,
        scores=[0, 0],
        pressure=[0, 0],
        next_penalty=[5, 5],
        penalties_paid=[0, 0],
        lost_turns=[0, 0],
        unannounced=[],
        one_card=[],
        result=None,
    )
    v.update(fields)
    return v


def model(seat_: int | None = 1, *, info: TableInfo | None = None, **fields: Any) -> TableModel:
    """The model of t1 as seat ``seat_`` (None: a spectator) sees it (``fields``: the view's)."""
    m = TableModel("t1", seat=seat_, me=None if seat_ is None else ["Ben", "Ana"][seat_])
    m.info = info if info is not None else table_info()
    m.view = view(seat=seat_, **fields)
    return m


def table_of(players: int) -> list[SeatView]:
    """``players`` seats, seat 0 at the bottom and to act, the others with badges."""
    placed = [Side.BOTTOM, *sides(players - 1)]
    seats = []
    for seat, side in enumerate(placed):
        badges = (DEALER, BOT) if seat == 1 else ((ONE_CARD, LOSES_TURN) if seat == 2 else ())
        seats.append(
            SeatView(
                seat,
                side,
                f"P{seat}",
                me=seat == 0,
                to_act=seat == 0,
                cards=5 + seat,
                score=10 * seat,
                seconds=42 if seat == 0 else None,
                badges=badges,
            )
        )
    return seats
