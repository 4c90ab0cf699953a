"""Correspondence games without a socket (protocol §11.11, issue 27): the
turn time's checks, the abandon clock that lets the players come and go, the
seat left during a game that waits for its player."""

from __future__ import annotations

import pytest
from craits.protocol.vocab import AbandonReason, ErrorCode, Phase, TableState
from craits.server.errors import TableError
from craits.server.table.actor import TableConfig, TableStatus
from craits.server.table.clock import CHECKPOINT, AbandonClock, Due, TurnClock
from craits.server.table.membership import Chat, Membership
from craits.server.table.seating import Seat
from craits.server.table.timing import check_correspondence

from tests.server.manual_time import ManualTime
from tests.support.table_parts import Conn, Now, seating

DAY = 86_400.0


class Game:
    """What the turn clock reads of a game: whose turn it is, in play."""

    def __init__(self, to_act: int) -> None:
        self.to_act, self.phase, self.players = to_act, Phase.PLAY, 2


def test_the_turn_time_is_checked_against_the_servers_range() -> None:
    assert check_correspondence(None, True, 3 * DAY) is None
    assert check_correspondence(3_600_000, False, 3 * DAY) == 3600.0
    assert check_correspondence(259_200_000, False, 3 * DAY) == 3 * DAY
    cases = [
        (3_599_999, False, 3 * DAY, "3600000..259200000 ms (1 hour to 3 days at this server)"),
        (86_400_001, False, DAY, "3600000..86400000 ms (1 hour to 1 day at this server)"),
        (7_200_000, False, 5400.0, "3600000..5400000 ms (1 hour to 90 minutes at this server)"),
        (DAY * 1000, True, 3 * DAY, "replaces turn_timeout_ms and time_bank"),
    ]
    for asked, others, most, why in cases:
        with pytest.raises(TableError) as refused:
            check_correspondence(int(asked), others, most)
        assert refused.value.code == ErrorCode.BAD_TIME_CONTROL
        assert why in refused.value.message


async def test_a_running_correspondence_game_is_not_abandoned_with_nobody_connected() -> None:
    seats = [Seat("Ana"), Seat("Ben")]  # nobody connected
    time, state, abandoned = ManualTime(), Now(TableState.PLAYING), []
    config = TableConfig(
        abandon_after=1800, abandon_offline_after=600, correspondence=DAY, timekeeper=time
    )
    status = TableStatus("t", seats, lambda _: None, DAY)
    clock = AbandonClock("t", config, seats, state, status.on_hold, abandoned.append)
    assert not status.on_hold()  # played on: its people come and go
    clock.check()
    time.advance(10 * DAY)
    assert abandoned == []
    # every person's seat away: on hold, abandoned after the turn time, not the abandon time
    for s in seats:
        s.away = True
    status.become(TableState.PLAYING)
    clock.check()
    time.advance(DAY - 1)
    assert abandoned == []
    time.advance(1)
    assert abandoned == [AbandonReason.NOBODY_PLAYING]


async def test_a_finished_correspondence_table_waits_a_turn_time_for_its_players() -> None:
    seats = [Seat("Ana"), Seat("Ben")]
    time, state, abandoned = ManualTime(), Now(TableState.FINISHED), []
    config = TableConfig(
        abandon_after=1800, abandon_offline_after=600, correspondence=DAY, timekeeper=time
    )
    clock = AbandonClock("t", config, seats, state, lambda: False, abandoned.append)
    assert clock.graces() == (DAY, DAY)
    clock.check()
    time.advance(DAY - 1)
    assert abandoned == []
    time.advance(1)
    assert abandoned == [AbandonReason.NOBODY_CONNECTED]


def test_a_seat_left_during_a_correspondence_game_waits_for_its_player() -> None:
    ana = Conn("Ana")
    seated, _ = seating()
    for i, who in enumerate((ana, Conn("Ben"))):
        seated.seats.append(Seat(who.name, member=who))  # type: ignore[arg-type]
        assert seated.seat_of(who) == i
    membership = Membership(
        "t", seated, Chat(), Now(TableState.PLAYING), lambda: None, lambda: False
    )
    membership.keeps_seats = True
    membership.leave(ana)
    assert seated.seats[0].member is None and not seated.seats[0].away
    membership.keeps_seats = False
    membership.leave(seated.seats[1].member)  # type: ignore[arg-type]
    assert seated.seats[1].away  # at any other table: played for at once (§11.3)


async def test_a_running_turn_is_checkpointed_every_ten_minutes_until_it_times_out() -> None:
    seats = [Seat("Ana", member=object()), Seat("Ben")]  # type: ignore[arg-type]
    time, dues = ManualTime(), []
    config = TableConfig(turn_timeout=DAY, correspondence=DAY, timekeeper=time)
    clock = TurnClock("t", config, seats, lambda: Game(0), lambda: True, dues.append)  # type: ignore[arg-type, return-value]
    clock.set_deadline()
    assert clock.dirty
    assert clock.timing_row() == {
        "correspondence_ms": 86_400_000,
        "left_ms": 86_400_000,
        "deadline_at_ms": round((time.wall() + DAY) * 1000),
    }
    assert not clock.dirty
    clock.schedule()
    time.advance(CHECKPOINT)
    assert dues == [Due.CHECKPOINT] and clock.dirty
    assert clock.timing_row()["left_ms"] == 86_400_000 - 600_000  # type: ignore[index]
    time.advance(DAY - CHECKPOINT)
    assert dues.count(Due.CHECKPOINT) == 143 and dues[-1] is Due.TIMEOUT
