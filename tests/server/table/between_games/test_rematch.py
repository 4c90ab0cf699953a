"""The rematch (:class:`Rematch`, protocol §11.12) on its own, without a
socket: the offer after a game, the answers, the next game with the players
one seat on, a seat freed by a decline, and the series kept on the seats."""

from __future__ import annotations

import pytest
from craits.protocol.vocab import BotLevel, ErrorCode, TableState
from craits.server.errors import TableError
from craits.server.table.membership import Chat, Membership
from craits.server.table.moves import Moves
from craits.server.table.outcome import Snapshot
from craits.server.table.rematch import Rematch, rematch_fields
from craits.server.table.seating import Seating, token_digest

from tests.support.table_parts import Book, Conn, Now, gamelog, seating


class Parts:
    """A table's parts around a :class:`Rematch`, after a game: ``people``
    persons (Ana, Ben, Cy…) then ``bots`` bots, the state finished."""

    def __init__(self, people: int = 2, bots: int = 0) -> None:
        self.conns = [Conn(n) for n in ("Ana", "Ben", "Cy", "Dee")[:people]]
        self.seating, self.book = seating(people + bots, self.conns[0])
        self.tokens = [self.seating.seat_person(c, c.name)[1] for c in self.conns]
        for _ in range(bots):
            self.seating.seat_bot(BotLevel.BASIC)
        self.now = Now(TableState.FINISHED)
        self.log = gamelog()
        game = lambda: self.log.game  # noqa: E731
        seq = lambda: 1  # noqa: E731
        self.moves = Moves("t", 0.0, self.seating, self.log, self.now, seq, lambda: None)
        self.membership = Membership(
            "t", self.seating, Chat(), self.now, game, lambda: False
        )  # fmt: skip
        self.rematch = Rematch("t", self.seating, self.log, self.moves, self.membership, self.now)
        self.log.start(self.seating.names())  # the game just played

    def names(self) -> list[str]:
        return [s.name for s in self.seating.seats]


def test_the_offer_counts_the_win_and_bots_accept_at_once() -> None:
    parts = Parts(people=2, bots=1)
    assert not parts.rematch.offered() and rematch_fields(parts.seating.seats) == {}
    parts.rematch.offer([1])
    assert parts.rematch.offered()
    assert rematch_fields(parts.seating.seats) == {
        "series": [0, 1, 0],
        "rematch": {"accepted": [2], "waiting": [0, 1]},
    }


def test_the_last_acceptance_starts_the_next_game_one_seat_on() -> None:
    parts = Parts(people=2, bots=1)
    ana, ben = parts.conns
    parts.rematch.offer([0, 2])  # a shared win counts for each winner (R2)
    first = parts.rematch.accept(ben)
    assert first.changed and first.state is None and not first.then
    assert rematch_fields(parts.seating.seats)["rematch"] == {"accepted": [1, 2], "waiting": [0]}
    assert parts.rematch.accept(ben).changed is False  # accepting again changes nothing
    started = parts.rematch.accept(ana)
    assert started.state is TableState.PLAYING and started.step is not None
    assert parts.names() == ["basic-bot-1", "Ana", "Ben"]  # every player one seat on
    assert [s.wins for s in parts.seating.seats] == [1, 1, 0]  # the series follows them
    assert all(s.rematch is None for s in parts.seating.seats)
    assert list(started.then) == [(ana, Snapshot(1)), (ben, Snapshot(2))]
    assert parts.book.held[token_digest(parts.tokens[0])] == 1  # tokens follow their players
    assert parts.book.held[token_digest(parts.tokens[1])] == 2
    game = parts.log.game
    assert game is not None and game.hand_number == 1
    assert rematch_fields(parts.seating.seats) == {"series": [1, 1, 0]}


def test_no_rematch_before_a_game_ends_and_none_for_a_spectator() -> None:
    parts = Parts()
    ana, _ = parts.conns
    with pytest.raises(TableError) as refused:
        parts.rematch.accept(ana)
    assert refused.value.code == ErrorCode.NO_REMATCH
    parts.rematch.offer([0])
    watcher = Conn("Eve")
    parts.seating.spectators.add(watcher)
    with pytest.raises(TableError) as refused:
        parts.rematch.accept(watcher)
    assert refused.value.code == ErrorCode.NOT_SEATED
    parts.now.state = TableState.PLAYING  # the next game started another way
    with pytest.raises(TableError) as refused:
        parts.rematch.accept(ana)
    assert refused.value.code == ErrorCode.NO_REMATCH


