"""Replaying a game from its log: for restoring the journal, exporting records,
and checking a record's fairness (``docs/records.md``).

A game's log is a list of entries ``(kind, data)``:

- ``("shuffle", {"order": [...], "salt": hex, "sha256": hex})`` — a shuffle
  the game made (the cut decks, each deal, each reshuffle of the discard pile,
  RULES.md R2, R3, R10), written before the entry that made it;
- ``("start", {})`` — the game starts: the cut, then hand 1 (R2);
- ``("action", {"seat": s, "id": id or null, "action": {...}})`` — an accepted action;
- ``("next_hand", {})`` — the next hand is dealt (R2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from craits.server.engine import Event, Game, Rules, action_from_dict
from craits.server.engine.shuffles import ScriptedShuffle

Entry = tuple[str, dict[str, Any]]


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
            if kind == "shuffle":
                script.feed(list(data["order"]))
            elif kind == "start":
                game, events = Game.start(players, rules, script)
            elif game is None:
                raise ValueError(f"{kind} before the game started")
            elif kind == "next_hand":
                events = game.next_hand()
            elif kind == "action":
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
