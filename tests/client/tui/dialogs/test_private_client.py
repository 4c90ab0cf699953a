"""Pilot tests of private tables and the creator's powers in the client
(protocol §11.9): the invite link shown and copied, an invite link or a code
on the command line, the code asked for, the private badge in the lobby, the
creator's menu, and a removed player told why."""

from __future__ import annotations

import re
from typing import Any

import pytest
from craits.client.cli import build_parser, start_point
from craits.client.present import presenter
from craits.client.tui.dialogs.base import ChoiceDialog, ConfirmDialog
from craits.client.tui.dialogs.new_table import CreateTableDialog
from craits.client.tui.dialogs.private import CodeDialog, InviteDialog, code_from
from craits.client.tui.screens.lobby_screen import LobbyScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.protocol.address import parse_target
from craits.server.table.seating import token_digest
from textual.widgets import Checkbox, DataTable, Input

from tests.support.client import screen_text, shown_in, wait_for, wait_text


def said(app: Any) -> str:
    """Every notification the app showed, one a line."""
    return "\n".join(str(n.message) for n in app._notifications)


def on_table(app: Any) -> bool:
    return isinstance(app.screen, TableScreen)


async def private_table(connect: Any, name: str, seats: int = 3) -> tuple[Any, str]:
    """Ana (a plain connection) opens the private table ``name`` and sits at it."""
    ana = await connect("Ana")
    await ana.send({"type": "create_table", "name": name, "seats": seats, "private": True})
    code = (await ana.expect("table_created"))["code"]
    await ana.send({"type": "join", "table": name, "name": "Ana"})
    await ana.expect("joined")
    return ana, str(code)


def test_an_invite_link_or_a_code_on_the_command_line() -> None:
    link = "craits://example.org:7000/Friday%20night?code=MZXW6YTBOI3DEMRQ"
    target = start_point(link, None, None, None)
    assert (target.host, target.port, target.table, target.code) == (
        "example.org",
        7000,
        "Friday night",
        "MZXW6YTBOI3DEMRQ",
    )
    assert not target.watch
    watch = start_point("example.org", None, "t", "ABC")
    assert watch.watch and watch.table == "t" and watch.code == "ABC"
    with pytest.raises(ValueError, match="goes with --table"):
        start_point("example.org", None, None, "ABC")
    args = build_parser().parse_args([link])
    assert args.address == link
    args = build_parser().parse_args(["h:7000", "--table", "t", "--code", "K"])
    assert (args.table, args.code) == ("t", "K")
    assert code_from(link) == "MZXW6YTBOI3DEMRQ" and code_from(" abc ") == "abc"


def test_the_lobby_shows_a_private_table_as_private() -> None:
    info: Any = {
        "name": "p",
        "seats": 4,
        "players": [],
        "seated": 2,
        "private": True,
        "locked": False,
        "state": "waiting",
        "rules": {},
        "turn_timeout_ms": 0,
        "spectators": 0,
        "creator": None,
        "hand_number": 0,
        "hands_in_game": 15,
        "on_hold": False,
        "may_start": [],
        "game": None,
    }
    row = presenter.lobby_row(info)
    assert row[0].plain == "p (private)" and row[1].plain == "2/4"


async def test_the_creator_of_a_private_table_gets_its_invite_link(
    server: Any, make_app: Any
) -> None:
    app = make_app("Ana")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, CreateTableDialog), what="form")
        dialog = app.screen
        dialog.query_one("#table-name", Input).value = "secret"
        dialog.query_one("#private", Checkbox).value = True
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, InviteDialog), what="the invite")
        code = server.tables["secret"].powers.access.code
        link = f"craits://127.0.0.1:{server.port}/secret?code={code}"
        assert app.screen.link == link
        assert link in await wait_text(pilot, app, link)
        # the server gave no public address: the dialog says how to give one (issue 23)
        hint = " ".join(shown_in(app, app.screen.query_one("#invite-loopback"))).split()
        assert "--public-address HOST[:PORT]" in " ".join(hint)
        await pilot.press("c")
        assert app.clipboard == link
        await pilot.press("enter")
        await wait_for(pilot, lambda: on_table(app), what="the table")
        # the creator's menu shows it again
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="the menu")
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, InviteDialog), what="the invite")
        assert parse_target(app.screen.link, 1).code == code
        # kept to read the table's records later (protocol §7.3): the creator's
        # token and the seat's resume token, the server holding their digests only
        kept = app.session.store.record_keys().tokens(f"127.0.0.1:{server.port}")
        table = server.tables["secret"]
        assert {token_digest(t) for t in kept} == {
            table.powers.access.creator_key,
            table.seats[0].token_digest,
        }


