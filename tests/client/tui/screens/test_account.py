"""Accounts in the terminal client (protocol §7.5, issue 26), through a real
server on a loopback port with argon2id at its test cost: register a name in the
lobby's account dialog and see the ten recovery codes once; a second run with the
same key directory logs in by itself; a key the server does not know plays as a
guest, told so; the leaderboard screen lists the server's best players."""

from __future__ import annotations

import json
import re
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.tui.dialogs.account import AccountDialog
from craits.client.tui.screens.leaderboard import LeaderboardScreen
from craits.client.tui.screens.lobby_screen import LobbyScreen
from craits.protocol.identity import KEY_FILE_NAME, load_or_create_key
from craits.server.accounts.model import GameRecord, Seat
from craits.server.app import Server, ServerConfig

from tests.client.tui.test_screenshots import FOLDER, shoot
from tests.server.net.signed import devices, fast_hashing
from tests.support.client import on_table, screen_text, wait_for, wait_text

CODE = re.compile(r"\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\b")
"""A recovery code as the dialog shows it (``K7QM-2XRT-9PWD``)."""


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    return fast_hashing(config)


@pytest.fixture
async def device(server: Server) -> AsyncIterator[Callable[..., Any]]:
    async for opened in devices(server):
        yield opened


async def in_lobby(pilot: Any, app: Any) -> None:
    await wait_for(pilot, lambda: app.link == "online", what="the connection")
    await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")


async def open_dialog(pilot: Any, app: Any) -> None:
    await pilot.press("a")
    await wait_for(pilot, lambda: isinstance(app.screen, AccountDialog), what="the dialog")


async def register_in_dialog(pilot: Any, app: Any, name: str) -> list[str]:
    """Type ``name`` in the open dialog, register: the codes on the screen."""
    await pilot.press(*name, "enter")
    text = await wait_text(pilot, app, "Write these down", timeout=15)
    return CODE.findall(text)


async def test_register_in_the_dialog_then_log_in_by_itself_next_time(
    server: Server, make_app: Any, connect: Any, tmp_path: Path
) -> None:
    keys = tmp_path / "config"
    app = make_app("Ana", account_dir=keys)
    async with app.run_test(size=(100, 32)) as pilot:
        await in_lobby(pilot, app)
        await open_dialog(pilot, app)
        await wait_text(pilot, app, "You play as a guest")
        codes = await register_in_dialog(pilot, app, "Ana")
        assert len(codes) == 10 and len(set(codes)) == 10
        # the key is kept for its owner alone; the server is remembered, no code is
        key = keys / KEY_FILE_NAME
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        saved = (keys / "accounts.json").read_text(encoding="utf-8")
        assert json.loads(saved) == {"servers": {f"localhost:{server.port}": "Ana"}}
        assert not any(code in saved for code in codes)
        await pilot.press("escape")  # not closed before the codes are confirmed
        await pilot.pause(0.2)
        assert isinstance(app.screen, AccountDialog)
        await pilot.click("#codes-done")
        text = await wait_text(pilot, app, "Logged in as Ana")
        assert not CODE.findall(text)  # shown once: gone once confirmed
        await wait_text(pilot, app, "Rating: ?")  # provisional: no rated game yet
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 3})
    await ben.expect("table_created")
    # the next run, the same device, straight to a table under the registered name:
    # logged in first (a guest's join under it would be refused name_registered)
    again = make_app("Ana", account_dir=keys, table="t1")
    async with again.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: again.session.account.name == "Ana", what="the login")
        await wait_for(
            pilot, lambda: on_table(again) and again.screen.query("#chatlog"), what="the table"
        )
        assert again.session.model is not None and again.session.model.name == "t1"
        await wait_text(pilot, again, "t1")
    shown = make_app("Ana", account_dir=keys, store=TokenStore(tmp_path / "other.json"))
    async with shown.run_test(size=(100, 32)) as pilot:
        await in_lobby(pilot, shown)
        await open_dialog(pilot, shown)
        text = await wait_text(pilot, shown, "Logged in as Ana")
        assert "guest" not in text and not CODE.findall(text)
    other = make_app("Ana", account_dir=tmp_path / "elsewhere")  # another device: a guest
    async with other.run_test(size=(100, 32)) as pilot:
        await in_lobby(pilot, other)
        await open_dialog(pilot, other)
        await wait_text(pilot, other, "You play as a guest")
        assert other.session.account.name is None


