"""The decisions of a game's record, each with what its seat knew then (``docs/bots.md``,
"Post-game analysis").

:func:`moments` replays a record's log (``docs/records.md``, "The log") through
the rules engine and lists every decision a player made, or let pass, as a
:class:`Moment`: the seat's view just before it (protocol §8, the very view the
live bot is given) and the hand's events as that seat saw them (the engine's one
filter, :func:`~craits.server.engine.events_for`) — never a card the seat could
not see then. The decisions (:data:`KINDS`):

- ``play``: which card to play on one's turn, and the suit an 8 or a 9 names (R4, R5);
- ``count``: which ace or two answers the count (R6);
- ``drawn``: play the card just drawn, or keep it (R4, ``play_drawn_card``);
- ``king``: a card of a king's run (R11);
- ``turned_suit``: the suit the dealer names for a turned-up 8 or 9 (R3);
- ``one_card``: "one card" owed on receiving one card (R7, ``one_card_deal``):
  said, or not said before the next game action or a call;
- ``idiot``: an idiot call on a seat that owes "one card" (R7): made, or let pass
  (the window closed with nobody calling: every other seat let it pass).

A play that leaves one card carries the "one card" decision with it: a player
who forgot it with the play but said it before anyone called counts as having
said it (:attr:`Moment.late`). A turn with a single choice (a forced draw, the one
card that may be played) is no decision. Moves the server played for a seat
(``played_for``: a timeout, a seat away, protocol §11.4) are not the player's,
and are left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from craits.protocol.vocab import LogEntryKind

from ...engine import Event, Game, Rules, action_from_dict, events_for, view
from ...engine.shuffles import ScriptedShuffle
from ..view import ActionDict
from .search import candidates, encode

__all__ = [
    "COUNT",
    "DRAWN",
    "IDIOT",
    "KINDS",
    "KING",
    "ONE_CARD",
    "PLAY",
    "TURNED_SUIT",
    "Moment",
    "moments",
    "read_record",
    "turn_kind",
]

PLAY = "play"
COUNT = "count"
DRAWN = "drawn"
KING = "king"
TURNED_SUIT = "turned_suit"
ONE_CARD = "one_card"
IDIOT = "idiot"
KINDS = (PLAY, COUNT, DRAWN, KING, TURNED_SUIT, ONE_CARD, IDIOT)
"""The kinds of decision, as :attr:`Moment.kind` and the analysis name them."""


@dataclass
class Moment:
    """One decision of a record.

    Attributes:
        index: its place among the record's decisions (0 first).
        hand: the hand's number (R2; ``hands[hand - 1]`` of the record).
        move: the index, in that hand's ``moves``, of the move that made the
            decision; for a call let pass or "one card" not said, of the move
            that closed the window (the moment it was missed).
        seat: whose decision it is.
        kind: one of :data:`KINDS`.
        taken: the entry of ``view["legal"]`` the decision is judged as (a play
            with "one card" if the seat said it in time); None for a call not
            made or "one card" not said.
        view: the seat's view just before (protocol §8).
        events: the hand's events as the seat saw them, wire form (protocol §9).
        target: for ``idiot`` and ``one_card``, the seat that owed "one card".
        late: a play that left one card, "one card" said after it, before any call.
        played: the move as the record has it (protocol §6, no seat); None as ``taken``.
    """

    index: int
    hand: int
    move: int
    seat: int
    kind: str
    taken: ActionDict | None
    view: dict[str, Any]
    events: list[dict[str, Any]]
    target: int | None = None
    late: bool = False
    played: dict[str, Any] | None = None


def read_record(record: Mapping[str, Any]) -> tuple[int, Rules, list[tuple[str, dict[str, Any]]]]:
    """The seats, rules and log of a game record (``docs/records.md``).

    Raises:
        ValueError: not a record: a field missing or of the wrong shape, bad rules.
    """
    try:
        players = len(record["players"])
        rules = Rules.from_dict(record["rules"])
        log = [(str(kind), dict(data)) for kind, data in record["log"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a game record: {exc!r}") from None
    if not 2 <= players <= 8:
        raise ValueError(f"not a game record: {players} players")
    return players, rules, log


def _match(legal: Sequence[ActionDict], action: Mapping[str, Any]) -> ActionDict:
    """The entry of ``legal`` that is ``action`` (wire form).

    Raises:
        ValueError: none is.
    """
    code = encode(action)
    for a in legal:
        if encode(a) == code:
            return a
    raise ValueError(f"{dict(action)} is not among the legal actions")


def turn_kind(v: Mapping[str, Any]) -> str:
    """What a turn decides, from the view before it (R3, R4, R6, R11)."""
    if v.get("pending") is not None:
        return TURNED_SUIT
    if v.get("drawn") is not None:
        return DRAWN
    if v.get("count"):
        return COUNT
    if v.get("king_cards"):
        return KING
    return PLAY


@dataclass
class _Window:
    """A seat owes "one card" (R7): since a play of its own (``moment``, the play's
    decision, or None when it is not the player's) or since the deal (``dealt``)."""

    moment: Moment | None
    dealt: bool


class _Walk:
    """A record's log replayed step by step, its decisions collected (:func:`moments`)."""

    def __init__(self, players: int, rules: Rules) -> None:
        self.players = players
        self.rules = rules
        self.script = ScriptedShuffle()
        self.game: Game | None = None
        self.hand_events: list[Event] = []
        self.move = 0
        self.windows: dict[int, _Window] = {}
        self.found: list[Moment] = []

    def step(self, kind: str, data: dict[str, Any]) -> None:
        """Follow one log entry.

        Raises:
            ValueError: the entry does not replay.
        """
        if kind == LogEntryKind.SHUFFLE:
            self.script.feed(list(data["order"]))
        elif kind == LogEntryKind.START:
            self.game, events = Game.start(self.players, self.rules, self.script)
            self._dealt(events)
        elif self.game is None:
            raise ValueError(f"{kind} before the game started")
        elif kind == LogEntryKind.NEXT_HAND:
            self._dealt(self.game.next_hand())
        elif kind == LogEntryKind.ACTION:
            self._action(self.game, data)
        else:
            raise ValueError(f"unknown entry kind {kind!r}")

    def _dealt(self, events: list[Event]) -> None:
        """A hand dealt: its events start afresh (after the cut, for hand 1); seats that
        owe "one card" on their one card (``one_card_deal``) open their windows."""
        assert self.game is not None
        self.hand_events = list(events)
        self.move = 0
        self.windows = {s: _Window(None, True) for s in self.game.unannounced}

    def _seen(self, game: Game, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``seat``'s view and the hand's events as it saw them, now."""
        return view(game, seat), events_for(self.hand_events, seat)

    def _moment(
        self,
        game: Game,
        seat: int,
        kind: str,
        taken: ActionDict | None,
        target: int | None = None,
        seen: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
    ) -> Moment:
        v, events = seen if seen is not None else self._seen(game, seat)
        played = None if taken is None else {k: x for k, x in taken.items() if k != "seat"}
        return Moment(
            0, game.hand_number, self.move, seat, kind, taken, v, events, target, played=played
        )

    def _add(self, moment: Moment) -> None:
        moment.index = len(self.found)
        self.found.append(moment)

    def _action(self, game: Game, data: dict[str, Any]) -> None:
        """An accepted action: its decision, and the windows of "one card" it closes."""
        seat: int = data["seat"]
        wire: dict[str, Any] = data["action"]
        action = action_from_dict(wire, seat)
        turn = None if data.get("played_for") else self._turn_moment(game, seat, wire)
        call: Moment | None = None
        if "idiot" in wire:
            taken = _match(view(game, seat)["legal"], wire)
            call = self._moment(game, seat, IDIOT, taken, target=wire["idiot"])
        # a step may close a window of "one card": what each seat knew before it
        before = {s: self._seen(game, s) for s in range(self.players)} if self.windows else {}
        self.hand_events += game.apply(action)
        if call is not None:
            self._add(call)
        self._closed(game, seat, wire, before)
        if turn is not None:
            self._add(turn)
        if seat in game.unannounced and seat not in self.windows:
            self.windows[seat] = _Window(turn, False)
        self.move += 1

    def _turn_moment(self, game: Game, seat: int, wire: Mapping[str, Any]) -> Moment | None:
        """The decision of a turn action, if it had a choice (None for a call, or a
        turn with one choice)."""
        if "idiot" in wire or ("announce" in wire and "play" not in wire):
            return None
        v, events = self._seen(game, seat)
        taken = _match(v["legal"], wire)
        choices = candidates(v["legal"])
        if len(choices) <= 1 and taken in choices:
            return None
        return Moment(
            0, game.hand_number, self.move, seat, turn_kind(v), taken, v, events, played=dict(wire)
        )

    def _closed(
        self,
        game: Game,
        seat: int,
        wire: Mapping[str, Any],
        before: dict[int, tuple[dict[str, Any], list[dict[str, Any]]]],
    ) -> None:
        """The windows of "one card" the step just taken closed (R7): said, called, or
        gone by (every other seat let the call pass, the owing seat did not say it)."""
        for owing in [s for s in self.windows if s not in game.unannounced]:
            window = self.windows.pop(owing)
            if wire.get("announce") is True and "play" not in wire and seat == owing:
                self._said(game, window, owing, wire, before[owing])
            elif wire.get("idiot") == owing:
                if window.dealt:
                    self._add(self._moment(game, owing, ONE_CARD, None, owing, before[owing]))
            else:
                if window.dealt:
                    self._add(self._moment(game, owing, ONE_CARD, None, owing, before[owing]))
                for other in range(self.players):
                    if other != owing:
                        seen = before[other]
                        self._add(self._moment(game, other, IDIOT, None, owing, seen))

    def _said(
        self,
        game: Game,
        window: _Window,
        owing: int,
        wire: Mapping[str, Any],
        seen: tuple[dict[str, Any], list[dict[str, Any]]],
    ) -> None:
        """``owing`` said "one card" in time: on its one card dealt, a decision of its
        own; after its play, the play counts as announced (said late)."""
        if window.dealt:
            taken = _match(seen[0]["legal"], wire)
            self._add(self._moment(game, owing, ONE_CARD, taken, owing, seen))
            return
        played = window.moment
        if played is None or played.taken is None:
            return
        key = (played.taken.get("play"), played.taken.get("suit"))
        for a in played.view["legal"]:
            if (a.get("play"), a.get("suit")) == key and a.get("announce"):
                played.taken = a
                played.late = True
                return


def moments(record: Mapping[str, Any]) -> list[Moment]:
    """Every decision of ``record``'s players, in the order made (see the module's text).

    Raises:
        ValueError: not a game record, or its log does not replay (its message
            says where).
    """
    players, rules, log = read_record(record)
    walk = _Walk(players, rules)
    for i, (kind, data) in enumerate(log):
        try:
            walk.step(kind, data)
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"entry {i} ({kind}): {exc}") from None
    if walk.game is None:
        raise ValueError("the log holds no start of the game")
    found = [m for m in walk.found if not _forced(m)]
    for i, m in enumerate(found):
        m.index = i
    return found


def _forced(moment: Moment) -> bool:
    """A turn with one choice after all: a play leaving one card, forced, whose "one
    card" was said late but in time (it counts as said)."""
    if moment.kind in (ONE_CARD, IDIOT):
        return False
    choices = candidates(moment.view["legal"])
    return len(choices) <= 1 and moment.taken in choices
