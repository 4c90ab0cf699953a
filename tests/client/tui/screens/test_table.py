"""Pilot tests of the client against a real server: join, play, the suit dialog, draw."""

from __future__ import annotations

from typing import Any

from craits.client.tui.dialogs.base import AskDialog, ChoiceDialog
from craits.client.tui.screens.table_screen import TableScreen
from craits.server.table.outcome import Step
from textual.widgets import Input

from tests.support.client import (
    ANA,
    BEN,
    ben_at_table,
    click_card,
    deal_order,
    hand_cards,
    log_text,
    on_table,
    screen_text,
    script,
    shown_in,
    wait_for,
    wait_text,
)


async def test_join_shows_the_hand_and_plays_a_card(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model and app.model.view, what="the deal")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await pilot.pause(0.05)
        text = screen_text(app)
        # the hand as faces: playable cards raised a row, the others lower
        raised, lower = hand_cards(app)
        assert raised == ["8♠", "9♠", "7♥"], text
        assert lower == ["10♠", "3♣", "J♣", "4♦", "Q♦"], text
        assert app.screen.query_one("#felt").middle.top == "KH"
        assert "K♥" in "".join(shown_in(app, app.screen.query_one("#felt")))
        assert "Your turn" in text
        assert "Ben" in text and "Ana" in text
        screen = app.screen
        assert screen.check_action("play", ()) is True  # 8♠ is chosen first, and playable
        assert screen.check_action("draw", ()) is None  # greyed: a card can be played
        # 7♥ is the 4th card: choose it by its number, play it with Enter
        await pilot.press("4")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        assert "7H" not in app.model.hand
        text = await wait_text(pilot, app, "You played 7♥")
        assert "You played 7♥ — Ben drew a card (a 7)" in log_text(app)  # 7 hits the next
        assert "Ben to play" in text
        assert app.screen.check_action("play", ()) is None
        # Ben's client saw the same play
        update = await ben.expect("update", where=lambda m: m["view"]["top"] == "7H")
        assert update["events"][0] == {
            "event": "played",
            "seat": 1,
            "card": "7H",
            "suit": "H",
            "announced": False,
        }


async def test_suit_dialog_offers_only_the_allowed_suits(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model and app.model.view, what="the deal")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        # a 9 names its own suit or its colour's other: spades or clubs
        await pilot.press("2", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="9 dialog")
        assert [c[2] for c in app.screen.choices] == ["S", "C"]
        text = screen_text(app)
        assert "spades" in text and "clubs" in text and "hearts" not in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="cancel")
        assert app.model.view["top"] == "KH"  # nothing was sent
        # an 8 names any suit
        await pilot.press("right", "left", "left")  # 9♠ → 10♠ → 9♠ → 8♠
        assert app.screen.selected_card == "8S"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="8 dialog")
        assert sorted(c[2] for c in app.screen.choices) == ["C", "D", "H", "S"]
        await pilot.pause(0.05)
        await pilot.press("d")
        await wait_for(pilot, lambda: app.model.view["top"] == "8S", what="the 8")
        assert app.model.view["suit"] == "D"
        await wait_for(pilot, lambda: "You played 8♠ and named ♦" in log_text(app), what="the log")
        felt = "".join(shown_in(app, app.screen.query_one("#felt")))
        assert "suit" in felt and "named" in felt and "♦" in felt, felt


async def test_draw_when_nothing_can_be_played(server: Any, connect: Any, make_app: Any) -> None:
    ben = ["2D", "3D", "4D", "5D", "6D", "7D", "TD", "JD"]
    ana = ["2C", "3C", "4C", "5C", "6C", "7C", "TC", "JC"]
    await ben_at_table(server, connect, ben, ana, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.model and app.model.view, what="the deal")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await pilot.pause(0.05)
        screen = app.screen
        assert screen.check_action("draw", ()) is True
        assert screen.check_action("play", ()) is None
        assert "d draws a card" in screen_text(app)
        await pilot.press("d")
        await wait_for(pilot, lambda: len(app.model.hand) == 9, what="the draw")
        await pilot.pause(0.05)
        drawn = (set(app.model.hand) - set(ana)).pop()
        label = app.style.label(drawn)
        assert f"You drew {label}" in log_text(app)
        assert "Ben to play" in screen_text(app)


