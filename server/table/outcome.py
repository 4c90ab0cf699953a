"""What a table's part hands back to the table: an :class:`Outcome`.

The parts of a table (:class:`~craits.server.table.membership.Membership`,
:class:`~craits.server.table.moves.Moves`, :class:`~craits.server.table.powers.Powers`)
change what they own and say what came of it; they send nothing, record
nothing and start no timer. The :class:`~craits.server.table.actor.Table`
alone publishes and persists: it applies an outcome in one fixed order
(:meth:`Table.request <craits.server.table.actor.Table.request>`), so what its
members receive, and when, is decided in one place (lila's round: the player
returns events, the actor publishes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from craits.protocol.types import Notice, ServerMsg
from craits.protocol.vocab import TableState

from ..engine import Event
from ..engine.events import HandEnded
from .ports import Member


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The full ``state`` message for ``seat`` (None: a spectator), built by the
    table when it is sent, after the outcome's changes (protocol §7.1)."""

    seat: int | None


@dataclass(frozen=True, slots=True)
class TurnDeadline:
    """A ``deadline`` message: the turn's time left, as the table's clock has it
    when it is sent (protocol §11.4)."""


Reply = ServerMsg | Snapshot | TurnDeadline
"""A message to one member: ready, or built by the table as it is sent."""


class Deadline(Enum):
    """What becomes of the turn's deadline (the table's clock) before the rest."""

    KEEP = "keep"
    RESTART = "restart"
    """The turn's time starts again (a player is back, a bot took a seat)."""
    REFRESH = "refresh"
    """A deadline already over starts again; one that runs stays (a seat resumed)."""


@dataclass(frozen=True, slots=True)
class Search:
    """An expert bot's search for its move (``docs/bots.md``), for the table to
    start in a worker process, never on the event loop; its answer goes back to
    :meth:`Moves.searched <craits.server.table.moves.Moves.searched>`.

    Attributes:
        seat: the expert's seat.
        seq: the table's ``seq`` when it started: an answer to an older update is dropped.
        view: the seat's view, as the engine's plain data (protocol §8).
        events: the hand's events as the seat saw them.
        seed: the search's random seed.
    """

    seat: int
    seq: int
    view: dict[str, Any]
    events: list[dict[str, Any]]
    seed: int


class Step(NamedTuple):
    """A step of the game to publish: an update for every member (protocol §6.3).

    Attributes:
        events: what the step did, as the engine made them.
        notice: the server played it for a seat (protocol §11.4), or None.
        deadline_extra: the turn's deadline starts again with this many seconds
            more (0.0: none); None: the deadline stands (a call off the turn).
        ended: the hand's end among ``events``, or None.
    """

    events: list[Event]
    notice: Notice | None = None
    deadline_extra: float | None = 0.0
    ended: HandEnded | None = None


@dataclass(slots=True)
class Outcome:
    """What a request (or a timer) did at a table, for the table to publish, in
    this order:

    1. ``state``: the table's new state (protocol §11.1), if it changes;
    2. ``deadline``: the turn's deadline (:class:`Deadline`);
    3. ``tell``: messages to members, in order; ``everyone``: messages to every member;
    4. ``let_go``: connections no longer at the table (told already);
    5. ``changed``: the table's info changed: its row is recorded and every
       member and the lobby are told;
    6. ``start``: the last seat was taken: the game starts;
    7. ``step``: the game moved: every member gets its update;
    8. ``reschedule``: the table's timer is set again (the seats changed);
    9. ``then``: messages to members after all that;
    10. ``search``: an expert bot's search starts (its move comes later).

    One is made for every move: its sequences default to empty tuples, made once.
    """

    state: TableState | None = None
    deadline: Deadline = Deadline.KEEP
    tell: Sequence[tuple[Member, Reply]] = ()
    everyone: Sequence[ServerMsg] = ()
    let_go: Sequence[Member] = ()
    changed: bool = False
    start: bool = False
    step: Step | None = None
    reschedule: bool = False
    then: Sequence[tuple[Member, Reply]] = ()
    search: Search | None = None
