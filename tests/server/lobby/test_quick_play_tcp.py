"""Quick play over real sockets (protocol §11.13, issue 27): a player with no
table gets a new one that bots fill after its countdown; the next player
joins it; people who come first take the seats; preferences pick the
tables; private, locked and taken-name tables are passed over; leaving
cancels."""

from __future__ import annotations

from typing import Any

from craits.server.app import Server, ServerConfig

from tests.support.server import Player

WAIT = 20.0
"""Seconds a test waits for one message (a ceiling: the machine may be busy)."""


async def quick(player: Player, **prefs: Any) -> dict[str, Any]:
    """``player`` asks for quick play; returns its ``joined``."""
    await player.send({"type": "quick_play", **prefs})
    return await player.expect("joined", WAIT)


async def table_with(player: Player, name: str, seats: int, **create: Any) -> None:
    """``player`` creates the table ``name`` and sits there."""
    await player.send({"type": "create_table", "name": name, "seats": seats, **create})
    await player.expect("table_created", WAIT)
    await player.send({"type": "join", "table": name, "name": player.name})
    await player.expect("joined", WAIT)


async def test_a_new_table_counts_down_and_bots_fill_it(
    server: Server, config: ServerConfig, connect: Any
) -> None:
    config.quick_play_bots_after = 1.0
    ana = await connect("Ana")
    joined = await quick(ana, seats=3, rules={"short_game": True})
    assert joined["table"] == "quick-1" and joined["seat"] == 0
    state = await ana.expect("state", WAIT)
    info = state["table"]
    assert info["seats"] == 3 and info["rules"]["short_game"] is True
    assert 0 < info["bots_in_ms"] <= 1000 and info["creator"] == "Ana"
    # the countdown ends: bots take the two free seats and the game starts
    update = await ana.expect("update", WAIT)
    assert update["view"]["players"] == 3
    table = server.tables["quick-1"]
    assert [s.bot for s in table.seats][1:] == ["basic", "basic"] and table.status.playing
    assert "bots_in_ms" not in table.info()


async def test_the_next_player_joins_it_and_a_full_table_starts_without_bots(
    server: Server, config: ServerConfig, connect: Any
) -> None:
    config.quick_play_bots_after = 600.0  # never, within the test
    ana, ben = await connect("Ana"), await connect("Ben")
    await quick(ana, seats=2)
    joined = await quick(ben)  # no preference: the table that starts soonest
    assert joined["table"] == "quick-1" and joined["seat"] == 1
    await ben.expect("update", WAIT)
    table = server.tables["quick-1"]
    assert [s.name for s in table.seats] == ["Ana", "Ben"] and table.status.playing


async def test_the_table_closest_to_full_that_has_the_preferences_is_taken(
    server: Server, config: ServerConfig, connect: Any
) -> None:
    config.quick_play_bots_after = 600.0
    ana, ben, cy, dee = [await connect(n) for n in ("Ana", "Ben", "Cy", "Dee")]
    await table_with(ana, "roomy", 4)
    await table_with(ben, "short", 3, rules={"short_game": True})
    await cy.send({"type": "join", "table": "short", "name": "Cy"})
    await cy.expect("joined", WAIT)
    assert (await quick(dee, seats=3, rules={"face_cards": True}))["table"] == "quick-1"
    eve = await connect("Eve")
    assert (await quick(eve, seats=4))["table"] == "roomy"
    fay = await connect("Fay")
    assert (await quick(fay))["table"] == "short"  # one seat free: it starts now
    gus = await connect("Gus")
    assert (await quick(gus))["table"] == "quick-1"  # two free, but its countdown runs
    await fay.expect("update", WAIT)


async def test_private_locked_and_name_taken_tables_are_passed_over(
    server: Server, config: ServerConfig, connect: Any
) -> None:
    config.quick_play_bots_after = 600.0
    ana, ben, cy = await connect("Ana"), await connect("Ben"), await connect("Cy")
    await table_with(ana, "private", 2, private=True)
    await table_with(ben, "locked", 2)
    await ben.send({"type": "lock", "locked": True})
    await ben.expect("table_info", WAIT, lambda m: m["table"]["locked"])
    await table_with(cy, "cys", 2)
    zed = await connect("Zed")
    assert (await quick(zed, name="Cy"))["table"] == "quick-1"  # a Cy sits at "cys"
    assert [s.name for s in server.tables["quick-1"].seats] == ["Cy"]


async def test_leaving_cancels_and_the_table_closes(
    server: Server, config: ServerConfig, connect: Any
) -> None:
    config.quick_play_bots_after = 0.5
    ana = await connect("Ana")
    await quick(ana)
    table = server.tables["quick-1"]
    await ana.send({"type": "leave"})
    await ana.expect("left", WAIT)
    assert "quick-1" not in server.tables and table.quick.until is None
    again = await quick(ana)  # the name is free again, and a new countdown runs
    assert again["table"] == "quick-1" and server.tables["quick-1"] is not table


async def test_refusals(server: Server, connect: Any) -> None:
    ana = await connect("Ana")
    await ana.send({"type": "quick_play", "rules": {"no_such_rule": True}})
    assert (await ana.expect("error", WAIT))["code"] == "bad_rules"
    await ana.send({"type": "quick_play", "seats": 9})
    assert (await ana.expect("error", WAIT))["code"] == "bad_message"
    await quick(ana)
    await ana.send({"type": "quick_play"})
    assert (await ana.expect("error", WAIT))["code"] == "already_at_table"
    assert list(server.tables) == ["quick-1"]