def test_a_decline_frees_the_seat_and_the_table_waits_for_a_player() -> None:
    parts = Parts(people=3)
    ana, ben, cy = parts.conns
    parts.rematch.offer([2])
    parts.rematch.accept(cy)
    left = parts.rematch.leave(ben)
    assert left.state is TableState.WAITING and left.changed and left.reschedule
    assert parts.names() == ["Ana", "Cy"] and parts.seating.capacity == 3
    assert token_digest(parts.tokens[1]) not in parts.book.held  # the decliner's token is dead
    assert parts.log.game is None and parts.log.game_id is None  # the finished game set aside
    assert list(left.tell) == [(ana, Snapshot(0)), (cy, Snapshot(1))]
    assert rematch_fields(parts.seating.seats) == {
        "series": [0, 1],
        "rematch": {"accepted": [1], "waiting": [0]},
    }
    # the seat is taken by a newcomer (joining is accepting): Ana still to answer
    parts.now.state = TableState.WAITING
    dee = Conn("Dee")
    joined = parts.membership.join(dee, "Dee")
    assert joined.start
    assert parts.rematch.start_full().state is None  # not while Ana is to answer
    started = parts.rematch.accept(ana)
    assert started.state is TableState.PLAYING
    assert parts.names() == ["Dee", "Ana", "Cy"]
    assert [s.wins for s in parts.seating.seats] == [0, 0, 1]


def test_the_last_person_s_leave_frees_nothing_bots_play_no_rematch() -> None:
    parts = Parts(people=1, bots=2)
    (ana,) = parts.conns
    parts.rematch.offer([1])
    left = parts.rematch.leave(ana)
    assert left.state is None and parts.names() == ["Ana", "basic-bot-1", "basic-bot-2"]
    assert parts.seating.seats[0].member is None and parts.log.game is not None


def test_a_leave_outside_an_offer_is_the_membership_s() -> None:
    parts = Parts()
    ana, _ = parts.conns
    parts.now.state = TableState.PLAYING
    left = parts.rematch.leave(ana)
    assert left.state is None and parts.seating.seats[0].away  # the seat stays in the game
    assert parts.names() == ["Ana", "Ben"]


def test_the_creator_s_new_game_starts_the_rematch_whoever_answered() -> None:
    parts = Parts()
    ana, ben = parts.conns
    parts.rematch.offer([0])
    with pytest.raises(TableError) as refused:
        parts.rematch.new_game(ben)
    assert refused.value.code == ErrorCode.NOT_CREATOR
    assert parts.names() == ["Ana", "Ben"]  # a refusal moves nobody
    started = parts.rematch.new_game(ana)
    assert started.state is TableState.PLAYING and parts.names() == ["Ben", "Ana"]


def test_the_series_and_the_answers_are_in_the_rows_and_come_back() -> None:
    parts = Parts(people=2, bots=1)
    parts.rematch.offer([1])
    parts.rematch.accept(parts.conns[0])
    rows = parts.seating.rows()
    assert [(r.get("wins"), r.get("rematch")) for r in rows] == [
        (None, True),
        (1, False),
        (None, True),
    ]
    again = Seating(parts.seating._table, 3, None, Book())
    again.restore(rows)
    assert [(s.wins, s.rematch) for s in again.seats] == [(0, True), (1, False), (0, True)]
    assert rematch_fields(again.seats) == rematch_fields(parts.seating.seats)


@pytest.mark.parametrize("row", [{"wins": -1}, {"wins": "2"}, {"rematch": 1}, {"wins": True}])
def test_a_row_whose_series_does_not_read_is_refused(row: dict[str, object]) -> None:
    seats = Seating(None, 2, None, Book())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        seats.restore([{"name": "Ana", "token": None, "bot": None, **row}])
