"""What the server does with a request for finished games' records (protocol
§7.3, ``docs/records.md``): ``list_records``, ``get_record``, ``get_replay``.

The journal is read off the event loop (:meth:`Journal.read
<craits.server.journal.journal.Journal.read>`), who may read a game is decided
by :mod:`craits.server.journal.record_access`, and a game is rebuilt on the
loop within the server's budget of time for it (:mod:`craits.server.journal.rebuilds`).
While a request waits, the connection's later requests wait behind it
(:class:`~craits.server.net.connection.Deferred`), so replies keep their order.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, cast

from craits.protocol.types import (
    GameRecord,
    GetRecordMsg,
    GetReplayMsg,
    ListRecordsMsg,
    RecordSummary,
    ReplayMsg,
)
from craits.protocol.vocab import ErrorCode, ServerMessage

from ..errors import JournalError, NoSuchHand, TableError
from ..journal import record_access
from ..journal.journal import Journal, JournalReader
from ..journal.rebuilds import RebuildBudget, budget_of, rebuilding
from ..journal.record_access import Asker
from ..journal.records import build_record, iso_time
from ..journal.replay_frames import cached_frames, is_cached, replay_page

if TYPE_CHECKING:
    from .connection import Client

log = logging.getLogger("craits.server")

RECORDS_PAGE = 100
"""Finished games listed per ``records`` reply, newest first."""


def on_list_records(client: Client, msg: ListRecordsMsg) -> None:
    """The finished games in the journal the asker may read, newest first (at
    most :data:`RECORDS_PAGE`): public games, and the private games its
    ``tokens`` prove (:mod:`craits.server.journal.record_access`); read off the event
    loop (:meth:`Journal.read <craits.server.journal.journal.Journal.read>`)."""
    journal = client.server.journal
    if journal is None:
        _send_records(client, [])
        return
    asker = Asker.of(msg.get("tokens"), client.account_id)
    client.deferred.wait(_answer(client, _list_records(client, journal, asker)))


async def _list_records(client: Client, journal: Journal, asker: Asker) -> None:
    games = await journal.read(lambda reader: record_access.listed(reader, asker, RECORDS_PAGE))
    _send_records(client, games)


def _send_records(client: Client, games: list[dict[str, Any]]) -> None:
    summaries = [  # the journal's rows, times in ISO 8601: RecordSummary (§7.3)
        cast(
            RecordSummary,
            {**g, "started": iso_time(g["started"]), "finished": iso_time(g["finished"])},
        )
        for g in games
    ]
    client.send({"type": ServerMessage.RECORDS, "games": summaries})


async def _answer(client: Client, answer: Awaitable[None]) -> None:
    """Await ``answer`` to a request (its reply sent by it), replying with the
    error it raises instead: for :meth:`Deferred.wait
    <craits.server.net.connection.Deferred.wait>`, which wants an answer that
    raises nothing."""
    try:
        await answer
    except TableError as exc:
        client.error(exc.code, exc.message)
    except Exception:
        log.exception("connection %s: failed to answer a request", client.peer)
        client.error(ErrorCode.INTERNAL, "the server failed to handle that message")


def _readable_game(reader: JournalReader, game: int, asker: Asker) -> dict[str, Any] | None:
    """Finished game ``game``'s row, if ``asker`` may read it (in the reads' thread).

    Raises:
        TableError: ``no_such_game``: the asker may not read it (§7.3).
        JournalError: its row cannot be read.
    """
    record_access.check(reader, game, asker)
    return reader.game(game)


async def _finished_game(journal: Journal | None, game: int, asker: Asker) -> dict[str, Any]:
    """The journal's row of finished game ``game``, read off the event loop,
    once ``asker`` is found to be allowed to read it.

    Raises:
        TableError: ``no_such_game``: no such finished game (or no journal), the
            asker may not read it, or its row cannot be read (a damaged journal).
    """
    try:
        row = await journal.read(lambda r: _readable_game(r, game, asker)) if journal else None
    except (JournalError, ValueError):
        raise _damaged(game) from None
    if row is None or row["finished"] is None:
        raise record_access.no_such_game(game)
    return row


def _damaged(game: int) -> TableError:
    """The ``no_such_game`` for a game a damaged journal cannot rebuild (§7.3)."""
    message = f"game {game}'s record cannot be rebuilt from the journal (damaged)"
    return TableError(ErrorCode.NO_SUCH_GAME, message)


def _budget(client: Client) -> RebuildBudget:
    """The server's budget of time for rebuilding finished games."""
    config = client.server.config
    return budget_of(client.server, config.records_share, config.records_burst)


def on_get_record(client: Client, msg: GetRecordMsg) -> None:
    """One finished game's record (``docs/records.md``); ``no_such_game`` if
    none, if the asker may not read it (a private table's game, §7.3), or if a
    damaged journal cannot rebuild it; ``records_busy`` while the server's time
    for rebuilding games is spent (:mod:`craits.server.journal.rebuilds`). The game is
    read off the event loop, then rebuilt on it."""
    asker = Asker.of(msg.get("tokens"), client.account_id)
    client.deferred.wait(_answer(client, _get_record(client, msg["game"], asker)))


async def _get_record(client: Client, game: int, asker: Asker) -> None:
    row = await _finished_game(client.server.journal, game, asker)
    try:
        with rebuilding(_budget(client)):
            built = build_record(row)
    except (JournalError, ValueError):
        raise _damaged(game) from None
    record = cast(GameRecord, built)  # built to docs/records.md, as the type says
    client.send({"type": ServerMessage.RECORD, "record": record})


def on_get_replay(client: Client, msg: GetReplayMsg) -> None:
    """One hand of a finished game move by move (§7.3, ``docs/records.md``
    "Frames"), at most :data:`~craits.server.journal.replay_frames.PAGE` frames from ``offset``;
    ``no_such_game`` as for ``get_record``, ``no_such_hand`` for a hand the game
    did not deal. Who may ask is as for ``get_record`` (checked, off the event
    loop, before the frames kept are looked at). The frames of the hands asked
    last are kept (:func:`~craits.server.journal.replay_frames.cached_frames`); a hand not kept
    is read off the event loop and rebuilt within the server's budget
    (``records_busy``)."""
    client.deferred.wait(_answer(client, _get_replay(client, msg)))


async def _get_replay(client: Client, msg: GetReplayMsg) -> None:
    game, hand, journal = msg["game"], msg["hand"], client.server.journal
    asker = Asker.of(msg.get("tokens"), client.account_id)
    row = None
    if journal is not None and is_cached(journal, game, hand):
        await journal.read(lambda reader: record_access.check(reader, game, asker))
    else:
        row = await _finished_game(journal, game, asker)
    _send_replay(client, msg, row)


def _send_replay(client: Client, msg: GetReplayMsg, row: dict[str, Any] | None) -> None:
    """Answer ``get_replay`` from the kept frames or from ``row`` (read already).

    Raises:
        TableError: ``no_such_game``, ``no_such_hand``, ``records_busy``.
    """
    game, hand = msg["game"], msg["hand"]

    def found() -> dict[str, Any]:
        if row is None:
            raise record_access.no_such_game(game)
        return row

    try:
        frames = cached_frames(client.server.journal, game, hand, found, _budget(client))
    except NoSuchHand as exc:
        raise TableError(ErrorCode.NO_SUCH_HAND, str(exc)) from None
    except (JournalError, ValueError):
        raise _damaged(msg["game"]) from None
    page = replay_page(game, hand, frames, msg.get("offset", 0))
    client.send(cast(ReplayMsg, page))  # built to §7.3, as the type says
