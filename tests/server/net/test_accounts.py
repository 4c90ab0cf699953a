"""Accounts on the wire (protocol §7.5, issue 26): a real server on a loopback
port, real msgpack over real sockets, real Ed25519 signatures and real argon2id
(at its test cost). Register, log in on another connection, a replayed or
foreign nonce, pairing a second key, revoking, recovery, passwords, a guest
under a registered name, history, profile and the leaderboard, bad inputs; and
the server's log holds no secret."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from craits.server.accounts.model import GameRecord, Seat
from craits.server.app import Server, ServerConfig

from tests.server.net.signed import devices, error, fast_hashing


@pytest.fixture
def config(config: ServerConfig) -> ServerConfig:
    return fast_hashing(config)


@pytest.fixture
async def device(server: Server) -> AsyncIterator[Callable[..., Any]]:
    async for opened in devices(server):
        yield opened


async def test_welcome_carries_a_fresh_nonce_per_connection(device: Callable[..., Any]) -> None:
    a, b = await device(), await device()
    assert len(a.nonce) == 32 and a.nonce != b.nonce


async def test_register_then_log_in_on_another_connection(device: Callable[..., Any]) -> None:
    ana = await device("Ana")
    got = await ana.register("Ana")
    assert got["type"] == "registered"
    assert got["account"]["name"] == "Ana" and got["account"]["has_password"] is False
    codes = got["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    again = await device("Ana", ana.key)
    logged = await again.login()
    assert logged["type"] == "logged_in"
    assert logged["account"]["id"] == got["account"]["id"] and logged["device"] == got["device"]
    error(await again.login(), "already_logged_in")


async def test_a_nonce_works_once_and_only_on_its_connection(device: Callable[..., Any]) -> None:
    ana = await device("Ana")
    await ana.register("Ana")
    first = await device("Ana", ana.key)
    other = await device("Ana", ana.key)
    # other's signature replayed on first: first's nonce is another
    forged = {"type": "login", **other.signed()}
    error(await first.ask(forged, "logged_in"), "bad_signature")
    # the nonce is spent by that wrong try: a right signature over it is refused too
    error(await first.login(), "bad_signature")
    await first.challenge()
    assert (await first.login())["type"] == "logged_in"
    # a signature for another server (another port) is refused before it is checked
    stranger = {"type": "login", **other.signed(identity="127.0.0.1:1")}
    error(await other.ask(stranger, "logged_in"), "bad_server_identity")


async def test_a_name_is_one_account_whatever_its_case(device: Callable[..., Any]) -> None:
    ana = await device("Ana")
    await ana.register("Ana")
    thief = await device("x")
    error(await thief.register("ANA"), "name_registered")
    await thief.challenge()
    error(await thief.register("player"), "invalid_account_name")


async def test_a_guest_cannot_sit_or_create_under_a_registered_name(
    device: Callable[..., Any], connect: Callable[..., Any]
) -> None:
    ana = await device("Ana")
    await ana.register("Ana")
    guest = await connect("Bob")
    await guest.send({"type": "create_table", "name": "t", "seats": 2})
    await guest.expect("table_created")
    await guest.send({"type": "join", "table": "t", "name": "ana"})
    error(await guest.expect("error"), "name_registered")
    await guest.send({"type": "join", "table": "t", "name": "Bob"})
    assert (await guest.expect("joined"))["seat"] == 0
    impostor = await connect("Ana")
    await impostor.send({"type": "create_table", "name": "u", "seats": 2})
    error(await impostor.expect("error"), "name_registered")
    # the account's own connection sits under its name, shown as registered
    await ana.player.send({"type": "join", "table": "t", "name": "Ana"})
    assert (await ana.player.expect("joined"))["seat"] == 1
    players = (await ana.player.expect("table_info"))["table"]["players"]
    assert [p.get("registered", False) for p in players] == [False, True]


async def test_pairing_adds_a_second_key_and_revoking_removes_it(
    device: Callable[..., Any],
) -> None:
    ana = await device("Ana")
    registered = await ana.register("Ana")
    code = (await ana.ask({"type": "pair_start"}, "pairing_code"))["code"]
    phone = await device("Ana")
    wrong = {"type": "pair_finish", "name": "Ana", "code": "AAAA-AAAA", **phone.signed()}
    error(await phone.ask(wrong, "logged_in"), "bad_code")
    await phone.challenge()
    pair = {"type": "pair_finish", "name": "Ana", "code": code.lower(), **phone.signed()}
    paired = await phone.ask(pair, "logged_in")
    assert paired["account"]["id"] == registered["account"]["id"]
    # once only
    late = await device("Ana")
    error(await late.ask({**pair, **late.signed()}, "logged_in"), "bad_code")
    devices = (await ana.ask({"type": "devices"}, "devices"))["devices"]
    assert [d["id"] for d in devices] == [registered["device"], paired["device"]]
    assert [d["current"] for d in devices] == [True, False]
    assert [d["label"] for d in devices] == ["laptop", "device"]
    listed = await ana.ask({"type": "revoke_device", "device": paired["device"]}, "devices")
    assert "revoked" in listed["devices"][1]
    again = {"type": "revoke_device", "device": paired["device"]}
    error(await ana.ask(again, "devices"), "no_such_device")
    phone_again = await device("Ana", phone.key)
    error(await phone_again.login(), "unknown_key")


async def test_a_recovery_code_adds_a_key_once(device: Callable[..., Any]) -> None:
    ana = await device("Ana")
    codes = (await ana.register("Ana"))["recovery_codes"]
    lost = await device("Ana")
    recover = {"type": "recover", "name": "Ana", "code": codes[3], **lost.signed()}
    assert (await lost.ask(recover, "logged_in"))["type"] == "logged_in"
    thief = await device("Ana")
    error(await thief.ask({**recover, **thief.signed()}, "logged_in"), "bad_code")


async def test_codes_are_limited_per_address(device: Callable[..., Any]) -> None:
    ana = await device("Ana")
    await ana.register("Ana")
    guesser = await device("x")
    replies = []
    for i in range(12):
        await guesser.challenge()
        guess = {"type": "recover", "name": "Ana", "code": f"ZZZZ-ZZZZ-ZZ{i:02d}"}
        replies.append(await guesser.ask({**guess, **guesser.signed()}, "logged_in"))
    codes = [r["code"] for r in replies]
    assert codes[:10] == ["bad_code"] * 10
    assert codes[10:] == ["too_many_attempts"] * 2


async def test_a_password_logs_in_a_browser_visitor(device: Callable[..., Any]) -> None:
    ana = await device("Ana")
    await ana.register("Ana")
    short = await ana.ask({"type": "set_password", "password": "short"}, "password_set")
    error(short, "invalid_password")
    done = await ana.ask({"type": "set_password", "password": "correct horse"}, "password_set")
    assert done["password"] is True
    visitor = await device("v")
    bad = {"type": "password_login", "name": "Ana", "password": "wrong horse"}
    error(await visitor.ask(bad, "logged_in"), "bad_password")
    nobody = {"type": "password_login", "name": "Nobody", "password": "correct horse"}
    error(await visitor.ask(nobody, "logged_in"), "bad_password")
    good = {"type": "password_login", "name": "ana", "password": "correct horse"}
    logged = await visitor.ask(good, "logged_in")
    assert logged["account"]["name"] == "Ana" and "device" not in logged


async def test_requests_of_an_account_need_a_login(device: Callable[..., Any]) -> None:
    guest = await device("g")
    for kind, reply in (
        ("pair_start", "pairing_code"),
        ("devices", "devices"),
        ("profile", "profile"),
        ("history", "history"),
    ):
        error(await guest.ask({"type": kind}, reply), "not_logged_in")
    error(await guest.ask({"type": "profile", "name": "Nobody"}, "profile"), "no_such_account")


async def test_profile_history_and_leaderboard(device: Callable[..., Any], server: Server) -> None:
    ana, ben = await device("Ana"), await device("Ben")
    a = (await ana.register("Ana"))["account"]["id"]
    b = (await ben.register("Ben"))["account"]["id"]
    assert server.accounts.service is not None
    results = server.accounts.service.store.results
    now = server.accounts.service.now()
    for i in range(25):  # Ana wins every rated game; one private game at the end
        seats = (Seat("Ana", 1, 10 + i, a), Seat("Ben", 2, 50, b))
        await results.record(GameRecord(f"g{i}", "t", False, True, now - 3600 + i, seats))
    await results.record(GameRecord("secret", "hidden", True, False, now, seats))
    profile = (await ana.ask({"type": "profile"}, "profile"))["profile"]
    assert profile["name"] == "Ana" and profile["games"] == 25 and profile["completion_pct"] == 100
    assert profile["provisional"] is False and int(profile["rating"]) > 1500
    page = await ana.ask({"type": "history", "limit": 10}, "history")
    newest = ["secret"] + [f"g{i}" for i in range(24, 15, -1)]
    assert [g["game_id"] for g in page["games"]] == newest
    assert page["games"][1]["place"] == 1 and page["games"][1]["rating_change"] > 0
    assert page["games"][1]["players"][1] == {
        "name": "Ben",
        "place": 2,
        "points": 50,
        "registered": True,
        "left": False,
    }
    older = await ana.ask({"type": "history", "limit": 10, "before": page["next"]}, "history")
    assert older["games"][0]["game_id"] == "g15"
    # another account sees Ana's public games only
    theirs = await ben.ask({"type": "history", "name": "ana", "limit": 3}, "history")
    assert [g["game_id"] for g in theirs["games"]] == ["g24", "g23", "g22"]
    board = await ben.ask({"type": "leaderboard"}, "leaderboard")
    assert [line["name"] for line in board["lines"]] == ["Ana", "Ben"]
    assert board["lines"][0]["rating"] > board["lines"][1]["rating"]
    assert board["lines"][0]["rank"] == 1 and board["lines"][0]["games"] == 25
    second = await ben.ask({"type": "leaderboard", "offset": 1, "limit": 1}, "leaderboard")
    assert [(line["rank"], line["name"]) for line in second["lines"]] == [(2, "Ben")]


@pytest.mark.parametrize(
    "message",
    [
        {"type": "login", "key": "00", "signature": "00", "server": "x"},
        {"type": "login", "key": 5, "signature": "00" * 64, "server": "x"},
        {"type": "login", "key": "AB" * 32, "signature": "00" * 64, "server": "x"},
        {"type": "register", "name": "x" * 10_000, "key": "00" * 32, "signature": "00" * 64},
        {"type": "pair_finish", "name": "Ana", "code": "x" * 100_00},
        {"type": "password_login", "name": "Ana", "password": ["a"]},
        {"type": "revoke_device", "device": -1},
        {"type": "history", "limit": 1000},
        {"type": "leaderboard", "offset": "0"},
        {"type": "set_password", "password": "x" * 2000},
    ],
)
async def test_bad_inputs_get_bad_message_and_nothing_else(
    device: Callable[..., Any], message: dict[str, Any]
) -> None:
    guest = await device("g")
    error(await guest.ask(message, "logged_in"), "bad_message")
    # the connection still works, and its nonce was not spent by the bad message
    ana = await device("Ana")
    assert (await ana.register("Ana"))["type"] == "registered"
    taken = {"type": "register", "name": "Ana", **guest.signed()}
    error(await guest.ask(taken, "registered"), "name_registered")


async def test_a_small_order_key_is_refused(device: Callable[..., Any]) -> None:
    guest = await device("g")
    message = {
        "type": "register",
        "name": "Zed",
        "key": "00" * 32,
        "signature": "00" * 64,
        "server": guest.identity,
    }
    error(await guest.ask(message, "registered"), "bad_signature")


async def test_no_secret_reaches_the_log(
    device: Callable[..., Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="craits")
    ana = await device("Ana")
    shown: list[str] = [ana.player.conn.welcome["nonce"]]
    signed = ana.signed()
    shown += [signed["key"], signed["signature"]]
    registered = await ana.register("Ana")
    shown += registered["recovery_codes"]
    code = (await ana.ask({"type": "pair_start"}, "pairing_code"))["code"]
    shown.append(code)
    await ana.ask({"type": "set_password", "password": "hunter2hunter2"}, "password_set")
    shown.append("hunter2hunter2")
    phone = await device("Ana")
    shown.append(phone.nonce.hex())
    pair = {"type": "pair_finish", "name": "Ana", "code": code, **phone.signed()}
    shown += [pair["key"], pair["signature"]]
    await phone.ask(pair, "logged_in")
    lost = await device("Ana")
    recover = {"type": "recover", "name": "Ana", "code": registered["recovery_codes"][0]}
    recover.update(lost.signed())
    shown += [recover["key"], recover["signature"], lost.nonce.hex()]
    await lost.ask(recover, "logged_in")
    again = await device("Ana", ana.key)
    await again.login()
    visitor = await device("v")
    await visitor.ask(
        {"type": "password_login", "name": "Ana", "password": "hunter2hunter2"}, "logged_in"
    )
    text = "\n".join(r.getMessage() + " " + repr(r.args) for r in caplog.records)
    assert "registered" in text and "logged in as account" in text  # the log was read
    for secret in shown:
        for form in {secret, secret.replace("-", ""), secret.upper(), secret.lower()}:
            assert form not in text, "a secret reached the log"


async def test_registrations_are_limited_per_address(config: ServerConfig) -> None:
    config.registrations_per_hour = 2
    srv = Server(config)
    await srv.start()
    try:
        async for device in devices(srv):
            for name in ("Ana", "Ben"):
                assert (await (await device(name)).register(name))["type"] == "registered"
            third = await device("Cy")
            refused = await third.register("Cy")
            error(refused, "too_many_attempts")
            assert "wait" in refused["message"]
    finally:
        await srv.stop()
