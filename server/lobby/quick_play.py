"""Quick play: which table seats a player who asks for any game (protocol
§11.13; issue 27).

A ``quick_play`` names preferences, each optional: the number of seats and
rules options (``short_game``, ``face_cards``… as ``create_table`` names
them). :func:`candidates` orders the lobby's tables that fit them, the one
whose game starts soonest first: a public, unlocked table, waiting, with a
free seat and nobody there by the player's name; the fewer seats still free
the sooner (a table starts when full), then the sooner its countdown ends.
The tables come from this server and, through the lobby's
:class:`~craits.server.lobby.directory.Directory`, from every other node of
its cluster. When none fits, the player gets a new table of their
preferences (:func:`new_table_name`), whose free seats bots take after a
countdown unless people come first.
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable

from craits.protocol.types import RulesMap, TableInfo
from craits.protocol.vocab import TableState

from ..table.access import name_key

QUICK_SEATS = 4
"""The seats of a table quick play opens for a player who named no number."""
QUICK_BOTS_AFTER = 15.0
"""Seconds a table quick play opened waits for people before bots take its
free seats (``craits-server --quick-play-bots-after``)."""
QUICK_PREFIX = "quick"
"""The names of the tables quick play opens: ``quick-1``, ``quick-2``…"""


def fits(info: TableInfo, seats: int | None, rules: RulesMap, name: str) -> bool:
    """Whether the table ``info`` (as the lobby lists it, §10) may seat
    ``name`` for quick play with these preferences (``seats`` None, ``rules``
    empty: any): public, unlocked, reachable, waiting, a seat free, the
    number of seats and each rules option named as preferred, nobody there
    called ``name`` (compared as the table compares names)."""
    if info.get("private", False) or info.get("locked", False) or info.get("unavailable", False):
        return False
    if info["state"] != TableState.WAITING:
        return False
    taken = info.get("seated", len(info["players"]))
    if taken >= info["seats"] or (seats is not None and info["seats"] != seats):
        return False
    table_rules = info["rules"]
    if any(table_rules.get(option) != value for option, value in rules.items()):
        return False
    key = name_key(name)
    return all(name_key(p["name"]) != key for p in info["players"])


def _soonest(info: TableInfo) -> tuple[int, float, str]:
    """How soon ``info``'s game starts, to sort by: the seats still free, then
    the countdown left (none: last), then its name."""
    free = info["seats"] - info.get("seated", len(info["players"]))
    countdown = info.get("bots_in_ms")
    return free, math.inf if countdown is None else countdown, info["name"]


def candidates(
    tables: Iterable[TableInfo], seats: int | None, rules: RulesMap, name: str
) -> list[TableInfo]:
    """The tables among ``tables`` that :func:`fits`, the soonest to start first."""
    return sorted((t for t in tables if fits(t, seats, rules, name)), key=_soonest)


def new_table_name(*taken: Container[str]) -> str:
    """The name of a new quick-play table: ``quick-N``, the lowest N in none
    of ``taken`` (the names of tables here, set aside, on other nodes)."""
    n = 1
    while any(f"{QUICK_PREFIX}-{n}" in names for names in taken):
        n += 1
    return f"{QUICK_PREFIX}-{n}"
