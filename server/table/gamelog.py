"""A table's game and its log: apply → journal → replay, and the hand's commitments.

Every step of a game (its start, an action, the next deal) goes through
:meth:`GameLog.commit`: the engine applies it, and if it is legal it is
written to the journal (:class:`~craits.server.table.ports.TableJournal`) with
the shuffles it made, before anything about it is sent. If a write fails, the
game is rebuilt from what the journal holds, so the table shows only what was
recorded; on a restart the game is rebuilt the same way (RULES.md R2: the same
hands, stock order, count, scores and shuffle penalties).
"""

from __future__ import annotations

import logging
import sqlite3
from collections import deque
from collections.abc import Callable
from typing import Any, NoReturn

from craits.protocol.actions import Action, action_to_wire
from craits.protocol.vocab import LogEntryKind, Phase

from ..engine import Event, Game, IllegalAction, Rules, event_to_dict
from ..engine.events import Dealt
from ..errors import JournalError, TablePaused
from ..journal.records import Entry, replay
from .fairness import HandCommitments, RecordingShuffle, shuffle_entries
from .handlog import HandLog
from .ports import TableJournal

log = logging.getLogger("craits.server")

Step = Callable[[Game], list[Event]]
"""A step of the game: applied to it in place, returns its events."""


class GameLog:
    """The game in play at table ``table`` and its record in ``journal`` (None:
    a server without a journal, whose games are not recorded). Each replay
    calls ``answered(seat, action_id)`` for every player's action in the log,
    so a resent action is not applied again; a failed write calls
    ``pause(reason)`` (the table pauses) and raises
    :class:`~craits.server.table.ports.TablePaused`.

    Attributes:
        game: the game, or None before the first.
        game_id: its id in the journal.
        rng: the shuffle source of the games started here.
        commitments: the hand's shuffle commitments (:mod:`craits.server.table.fairness`).
        hands: the hand in play's events and the game's score sheet
            (:mod:`craits.server.table.handlog`), for the ``state`` message.
    """

    def __init__(
        self,
        table: str,
        rules: Rules,
        journal: TableJournal | None,
        answered: Callable[[int, int], None],
        pause: Callable[[str], None],
    ):
        self.table = table
        self._answered = answered
        self._pause = pause
        self.rules = rules
        self.journal = journal
        self.game: Game | None = None
        self.game_id: int | None = None
        self.rng = RecordingShuffle()
        self.commitments = HandCommitments()
        self.hands = HandLog()
        # actions answered ok whose journal write is not done yet: (ticket, seat, id)
        self._unwritten: deque[tuple[int, int, int]] = deque()
        self._ticket = 0  # the last write's, 0: none

    def start(self, players: list[str], readers: list[bytes] | None = None) -> list[Event]:
        """Start a game for ``players`` (R2: the cut, then hand 1) and record it;
        ``readers``: the token digests that may read its record (a private
        table's game, protocol §7.3; None: public).

        Raises:
            TablePaused: the write failed (a journal that does not defer its
                writes); no game was started.
        """
        self.rng.take()
        game, events = Game.start(len(players), self.rules, self.rng)
        shuffles = self.rng.take()
        if self.journal is not None:
            entries = [*shuffle_entries(shuffles), (LogEntryKind.START, {})]
            try:
                self.game_id = self.journal.start_game(
                    self.table, players, self.rules.changed(), entries, readers
                )
            except JournalError as exc:
                self._failed(exc)
        self.game = game
        self.commitments.started(shuffles)
        self.hands.take(events)
        return events

    def act(
        self, seat: int, action: Action, action_id: int | None, played_for: str | None = None
    ) -> list[Event]:
        """Apply and record ``action`` (its seat is set to ``seat``); ``action_id``
        is the player's id for it (None: the server acted for the seat: a bot's
        move, or, with ``played_for``, a person's, a
        :class:`~craits.protocol.vocab.NoticeKind`; recorded as the entry's
        ``played_for``, so the hand's log tells it after a restart, protocol §7.1).

        Raises:
            IllegalAction: the action is illegal; nothing changed.
            TablePaused: the write failed; the game is back at its last recorded state.
        """
        mine = action._replace(seat=seat)
        entry: dict[str, Any] = {"seat": seat, "id": action_id, "action": action_to_wire(mine)}
        if played_for is not None:
            entry["played_for"] = played_for
        return self.commit(lambda g: g.apply(mine), (LogEntryKind.ACTION, entry))

    def next_hand(self) -> list[Event]:
        """Deal the next hand (R2) and record it.

        Raises:
            TablePaused: the write failed; the game is back at its last recorded state.
        """
        return self.commit(lambda g: g.next_hand(), (LogEntryKind.NEXT_HAND, {}))

    def commit(self, step: Step, entry: Entry) -> list[Event]:
        """Validate and apply, then journal: run ``step`` on the game; if it is
        legal, write it (and the shuffles it made) to the journal. Nothing about
        it is sent before the write is done (the caller sends after this returns).

        The engine refuses an illegal step before changing anything (R4; the
        property tests hold it to that), so the game is applied in place, with no
        copy: copies made on every move were most of what the garbage collector
        had to walk.

        Raises:
            IllegalAction: the step is illegal; nothing changed.
            TablePaused: the write failed; the game is back at its last recorded state.
            Exception: the engine failed mid-step; the game is back at its last
                recorded state.
        """
        game = self.game
        assert game is not None
        try:
            events = step(game)
        except IllegalAction:
            self.rng.take()
            raise
        except Exception:
            self.rng.take()
            self.reload()  # an engine error mid-step: back to the recorded state
            raise
        shuffles = self.rng.take()
        journal = self.journal
        if journal is not None and self.game_id is not None:
            result = game.result if game.phase == Phase.GAME_OVER else None
            try:
                self._ticket = journal.append(
                    self.game_id,
                    [*shuffle_entries(shuffles), entry],
                    event_to_dict(result) if result is not None else None,
                )
            except JournalError as exc:
                self.reload()
                self._failed(exc)
        if shuffles:  # a deal or a reshuffle of the discard pile (R3, R10): new commitments
            self.commitments.made(shuffles, any(type(e) is Dealt for e in events))
        self.hands.take(events, _played_for(*entry))
        return events

    def abandon(self, reason: str) -> None:
        """Record that the game in play ends here, before its last hand:
        ``reason`` (an :class:`~craits.protocol.vocab.AbandonReason`) is its
        record's ``abandoned`` (``docs/records.md``). Nothing is recorded
        without a journal.

        Raises:
            TablePaused: the write failed (a journal that does not defer its writes).
        """
        if self.journal is None or self.game_id is None:
            return
        try:
            self.journal.append(self.game_id, [], {"abandoned": reason})
        except JournalError as exc:
            self._failed(exc)

    def _failed(self, exc: JournalError) -> NoReturn:
        self._pause(str(exc))
        raise TablePaused(str(exc)) from None

    def answered(self, seat: int, action_id: int) -> None:
        """The last step committed was ``seat``'s action ``action_id``, answered
        ``ok``: remember it until its write is done (:meth:`unwritten_since`)."""
        journal = self.journal
        ticket = self._ticket
        if journal is None or journal.written(ticket):
            return
        unwritten = self._unwritten
        while unwritten and journal.written(unwritten[0][0]):
            unwritten.popleft()
        unwritten.append((ticket, seat, action_id))

    def unwritten_since(self, ticket: int) -> list[tuple[int, int]]:
        """Write ``ticket`` failed: the ``(seat, action id)`` of the actions
        answered ``ok`` whose writes were that one or later (none were recorded).
        Forgets every action remembered."""
        failed = [(seat, i) for t, seat, i in self._unwritten if t >= ticket]
        self._unwritten.clear()
        return failed

    def reload(self) -> None:
        """Rebuild the game from the journal (after a failed write or an engine
        error); if the journal cannot be read, drop the game (the journal still
        holds it for a restart)."""
        if self.journal is None or self.game_id is None or self.game is None:
            return  # nothing to rebuild from: the caller stops the table
        try:
            self.replay(self.journal.entries(self.game_id), self.game.players)
        except (JournalError, sqlite3.Error, ValueError) as exc:
            log.error("table %s: cannot rebuild the game from the journal: %s", self.table, exc)
            self.game = None

    def replay(self, entries: list[Entry], players: int) -> Game:
        """Set the game (and the shuffle commitments of its hand) from its
        journaled log of game :attr:`game_id`.

        Raises:
            JournalError: the log does not replay (a corrupt journal).
        """
        answered = self._answered
        hands = self.hands = HandLog()

        def track(kind: str, data: dict[str, Any], game: Game | None, events: list[Event]) -> None:
            hands.take(events, _played_for(kind, data))
            if kind == LogEntryKind.ACTION and data.get("id") is not None:
                answered(data["seat"], data["id"])

        try:
            game = replay(players, self.rules, entries, track)
        except ValueError as exc:
            raise JournalError(f"table {self.table}: the journal does not replay: {exc}") from None
        game.rng = self.rng
        self.game = game
        self.commitments.replayed(entries)
        return game


def _played_for(kind: str, data: dict[str, Any]) -> tuple[str, int] | None:
    """``(notice kind, seat)`` of a log entry that is a move the server played
    for a person's seat (its ``played_for``), else None."""
    if kind != LogEntryKind.ACTION:
        return None
    why = data.get("played_for")
    return (why, data["seat"]) if isinstance(why, str) else None
