"""A private table's records are its players' (protocol §7.3, issue 23), over
real sockets.

``list_records``, ``get_record`` and ``get_replay`` used to give anyone every
finished game of a private table: its name, players, every card. Now a
private game is listed and read only with a token that proves a seat at it
(the seat's resume token) or its creator (the creator's token,
``table_created.creator_token``); anyone else — a spectator who had the code
included — is answered as for a game that does not exist, and a public
table's games stay everyone's. The proof survives a restart. The terminal
client's ``--replay-game`` fetch sends the tokens its store kept.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from craits.client.core.replayfetch import fetch_record
from craits.client.core.saved.record_keys import RecordKeys
from craits.client.core.saved.resume_tokens import TokenStore
from craits.protocol.client import ConnectError
from craits.server.app import Server, ServerConfig
from craits.server.journal.journal import Journal
from craits.server.journal.record_access import Asker
from craits.server.journal.record_access import listed as listed_games

from tests.support.processes import open_player
from tests.support.server import Player


async def start(config: ServerConfig, data: Path) -> Server:
    srv = Server(replace(config, data_dir=data))
    await srv.start()
    return srv


async def ended_game(
    creator: Player, table: str, others: list[Player], private: bool, creator_sits: bool = True
) -> tuple[int, dict[str, Any]]:
    """``creator`` opens ``table`` (sitting, or only watching), ``others`` sit
    (the last one starts the game), and the creator ends it (``close_table``
    with ``end_game``: a finished, abandoned game). Returns its id and the
    ``table_created``."""
    seats = len(others) + (1 if creator_sits else 0)
    await creator.send({"type": "create_table", "name": table, "seats": seats, "private": private})
    created = await creator.expect("table_created")
    code = created.get("code")
    if creator_sits:
        await creator.send({"type": "join", "table": table, "name": creator.name})
        await creator.expect("joined")
    else:
        await creator.send({"type": "spectate", "table": table})
        await creator.expect("state")
    for p in others:
        message = {"type": "join", "table": table, "name": p.name}
        if code is not None:
            message["code"] = code
        await p.send(message)
        await p.expect("joined")
    info = await creator.expect("table_info", where=lambda m: m["table"]["game"] is not None)
    await creator.expect("update")  # the game's first
    await creator.send({"type": "close_table", "end_game": True})
    await creator.expect("table_closed")
    return int(info["table"]["game"]), created


async def listed(p: Player, tokens: list[str] | None = None) -> list[int]:
    message: dict[str, Any] = {"type": "list_records"}
    if tokens is not None:
        message["tokens"] = tokens
    await p.send(message)
    return [g["id"] for g in (await p.expect("records"))["games"]]


async def record(p: Player, game: int, tokens: list[str] | None = None) -> dict[str, Any]:
    """The answer to ``get_record``: a ``record`` or an ``error``."""
    message: dict[str, Any] = {"type": "get_record", "game": game}
    if tokens is not None:
        message["tokens"] = tokens
    await p.send(message)
    return await _answer(p, "record")


async def replay(p: Player, game: int, tokens: list[str] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "get_replay", "game": game, "hand": 1}
    if tokens is not None:
        message["tokens"] = tokens
    await p.send(message)
    return await _answer(p, "replay")


async def _answer(p: Player, kind: str) -> dict[str, Any]:
    while True:
        m = await p.recv()
        if m["type"] in (kind, "error"):
            return m


def refusal(answer: dict[str, Any]) -> tuple[str, str]:
    assert answer["type"] == "error", answer["type"]
    return answer["code"], answer["message"]


async def test_a_private_tables_records_are_its_players_and_its_creators(
    config: ServerConfig, tmp_path: Path
) -> None:
    srv = await start(config, tmp_path)
    try:
        ana, ben, cy, eve, di, fay = [
            await open_player(srv.port, n) for n in ("Ana", "Ben", "Cy", "Eve", "Di", "Fay")
        ]
        secret, created = await ended_game(ana, "p", [ben, cy], private=True)
        creator_token = created["creator_token"]
        assert isinstance(creator_token, str) and len(creator_token) >= 32
        public, plain = await ended_game(di, "pub", [fay], private=False)
        assert "creator_token" not in plain  # a public table's records are everyone's

        # an outsider: the private game is not listed, and reads as no game at all
        assert await listed(eve) == [public]
        none = refusal(await record(eve, 10**6))
        assert refusal(await record(eve, secret)) == (
            none[0],
            none[1].replace(str(10**6), str(secret)),
        )
        assert refusal(await replay(eve, secret))[0] == "no_such_game"
        assert refusal(await record(eve, secret, ["not-a-token", str(fay.token)]))[0] == (
            "no_such_game"
        )
        assert (await record(eve, public))["type"] == "record"

        # a player proves the seat with its resume token; the creator with either
        assert ben.token is not None and ana.token is not None
        assert await listed(eve, [ben.token]) == [public, secret]  # newest first
        got = await record(eve, secret, ["junk", ben.token])
        assert got["type"] == "record" and got["record"]["players"] == ["Ana", "Ben", "Cy"]
        assert (await replay(eve, secret, [ben.token]))["type"] == "replay"  # now kept…
        assert refusal(await replay(eve, secret))[0] == "no_such_game"  # …and still refused
        assert (await record(eve, secret, [creator_token]))["type"] == "record"
        assert (await record(eve, secret, [ana.token]))["type"] == "record"
        for p in (ana, ben, cy, eve, di, fay):
            await p.close()
    finally:
        await srv.stop()

    srv = await start(config, tmp_path)  # the proof is in the journal: a restart keeps it
    try:
        eve = await open_player(srv.port, "Eve")
        assert await listed(eve) == [public]
        assert secret in await listed(eve, [cy.token or ""])
        assert (await record(eve, secret, [cy.token or ""]))["type"] == "record"
        assert refusal(await record(eve, secret))[0] == "no_such_game"
        await eve.close()
    finally:
        await srv.stop()


async def test_a_creator_who_only_watched_proves_it_until_the_role_is_handed_over(
    config: ServerConfig, tmp_path: Path
) -> None:
    """Gus watches the private table he opened: his creator's token reads its
    game. At another he hands the role to Hal before the game: that game is
    Hal's and Ivy's (the new creator sits there), not Gus's."""
    srv = await start(config, tmp_path)
    try:
        gus, hal, ivy = [await open_player(srv.port, n) for n in ("Gus", "Hal", "Ivy")]
        watched, created = await ended_game(gus, "w", [hal, ivy], private=True, creator_sits=False)
        token = created["creator_token"]
        assert await listed(gus, [token]) == [watched]
        assert (await record(gus, watched, [token]))["type"] == "record"

        await gus.send({"type": "create_table", "name": "h", "seats": 2, "private": True})
        made = await gus.expect("table_created")
        await gus.send({"type": "spectate", "table": "h"})
        await gus.expect("state")
        await hal.send({"type": "join", "table": "h", "name": "Hal", "code": made["code"]})
        await hal.expect("joined")
        await gus.send({"type": "hand_over", "seat": 0})
        await gus.expect("table_info", where=lambda m: m["table"]["creator"] == "Hal")
        await ivy.send({"type": "join", "table": "h", "name": "Ivy", "code": made["code"]})
        await ivy.expect("joined")
        info = await hal.expect("table_info", where=lambda m: m["table"]["game"] is not None)
        handed = int(info["table"]["game"])
        await hal.send({"type": "close_table", "end_game": True})
        await hal.expect("table_closed")
        assert refusal(await record(gus, handed, [made["creator_token"]]))[0] == "no_such_game"
        assert (await record(gus, handed, [str(hal.token)]))["type"] == "record"
        for p in (gus, hal, ivy):
            await p.close()
    finally:
        await srv.stop()


