"""A table's moves (:class:`Moves`, protocol §6, §11.4, §11.6) on their own,
without a socket: a real game through a game log without a journal; what each
request answers, what it leaves for the table to publish (a step), and what it
refuses."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from craits.protocol.actions import parse_action
from craits.protocol.vocab import ErrorCode, TableState
from craits.server.errors import TableError
from craits.server.table.moves import Moves

from tests.support.table_parts import Conn, Now, gamelog, legal, seating


class Table:
    """What a table gives its moves: its state and its seq, set by the test."""

    def __init__(self, seats: int = 2, bots: int = 0, level: str = "basic") -> None:
        self.creator = Conn("Ana")
        self.seating, _ = seating(seats, self.creator)
        self.now = Now()
        self.seq = 0
        self.log = gamelog(seed=7)
        self.moves = Moves(
            "t", 4.0, self.seating, self.log, self.now, lambda: self.seq, lambda: None
        )
        self.people = [self.creator, *(Conn(n) for n in ("Ben", "Cy")[: seats - 1 - bots])]
        for p in self.people:
            self.seating.seat_person(p, p.name)
        for _ in range(bots):
            self.seating.seat_bot(level)

    def start(self) -> None:
        outcome = self.moves.start(self.creator)
        assert outcome.state is TableState.PLAYING
        self.now.state = TableState.PLAYING

    def to_act(self) -> int:
        game = self.log.game
        assert game is not None and game.to_act is not None
        return game.to_act

    def play_to_the_bot(self) -> None:
        """The people play legal actions until seat 1, the bot's, is to act."""
        for _ in range(10):
            if self.to_act() == 1:
                return
            seat = self.to_act()
            action = parse_action(legal(self.log.game, seat))  # type: ignore[arg-type]
            self.moves.act(self.people[seat], self.seq + 100, action)
            self.seq += 1
        raise AssertionError("the bot's turn never came")


def test_a_game_starts_for_the_creator_with_the_deal_to_publish() -> None:
    t = Table()
    outcome = t.moves.start(t.creator)
    assert outcome.state is TableState.PLAYING and outcome.changed
    assert outcome.step is not None and outcome.step.events
    assert outcome.step.deadline_extra == 0.0, "hand 1's first turn gets no pause"
    assert t.log.game is not None and t.log.game.hand_number == 1


def test_only_the_creator_starts_and_only_with_two_seated() -> None:
    t = Table()
    with pytest.raises(TableError) as refused:
        t.moves.start(t.people[1])
    assert refused.value.code == ErrorCode.NOT_CREATOR
    alone = Table(seats=1)
    with pytest.raises(TableError) as refused:
        alone.moves.start(alone.creator)
    assert refused.value.code == ErrorCode.CANNOT_START
    t.now.state = TableState.STOPPED
    with pytest.raises(TableError) as refused:
        t.moves.start(t.creator)
    assert refused.value.code == ErrorCode.TABLE_STOPPED


def test_a_legal_action_is_answered_ok_and_leaves_a_step() -> None:
    t = Table()
    t.start()
    seat = t.to_act()
    player = t.people[seat]
    action = parse_action(legal(t.log.game, seat))  # type: ignore[arg-type]
    outcome = t.moves.act(player, 5, action)
    assert outcome.tell == [(player, {"type": "ok", "id": 5})]
    assert outcome.step is not None and outcome.step.events
    again = t.moves.act(player, 5, action)  # the same id: its first answer, not applied twice
    assert again.tell == [(player, {"type": "ok", "id": 5})] and again.step is None


def test_an_illegal_or_stale_action_is_refused_with_its_id_and_nothing_moves() -> None:
    t = Table()
    t.start()
    other = 1 - t.to_act()
    player = t.people[other]
    outcome = t.moves.act(player, 1, parse_action({"draw": True}))
    ((who, refused),) = outcome.tell
    assert who is player and refused["type"] == "error" and refused["id"] == 1
    assert refused["code"] == ErrorCode.NOT_YOUR_TURN and outcome.step is None
    t.seq = 3
    seat = t.to_act()
    action = parse_action(legal(t.log.game, seat))  # type: ignore[arg-type]
    stale = t.moves.act(t.people[seat], 2, action, seq=2)
    assert stale.tell[0][1]["code"] == ErrorCode.STALE and stale.step is None


def test_spectators_and_strangers_cannot_act() -> None:
    t = Table()
    t.start()
    watcher = Conn("Wat")
    t.seating.spectators.add(watcher)
    for who, code in ((watcher, ErrorCode.SPECTATOR), (Conn("X"), ErrorCode.NOT_SEATED)):
        with pytest.raises(TableError) as refused:
            t.moves.act(who, 1, parse_action({"draw": True}))
        assert refused.value.code == code


def test_a_turn_timed_out_is_played_for_the_seat_which_goes_away() -> None:
    t = Table()
    t.start()
    seat = t.to_act()
    outcome = t.moves.timeout_move()
    assert t.seating.seats[seat].away
    assert outcome.changed, "the seat is away now: the info changed"
    assert outcome.step is not None and outcome.step.notice is not None
    assert outcome.step.notice["kind"] == "timeout" and outcome.step.notice["seat"] == seat


def test_a_bot_moves_on_its_turn_and_calls_off_it_only_as_its_level_says() -> None:
    t = Table(seats=2, bots=1)
    t.start()
    t.play_to_the_bot()
    outcome = t.moves.bot_move()
    assert outcome.step is not None and outcome.step.notice is None
    assert not outcome.changed
    for seat, _call in t.moves.bot_calls():
        assert t.seating.seats[seat].bot is not None


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop to make the searches' answers (futures) on; never run."""
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def test_an_expert_asks_for_a_search_and_its_answer_is_played(
    loop: asyncio.AbstractEventLoop,
) -> None:
    """An expert's turn starts a search (nothing is played meanwhile); its answer,
    an index into the seat's legal actions, is played then."""
    t = Table(seats=2, bots=1, level="expert")
    t.start()
    t.play_to_the_bot()
    outcome = t.moves.bot_move()
    search = outcome.search
    assert outcome.step is None and search is not None
    assert search.seat == 1 and search.seq == t.seq and search.view["legal"]
    answer: asyncio.Future[int | None] = loop.create_future()
    answer.set_result(len(search.view["legal"]) - 1)
    played = t.moves.searched(search, answer)
    assert played.step is not None and played.step.notice is None
    assert played.step.events[0].seat == 1


def test_an_expert_answer_is_dropped_once_the_game_moved_on_and_a_failed_search_plays_basic(
    loop: asyncio.AbstractEventLoop,
) -> None:
    t = Table(seats=2, bots=1, level="expert")
    t.start()
    t.play_to_the_bot()
    search = t.moves.bot_move().search
    assert search is not None
    late: asyncio.Future[int | None] = loop.create_future()
    late.set_result(0)
    t.seq += 1  # an update went out meanwhile (protocol §11.6)
    assert t.moves.searched(search, late).step is None
    t.seq -= 1
    failed: asyncio.Future[int | None] = loop.create_future()
    failed.set_exception(RuntimeError("the worker died"))
    outcome = t.moves.searched(search, failed)
    assert outcome.step is not None and outcome.step.events[0].seat == 1


def test_the_next_hand_is_dealt_only_once_the_hand_is_over() -> None:
    t = Table()
    t.start()
    assert t.moves.next_hand().step is None
