"""A table's clocks (:class:`TurnClock`, :class:`AbandonClock`, protocol §11.1,
§11.4) on their own, without a socket: they read the seats and the game they
are given, and say what is due through the callable they are given."""

from __future__ import annotations

import asyncio

from craits.protocol.vocab import AbandonReason, Phase, TableState
from craits.server.table.actor import TableConfig
from craits.server.table.clock import AbandonClock, Due, TurnClock
from craits.server.table.seating import Seat

from tests.support.table_parts import Now

CEILING = 10.0
"""Seconds a test waits for a timer at most (the machine may be busy)."""


class Game:
    def __init__(self, to_act: int | None, phase: Phase = Phase.PLAY) -> None:
        self.to_act, self.phase = to_act, phase


def turn_clock(
    seats: list[Seat], game: Game | None, config: TableConfig
) -> tuple[TurnClock, asyncio.Queue[Due]]:
    due: asyncio.Queue[Due] = asyncio.Queue()
    clock = TurnClock("t", config, seats, lambda: game, lambda: True, due.put_nowait)  # type: ignore[arg-type, return-value]
    return clock, due


async def test_a_bots_turn_is_due_after_the_bot_delay_with_no_deadline() -> None:
    seats = [Seat("Ana", member=object()), Seat("bot", bot="basic")]  # type: ignore[arg-type]
    clock, due = turn_clock(seats, Game(to_act=1), TableConfig(turn_timeout=60, bot_delay=0.01))
    clock.set_deadline()
    assert clock.deadline is None and clock.deadline_ms() is None
    clock.schedule()
    assert await asyncio.wait_for(due.get(), CEILING) is Due.BOT


async def test_a_persons_turn_has_a_deadline_and_times_out() -> None:
    seats = [Seat("Ana", member=object()), Seat("Ben", member=object())]  # type: ignore[arg-type]
    clock, due = turn_clock(seats, Game(to_act=0), TableConfig(turn_timeout=0.05))
    clock.set_deadline(extra=0.01)
    left = clock.deadline_ms()
    assert left is not None and 0 < left <= 60
    clock.schedule()
    assert await asyncio.wait_for(due.get(), CEILING) is Due.TIMEOUT


async def test_between_hands_the_next_deal_is_due_after_the_pause() -> None:
    clock, due = turn_clock(
        [], Game(to_act=None, phase=Phase.HAND_OVER), TableConfig(hand_pause=0.01)
    )
    clock.schedule()
    assert clock.next_deal_ms() is not None
    assert await asyncio.wait_for(due.get(), CEILING) is Due.NEXT_HAND
    assert clock.next_deal_ms() is None


async def test_a_cancelled_clock_says_nothing() -> None:
    seats = [Seat("bot", bot="basic")]  # type: ignore[arg-type]
    clock, due = turn_clock(seats, Game(to_act=0), TableConfig(bot_delay=0.01))
    clock.schedule()
    clock.cancel()
    await asyncio.sleep(0.05)
    assert due.empty()


async def test_a_table_with_nobody_connected_is_abandoned_after_its_grace() -> None:
    seats = [Seat("Ana"), Seat("Ben")]  # a game, nobody connected at either seat
    reasons: asyncio.Queue[AbandonReason] = asyncio.Queue()
    config = TableConfig(abandon_after=0.05, abandon_offline_after=0.02)
    clock = AbandonClock(
        "t", config, seats, Now(TableState.PLAYING), lambda: True, reasons.put_nowait
    )
    assert clock.graces() == (0.02, 0.05)
    clock.check()
    assert clock.since is not None and clock.held_since is not None
    assert await asyncio.wait_for(reasons.get(), CEILING) is AbandonReason.NOBODY_CONNECTED


async def test_someone_back_stops_the_counts() -> None:
    seats = [Seat("Ana"), Seat("Ben")]
    config = TableConfig(abandon_after=0.02, abandon_offline_after=0.01)
    reasons: list[AbandonReason] = []
    clock = AbandonClock("t", config, seats, Now(TableState.PLAYING), lambda: False, reasons.append)
    clock.check()
    seats[0].member = object()  # type: ignore[assignment]
    clock.check()
    assert clock.since is None and clock.held_since is None
    await asyncio.sleep(0.1)
    assert reasons == []


def test_a_waiting_table_is_never_counted_as_left() -> None:
    seats = [Seat("Ana")]
    clock = AbandonClock("t", TableConfig(), seats, Now(TableState.WAITING), lambda: False, print)
    assert not clock.vacant()