async def test_a_key_the_server_does_not_know_plays_as_a_guest_and_is_told(
    server: Server, make_app: Any, tmp_path: Path
) -> None:
    keys = tmp_path / "config"
    load_or_create_key(keys)  # a key never registered here (an account gone, say)
    (keys / "accounts.json").write_text(
        json.dumps({"servers": {f"localhost:{server.port}": "Zed"}}), encoding="utf-8"
    )
    app = make_app("Zed", account_dir=keys)
    async with app.run_test(size=(100, 32)) as pilot:
        await in_lobby(pilot, app)
        await wait_for(
            pilot,
            lambda: any("you play as a guest" in n.message for n in app._notifications),
            what="the notice",
        )
        assert app.session.account.name is None
        assert app.session.account.problem  # the server's words, kept for the dialog
        await open_dialog(pilot, app)
        await wait_text(pilot, app, "You play as a guest")


async def test_a_second_registration_after_a_refusal_asks_a_fresh_nonce(
    server: Server, make_app: Any, device: Any, tmp_path: Path
) -> None:
    await (await device("Ben")).register("Ben")
    app = make_app("Ana", account_dir=tmp_path / "config")
    async with app.run_test(size=(100, 32)) as pilot:
        await in_lobby(pilot, app)
        await open_dialog(pilot, app)
        await pilot.press("B", "E", "N", "enter")  # Ben's, in other letters: refused
        await wait_text(pilot, app, "That name is someone's", timeout=15)
        assert app.session.account.name is None and not app.session.account.busy
        field = app.screen.query_one("#account-name")
        field.value = ""  # type: ignore[attr-defined]
        codes = await register_in_dialog(pilot, app, "Ana")  # the spent nonce renewed
        assert len(codes) == 10


async def ranked_players(server: Server, device: Any) -> None:
    """Ana and Ben registered, 25 rated games each in the last hour (Ana wins all)."""
    ana, ben = await device("Ana"), await device("Ben")
    a = (await ana.register("Ana"))["account"]["id"]
    b = (await ben.register("Ben"))["account"]["id"]
    assert server.accounts.service is not None
    results = server.accounts.service.store.results
    now = server.accounts.service.now()
    for i in range(25):
        seats = (Seat("Ana", 1, 10 + i, a), Seat("Ben", 2, 50, b))
        await results.record(GameRecord(f"g{i}", "t", False, True, now - 3600 + i, seats))


async def test_the_leaderboard_lists_the_best_players(
    server: Server, make_app: Any, device: Any, tmp_path: Path
) -> None:
    await ranked_players(server, device)
    app = make_app("Cy", account_dir=tmp_path / "config")
    async with app.run_test(size=(100, 32)) as pilot:
        await in_lobby(pilot, app)
        await open_dialog(pilot, app)
        await pilot.click("#leaderboard")
        await wait_for(pilot, lambda: isinstance(app.screen, LeaderboardScreen), what="board")
        await wait_text(pilot, app, "Ben")
        rows = [line for line in screen_text(app).splitlines() if "Ana" in line or "Ben" in line]
        assert len(rows) == 2 and "Ana" in rows[0] and "Ben" in rows[1]
        assert re.search(r"\b1\b.*Ana.*\b25\b", rows[0]) and re.search(r"\b2\b.*Ben", rows[1])
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")


@pytest.mark.skipif(not FOLDER, reason="CRAITS_SCREENSHOTS is not set")
async def test_screenshot_the_account_dialog_and_the_leaderboard(
    server: Server, make_app: Any, device: Any, tmp_path: Path
) -> None:
    await ranked_players(server, device)
    app = make_app("Cy", account_dir=tmp_path / "config")
    async with app.run_test(size=(120, 40)) as pilot:
        await in_lobby(pilot, app)
        await open_dialog(pilot, app)
        await shoot(pilot, app, "account-guest")
        await register_in_dialog(pilot, app, "Cy")
        await shoot(pilot, app, "account-codes")
        await pilot.click("#codes-done")
        await wait_text(pilot, app, "Rating: ?")
        await shoot(pilot, app, "account-player")
        await pilot.press("l")
        await wait_text(pilot, app, "Ben")
        await shoot(pilot, app, "leaderboard")
