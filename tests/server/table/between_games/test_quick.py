"""A quick-play table's countdown (:class:`BotCountdown`, protocol §11.13)
on its own, without a socket, on a clock the test moves: what the info
shows, and what is due when it ends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from craits.protocol.vocab import TableState
from craits.server.table.membership import Chat, Membership
from craits.server.table.outcome import Outcome
from craits.server.table.quick import BotCountdown

from tests.support.table_parts import Conn, Now, seating


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def countdown(seats: int = 3) -> tuple[BotCountdown, Clock, Now, list[Outcome]]:
    ana = Conn("Ana")
    seats_, _ = seating(seats, ana)
    seats_.seat_person(ana, "Ana")
    now, clock = Now(), Clock()
    member = Membership("t", seats_, Chat(), now, lambda: None, lambda: False)
    published: list[Outcome] = []

    def request(fn: Callable[[], Outcome], reraise: bool = True) -> None:
        assert reraise is False
        published.append(fn())

    part = BotCountdown("t", seats_, member, now, request, clock)
    return part, clock, now, published


async def test_the_info_counts_down_and_bots_take_the_free_seats_at_the_end() -> None:
    part, clock, _, published = countdown()
    assert part.fields() == {}
    part.start(30.0)
    clock.now += 12.5
    assert part.fields() == {"bots_in_ms": 17500}
    clock.now += 30
    assert part.fields() == {"bots_in_ms": 0}  # late: never below 0
    outcome = part.due(part.until)  # type: ignore[arg-type]
    assert outcome.changed and outcome.start
    assert [s.name for s in part.seating.seats] == ["Ana", "basic-bot-1", "basic-bot-2"]
    assert part.until is None and part.fields() == {}
    part.cancel()
    assert published == []  # the timer was the test's call here, and is cancelled


async def test_people_who_fill_the_table_first_leave_nothing_to_do() -> None:
    part, _, _, _ = countdown(seats=2)
    part.start(30.0)
    part.seating.seat_person(Conn("Ben"), "Ben")
    assert part.fields() == {}  # a full table shows no countdown
    assert part.due(part.until) == Outcome()  # type: ignore[arg-type]
    assert [s.bot for s in part.seating.seats] == [None, None]


async def test_a_replaced_countdown_s_end_and_a_table_no_longer_waiting_do_nothing() -> None:
    part, _, now, _ = countdown()
    part.start(30.0)
    first = part.until
    part.start(60.0)
    assert part.due(first) == Outcome()  # type: ignore[arg-type]
    until = part.until
    now.state = TableState.PLAYING
    assert part.fields() == {} and part.until is None  # over for good once the game starts
    now.state = TableState.WAITING  # waiting again later (a rematch's seat freed)
    assert part.due(until) == Outcome()  # type: ignore[arg-type]
    assert part.fields() == {} and len(part.seating.seats) == 1


async def test_the_timer_asks_the_table_for_what_is_due() -> None:
    part, _, _, published = countdown(seats=2)
    part._clock = asyncio.get_running_loop().time
    part.start(0.01)
    async with asyncio.timeout(10):
        while not published:
            await asyncio.sleep(0.01)
    (outcome,) = published
    assert outcome.start and part.seating.seats[1].bot is not None


async def test_a_stopped_countdown_never_asks() -> None:
    part, _, _, published = countdown(seats=2)
    part.start(0.01)
    part.cancel()
    other, _, _, told = countdown(seats=2)
    other.start(0.05)  # a later timer: once it fired, the stopped one would have too
    async with asyncio.timeout(10):
        while not told:
            await asyncio.sleep(0.01)
    assert published == [] and part.fields() == {}
    assert len(part.seating.seats) == 1
