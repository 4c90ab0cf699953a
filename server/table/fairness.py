"""Provably fair deals (``docs/records.md``): every shuffle is recorded with a
salt and a SHA-256 commitment, the commitments are published during play, and
a game record is checked against them afterwards.

- :class:`RecordingShuffle`: the server's shuffle source; keeps each order it
  made, with its salt and commitment, until the table journals them.
- :class:`HandCommitments`: the commitments of the hand in play, and those not
  yet sent to the table's members.
- :func:`verify_record`: every shuffle of a record against its commitment, and
  a replay of the whole game to the recorded hands and scores;
- :func:`check_published`: a record's commitments against those a player
  received during play (which a record forged and recomputed throughout
  cannot match).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from typing import Any, Protocol

from craits.protocol.types import Commitment
from craits.protocol.vocab import AbandonReason, LogEntryKind

from ..engine import Rules
from ..journal.records import RECORD_FORMAT, Entry, build_record

Shuffle = dict[str, Any]
"""One recorded shuffle: ``{"order": [card codes], "salt": hex, "sha256": hex}``."""


class ShuffleSource(Protocol):
    """Anything that shuffles a list in place: :class:`random.Random`,
    :class:`secrets.SystemRandom`, a recorded order's replayer."""

    def shuffle(self, x: list[Any], /) -> None:
        """Shuffle ``x`` in place."""


def commitment(salt: bytes, order: list[str]) -> str:
    """SHA-256 commitment to a shuffled order: hex of SHA-256(salt ‖ the card
    codes joined by single spaces, in ASCII). ``order`` is the list exactly as
    the shuffle left it (``docs/records.md`` says how each use reads it)."""
    return hashlib.sha256(salt + " ".join(order).encode("ascii")).hexdigest()


class RecordingShuffle:
    """The server's shuffle source: shuffles with the operating system's
    randomness (``secrets.SystemRandom``) and keeps each order it produced,
    with a fresh salt and its commitment, until the table journals them."""

    def __init__(self, source: ShuffleSource | None = None) -> None:
        """``source``: where the randomness comes from (anything with ``shuffle``);
        ``secrets.SystemRandom()`` unless a test passes a seeded one."""
        self._random: ShuffleSource = source if source is not None else secrets.SystemRandom()
        self.pending: list[Shuffle] = []

    def shuffle(self, x: list[Any], /) -> None:
        """Shuffle ``x`` in place and remember the order."""
        self._random.shuffle(x)
        salt = secrets.token_bytes(16)
        order = list(x)
        self.pending.append({"order": order, "salt": salt.hex(), "sha256": commitment(salt, order)})

    def take(self) -> list[Shuffle]:
        """The shuffles made since the last call, oldest first."""
        out, self.pending = self.pending, []
        return out


def public(shuffles: Iterable[Shuffle]) -> list[Commitment]:
    """The public part of shuffles: their SHA-256 commitments, never the order or salt."""
    return [{"sha256": s["sha256"]} for s in shuffles]


def shuffle_entries(shuffles: list[Shuffle]) -> list[Entry]:
    """Shuffles as entries of a game's log (each written before the entry that made it)."""
    return [(LogEntryKind.SHUFFLE, s) for s in shuffles]


class HandCommitments:
    """The commitments of the hand in play (sent in every snapshot) and the
    ones made since the last update (sent in the next one, protocol §6.3)."""

    __slots__ = ("fresh", "hand")

    def __init__(self) -> None:
        self.hand: list[Commitment] = []
        self.fresh: list[Commitment] = []

    def started(self, shuffles: list[Shuffle]) -> None:
        """A game started with ``shuffles`` (the cut's and hand 1's)."""
        self.hand = public(shuffles)
        self.fresh = list(self.hand)

    def made(self, shuffles: list[Shuffle], dealt: bool) -> None:
        """A step made ``shuffles``; ``dealt``: it dealt a new hand (R3), whose
        shuffle starts the hand's list afresh."""
        if dealt:
            self.hand = []
        self.fresh = public(shuffles)
        self.hand.extend(self.fresh)

    def take_fresh(self) -> list[Commitment]:
        """The commitments made since the last call (for the next update; most
        updates have none, and get the same empty list, not to be changed)."""
        fresh = self.fresh
        if fresh:
            self.fresh = []
        return fresh

    def replayed(self, entries: Iterable[Entry]) -> None:
        """Set the hand's commitments from a game's log: the shuffles since the
        last deal (the deal's own included)."""
        shuffles: list[Shuffle] = []
        for kind, data in entries:
            if kind == LogEntryKind.SHUFFLE:
                shuffles.append(data)
            elif kind == LogEntryKind.NEXT_HAND:
                shuffles = shuffles[-1:]  # the shuffle of this deal
        self.hand = public(shuffles)
        self.fresh = []


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
    keeps them, :mod:`craits.client.commitments`).

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
