"""A finished game move by move: the frames a replay viewer draws (``docs/records.md``,
"Frames"; protocol §7.3 ``get_replay``).

A game's log (:mod:`craits.server.journal.records`) is replayed through the engine,
and each step of each hand — its deal, then every accepted action — gives one
**frame**: the table after the step as a spectator sees it (the engine's
:func:`~craits.server.engine.views.view` with ``seat=None``, the very shape of
a live update's ``view``, protocol §8), every seat's cards (the game is over:
every hand is shown), the cards the seat to act may play, and the step's events
as the game made them (protocol §9, unfiltered: a ``dealt`` shows every hand, a
``drew`` the cards drawn; only a reshuffle's order stays out, as in every
event). The client draws a frame with the live table's
widgets; it decides no rule and runs no engine.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from contextlib import nullcontext, suppress
from typing import Any
from weakref import WeakKeyDictionary

from craits.protocol.vocab import LogEntryKind, ServerMessage

from ..engine import Event, Game, Play, Rules, event_to_dict, view
from ..engine.events import ShufflePenalty
from ..errors import NoSuchHand
from ..table.gamelog import replay
from ..table.ports import Entry
from .rebuilds import RebuildBudget, rebuilding

Frame = dict[str, Any]
"""One step of a hand, as ``docs/records.md`` ("Frames") describes it."""


def _shown(event: Event) -> Event:
    """``event`` as a replay shows it: whole, but for a shuffle penalty's new
    stock order, which no event carries (protocol §9; the record's log has it)."""
    if type(event) is ShufflePenalty and event.order is not None:
        return event._replace(order=None)
    return event


def frame(game: Game, events: list[Event], move: int | None, data: dict[str, Any]) -> Frame:
    """The frame of one step: ``move`` is the index of the hand's move it
    applied (``None``: the deal), ``data`` the log entry's data (an action's
    ``seat`` and ``action``), ``events`` what the step made.

    Keys: ``move``, ``seat`` and ``action`` (the move's; ``None`` for the deal),
    ``events`` (unfiltered, wire form), ``view`` (a spectator's view after the
    step, protocol §8), ``hands`` (every seat's cards, in the engine's order),
    ``playable`` (the distinct cards the seat to act may play now, R4, R6;
    empty when none or between hands)."""
    to_act = game.to_act
    legal = game.legal_actions(to_act) if to_act is not None else []
    playable = list(dict.fromkeys(a.card for a in legal if type(a) is Play))
    return {
        "move": move,
        "seat": data.get("seat") if move is not None else None,
        "action": data.get("action") if move is not None else None,
        "events": [event_to_dict(_shown(e)) for e in events],
        "view": view(game, None),
        "hands": [list(h) for h in game.hands],
        "playable": playable,
    }


def hand_frames(
    players: int, rules: Rules, entries: Iterable[Entry], only: int | None = None
) -> list[list[Frame]]:
    """Every hand's frames, from a game's log (``entries``, records.md "The log"):
    one list per hand dealt, its deal first, then one frame per action in the
    order accepted (so frame ``i + 1`` is the hand's move ``i``). With ``only``
    (a hand's number, 1 for the first hand dealt), the other hands' lists are
    left empty and those after it left out: the game is replayed up to that
    hand's end, and only its frames are made.

    Raises:
        ValueError: the log does not replay (:func:`craits.server.table.gamelog.replay`).
    """
    hands: list[list[Frame]] = []

    def collect(kind: str, data: dict[str, Any], game: Game | None, events: list[Event]) -> None:
        if game is None:
            return
        if kind in (LogEntryKind.START, LogEntryKind.NEXT_HAND):
            if only is not None and len(hands) == only:
                raise _Done  # the hand asked for is over: the rest is not needed
            hands.append([])
        elif kind != LogEntryKind.ACTION or not hands:
            return
        if only is None or only == len(hands):
            steps = hands[-1]
            move = len(steps) - 1 if steps else None
            steps.append(frame(game, events, move, data))

    with suppress(_Done):
        replay(players, rules, entries, collect)
    return hands


class _Done(Exception):
    """Internal: :func:`hand_frames` has the one hand it was asked for."""


def record_frames(record: dict[str, Any]) -> list[list[Frame]]:
    """Every hand's frames from a game record (its ``players``, ``rules`` and ``log``).

    Raises:
        ValueError: the record's log does not replay, or its rules or fields are bad.
    """
    try:
        rules = Rules.from_dict(record["rules"])
        log = [(str(kind), dict(data)) for kind, data in record["log"]]
        players = len(record["players"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a replayable record: {exc!r}") from None
    return hand_frames(players, rules, log)


def with_frames(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with each hand's ``frames`` added (``craits-server export
    --frames``); the record is changed in place and returned.

    Raises:
        ValueError: the record's log does not replay, or gives another number of hands.
    """
    frames = record_frames(record)
    if len(frames) != len(record["hands"]):
        raise ValueError(
            f"the log deals {len(frames)} hands, the record holds {len(record['hands'])}"
        )
    for hand, steps in zip(record["hands"], frames, strict=True):
        hand["frames"] = steps
    return record


PAGE = 200
"""Most frames in one ``replay`` message (§7.3): about 140 KB for eight seats,
well inside a client's 1 MiB (``scripts/replay_size.py`` measures it)."""


def row_frames(game_row: dict[str, Any], hand: int) -> list[Frame]:
    """The frames of hand ``hand`` (1 for the first) of the game in ``game_row``
    (:meth:`craits.server.journal.journal.Journal.game`'s result).

    Raises:
        NoSuchHand: the game dealt fewer than ``hand`` hands.
        ValueError: the log does not replay (a damaged journal).
    """
    try:
        rules = Rules.from_dict(game_row["rules"])
        log = [(str(kind), dict(data)) for kind, data in game_row["entries"]]
        players = len(game_row["players"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"game {game_row.get('id')} cannot be read: {exc!r}") from None
    hands = hand_frames(players, rules, log, only=hand)
    if not 1 <= hand <= len(hands):
        raise NoSuchHand(f"game {game_row['id']} has {len(hands)} hand(s), not a hand {hand}")
    return hands[hand - 1]


def replay_page(game: int, hand: int, frames: list[Frame], offset: int = 0) -> dict[str, Any]:
    """The ``replay`` message (protocol §7.3) for hand ``hand`` of game ``game``
    whose frames are ``frames``: those from ``offset`` on, at most :data:`PAGE`,
    and ``total``, their number (an ``offset`` at or past it gives none)."""
    return {
        "type": ServerMessage.REPLAY,
        "game": game,
        "hand": hand,
        "offset": offset,
        "total": len(frames),
        "frames": frames[offset : offset + PAGE],
    }


CACHED_HANDS = 2
"""Hands whose frames a server keeps, per journal: a client pages through one
hand (a long hand is several requests), and each would replay the game again.
A finished game never changes, so what is kept stays true; a few MB at most."""

_cache: WeakKeyDictionary[object, OrderedDict[tuple[int, int], list[Frame]]] = WeakKeyDictionary()


def is_cached(journal: object, game: int, hand: int) -> bool:
    """Whether the frames of ``game``'s hand ``hand`` are kept (:func:`cached_frames`)."""
    return (game, hand) in _cache.get(journal, {})


def cached_frames(
    journal: object,
    game: int,
    hand: int,
    row: Callable[[], dict[str, Any]],
    budget: RebuildBudget | None = None,
) -> list[Frame]:
    """:func:`row_frames` of finished game ``game``'s row (``row()`` reads it
    from ``journal``), kept for the :data:`CACHED_HANDS` hands asked last of
    that journal (``None``: nothing is kept). A hand not kept is rebuilt within
    ``budget`` (:func:`~craits.server.journal.rebuilds.rebuilding`), if one is given.

    Raises:
        NoSuchHand, ValueError: as :func:`row_frames`; whatever ``row`` raises.
        TableError: ``records_busy``: ``budget`` is spent.
    """
    if journal is None:  # (a server without a journal: ``row`` says there is no game)
        return row_frames(row(), hand)
    kept = _cache.setdefault(journal, OrderedDict())
    key = (game, hand)
    frames = kept.get(key)
    if frames is None:
        found = row()
        with rebuilding(budget) if budget is not None else nullcontext():
            frames = row_frames(found, hand)
        kept[key] = frames
        while len(kept) > CACHED_HANDS:
            kept.popitem(last=False)
    kept.move_to_end(key)
    return frames