async def test_the_clients_replay_fetch_sends_the_tokens_it_kept(
    config: ServerConfig, tmp_path: Path
) -> None:
    """The client keeps every token it is given (its resume tokens' store
    keeps them as record keys), and ``craits-client --replay-game`` sends them:
    a player fetches its private game; a client that kept none is refused."""
    srv = await start(config, tmp_path / "data")
    try:
        ana, ben = [await open_player(srv.port, n) for n in ("Ana", "Ben")]
        game, _ = await ended_game(ana, "kept", [ben], private=True)
        address = f"127.0.0.1:{srv.port}"
        store = TokenStore(tmp_path / "state" / "resume.json")
        store.put(f"{address} ben", str(ben.token), "kept", "Ben", 1)  # as the client on joined
        held = RecordKeys(store.path.parent).tokens(f"localhost:{srv.port}")
        assert held == [ben.token]
        fetched = await fetch_record("127.0.0.1", srv.port, "Ben", game, tokens=held)
        assert fetched["players"] == ["Ana", "Ben"] and fetched["hands"][0]["frames"]
        try:
            await fetch_record("127.0.0.1", srv.port, "Eve", game)
        except ConnectError as exc:
            assert f"there is no finished game {game}" in str(exc)
        else:
            raise AssertionError("a private game fetched without a token")
        for p in (ana, ben):
            await p.close()
    finally:
        await srv.stop()


OLD_GAMES = """CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_name TEXT NOT NULL,
    players TEXT NOT NULL,
    rules TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
)"""
"""The games' rows as journals made them before private games' readers."""


def test_games_from_a_journal_before_readers_were_kept_stay_public(tmp_path: Path) -> None:
    path = tmp_path / "craits.db"
    db = sqlite3.connect(path)
    db.execute(OLD_GAMES)
    db.execute("INSERT INTO games VALUES (1, 'p', ?, '{}', 1, 2, NULL)", ('["Ana", "Ben"]',))
    db.commit()
    db.close()
    journal = Journal(path)  # the server's writer: it adds what it needs
    try:
        assert journal.readers(1) is None
        assert [g["id"] for g in listed_games(journal, Asker(), 100)] == [1]
        secret = journal.start_game("q", ["Cy", "Di"], {}, [("start", {})], [b"\x01" * 32])
        assert journal.readers(secret) == [b"\x01" * 32]
    finally:
        journal.close()


def test_no_token_proves_an_account() -> None:
    """An account's reader digest (protocol §7.5) hashes bytes no token's UTF-8
    holds: a request's tokens never prove an account, whatever they are."""
    from craits.server.table.seating import ACCOUNT_READER, account_digest

    try:
        ACCOUNT_READER.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        pass
    else:
        raise AssertionError("a token could hold the account readers' prefix")
    forged = ["craits-account:7", "\udcffcraits-account:7", "\xffcraits-account:7"]
    assert not Asker.of(forged).may_read([account_digest(7)])
    assert Asker.of(None, 7).may_read([account_digest(7)])
    assert not Asker.of(None, 8).may_read([account_digest(7)])
