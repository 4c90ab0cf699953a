"""Game records ("PGN for Craits", ``docs/records.md``): built from a game's
journal row, and checked.

- :func:`build_record`: the record of one game, its log replayed
  (:func:`craits.server.table.gamelog.replay`);
- :func:`verify_record`: every shuffle of a record against its commitment, and
  a replay of the whole game to the recorded hands and scores;
- :func:`check_published`: a record's commitments against those a player
  received during play (which a record forged and recomputed throughout
  cannot match).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from craits.protocol.vocab import AbandonReason, EventKind, LogEntryKind, Phase

from ..engine import Event, Game, Rules, event_to_dict
from ..table.fairness import commitment
from ..table.gamelog import replay
from ..table.ports import Entry


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


def _shuffle_problems(log: list[Entry]) -> list[str]:
    """Each shuffle of a log that does not match its commitment, in words."""
    problems: list[str] = []
    for i, (kind, data) in enumerate(log):
        if kind != LogEntryKind.SHUFFLE:
            continue
        try:
            digest = commitment(bytes.fromhex(data["salt"]), list(data["order"]))
        except (KeyError, ValueError, TypeError, UnicodeEncodeError) as exc:
            problems.append(f"entry {i}: unreadable shuffle: {exc}")
            continue
        if digest != data.get("sha256"):
            problems.append(f"entry {i}: the shuffle does not match its commitment")
    return problems


def verify_record(record: dict[str, Any]) -> list[str]:
    """Check a record: every shuffle's commitment, and a replay of the whole
    game to the recorded hands, results and scores.

    Returns:
        The problems found, in words; empty when the record is sound.
    """
    if record.get("format") != RECORD_FORMAT:
        return ["not a Craits record (format)"]
    try:
        log = [(str(k), dict(d)) for k, d in record["log"]]
        rules = Rules.from_dict(record["rules"])
        players = list(record["players"])
    except (KeyError, TypeError, ValueError) as exc:
        return [f"malformed record: {exc}"]
    problems = _shuffle_problems(log)
    try:
        rebuilt = build_record(
            {
                "id": record.get("game"),
                "table": record.get("table"),
                "players": players,
                "rules": rules.changed(),
                "started": record.get("started"),
                "finished": record.get("finished"),
                "entries": log,
            }
        )
    except ValueError as exc:
        return [*problems, f"the game does not replay: {exc}"]
    for key in ("hands", "standings", "winners", "complete"):
        if rebuilt[key] != record.get(key):
            problems.append(f"the replay does not give the recorded {key}")
    return problems + _abandon_problems(record.get("abandoned"), rebuilt["complete"])


def _abandon_problems(abandoned: object, complete: bool) -> list[str]:
    """What is wrong with a record's ``abandoned`` (None: played to its end, or
    in play), given whether its log plays to the last hand."""
    if abandoned is None:
        return []
    if abandoned not in set(AbandonReason):
        return [f"unknown reason for an abandoned game: {abandoned!r}"]
    if complete:
        return ["a game played to its end is recorded as abandoned"]
    return []


def check_published(record: dict[str, Any], published: list[str]) -> list[str]:
    """Check a record against the commitments received during play
    (``published``: SHA-256 hex digests in the order received, as a client
    keeps them, :mod:`craits.client.core.saved.commitments`).

    :func:`verify_record` alone cannot tell a true record from one whose deals
    were changed (say, one seat's cards put in another order) and whose
    salts, commitments, hands and results were all computed again. What was
    published during play can: every commitment received must be one of the
    record's shuffles, in the same order (a player who was not there the
    whole game holds a part of them).

    Returns:
        The problems found, in words; empty when the record holds every
        commitment published, in order.
    """
    try:
        recorded = [str(d["sha256"]) for k, d in record["log"] if k == LogEntryKind.SHUFFLE]
    except (KeyError, TypeError, ValueError) as exc:
        return [f"malformed record: {exc}"]
    where = {c: i for i, c in enumerate(recorded)}
    problems: list[str] = []
    last = -1
    for n, c in enumerate(published, 1):
        i = where.get(c)
        if i is None:
            problems.append(
                f"commitment {n} received during play ({c[:12]}…) is not in the record: "
                "its shuffles are not the ones published"
            )
        elif i < last:
            problems.append(f"commitment {n} received during play is out of order in the record")
        else:
            last = i
    return problems