async def test_an_invite_link_takes_a_seat_at_a_private_table(
    server: Any, connect: Any, make_app: Any
) -> None:
    _, code = await private_table(connect, "p")
    target = start_point(
        f"craits://127.0.0.1:{server.port}/p?code={code.lower()}", None, None, None
    )
    app = make_app("Ben", table=target.table, code=target.code)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app), what="the table")
        assert [s.name for s in server.tables["p"].seats] == ["Ana", "Ben"]


async def test_a_private_table_asks_for_its_code(server: Any, connect: Any, make_app: Any) -> None:
    _, code = await private_table(connect, "q")
    app = make_app("Ben")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "q" in app.tables, what="the list")
        rows = app.screen.query_one("#tables", DataTable)

        def row() -> list[str]:
            return [str(cell) for cell in rows.get_row("q")] if "q" in rows.rows else []

        await wait_for(pilot, lambda: bool(row()), what="the row of q")
        name, seats, *rest = row()
        assert (name, seats) == ("q (private)", "1/3")
        assert "Ana" not in " ".join(rest)  # no names of a private table
        await pilot.press("j")
        await wait_for(pilot, lambda: isinstance(app.screen, CodeDialog), what="the code")
        assert "private" in screen_text(app)
        first = app.screen
        first.query_one(Input).value = "WRONG"
        await pilot.press("enter")
        # a wrong code: asked again, with the server's words
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, CodeDialog) and app.screen is not first,
            what="again",
        )
        assert app.screen.why == "that invite code is not this table's"
        app.screen.query_one(Input).value = f"craits://127.0.0.1:{server.port}/q?code={code}"
        await pilot.press("enter")
        await wait_for(pilot, lambda: on_table(app), what="the table")


async def test_the_creators_menu_removes_a_player_who_is_told_why(
    server: Any, connect: Any, make_app: Any
) -> None:
    ana = make_app("Ana")
    ben = make_app("Ben")
    async with ana.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: ana.link == "online", what="the connection")
        ana.session.requests.create_table({"type": "create_table", "name": "k", "seats": 3})
        await wait_for(pilot, lambda: on_table(ana), what="Ana's table")
        async with ben.run_test(size=(80, 24)) as ben_pilot:
            ben.session.requests.join("k")
            await wait_for(ben_pilot, lambda: on_table(ben), what="Ben's table")
            await wait_for(pilot, lambda: len(ana.model.players) == 2, what="Ben seated")
            assert ana.screen.check_action("creator_menu", ()) is True
            assert ben.screen.check_action("creator_menu", ()) is False
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(ana.screen, ChoiceDialog), what="menu")
            await pilot.press("l")  # lock
            await wait_for(pilot, lambda: server.tables["k"].powers.access.locked, what="lock")
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(ana.screen, ChoiceDialog), what="menu")
            await pilot.press("k")
            await wait_for(pilot, lambda: "Remove whom" in screen_text(ana), what="seats")
            await pilot.press("1")
            await wait_for(pilot, lambda: isinstance(ana.screen, ConfirmDialog), what="sure?")
            await pilot.press("y")
            await wait_for(ben_pilot, lambda: isinstance(ben.screen, LobbyScreen), what="lobby")
            await wait_for(ben_pilot, lambda: "removed you" in said(ben), what="why")
            assert "The creator of table k removed you from it." in said(ben)
            assert ben.session.store.get(ben.session.store_key) is None  # the seat is gone
            assert [s.name for s in server.tables["k"].seats] == ["Ana"]
            # trying again: refused in plain words
            ben.session.requests.join("k", "Benito")
            await wait_for(ben_pilot, lambda: "You cannot join k" in said(ben), what="refused")


async def test_too_many_wrong_codes_are_refused_in_plain_words(
    server: Any, connect: Any, make_app: Any
) -> None:
    server.wrong_codes.per_connection = 1  # one wrong code, then wait
    await private_table(connect, "z")
    app = make_app("Ben", table="z", code="WRONG")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CodeDialog), what="the code")
        app.screen.query_one(Input).value = "STILLWRONG"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Too many wrong invite codes" in said(app), what="refusal")
        assert re.search(r"Too many wrong invite codes: try again in \d+ s\.", said(app))
        assert not on_table(app)


