"""Sending a table's messages to its members, each only what it may know.

:class:`UpdateFrames` encodes one moment of a game as one framed ``update``
per seat and one for spectators, sharing the encoding of what they get alike;
:class:`Broadcaster` sends those, and messages everyone at a table gets alike.
Every message about the game is built from :func:`~craits.server.engine.view`
and :func:`~craits.server.engine.event_dict_for` (through
:class:`~craits.server.engine.Moment`), so each member receives only what its
seat (or a spectator) may know.
"""

from __future__ import annotations

from typing import Any

from craits.protocol import wire
from craits.protocol.types import Commitment, ErrorMsg, Notice, ServerMsg, TableClosedMsg
from craits.protocol.vocab import ErrorCode, ServerMessage

from ..engine import Moment
from .seating import Seating

_UPDATE = ServerMessage.UPDATE.value  # a plain str: packed on every move
_EVENTS_KEY = wire.pack("events")
_VIEW_KEY = wire.pack("view")


class UpdateFrames:
    """The framed ``update`` messages of one moment of a game, one per member:
    ``head`` (type, table, seq, deadline…) plus ``events`` and ``view`` as
    :class:`Moment` gives them to each seat (protocol §6.3).

    What every member gets alike (the head, the public part of the view, the
    events when they are all public) is encoded once; per seat only its
    hand, drawn card and legal actions (and events when they differ). Each
    frame decodes to exactly the map ``{**head, "events":
    moment.events(seat), "view": moment.view(seat)}``.
    """

    __slots__ = ("_events", "_head", "_moment", "_view")

    def __init__(self, moment: Moment, head: dict[str, Any]) -> None:
        self._moment = moment
        n, entries = wire.map_entries(wire.pack(head))
        self._head = wire.map_header(n + 2) + entries + _EVENTS_KEY
        self._view: tuple[int, bytes] | None = None
        self._events: tuple[list[dict[str, Any]], bytes] | None = None

    def frame(self, seat: int | None) -> bytes:
        """The framed update for ``seat`` (``None``: a spectator)."""
        moment = self._moment
        public = self._view
        if public is None:
            public = self._view = wire.map_entries(wire.pack(moment.public()))
        k, personal = wire.map_entries(wire.pack(moment.personal(seat)))
        view = wire.map_header(public[0] + k)
        events = moment.events(seat)
        cached = self._events
        if cached is not None and cached[0] is events:  # the list every seat shares
            packed = cached[1]
        else:
            packed = wire.pack(events)
            self._events = (events, packed)
        return wire.frame(b"".join((self._head, packed, _VIEW_KEY, view, public[1], personal)))


class Broadcaster:
    """Sends the messages of table ``table`` to its members: the seats that
    have a connection, and the spectators (as ``seating`` has them)."""

    __slots__ = ("_seating", "table")

    def __init__(self, table: str, seating: Seating) -> None:
        self.table = table
        self._seating = seating

    def send_all(self, message: ServerMsg) -> None:
        """Send ``message`` to every member alike."""
        for member, _ in self._seating.members():
            member.send(message)

    def error_all(self, code: ErrorCode, message: str) -> None:
        """Send every member an ``error`` (not an answer to a request of theirs)."""
        error: ErrorMsg = {"type": ServerMessage.ERROR, "code": code, "message": message}
        self.send_all(error)

    def update(
        self,
        moment: Moment,
        seq: int,
        deadline_ms: int | None,
        notice: Notice | None,
        commitments: list[Commitment],
        next_hand_ms: int | None = None,
    ) -> None:
        """Send each member the ``update`` numbered ``seq`` for ``moment``: its
        events and view, the turn's ``deadline_ms``, the ``notice`` if any (the
        server played for a seat), the shuffle ``commitments`` made since the
        last update (protocol §6.3) and, when a hand ended and the next is to
        be dealt, ``next_hand_ms`` (milliseconds until then, §7.1)."""
        head: dict[str, Any] = {
            "type": _UPDATE,
            "table": self.table,
            "seq": seq,
            "deadline_ms": deadline_ms,
        }
        if next_hand_ms is not None:
            head["next_hand_ms"] = next_hand_ms
        if notice:
            head["notice"] = notice
        if commitments:
            head["commitments"] = commitments
        frames = UpdateFrames(moment, head)
        seating = self._seating
        for seat, s in enumerate(seating.seats):  # Seating.members(), without the list
            if s.member is not None:
                s.member.send_frame(frames.frame(seat))
        for member in seating.spectators:
            member.send_frame(frames.frame(None))

    def close(self) -> None:
        """The table closed: tell every member, and let go of each."""
        message: TableClosedMsg = {"type": ServerMessage.TABLE_CLOSED, "name": self.table}
        for member, _ in self._seating.members():
            member.send(message)
            member.detach()
