"""Resume tokens: one key per server however its address is typed, and tokens
saved under the old keys (the address as typed) still found."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from craits.client.core.saved.record_keys import KEPT as RECORD_KEYS
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.core.saved.server_keys import normalize_key
from craits.client.tui.app import CraitsApp
from craits.client.tui.screens.table_screen import TableScreen

from tests.support.client import ANA, BEN, ben_at_table, wait_for


def test_one_key_per_server_however_typed() -> None:
    loopback = {
        "localhost:7777 ana",
        "LOCALHOST:7777 ana",
        "127.0.0.1:7777 ana",
        "::1:7777 ana",
        "[::1]:7777 ana",
        "localhost ana",  # the default port filled in
        "127.0.0.1 ana",
    }
    assert {normalize_key(k) for k in loopback} == {"localhost:7777 ana"}
    assert normalize_key("Box.Example.ORG:7000 ana maria") == "box.example.org:7000 ana maria"
    assert normalize_key("fe80::1:7777 ana") == "[fe80::1]:7777 ana"
    # what stays apart: another port, another name, another host
    assert normalize_key("localhost:7000 ana") == "localhost:7000 ana"
    assert normalize_key("localhost:7777 ben") != normalize_key("localhost:7777 ana")
    assert normalize_key("127.0.0.2:7777 ana") == "127.0.0.2:7777 ana"
    for k in loopback:
        assert normalize_key(normalize_key(k)) == normalize_key(k)


def test_saved_under_one_spelling_found_under_another(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    store = TokenStore(path)
    store.put("localhost:7777 ana", "tok", "t1", "Ana", 1)
    assert json.loads(path.read_text()) == {
        "localhost:7777 ana": {"token": "tok", "table": "t1", "name": "Ana", "seat": 1}
    }
    again = TokenStore(path)  # a later run reads the file
    for typed in ("127.0.0.1:7777 ana", "[::1]:7777 ana", "LocalHost:7777 ana"):
        assert (again.get(typed) or {}).get("token") == "tok", typed
    assert again.get("127.0.0.1:7000 ana") is None
    assert again.get("127.0.0.1:7777 ben") is None
    again.drop("127.0.0.1:7777 ana")
    assert again.get("localhost:7777 ana") is None
    assert json.loads(path.read_text()) == {}


def test_tokens_under_old_keys_are_found_and_replaced_on_save(tmp_path: Path) -> None:
    path = tmp_path / "resume.json"
    old = {
        "127.0.0.1:7777 ana": {"token": "old", "table": "t1", "name": "Ana", "seat": 0},
        "Example.com:7777 ana": {"token": "ex", "table": "t9", "name": "Ana", "seat": 2},
        "other:7777 ana": {"token": "keep", "table": "t2", "name": "Ana", "seat": 0},
    }
    path.write_text(json.dumps(old))
    store = TokenStore(path)
    assert (store.get("localhost:7777 ana") or {}).get("token") == "old"
    assert (store.get("::1:7777 ana") or {}).get("token") == "old"
    assert (store.get("example.com:7777 ana") or {}).get("token") == "ex"
    # saving the seat again writes the normalized key and drops the old spelling
    store.put("localhost:7777 ana", "new", "t1", "Ana", 0)
    data = json.loads(path.read_text())
    assert set(data) == {"localhost:7777 ana", "Example.com:7777 ana", "other:7777 ana"}
    assert data["localhost:7777 ana"]["token"] == "new"
    # dropping under any spelling forgets the old entry too
    store.drop("EXAMPLE.COM:7777 ana")
    assert set(json.loads(path.read_text())) == {"localhost:7777 ana", "other:7777 ana"}


def _at_table(app: Any) -> bool:
    return isinstance(app.screen, TableScreen) and bool(app.model and app.model.view)


async def test_a_seat_taken_at_127_0_0_1_is_resumed_at_localhost(
    server: Any, connect: Any, tmp_path: Path
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    table = server.tables["t1"]
    store = TokenStore(tmp_path / "resume.json")
    first = CraitsApp("127.0.0.1", server.port, "Ana", table="t1", store=store)
    async with first.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: _at_table(first), what="the table")
        hand = list(first.model.hand)
    # started again as `craits-client localhost:PORT`: the same seat comes back
    again = CraitsApp("localhost", server.port, "Ana", store=TokenStore(tmp_path / "resume.json"))
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: _at_table(again), what="the resume")
        assert again.model.seat == 1 and again.model.hand == hand
        await wait_for(pilot, lambda: table.seats[1].member is not None, what="seat back")


async def test_a_token_saved_by_an_older_client_is_resumed(
    server: Any, connect: Any, tmp_path: Path
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    table = server.tables["t1"]
    ana = await connect("Ana")
    await ana.send({"type": "join", "table": "t1", "name": "Ana"})
    joined = await ana.expect("joined")
    await ana.close()
    # the file as an older client wrote it: the address exactly as typed
    path = tmp_path / "resume.json"
    old_key = f"127.0.0.1:{server.port} ana"
    entry = {"token": joined["token"], "table": "t1", "name": "Ana", "seat": joined["seat"]}
    path.write_text(json.dumps({old_key: entry}))
    app = CraitsApp("LOCALHOST", server.port, "Ana", store=TokenStore(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: _at_table(app), what="the resume")
        assert app.model.seat == joined["seat"]
        await wait_for(
            pilot, lambda: table.seats[joined["seat"]].member is not None, what="seat back"
        )


def test_every_token_is_kept_as_a_record_key_newest_first(tmp_path: Path) -> None:
    """Beside the one seat to resume, the client keeps every token it held per
    server (its private games' records need one, protocol §7.3): newest first,
    once each, at most as many as a request may send, readable by its owner only."""
    store = TokenStore(tmp_path / "resume.json")
    for i in range(RECORD_KEYS + 5):
        store.put("127.0.0.1:7777 ana", f"tok-{i}", f"t{i}", "Ana", 0)
    store.put("localhost ana", "tok-3", "t3", "Ana", 0)  # the same server, an old token
    store.drop("localhost:7777 ana")  # a seat gone is not a record gone
    keys = store.record_keys()
    kept = keys.tokens("[::1]:7777")
    assert kept[0] == "tok-3" and kept[1] == f"tok-{RECORD_KEYS + 4}"
    assert len(kept) == RECORD_KEYS and len(set(kept)) == RECORD_KEYS
    assert keys.tokens("example.org") == []
    assert stat.S_IMODE(keys.path.stat().st_mode) == 0o600
    keys.path.write_text("not json", encoding="utf-8")
    assert keys.tokens("localhost") == []  # a damaged file: nothing kept, nothing raised