async def test_the_invite_link_names_the_servers_public_address(server: Any, make_app: Any) -> None:
    """The server's operator gave its public address (``welcome.public_address``):
    the invite link names it, not the loopback address the creator typed, and
    the dialog says nothing of setting one (issue 23)."""
    server.config.public_address = "games.example.org:7000"
    app = make_app("Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="the connection")
        app.session.requests.create_table(
            {"type": "create_table", "name": "secret", "seats": 2, "private": True}
        )
        await wait_for(pilot, lambda: isinstance(app.screen, InviteDialog), what="the invite")
        code = server.tables["secret"].powers.access.code
        link = f"craits://games.example.org:7000/secret?code={code}"
        assert app.screen.link == link
        dialog = app.screen

        def shown() -> str:  # the link as drawn (wrapped at 80 columns)
            return "".join(row.strip() for row in shown_in(app, dialog.query_one("#invite-link")))

        await wait_for(pilot, lambda: shown() == link, what="the link drawn")
        assert not dialog.query("#invite-loopback")
        assert "public-address" not in screen_text(app)


async def test_a_full_private_table_reached_by_its_link_offers_to_watch(
    server: Any, connect: Any, make_app: Any
) -> None:
    """The invite link of a private table whose game is playing: no seat, so
    the client offers to watch it, with the link's code (issue 23: it said
    "the game is playing" and left the player in the lobby)."""
    ana, code = await private_table(connect, "z", seats=2)
    bob = await connect("Bob")
    await bob.send({"type": "join", "table": "z", "name": "Bob", "code": code})
    await bob.expect("joined")
    await ana.expect("update")  # a full table starts by itself
    app = make_app("Ben", table="z", code=code)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmDialog), what="the offer")
        text = " ".join((await wait_text(pilot, app, "Watch it")).split())
        assert "The game at table z is already playing" in text, text
        assert "Watch it instead?" in text
        await pilot.press("enter")  # Yes has the focus: watching does no harm
        await wait_for(pilot, lambda: on_table(app) and app.model.spectator, what="watching")
        assert app.model.view is not None and len(server.tables["z"].seats) == 2


def wrong_codes(server: Any) -> int:
    """Wrong invite codes the server counted from any connection (the tries spent)."""
    budget = server.wrong_codes
    return sum(round(budget.per_connection - b.tries) for b in budget._connections.values())


async def test_a_refused_code_is_never_sent_again(server: Any, connect: Any, make_app: Any) -> None:
    """After a bad link, neither the same code typed (or pasted) again nor ``j``
    in the lobby sends a refused code: the client asks for another, and the
    server counts one wrong code (issue 23: each ``j`` re-sent it until "too
    many wrong invite codes")."""
    await private_table(connect, "z")
    bad = f"craits://127.0.0.1:{server.port}/z?code=WRONGCODE"
    app = make_app("Ben", table="z", code="WRONGCODE")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CodeDialog), what="the code")
        assert wrong_codes(server) == 1
        for again in ("wrong-code", bad):  # the same code, as typed by hand, or the link
            asked = app.screen
            asked.query_one(Input).value = again
            await pilot.press("enter")
            await wait_for(
                pilot,
                lambda a=asked: isinstance(app.screen, CodeDialog) and app.screen is not a,  # type: ignore[misc]
                what="asked again",
            )
            assert app.screen.why == "that invite code was refused already"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        await wait_for(pilot, lambda: app.screen.selected_table() == "z", what="z listed")
        for _ in range(3):
            await pilot.press("j")
            await wait_for(pilot, lambda: isinstance(app.screen, CodeDialog), what="asked")
            assert app.screen.why == "it needs its invite code"
            await pilot.press("escape")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        assert wrong_codes(server) == 1


async def test_after_too_many_wrong_codes_the_next_try_asks_for_a_code(
    server: Any, connect: Any, make_app: Any
) -> None:
    """Once the server says "too many wrong invite codes", the code it did not
    judge is not sent again by itself: ``j`` asks for a code."""
    server.wrong_codes.per_connection = 1
    await private_table(connect, "y")
    app = make_app("Ben", table="y", code="WRONG")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, CodeDialog), what="the code")
        app.screen.query_one(Input).value = "ALSOWRONG"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Too many wrong invite codes" in said(app), what="refusal")
        await wait_for(pilot, lambda: app.screen.selected_table() == "y", what="y listed")
        app.clear_notifications()
        await pilot.press("j")
        await wait_for(pilot, lambda: isinstance(app.screen, CodeDialog), what="asked")
        assert "Too many" not in said(app)
