"""A table's game and its log: apply → journal → replay, the hand's
commitments, and what the table keeps of the hand for newcomers.

Every step of a game (its start, an action, the next deal) goes through
:meth:`GameLog.commit`: the engine applies it, and if it is legal it is
written to the journal (:class:`~craits.server.table.ports.TableJournal`) with
the shuffles it made, before anything about it is sent. If a write fails, the
game is rebuilt from what the journal holds (:func:`replay`), so the table
shows only what was recorded; on a restart the game is rebuilt the same way
(RULES.md R2: the same hands, stock order, count, scores and shuffle penalties).

A game's log is a list of entries ``(kind, data)`` (``docs/records.md``, "The log"):

- ``("shuffle", {"order": [...], "salt": hex, "sha256": hex})`` — a shuffle
  the game made (the cut decks, each deal, each reshuffle of the discard pile,
  RULES.md R2, R3, R10), written before the entry that made it;
- ``("start", {})`` — the game starts: the cut, then hand 1 (R2);
- ``("action", {"seat": s, "id": id or null, "action": {...}})`` — an accepted action
  (with ``"played_for": "timeout" | "away"`` when the server played a person's seat);
- ``("next_hand", {})`` — the next hand is dealt (R2).

:class:`HandLog` is what the table keeps of its game for the members who
arrive or come back: the hand in play's events and the score sheet of the
hands ended (the ``state`` message's ``events`` and ``score_sheet``, protocol
§7.1). It holds the events whole, cards and all, as the engine made them; what
a member receives of them goes through the engine's one filter
(:func:`~craits.server.engine.events_for`), so a seat reads in them only what
it saw happen, and a spectator no hidden card. It is fed every step of the game
as it is committed, and again from the journal when a game is replayed (a
restart, a failed write), so a player who comes back after either finds the
hand's log.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from craits.protocol.actions import Action, action_to_wire
from craits.protocol.types import LogNotice
from craits.protocol.vocab import LogEntryKind, NoticeKind, Phase

from ..engine import (
    Event,
    Game,
    HandEnded,
    IllegalAction,
    Rules,
    action_from_dict,
    event_to_dict,
    events_for,
    score_sheet_row,
)
from ..engine.events import Cut, Dealt
from ..engine.shuffles import ScriptedShuffle
from ..errors import JournalError, TablePaused
from .fairness import HandCommitments, RecordingShuffle, shuffle_entries
from .ports import Entry, TableJournal

log = logging.getLogger("craits.server")

Apply = Callable[[Game], list[Event]]
"""A step of the game: applied to it in place, returns its events."""


def replay(
    players: int,
    rules: Rules,
    entries: Iterable[Entry],
    on_entry: Callable[[str, dict[str, Any], Game | None, list[Event]], None] | None = None,
) -> Game:
    """Rebuild a game by replaying its log with the recorded shuffles.

    ``on_entry(kind, data, game, events)`` is called after each entry.

    Raises:
        ValueError: the log does not replay (an illegal action, a shuffle that
            does not fit, an entry out of place): its message says where.
    """
    script = ScriptedShuffle()
    game: Game | None = None
    for i, (kind, data) in enumerate(entries):
        events: list[Event] = []
        try:
            if kind == LogEntryKind.SHUFFLE:
                script.feed(list(data["order"]))
            elif kind == LogEntryKind.START:
                game, events = Game.start(players, rules, script)
            elif game is None:
                raise ValueError(f"{kind} before the game started")
            elif kind == LogEntryKind.NEXT_HAND:
                events = game.next_hand()
            elif kind == LogEntryKind.ACTION:
                events = game.apply(action_from_dict(data["action"], data["seat"]))
            else:
                raise ValueError(f"unknown entry kind {kind!r}")
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"entry {i} ({kind}): {exc}") from None
        if on_entry is not None:
            on_entry(kind, data, game, events)
    if game is None:
        raise ValueError("the log holds no start of the game")
    if script.orders:
        raise ValueError(f"{len(script.orders)} recorded shuffle(s) were never used")
    return game


class GameLog:
    """The game in play at table ``table`` and its record in ``journal`` (None:
    a server without a journal, whose games are not recorded). Each replay
    calls ``answered(seat, action_id)`` for every player's action in the log,
    so a resent action is not applied again; a failed write calls
    ``pause(reason)`` (the table pauses) and raises
    :class:`~craits.server.errors.TablePaused`.

    Attributes:
        game: the game, or None before the first.
        game_id: its id in the journal.
        rng: the shuffle source of the games started here.
        commitments: the hand's shuffle commitments (:mod:`craits.server.table.fairness`).
        hands: the hand in play's events and the game's score sheet
            (:class:`HandLog`), for the ``state`` message.
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

    def set_aside(self) -> None:
        """The finished game is no longer the table's (its seats changed for a
        rematch, protocol §11.12): no game, hand log or commitments are shown
        until the next starts; its record stays in the journal."""
        self.game, self.game_id = None, None
        self.commitments = HandCommitments()
        self.hands = HandLog()

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

    def commit(self, step: Apply, entry: Entry) -> list[Event]:
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
            self.replay(self.journal.recorded(self.game_id), self.game.players)
        except JournalError as exc:
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


