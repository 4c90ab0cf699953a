"""Time banks (protocol §11.10, issue 27) without a socket: each seat's bank
(:class:`Banks`), the turn clock running them (:class:`TurnClock`) on a clock
the test moves, and the option's checks (:func:`check_time_bank`)."""

from __future__ import annotations

import asyncio

import pytest
from craits.protocol.vocab import ErrorCode, Phase
from craits.server.errors import TableError
from craits.server.table.actor import TableConfig
from craits.server.table.clock import Due, TurnClock
from craits.server.table.seating import Seat
from craits.server.table.timing import Banks, TimeBank, check_time_bank

from tests.server.manual_time import ManualTime

BANK = TimeBank(180.0, 10.0)


class Game:
    """What the turn clock reads of a game: whose turn, the phase, the players."""

    def __init__(self, to_act: int | None, players: int = 2, phase: Phase = Phase.PLAY) -> None:
        self.to_act, self.players, self.phase = to_act, players, phase


class Moving:
    """Whether a person plays the game (a callable the test sets)."""

    def __init__(self) -> None:
        self.on = True

    def __call__(self) -> bool:
        return self.on


def banked_clock(
    seats: list[Seat], games: list[Game]
) -> tuple[TurnClock, ManualTime, list[Due], Moving]:
    """A turn clock with a 3 min + 10 s bank on a clock the test moves;
    ``games[-1]`` is the game in play."""
    time, due, moving = ManualTime(), [], Moving()
    config = TableConfig(turn_timeout=0, time_bank=BANK, timekeeper=time)
    clock = TurnClock("t", config, seats, lambda: games[-1], moving, due.append)  # type: ignore[arg-type, return-value]
    return clock, time, due, moving


def people() -> list[Seat]:
    return [Seat("Ana", member=object()), Seat("Ben", member=object())]  # type: ignore[arg-type]


def test_a_bank_runs_on_its_turn_and_gets_the_increment_when_it_ends() -> None:
    banks = Banks(BANK)
    banks.reset(2)
    banks.run(0, now=100.0)
    assert banks.deadline() == 280.0
    assert banks.time_left(0, 130.0) == 150.0 and banks.time_left(1, 130.0) == 180.0
    banks.run(0, now=120.0)  # the same turn goes on (R5's play again): nothing changes
    banks.run(1, now=130.0)
    assert banks.left == [160.0, 180.0] and banks.running == 1
    clocks = banks.clocks(now=140.0, wall=1_000.5)
    assert clocks == {"at_ms": 1_000_500, "left_ms": [160_000, 170_000], "running": 1}


def test_a_bank_put_on_hold_keeps_its_time_and_gets_no_increment() -> None:
    banks = Banks(BANK)
    banks.reset(2)
    banks.run(1, now=0.0)
    banks.run(None, now=50.0, held=True)
    assert banks.left == [180.0, 130.0] and banks.running is None and banks.deadline() is None


def test_the_pause_before_a_hands_first_turn_is_not_taken_from_the_bank() -> None:
    banks = Banks(BANK)
    banks.reset(2)
    banks.run(0, now=0.0, extra=4.0)
    assert banks.time_left(0, 3.0) == 180.0 and banks.deadline() == 184.0
    banks.run(1, now=14.0)
    assert banks.left[0] == 180.0  # 10 s used, 10 s added


def test_an_empty_bank_stays_at_zero_then_gets_the_increment() -> None:
    banks = Banks(BANK)
    banks.reset(2)
    banks.run(0, now=0.0)
    assert banks.time_left(0, 500.0) == 0.0
    banks.run(1, now=500.0)
    assert banks.left[0] == 10.0


def test_the_journal_row_restores_the_banks_as_they_stood() -> None:
    banks = Banks(BANK)
    banks.reset(3)
    banks.run(2, now=0.0)
    assert banks.dirty
    row = banks.row(now=42.5)
    assert not banks.dirty
    assert row == {
        "bank_ms": 180_000,
        "increment_ms": 10_000,
        "left_ms": [180_000, 180_000, 137_500],
    }
    again = Banks(TimeBank.of(row) or BANK)
    again.restore(row)
    assert again.bank == BANK and again.left == [180.0, 180.0, 137.5] and again.running is None


async def test_the_turn_clock_runs_the_bank_of_the_person_to_act_and_times_it_out() -> None:
    seats = people()
    games = [Game(to_act=0)]
    clock, time, due, _ = banked_clock(seats, games)
    clock.set_deadline()
    clock.schedule()
    assert clock.deadline_ms() == 180_000
    time.advance(179.0)
    assert due == [] and clock.deadline_ms() == 1000
    time.advance(1.0)
    assert due == [Due.TIMEOUT]


