"""What the server does with a ``hint`` request (protocol §7.6, ``docs/bots.md``
"Hints"): what the expert bot would do now at the asker's seat, and the expected
points of its best choices.

The hint is searched from exactly what the seat knows — its view (§8) and the
hand's events as it saw them (§9), the live expert's inputs — in the expert's
worker processes (:meth:`ExpertPool.hint
<craits.server.bots.expert.worker.ExpertPool.hint>`), never on the event loop,
and sent when done. A connection has one hint running at most; while it runs, the
connection's other requests are answered as usual.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from typing import TYPE_CHECKING, Any, cast

from craits.protocol.types import ActionMap, Hint, HintChoice, HintMsg, HintRequestMsg
from craits.protocol.vocab import ErrorCode, Phase, ServerMessage, TableState

from ..bots.expert.appraisal import decision_in
from ..bots.expert.worker import default_pool
from ..engine import view
from ..errors import TableError

if TYPE_CHECKING:
    from .connection import Client

log = logging.getLogger("craits.server")

_running: weakref.WeakSet[Client] = weakref.WeakSet()
"""The connections with a hint being worked out (one each at most)."""

_seeds = random.Random()
"""The hints' worlds' seeds (not secret: a hint sees only its seat's view)."""


def on_hint(client: Client, msg: HintRequestMsg) -> None:
    """A seated player asks what the expert would do now (§7.6): the hint is
    searched in a worker process and sent as a ``hint`` message when done.

    Raises:
        TableError: ``hint_pending`` (this connection's last hint is not done),
            ``not_at_table``, ``spectator`` (a spectator gets no hints),
            ``not_seated``, ``game_not_running`` (no hand being played, or the
            table stopped or paused), ``nothing_to_decide`` (not the seat's turn and
            no call to make, or a single move to make).
    """
    if client in _running:
        raise TableError(ErrorCode.HINT_PENDING, "your last hint is still being worked out")
    table = client.table
    if table is None:
        raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at a table")
    seat = table.seating.seat_of(client)
    if seat is None:
        if client in table.seating.spectators:
            raise TableError(ErrorCode.SPECTATOR, "a spectator gets no hints")
        raise TableError(ErrorCode.NOT_SEATED, "you have no seat at this table")
    game = table.gamelog.game
    if game is None or table.status.state is not TableState.PLAYING or game.phase != Phase.PLAY:
        raise TableError(ErrorCode.GAME_NOT_RUNNING, "no hand is being played")
    seen = view(game, seat)
    if decision_in(seen) is None:
        raise TableError(
            ErrorCode.NOTHING_TO_DECIDE,
            "you have nothing to decide now (not your turn, no call to make, or one move only)",
        )
    events = table.gamelog.hands.events_for(seat)
    answer = default_pool().hint(seen, events, _seeds.getrandbits(64))
    _running.add(client)
    name, seq = table.name, table.seq

    def done(answer: asyncio.Future[dict[str, Any]]) -> None:
        _running.discard(client)
        _send_hint(client, name, seq, answer)

    answer.add_done_callback(done)


def _send_hint(
    client: Client, table: str, seq: int, answer: asyncio.Future[dict[str, Any]]
) -> None:
    """Send the finished hint (or ``internal``, its search having failed) to ``client``."""
    if answer.cancelled():
        client.error(ErrorCode.INTERNAL, "the hint was not worked out (the server is stopping)")
        return
    error = answer.exception()
    if error is not None:
        log.warning("connection %s: a hint failed: %r", client.peer, error)
        client.error(ErrorCode.INTERNAL, "the server failed to work out the hint")
        return
    reply: HintMsg = {
        "type": ServerMessage.HINT,
        "table": table,
        "seq": seq,
        "hint": wire_hint(answer.result()),
    }
    client.send(reply)


def _x100(value: float | None) -> int | None:
    return None if value is None else round(value * 100)


def wire_hint(found: dict[str, Any]) -> Hint:
    """:func:`~craits.server.bots.expert.hint.hint`'s answer as the ``hint`` message
    carries it (§7.6): points and standard errors in hundredths of a point (ints:
    the protocol carries no floats, §3)."""
    choices: list[HintChoice] = [
        {
            "action": cast(ActionMap | None, c["action"]),
            "points_x100": _x100(c["points"]),
            "se_x100": _x100(c["se"]),
        }
        for c in found["choices"]
    ]
    return {
        "version": found["version"],
        "seat": found["seat"],
        "kind": found["kind"],
        "target": found["target"],
        "expert": cast(ActionMap | None, found["expert"]),
        "choices": choices,
        "worlds": found["worlds"],
    }