HAND_EVENTS_MAX = 1000
"""Events of the hand in play kept (the latest; a longer hand drops its earliest).
Each is well under 200 bytes on the wire, so ``state`` stays far below the
client's frame limit (1 MiB, protocol §2) whatever the hand."""


class HandLog:
    """The events of the hand in play (from its deal; hand 1's from the cut), the
    moves the server played for a seat among them (the updates' notices,
    protocol §11.4), and one :class:`~craits.server.engine.HandEnded` per hand
    ended this game."""

    __slots__ = ("_taken", "ended", "events", "played_for")

    def __init__(self) -> None:
        self.events: deque[Event] = deque(maxlen=HAND_EVENTS_MAX)
        self.ended: list[HandEnded] = []
        self.played_for: list[tuple[int, str, int]] = []
        """``(n, kind, seat)``: the step whose first event is the hand's ``n``-th
        (counted from its first, the dropped included) was a move the server
        played for ``seat`` (``kind``: a :class:`~craits.protocol.vocab.NoticeKind`)."""
        self._taken = 0  # events of the hand taken, the dropped included

    def take(self, events: Iterable[Event], played_for: tuple[str, int] | None = None) -> None:
        """Keep a step's events: a cut starts a new game (the sheet starts over), a
        deal a new hand (its events start over, after the cut for hand 1).
        ``played_for``: ``(kind, seat)`` when the server played the step for a
        seat (protocol §11.4)."""
        kept = self.events
        first = self._taken
        for e in events:
            if type(e) is Cut:
                self._clear()
                self.ended.clear()
            elif type(e) is Dealt and not (kept and type(kept[-1]) is Cut):
                self._clear()
            elif type(e) is HandEnded:
                self.ended.append(e)
            kept.append(e)
            self._taken += 1
        if played_for is not None and first < self._taken:
            self.played_for.append((first, *played_for))

    def _clear(self) -> None:
        self.events.clear()
        self.played_for.clear()
        self._taken = 0

    def events_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The hand's events as ``seat`` (None: a spectator) may see them, wire form."""
        return events_for(self.events, seat)

    def notices(self, names: list[str]) -> list[LogNotice]:
        """The ``state``'s ``notices`` (protocol §7.1), ``names`` by seat: one per
        move of the hand the server played for a seat, ``at`` the index in
        :meth:`events_for` of its first event (moves whose events were dropped
        are left out)."""
        dropped = self._taken - len(self.events)
        return [
            {"at": n - dropped, "kind": NoticeKind(kind), "seat": seat, "name": names[seat]}
            for n, kind, seat in self.played_for
            if n >= dropped and seat < len(names)
        ]

    def score_sheet(self) -> list[dict[str, Any]]:
        """The score sheet: a row per hand ended this game, oldest first (public)."""
        return [score_sheet_row(e) for e in self.ended]


def _played_for(kind: str, data: dict[str, Any]) -> tuple[str, int] | None:
    """``(notice kind, seat)`` of a log entry that is a move the server played
    for a person's seat (its ``played_for``), else None."""
    if kind != LogEntryKind.ACTION:
        return None
    why = data.get("played_for")
    return (why, data["seat"]) if isinstance(why, str) else None
