"""The creator's powers (:class:`Powers`, protocol §11.9) on their own, without
a socket: who may use them, what each changes (seats, bars, revoked tokens),
and what the table is asked to tell whom."""

from __future__ import annotations

import pytest
from craits.protocol.vocab import ErrorCode, TableState
from craits.server.errors import TableError
from craits.server.table.outcome import Deadline, Snapshot
from craits.server.table.powers import Powers

from tests.support.table_parts import Book, Conn, Now, seating


class Game:
    def __init__(self, to_act: int | None) -> None:
        self.to_act = to_act


def powers(people: int = 3, game: Game | None = None) -> tuple[Powers, Book, list[Conn], Now]:
    conns = [Conn(n) for n in ("Ana", "Ben", "Cy")[:people]]
    seats, book = seating(4, conns[0])
    for c in conns:
        seats.seat_person(c, c.name)
    now = Now()
    return Powers("t", seats, book, now, lambda: game), book, conns, now


def test_only_the_creator_may_use_them() -> None:
    part, _, (_, ben, _), now = powers()
    with pytest.raises(TableError) as refused:
        part.lock(ben, True)
    assert refused.value.code == ErrorCode.NOT_CREATOR
    now.state = TableState.STOPPED
    with pytest.raises(TableError) as refused:
        part.lock(part.seating.creator, True)  # type: ignore[arg-type]
    assert refused.value.code == ErrorCode.TABLE_STOPPED


def test_a_kick_before_the_game_frees_the_seat_bars_and_revokes() -> None:
    part, book, (ana, ben, cy), _ = powers()
    digest = part.seating.seats[1].token_digest
    assert digest is not None and digest in book.held
    outcome = part.kick(ana, 1)
    assert [s.name for s in part.seating.seats] == ["Ana", "Cy"]
    assert digest not in book.held and book.revoked[digest] == "t"
    assert [b.name for b in part.access.bars] == ["Ben"]
    (moved, snapshot), (told, kicked) = outcome.tell
    assert moved is cy and snapshot == Snapshot(1)
    assert told is ben and kicked["code"] == ErrorCode.KICKED
    assert outcome.let_go == [ben] and outcome.changed and outcome.reschedule


def test_a_kick_during_a_game_hands_the_seat_to_a_bot_and_restarts_its_turn() -> None:
    part, _, (ana, ben, _), now = powers(game=Game(to_act=1))
    now.state = TableState.PLAYING
    outcome = part.kick(ana, 1)
    seat = part.seating.seats[1]
    assert seat.bot is not None and seat.member is None and seat.token_digest is None
    assert outcome.deadline is Deadline.RESTART and outcome.let_go == [ben]


def test_the_creator_cannot_kick_itself_nor_an_empty_seat() -> None:
    part, _, (ana, _, _), _ = powers()
    for seat in (0, 7, -1):
        with pytest.raises(TableError) as refused:
            part.kick(ana, seat)
        assert refused.value.code == ErrorCode.BAD_SEAT


def test_mute_names_a_seat_or_the_watchers_never_both() -> None:
    part, _, (ana, _, _), _ = powers()
    for seat, watchers in ((1, True), (None, False)):
        with pytest.raises(TableError) as refused:
            part.mute(ana, seat, watchers, True)
        assert refused.value.code == ErrorCode.BAD_MESSAGE
    assert part.mute(ana, 1, False, True).changed and part.seating.seats[1].muted
    assert part.mute(ana, None, True, True).changed and part.access.watchers_muted


def test_handing_over_makes_a_new_creator_who_gets_the_invite() -> None:
    part, _, (ana, ben, _), _ = powers()
    part.make_private("creator-token")
    outcome = part.hand_over(ana, 1)
    assert part.seating.creator is ben and part.seating.seats[1].creator
    ((told, invite),) = outcome.then
    assert told is ben and invite["type"] == "invite" and invite["code"] == part.access.code
    assert part.access.creator_key is None, "the next games' records: the new creator's seat's"


def test_the_invite_is_told_to_the_creator_only_and_unbar_lifts_the_revocation() -> None:
    part, book, (ana, ben, _), _ = powers()
    assert not part.invite(ana).tell, "a public table has no code"
    part.make_private("creator-token")
    assert not part.invite(ben).tell
    assert [m for m, _ in part.invite(ana).tell] == [ana]
    digest = part.seating.seats[1].token_digest
    part.kick(ana, 1)
    assert part.unbar(ana, "BEN").changed  # names compared without case
    assert part.access.bars == [] and book.revoked[digest] is None  # type: ignore[index]


def test_a_private_tables_readers_are_its_seats_tokens_and_its_creators() -> None:
    part, _, _, _ = powers()
    assert part.readers() is None
    part.make_private("creator-token")
    readers = part.readers()
    assert readers is not None and len(readers) == 4
    assert part.access.creator_key in readers
