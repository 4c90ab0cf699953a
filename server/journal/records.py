"""Replaying a game from its log: for restoring the journal, and for game
records (``docs/records.md``; :func:`craits.server.table.fairness.verify_record`
checks one).

A game's log is a list of entries ``(kind, data)``:

- ``("shuffle", {"order": [...], "salt": hex, "sha256": hex})`` — a shuffle
  the game made (the cut decks, each deal, each reshuffle of the discard pile,
  RULES.md R2, R3, R10), written before the entry that made it;
- ``("start", {})`` — the game starts: the cut, then hand 1 (R2);
- ``("action", {"seat": s, "id": id or null, "action": {...}})`` — an accepted action
  (with ``"played_for": "timeout" | "away"`` when the server played a person's seat);
- ``("next_hand", {})`` — the next hand is dealt (R2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from craits.protocol.vocab import EventKind, LogEntryKind, Phase

from ..engine import Event, Game, Rules, action_from_dict, event_to_dict
from ..engine.shuffles import ScriptedShuffle

Entry = tuple[str, dict[str, Any]]
"""One entry of a game's log: ``(kind, data)``, ``kind`` a
:class:`~craits.protocol.vocab.LogEntryKind`."""


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


def iso_time(value: Any) -> str | None:
    """A journal time (seconds since the epoch) as ISO 8601 UTC; strings pass through."""
    if value is None or isinstance(value, str):
        return value
    return datetime.fromtimestamp(float(value), UTC).isoformat(timespec="seconds")


RECORD_FORMAT = "craits-record"
RECORD_VERSION = 1


def build_record(game_row: dict[str, Any]) -> dict[str, Any]:
    """The record of one game ("PGN for Craits", ``docs/records.md``) from its journal row.

    ``game_row`` is :meth:`craits.server.journal.journal.Journal.game`'s result. The
    record holds the rules, the players, the replayable log (every shuffle with
    its order, salt and commitment; every action), each hand as dealt, played
    and scored, and the final standings; for a game ended before its last
    hand, why (``abandoned``: the ``abandoned`` of the row's ``result``).

    Raises:
        ValueError: the log does not replay.
    """
    rules = Rules.from_dict(game_row["rules"])
    players: list[str] = game_row["players"]
    hands: list[dict[str, Any]] = []

    def collect(kind: str, data: dict[str, Any], game: Game | None, events: list[Event]) -> None:
        for e in events:
            d = event_to_dict(e)
            if d["event"] == EventKind.DEALT:
                hands.append(
                    {
                        "hand_number": d["hand_number"],
                        "dealer": d["dealer"],
                        "dealt": d["hands"],
                        "turned_up": None,
                        "moves": [],
                        "result": None,
                    }
                )
            elif d["event"] == EventKind.TURNED_UP and hands:
                hands[-1]["turned_up"] = d["card"]
            elif d["event"] == EventKind.HAND_ENDED and hands:
                hands[-1]["result"] = d
        if kind == LogEntryKind.ACTION and hands:
            hands[-1]["moves"].append({"seat": data["seat"], "action": data["action"]})

    log = [(k, d) for k, d in game_row["entries"]]
    game = replay(len(players), rules, log, collect)
    over = game.phase == Phase.GAME_OVER
    result = game_row.get("result")
    abandoned = result.get("abandoned") if isinstance(result, dict) and not over else None
    scores = list(game.scores)
    order = sorted(range(len(players)), key=lambda s: scores[s])
    standings = []
    for seat in order:
        place = 1 + sum(1 for v in scores if v < scores[seat])
        standings.append(
            {"seat": seat, "name": players[seat], "score": scores[seat], "place": place}
        )
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "game": game_row["id"],
        "table": game_row["table"],
        "started": iso_time(game_row["started"]),
        "finished": iso_time(game_row["finished"]),
        "players": players,
        "rules": rules.to_dict(),
        "complete": over,
        "abandoned": abandoned,
        "hands": hands,
        "standings": standings,
        "winners": list(game.result.winners) if over and game.result else [],
        "log": [[k, d] for k, d in log],
    }