async def test_one_card_with_the_play_and_after_it(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    table = server.tables["t1"]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        # two cards left (test shortcut inside the server): o, then the play, says "one card"
        table.game.hands[1] = ["7H", "3C"]
        table.publish(Step([]))
        await wait_for(pilot, lambda: len(app.model.hand) == 2, what="two cards")
        assert app.screen.check_action("announce", ()) is True
        await pilot.press("o")
        assert app.screen.armed
        assert "will be said with the play" in screen_text(app)
        await pilot.press("1", "enter")  # 7♥
        played = await ben.expect("update", where=lambda m: m["view"]["top"] == "7H")
        assert played["events"][0]["announced"] is True
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        assert '"One card!"' in log_text(app)
        assert not app.model.owes_announcement()
        # again without o: the announcement is owed, and o makes it
        table.game.hands[1] = ["5H", "3C"]
        table.game.turn = 1
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["5H", "3C"], what="two cards again")
        await pilot.press("1", "enter")  # 5♥ on 7♥
        await wait_for(pilot, lambda: app.model.owes_announcement(), what="owing")
        await wait_text(pilot, app, 'press o to say "one card"')
        await pilot.press("o")
        await wait_for(pilot, lambda: not app.model.owes_announcement(), what="announced")
        assert 'You: "One card!"' in log_text(app)


async def test_idiot_on_a_player_who_did_not_announce(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    table = server.tables["t1"]
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        assert app.screen.check_action("idiot", ()) is None  # greyed: nobody owes
        # Ben to play, two cards left (test shortcut inside the server)
        table.game.hands[0] = ["QH", "2C"]
        table.game.turn = 0
        table.publish(Step([]))
        await ben.expect("update", where=lambda m: m["view"]["to_act"] == 0)
        await ben.act({"play": "QH"})  # and says nothing
        await wait_for(pilot, lambda: app.model.idiot_targets() == [0], what="the chance")
        await wait_text(pilot, app, "Ben did not say")
        assert app.screen.check_action("idiot", ()) is True
        await pilot.press("i")
        await wait_for(pilot, lambda: app.model.hand_sizes()[0] == 3, what="the penalty")
        assert "You called idiot on Ben" in log_text(app)
        assert "Ben drew 2 cards as the idiot penalty" in log_text(app)


async def test_a_taken_name_asks_for_another(server: Any, connect: Any, make_app: Any) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ben", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, AskDialog), what="the question")
        await wait_text(pilot, app, "Join t1 as")
        field = app.screen.query_one(Input)
        field.value = "Benji"
        await pilot.press("enter")
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        assert app.model.name_of(app.model.seat) == "Benji"


async def test_the_dealer_names_the_suit_of_a_turned_up_eight(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    # Ana (seat 1) cuts the 2 and deals; an 8 is turned up
    script(server.tables["t1"], ["AC", "2C"], deal_order(ANA, BEN, "8D"))
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="the dialog")
        assert sorted(c[2] for c in app.screen.choices) == ["C", "D", "H", "S"]
        await wait_text(pilot, app, "Name the suit for the turned-up 8♦")
        await pilot.press("h")
        await wait_for(pilot, lambda: app.model.view["suit"] == "H", what="the suit")
        await wait_for(pilot, lambda: on_table(app), what="the table")
        assert "You named ♥" in log_text(app)
        assert not app.model.suit_choices()


async def test_a_click_chooses_a_card_and_a_second_click_plays_it(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        await pilot.pause(0.05)
        # 7♥ is the 4th card
        await click_card(pilot, app, 3)
        assert app.screen.selected_card == "7H"
        await click_card(pilot, app, 3)
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")


async def test_the_suit_dialog_leaves_the_hand_in_sight(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.model and app.model.view, what="the deal")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        await pilot.press("1", "enter")  # 8♠: any suit
        await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog), what="8 dialog")
        await pilot.pause(0.1)
        text = screen_text(app)
        for suit in ("spades", "hearts", "diamonds", "clubs"):
            assert suit in text, text
        raised, lower = hand_cards(app)
        assert raised == ["8♠", "9♠", "7♥"], text
        assert lower == ["10♠", "3♣", "J♣", "4♦", "Q♦"], text
        await pilot.press("h")
        await wait_for(pilot, lambda: app.model.view["top"] == "8S", what="the 8")
        assert app.model.view["suit"] == "H"
