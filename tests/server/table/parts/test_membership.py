"""A table's comings and goings (:class:`Membership`, protocol §11.2–§11.4) on
their own, without a socket: what each request changes in the seating, and
what it asks the table to tell whom, in which order (its outcome)."""

from __future__ import annotations

import pytest
from craits.protocol.vocab import ErrorCode, TableState
from craits.server.errors import TableError
from craits.server.table.membership import Chat, Membership
from craits.server.table.outcome import Deadline, Snapshot, TurnDeadline

from tests.support.table_parts import Conn, Now, seating


def membership(capacity: int = 3, creator: Conn | None = None) -> tuple[Membership, Now]:
    seats, _ = seating(capacity, creator)
    now = Now()
    muted = {"watchers": False}
    part = Membership("t", seats, Chat(), now, lambda: None, lambda: muted["watchers"])
    return part, now


def test_a_join_tells_the_seat_and_token_then_the_snapshot() -> None:
    part, _ = membership()
    ana = Conn("Ana")
    outcome = part.join(ana, "Ana")
    ((who, joined),) = outcome.tell
    assert who is ana and joined["type"] == "joined" and joined["seat"] == 0
    assert isinstance(joined["token"], str) and joined["token"]
    assert outcome.changed and not outcome.start
    assert outcome.then == [(ana, Snapshot(0))]
    assert ana.sent == [], "a part sends nothing: the table does"


def test_the_last_seat_taken_starts_the_game_with_no_snapshot_before_it() -> None:
    part, _ = membership(capacity=2)
    part.join(Conn("Ana"), "Ana")
    outcome = part.join(Conn("Ben"), "Ben")
    assert outcome.start and not outcome.then


@pytest.mark.parametrize(
    ("state", "code"),
    [
        (TableState.STOPPED, ErrorCode.TABLE_STOPPED),
        (TableState.PAUSED, ErrorCode.TABLE_STOPPED),
        (TableState.PLAYING, ErrorCode.TABLE_FULL),
        (TableState.FINISHED, ErrorCode.TABLE_FULL),
    ],
)
def test_a_join_is_refused_once_the_table_is_not_waiting(state: TableState, code: str) -> None:
    part, now = membership()
    now.state = state
    with pytest.raises(TableError) as refused:
        part.join(Conn("Ana"), "Ana")
    assert refused.value.code == code
    assert part.seating.seats == []


def test_a_name_taken_at_the_table_is_refused_whatever_its_case() -> None:
    part, _ = membership()
    part.join(Conn("Ana"), "Ana")
    with pytest.raises(TableError) as refused:
        part.join(Conn("ana"), "ANA")
    assert refused.value.code == ErrorCode.NAME_TAKEN


def test_leaving_before_the_game_frees_the_seat_and_tells_those_who_moved_down() -> None:
    part, _ = membership()
    ana, ben, cy = Conn("Ana"), Conn("Ben"), Conn("Cy")
    for c in (ana, ben, cy):
        part.join(c, c.name)
    outcome = part.leave(ana)
    assert [s.name for s in part.seating.seats] == ["Ben", "Cy"]
    assert outcome.tell == [(ben, Snapshot(0)), (cy, Snapshot(1))]
    assert outcome.changed and outcome.reschedule


def test_leaving_a_game_keeps_the_seat_away_for_its_token() -> None:
    part, now = membership()
    ana = Conn("Ana")
    part.join(ana, "Ana")
    now.state = TableState.PLAYING
    outcome = part.leave(ana)
    (seat,) = part.seating.seats
    assert seat.member is None and seat.away and seat.token_digest is not None
    assert outcome.changed and outcome.reschedule and not outcome.tell


def test_a_spectator_leaving_is_only_a_change_of_the_info() -> None:
    part, _ = membership()
    wat = Conn("Wat")
    assert part.spectate(wat).tell == [(wat, Snapshot(None))]
    outcome = part.leave(wat)
    assert wat not in part.seating.spectators
    assert outcome.changed and not outcome.reschedule


def test_a_resume_replaces_the_older_connection_and_refreshes_the_deadline() -> None:
    part, now = membership()
    old, new = Conn("Ana"), Conn("Ana")
    part.join(old, "Ana")
    now.state = TableState.PLAYING
    outcome = part.resume(new, 0)
    assert part.seating.seats[0].member is new
    assert outcome.deadline is Deadline.REFRESH and outcome.reschedule and outcome.changed
    (to_old, replaced), (to_new, resumed), (again, snapshot) = outcome.tell
    assert to_old is old and replaced["type"] == "error" and replaced["code"] == "replaced"
    assert to_new is new and resumed["type"] == "resumed" and resumed["seat"] == 0
    assert again is new and snapshot == Snapshot(0)
    assert outcome.let_go == [old]


def test_back_at_its_turn_restarts_the_deadline_and_tells_it() -> None:
    seats, _ = seating(2)
    game_at_turn = type("G", (), {"to_act": 0})()
    part = Membership("t", seats, Chat(), Now(TableState.PLAYING), lambda: game_at_turn, bool)
    ana = Conn("Ana")
    seats.seat_person(ana, "Ana")
    seats.seats[0].away = True
    outcome = part.back(ana)
    assert not seats.seats[0].away
    assert outcome.deadline is Deadline.RESTART and outcome.changed and outcome.reschedule
    assert outcome.then == [(ana, TurnDeadline())]


def test_back_when_not_away_changes_nothing() -> None:
    part, _ = membership()
    ana = Conn("Ana")
    part.join(ana, "Ana")
    outcome = part.back(ana)
    assert not outcome.changed and outcome.deadline is Deadline.KEEP


def test_chat_goes_to_everyone_unless_muted() -> None:
    part, _ = membership()
    ana, wat = Conn("Ana"), Conn("Wat")
    part.join(ana, "Ana")
    part.spectate(wat)
    (line,) = part.say(ana, "hello").everyone
    assert line == {"type": "chat", "table": "t", "name": "Ana", "seat": 0, "text": "hello"}
    part.seating.seats[0].muted = True
    with pytest.raises(TableError) as refused:
        part.say(ana, "again")
    assert refused.value.code == ErrorCode.MUTED
    assert list(part.chat.lines) == [{"name": "Ana", "seat": 0, "text": "hello"}]


def test_a_bot_of_an_unknown_level_is_refused() -> None:
    part, _ = membership()
    with pytest.raises(TableError) as refused:
        part.add_bot("grandmaster")
    assert refused.value.code == ErrorCode.BAD_MESSAGE
    assert part.add_bot("basic").changed and part.seating.seats[0].bot == "basic"
