"""Quick play's choice (:mod:`craits.server.lobby.quick_play`, protocol
§11.13) on lobby entries, without a socket: which tables fit a player's
preferences, and which starts soonest."""

from __future__ import annotations

from typing import Any

from craits.protocol.types import TableInfo
from craits.server.engine import Rules
from craits.server.lobby.quick_play import candidates, fits, new_table_name


def entry(name: str, seats: int = 4, taken: int = 1, **extra: Any) -> TableInfo:
    """A lobby entry of a waiting public table with ``taken`` people seated."""
    players = [
        {"seat": i, "name": f"{name}-p{i}", "connected": True, "away": False, "bot": None}
        for i in range(taken)
    ]
    info: dict[str, Any] = {
        "name": name,
        "seats": seats,
        "players": players,
        "state": "waiting",
        "rules": Rules().to_dict(),
        "seated": taken,
        "private": False,
        "locked": False,
        **extra,
    }
    return info  # type: ignore[return-value]


def names(tables: list[TableInfo]) -> list[str]:
    return [t["name"] for t in tables]


def test_the_table_closest_to_full_comes_first_then_the_soonest_countdown() -> None:
    tables = [
        entry("a", seats=4, taken=1),
        entry("b", seats=4, taken=3),
        entry("c", seats=3, taken=1, bots_in_ms=9000),
        entry("d", seats=3, taken=1, bots_in_ms=2000),
    ]
    assert names(candidates(tables, None, {}, "Zoe")) == ["b", "d", "c", "a"]


def test_preferences_keep_only_the_tables_that_have_them() -> None:
    short = {**Rules().to_dict(), "short_game": True}
    tables = [entry("long", seats=3), entry("short", seats=3, rules=short), entry("four")]
    assert names(candidates(tables, 3, {}, "Zoe")) == ["long", "short"]
    assert names(candidates(tables, None, {"short_game": True}, "Zoe")) == ["short"]
    assert names(candidates(tables, 4, {"short_game": True}, "Zoe")) == []
    no_face_cards = candidates(tables, None, {"face_cards": False}, "Zoe")
    assert names(no_face_cards) == ["long", "short", "four"]  # 2 free seats before 3


def test_tables_a_player_may_not_take_do_not_fit() -> None:
    assert fits(entry("ok"), None, {}, "Zoe")
    assert not fits(entry("private", private=True), None, {}, "Zoe")
    assert not fits(entry("locked", locked=True), None, {}, "Zoe")
    assert not fits(entry("down", unavailable=True), None, {}, "Zoe")
    assert not fits(entry("full", seats=2, taken=2), None, {}, "Zoe")
    assert not fits(entry("playing", state="playing"), None, {}, "Zoe")
    assert not fits(entry("finished", state="finished"), None, {}, "Zoe")
    assert not fits(entry("same"), None, {}, "SAME-P0")  # names compare as the table does


def test_a_private_entry_without_players_counts_its_seats_taken() -> None:
    hidden = entry("p", seats=2, taken=0, seated=2)
    assert not fits(hidden, None, {}, "Zoe")


def test_new_tables_take_the_lowest_free_number_among_every_list() -> None:
    assert new_table_name() == "quick-1"
    assert new_table_name({"quick-1", "x"}, ["quick-2"], {"quick-4"}) == "quick-3"