async def test_a_turn_passed_on_charges_the_bank_and_adds_the_increment() -> None:
    seats = people()
    games = [Game(to_act=0)]
    clock, time, _, _ = banked_clock(seats, games)
    clock.set_deadline()
    time.advance(30.0)
    games[-1].to_act = 1
    clock.set_deadline()
    assert clock.banks is not None and clock.banks.left == [160.0, 180.0]
    assert clock.clocks() == {
        "at_ms": round(time.wall() * 1000),
        "left_ms": [160_000, 180_000],
        "running": 1,
    }
    assert clock.deadline_ms() == 180_000


async def test_no_bank_runs_for_a_bot_an_away_seat_or_a_game_on_hold() -> None:
    seats = [Seat("Ana", member=object()), Seat("bot", bot="basic")]  # type: ignore[arg-type]
    games = [Game(to_act=1)]
    clock, time, _, moving = banked_clock(seats, games)
    clock.set_deadline()
    assert clock.deadline is None and clock.clocks() is not None
    assert clock.clocks()["running"] is None  # type: ignore[index]
    games[-1].to_act = 0
    clock.set_deadline()
    time.advance(20.0)
    moving.on = False  # nobody plays: on hold
    clock.schedule()
    assert clock.banks is not None and clock.banks.left[0] == 160.0  # no increment
    time.advance(1000.0)
    moving.on = True
    clock.refresh()  # a player is back: the bank goes on from what it had
    assert clock.deadline_ms() == 160_000
    seats[0].away = True
    clock.schedule()
    assert clock.deadline is None and clock.banks.left[0] == 170.0


async def test_a_new_game_fills_every_bank_and_a_restored_one_keeps_the_journals() -> None:
    seats = people()
    games = [Game(to_act=0)]
    clock, time, _, _ = banked_clock(seats, games)
    clock.set_deadline()
    time.advance(100.0)
    games.append(Game(to_act=1))  # a new game
    clock.set_deadline()
    assert clock.banks is not None and clock.banks.left == [180.0, 180.0]
    assert clock.banks.running == 1
    games.append(Game(to_act=1))  # replayed after a restart
    clock.restore_timing({"bank_ms": 180_000, "increment_ms": 10_000, "left_ms": [5_000, 99_000]})
    clock.refresh()
    assert clock.deadline_ms() == 99_000


async def test_the_server_stopping_stops_the_bank_without_the_increment() -> None:
    seats = people()
    games = [Game(to_act=0)]
    clock, time, _, _ = banked_clock(seats, games)
    clock.set_deadline()
    time.advance(40.0)
    clock.stop_banks()
    assert clock.timing_row() == {
        "bank_ms": 180_000,
        "increment_ms": 10_000,
        "left_ms": [140_000, 180_000],
    }
    await asyncio.sleep(0)


@pytest.mark.parametrize(
    ("asked", "timeout", "message"),
    [
        (
            {"bank_ms": 29_999, "increment_ms": 0},
            None,
            "time_bank.bank_ms 29999 is out of range: 30000..7200000 ms (30 s to 2 hours)",
        ),
        (
            {"bank_ms": 7_200_001, "increment_ms": 0},
            None,
            "time_bank.bank_ms 7200001 is out of range: 30000..7200000 ms (30 s to 2 hours)",
        ),
        (
            {"bank_ms": 180_000, "increment_ms": 60_001},
            None,
            "time_bank.increment_ms 60001 is out of range: 0..60000 ms",
        ),
        (
            {"bank_ms": 180_000, "increment_ms": 10_000},
            60_000,
            "time_bank replaces turn_timeout_ms: send one or the other",
        ),
    ],
)
def test_a_time_bank_out_of_range_is_refused_saying_why(
    asked: dict[str, int], timeout: int | None, message: str
) -> None:
    with pytest.raises(TableError) as refused:
        check_time_bank(asked, timeout)  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.message) == (ErrorCode.BAD_TIME_CONTROL, message)


def test_the_ranges_edges_and_no_bank_pass() -> None:
    assert check_time_bank(None, 60_000) is None
    assert check_time_bank({"bank_ms": 30_000, "increment_ms": 0}, None) == TimeBank(30.0, 0.0)
    high = check_time_bank({"bank_ms": 7_200_000, "increment_ms": 60_000}, None)
    assert high == TimeBank(7200.0, 60.0)


async def test_a_lone_player_whose_bank_ran_out_comes_back_with_the_increment() -> None:
    seats = [Seat("Ana", member=object()), Seat("bot", bot="basic")]  # type: ignore[arg-type]
    games = [Game(to_act=0)]
    clock, time, due, moving = banked_clock(seats, games)
    clock.set_deadline()
    clock.schedule()
    time.advance(180.0)
    assert due == [Due.TIMEOUT]
    # the server played for Ana: her seat is away, and with nobody else the game waits
    seats[0].away = True
    moving.on = False
    clock.set_deadline()
    assert clock.banks is not None and clock.banks.left[0] == 10.0
    seats[0].away, moving.on = False, True  # back
    clock.set_deadline()
    assert clock.deadline_ms() == 10_000
