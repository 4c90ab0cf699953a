"""Rated games over real sockets (protocol §7.5, issue 26): a rated table seats
logged-in players only; a game played to its end goes to the players'
histories with its rating changes; a player who leaves is last; a bot seated
by the server counts for nobody; an unrated table's game is in the history
without a change."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from craits.server.app import Server, ServerConfig

from tests.server.net.signed import Device, devices, error, fast_hashing
from tests.support.server import Player, play_until, settle


@pytest.fixture
def config(config: ServerConfig, tmp_path: Path) -> ServerConfig:
    config.data_dir = tmp_path  # a journal: a game's id is its record's number
    return fast_hashing(config)


@pytest.fixture
async def device(server: Server) -> AsyncIterator[Callable[..., Any]]:
    async for opened in devices(server):
        yield opened


async def accounts(device: Callable[..., Any], *names: str) -> list[Device]:
    """A registered, logged-in device for each name."""
    out = []
    for name in names:
        d = await device(name)
        assert (await d.register(name))["type"] == "registered"
        out.append(d)
    return out


async def history(d: Device, count: int) -> list[dict[str, Any]]:
    """The device's own history once it holds ``count`` games (the result is
    written off the loop after the game's last update: asked again until it is
    there, for up to 20 s)."""
    async with asyncio.timeout(20):
        while True:
            games = (await d.ask({"type": "history"}, "history"))["games"]
            if len(games) >= count:
                return list(games)
            await asyncio.sleep(0.05)


def over(p: Player) -> Callable[[], bool]:
    return lambda: p.view is not None and p.view["phase"] == "game_over"


async def seat_all(table: str, ds: list[Device], rated: bool = True) -> None:
    first = ds[0].player
    rules = {"short_game": True}
    message = {"type": "create_table", "name": table, "seats": len(ds), "rules": rules}
    await first.send({**message, "rated": rated})
    info = (await first.expect("table_created"))["table"]
    assert info.get("rated", False) is rated
    for d in ds:
        await d.player.send({"type": "join", "table": table, "name": d.player.name})
        await d.player.expect("joined")


async def test_a_rated_game_moves_both_ratings(device: Callable[..., Any]) -> None:
    ana, ben = await accounts(device, "Ana", "Ben")
    await seat_all("duel", [ana, ben])
    players = [ana.player, ben.player]
    await settle(players, 1)
    await play_until(players, over(ana.player), random.Random(5))
    view = ana.player.view
    assert view is not None
    (a_game,) = await history(ana, 1)
    (b_game,) = await history(ben, 1)
    assert a_game["rated"] and a_game["game_id"] == b_game["game_id"]
    assert a_game["table"] == "duel" and not a_game["private"]
    assert {a_game["place"], b_game["place"]} <= {1, 2}
    # the places are the final totals, lowest first (R9)
    totals = {p["name"]: p["points"] for p in a_game["players"]}
    winner = min(totals, key=lambda n: totals[n])
    if totals["Ana"] != totals["Ben"]:
        mine = a_game if winner == "Ana" else b_game
        theirs = b_game if winner == "Ana" else a_game
        assert mine["place"] == 1 and mine["rating_change"] > 0
        assert theirs["place"] == 2 and theirs["rating_change"] < 0
    profile = (await ana.ask({"type": "profile"}, "profile"))["profile"]
    assert profile["games"] == 1 and profile["completed"] == 1 and profile["rating"] == "?"
    # the game's id is the journal's number: its record opens from the history
    await ana.player.send({"type": "get_record", "game": int(a_game["game_id"])})
    record = (await ana.player.expect("record"))["record"]
    standings = {s["name"]: (s["place"], s["score"]) for s in record["standings"]}
    assert standings == {p["name"]: (p["place"], p["points"]) for p in a_game["players"]}


async def test_a_rated_table_seats_logged_in_players_only(
    device: Callable[..., Any], connect: Callable[..., Any]
) -> None:
    (ana,) = await accounts(device, "Ana")
    guest = await connect("Gus")
    await guest.send({"type": "create_table", "name": "r", "seats": 2, "rated": True})
    error(await guest.expect("error"), "not_logged_in")
    await ana.player.send({"type": "create_table", "name": "r", "seats": 2, "rated": True})
    await ana.player.expect("table_created")
    await guest.send({"type": "join", "table": "r", "name": "Gus"})
    error(await guest.expect("error"), "not_logged_in")
    await guest.send({"type": "list_tables"})
    (listed,) = (await guest.expect("tables"))["tables"]
    assert listed["rated"] is True


async def test_a_leaver_is_last_and_a_bot_counts_for_nobody(device: Callable[..., Any]) -> None:
    ana, ben, cy = await accounts(device, "Ana", "Ben", "Cy")
    first = ana.player
    rules = {"short_game": True}
    await first.send(
        {"type": "create_table", "name": "trio", "seats": 4, "rules": rules, "rated": True}
    )
    await first.expect("table_created")
    for d in (ana, ben, cy):
        await d.player.send({"type": "join", "table": "trio", "name": d.player.name})
        await d.player.expect("joined")
    await first.send({"type": "add_bot", "level": "random"})
    players = [ana.player, ben.player]
    await settle([*players, cy.player], 1)
    await cy.player.send({"type": "leave"})
    await cy.player.expect("left")
    await play_until(players, over(first), random.Random(11))
    (cy_game,) = await history(cy, 1)
    assert cy_game["left"] and cy_game["rated"]
    (a_game,) = await history(ana, 1)
    seats = {p["name"]: p for p in a_game["players"]}
    assert seats["Cy"]["left"] and seats["Cy"]["registered"]
    assert seats["random-bot-1"]["registered"] is False
    # Cy is ranked last among the accounts: Ana and Ben both gain on Cy
    assert cy_game["rating_change"] < 0
    profile = (await cy.ask({"type": "profile"}, "profile"))["profile"]
    assert profile["games"] == 1 and profile["completed"] == 0 and profile["completion_pct"] == 0


async def test_an_unrated_game_is_in_the_history_without_a_change(
    device: Callable[..., Any],
) -> None:
    ana, ben = await accounts(device, "Ana", "Ben")
    await seat_all("friendly", [ana, ben], rated=False)
    players = [ana.player, ben.player]
    await settle(players, 1)
    await play_until(players, over(ana.player), random.Random(2))
    (game,) = await history(ana, 1)
    assert game["rated"] is False and "rating_change" not in game
    profile = (await ana.ask({"type": "profile"}, "profile"))["profile"]
    assert profile["games"] == 0


async def test_a_private_games_record_is_its_players_on_any_device(
    device: Callable[..., Any], connect: Callable[..., Any]
) -> None:
    ana, ben, cy = await accounts(device, "Ana", "Ben", "Cy")
    first = ana.player
    rules = {"short_game": True}
    await first.send(
        {"type": "create_table", "name": "den", "seats": 2, "rules": rules, "private": True}
    )
    code = (await first.expect("table_created"))["code"]
    for d in (ana, ben):
        join = {"type": "join", "table": "den", "name": d.player.name, "code": code}
        await d.player.send(join)
        await d.player.expect("joined")
    players = [ana.player, ben.player]
    await settle(players, 1)
    await play_until(players, over(first), random.Random(4))
    (game,) = await history(ana, 1)
    assert game["private"] and not game["rated"]
    game_id = int(game["game_id"])
    # Ben on another device: logged in with his key, no resume token
    phone = await device("Ben", ben.key)
    assert (await phone.login())["type"] == "logged_in"
    listed = await phone.ask({"type": "list_records"}, "records")
    assert [g["id"] for g in listed["games"]] == [game_id]
    record = await phone.ask({"type": "get_record", "game": game_id}, "record")
    assert record["record"]["complete"]
    replay = await phone.ask({"type": "get_replay", "game": game_id, "hand": 1}, "replay")
    assert replay["frames"]
    # another account, and a guest, learn nothing of it
    for outsider in (cy, await device("Gus")):
        assert (await outsider.ask({"type": "list_records"}, "records"))["games"] == []
        refused = await outsider.ask({"type": "get_record", "game": game_id}, "record")
        error(refused, "no_such_game")
    theirs = await cy.ask({"type": "history", "name": "Ana"}, "history")
    assert theirs["games"] == []


async def test_no_hints_at_a_rated_table_and_hints_at_an_unrated_one(
    device: Callable[..., Any],
) -> None:
    """The expert helps nobody in a game that moves ratings (issue 28; protocol
    §7.6): ``hint`` at a rated table is ``hints_off``, whoever's turn it is; at
    an unrated table players are past that check (a hint, or ``nothing_to_decide``
    for the seat whose turn it is not)."""
    ana, ben, cy, di = await accounts(device, "Ana", "Ben", "Cy", "Di")
    await seat_all("rated", [ana, ben])
    await seat_all("friendly", [cy, di], rated=False)
    await settle([ana.player, ben.player, cy.player, di.player], 1)
    for d in (ana, ben):
        await d.player.send({"type": "hint"})
        error(await d.player.expect("error"), "hints_off")
    for d in (cy, di):
        await d.player.send({"type": "hint"})
        async with asyncio.timeout(30):  # a hint is searched in a worker: not instant
            while (reply := await d.player.recv(30))["type"] not in ("hint", "error"):
                pass
        assert reply["type"] == "hint" or reply["code"] == "nothing_to_decide", reply
