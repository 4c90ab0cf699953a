"""Pilot tests against a real server: every game key that cannot act says why in one
line; Home and End choose in the hand; ``h`` shows the running score sheet; the log
and the sheet come back after a resume (the ``state``'s ``events`` and
``score_sheet``, protocol §7.1)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from craits.client.core import reconnecting as client_link
from craits.client.core.model import TableModel
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.tui.dialogs import summary
from craits.client.tui.dialogs.rules import RulesScreen, rules_text
from craits.client.tui.dialogs.scores import ScoreSheetScreen
from craits.client.tui.dialogs.summary import SummaryScreen
from craits.protocol.client import Connection
from craits.server.table.outcome import Step
from rich.text import Text

from tests.server.table.test_hand_log import hand_so_far
from tests.support.client import (
    ANA,
    BEN,
    ben_at_table,
    log_text,
    on_table,
    screen_text,
    script,
    shown_in,
    wait_for,
    wait_text,
)
from tests.support.server import Player, play_until, settle, strip_seat


def said(app: Any) -> list[str]:
    """The notifications shown, oldest first."""
    return [n.message for n in app._notifications]


async def refused(pilot: Any, app: Any, key: str, text: str) -> None:
    """Press ``key``; the line ``text`` is said."""
    before = len(said(app))
    await pilot.press(key)
    await wait_for(pilot, lambda: len(said(app)) > before, what=f"a line for {key!r}")
    assert said(app)[-1] == text


async def test_each_key_that_cannot_act_says_why(server: Any, connect: Any, make_app: Any) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        await pilot.pause(0.05)
        # Ana holds 8♠ 9♠ 10♠ 7♥ 3♣ J♣ 4♦ Q♦ on K♥: 8♠ 9♠ 7♥ may be played
        await pilot.press("end")
        assert app.screen.selected_card == "QD"
        await pilot.press("home")
        assert app.screen.selected_card == "8S"
        await refused(pilot, app, "9", "No card 9: you hold 8 (keys 1-8, or Home/End).")
        await pilot.press("3")
        assert app.screen.selected_card == "TS"
        await refused(pilot, app, "enter", "10♠ matches neither ♥ nor K: you can play 8♠, 9♠, 7♥.")
        await refused(pilot, app, "d", "You cannot draw while you can play: 8♠, 9♠, 7♥.")
        await refused(
            pilot,
            app,
            "i",
            'Nobody to call idiot on: nobody holds one card without saying "one card".',
        )
        await refused(
            pilot,
            app,
            "p",
            "This table's rules do not let you keep a drawn card (play drawn card is off).",
        )
        await refused(
            pilot, app, "o", 'You hold 8 cards: "one card" is said when a play leaves you one (o).'
        )
        assert app.model.view["top"] == "KH"  # nothing was sent
        # 7♥ hits Ben: now it is his turn
        await pilot.press("4", "enter")
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        await pilot.pause(0.05)
        await refused(pilot, app, "d", "Waiting for Ben to play.")
        await pilot.press("home")
        await refused(pilot, app, "enter", "8♠ cannot be played now. Waiting for Ben to play.")
        await ben.close()


async def test_enter_during_the_count_and_a_card_that_cannot_follow(
    server: Any, connect: Any, make_app: Any
) -> None:
    # a turned-up 2 starts the count against Ana, who holds no ace and no two
    ana = ["8S", "7H", "3C", "4D", "JC", "QD", "9S", "TS"]
    await ben_at_table(server, connect, BEN, ana, "2H")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        await wait_for(pilot, lambda: app.model.view["count"] == 2, what="the count")
        await pilot.pause(0.05)
        await pilot.press("home")
        await refused(
            pilot,
            app,
            "enter",
            "8♠ does not follow the count of 2: only an ace or a two, or d draws.",
        )


def _seat_ana(app_store: TokenStore, server: Any, token: str, table: str) -> None:
    app_store.put(f"127.0.0.1:{server.port} ana", token, table, "Ana", 0)


async def _play_a_move(pilot: Any, app: Any, ben: Player, table: Any, rng: random.Random) -> None:
    """The seat to act plays one legal move: Ana through her client, Ben over the
    wire. Both have the server's latest update first: else Ana's client may not
    know yet that it is her turn, and Ben would wait for a move nobody makes.
    Between hands the next deal comes by itself."""
    seq = table.seq
    await wait_for(pilot, lambda: app.model.seq >= seq, what="Ana's client up to date")
    await settle([ben], seq)
    view = ben.view
    assert view is not None
    if view["phase"] != "play":
        await settle([ben], seq + 1)
        return
    if view["to_act"] == ben.seat:
        turn = [a for a in view["legal"] if "idiot" not in a]
        action_id = await ben.act(strip_seat(rng.choice(turn)))
        await ben.expect("ok", where=lambda m: m.get("id") == action_id)
    else:
        assert app.model.my_turn
        mine = [a for a in app.model.legal if type(a).__name__ != "CallIdiot"]
        app.session.requests.act(rng.choice(mine))
    await settle([ben], seq + 1)


async def test_after_a_restart_the_log_and_the_score_sheet_come_back(
    server: Any, connect: Any, make_app: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """The game is scripted: Ben cuts the 2 and deals hand 1 (R2), the shuffles
    after the cut come from a seeded generator, the moves from another, one at
    a time once both players have the last update."""
    monkeypatch.setattr(summary, "GRACE", 0.0)
    ana, ben = await connect("Ana"), await connect("Ben")
    await ana.send({"type": "create_table", "name": "s", "seats": 2, "rules": {"short_game": True}})
    await ana.expect("table_created")
    table = server.tables["s"]
    script(table, ["AC", "2C"])
    for p in (ana, ben):
        await p.send({"type": "join", "table": "s", "name": p.name})
        await p.expect("joined")
    await settle([ana, ben], 1)
    rng = random.Random(4)

    def hand_three_moved() -> bool:
        v = ana.view
        return v is not None and v["hand_number"] == 3 and len(hand_so_far(ana)) > 6

    await play_until([ana, ben], hand_three_moved, rng)
    ended = [
        e
        for m in ana.received
        if m["type"] == "update"
        for e in m["events"]
        if e["event"] == "hand_ended"
    ]
    assert [e["hand_number"] for e in ended] == [1, 2]
    played = [
        e
        for m in ana.received
        if m["type"] == "update"
        for e in m["events"]
        if e["event"] == "played" and e["seat"] == ana.seat
    ]
    # Ana's client "restarts": a new app takes her seat back with the saved token
    await ana.close()
    store = TokenStore(tmp_path / "resume-ana2.json")
    assert ana.token is not None and ana.seat is not None
    store.put(f"127.0.0.1:{server.port} ana", ana.token, "s", "Ana", ana.seat)
    app = make_app("Ana", store=store)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        await pilot.pause(0.05)
        log = log_text(app)
        assert "You are back in your seat at table s." in log
        assert "Hand 3:" in log  # the hand's deal, and what followed it
        assert "Hand 2:" not in log  # earlier hands are on the sheet, not replayed
        assert len(app.model.log.lines) > 2
        # the log on screen shows it too
        await wait_text(pilot, app, "Hand 3:")
        # h: the running score sheet, hands 1 and 2 with their totals
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, ScoreSheetScreen), what="sheet")
        await pilot.pause(0.05)
        text = screen_text(app)
        assert "Score sheet — 2 of 8 hands played" in text
        for e in ended:
            for total in e["scores"]:
                assert str(total) in text
        assert [r["scores"] for r in app.model.sheet] == [e["scores"] for e in ended]
        assert app.screen.check_action("last_hand", ()) is False  # no hand seen ending yet
        await pilot.press("escape")
        await wait_for(pilot, lambda: on_table(app), what="the table again")
        # the game goes on: the next hand's end joins the sheet
        for _ in range(400):
            if ben.view is not None and ben.view["hand_number"] == 4:
                break
            await _play_a_move(pilot, app, ben, table, rng)
        else:
            raise AssertionError("hand 3 did not end within 400 moves")
        # hand 3's summary opened over the table (summary_due goes once it is
        # shown); it closes by itself if Ana's turn came after it opened (here
        # she deals hand 4 and plays on after a turned-up 6, R3), else Escape
        # closes it (Escape at the table closes only the chat line)
        await wait_for(
            pilot,
            lambda: app.model.seq == table.seq and not app.model.summary_due,
            what="hand 4 and hand 3's summary",
        )
        assert [r["hand_number"] for r in app.model.sheet] == [1, 2, 3]
        if isinstance(app.screen, SummaryScreen):
            await pilot.press("escape")
        await wait_for(pilot, lambda: on_table(app), what="the table")
        await pilot.press("h")
        await wait_text(pilot, app, "Score sheet — 3 of 8 hands played")
        # l: the last hand's summary, from the sheet
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
    del played


def test_a_state_rewrites_only_the_hand_so_far() -> None:
    """After a reconnection the lines of earlier hands stay; the hand's are
    replaced by the server's (nothing missed, nothing twice)."""
    model = TableModel("t", seat=0)
    model.log_intro()
    model.log.mark_hand_start()
    model.log.add(Text("Hand 1: Ben deals 8 cards each"))
    model.log.add(Text("Hand 1 is over"))
    model.log.mark_hand_start()
    model.log.add(Text("Hand 2: You deal 7 cards each"))
    model.log.add(Text("Ben played 7♥"))
    model.restore_log(
        [Text("Hand 2: You deal 7 cards each"), Text("Ben played 7♥"), Text("You drew a card")]
    )
    assert [line.plain for line in model.log.lines] == [
        "You sit at table t.",
        "Hand 1: Ben deals 8 cards each",
        "Hand 1 is over",
        "Back at the table. The hand so far:",
        "Hand 2: You deal 7 cards each",
        "Ben played 7♥",
        "You drew a card",
    ]
    assert model.log.rewrites == 1
    assert model.log.added == len(model.log.lines)


def test_the_rules_page_explains_every_mark_and_is_ascii_with_ascii() -> None:
    text = rules_text()
    marks = (
        "`dealer` · `D`",
        "(+15)",
        "`away`",
        "`loses a turn` · `skip`",
        "`offline` · `off`",
        "`bot`",
        "▶",
        "→ ↓ ← ↑",
        "Clockwise (↻)",
        "`ONE CARD`",
        "`1 card, unsaid!`",
        "`COUNT 4`",
        "`new!`",
        "`suit ♦ named`",
        "Home · End",
        "`12 (+5) → 42`",
    )
    for mark in marks:
        assert mark in text, mark
    plain = rules_text(ascii=True)
    assert plain.isascii()
    assert "| > v < ^ on the table's edges |" in plain
    assert "> along the top, v down the right" in plain
    assert "`12 (+5) -> 42`" in plain
    assert "| Left Right or 1-9, 0 |" in plain


async def test_the_rules_page_opens_from_the_table(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        await pilot.press("question_mark")
        await wait_for(
            pilot,
            lambda: isinstance(app.screen, RulesScreen) and app.screen.query("#rules"),
            what="the rules",
        )
        rules = app.screen.query_one("#rules")
        heading = "What the marks on the screen mean"
        seen = [""]

        def paged_to_the_marks() -> bool:
            """Page down, a page at a time, until the heading is on the screen:
            once the text (parsed in a thread, mounted after the screen opens)
            is laid out, and each page only once the last one is drawn. No
            fixed count of pages 0.05 s apart: that assumed both of these
            done in time."""
            text = screen_text(app)
            if heading in text:
                return True
            if text != seen[0] and rules.max_scroll_y > 0:
                seen[0] = text
                rules.scroll_page_down(animate=False)
            return False

        await wait_for(pilot, paged_to_the_marks, what=repr(heading))


async def test_after_a_drop_the_log_holds_what_happened_meanwhile_once(
    server: Any, connect: Any, make_app: Any, monkeypatch: Any
) -> None:
    ben = await ben_at_table(server, connect, BEN, ANA, "KH")
    reconnect = asyncio.Event()

    class HeldConnection(Connection):
        @classmethod
        async def open(cls, *args: Any, **kwargs: Any) -> Any:
            await reconnect.wait()
            return await super().open(*args, **kwargs)

    app = make_app("Ana", table="t1")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        await pilot.press("4", "enter")  # 7♥: Ben draws a card, and it is his turn
        await wait_for(pilot, lambda: app.model.view["top"] == "7H", what="the play")
        played = "You played 7♥ — Ben drew a card (a 7)"
        await wait_for(pilot, lambda: played in log_text(app), what="the log line")
        monkeypatch.setattr(client_link, "Connection", HeldConnection)
        (conn,) = [c for c in server.clients if c.name == "Ana"]
        conn.abort()
        await wait_for(pilot, lambda: app.link == "reconnecting", what="the drop")
        # Ben plays while Ana is away
        update = await ben.expect("update", where=lambda m: m["view"]["to_act"] == 0)
        move = next(a for a in update["view"]["legal"] if "idiot" not in a)
        ben.seq = update["seq"]
        await ben.act(strip_seat(move))
        await ben.expect("ok")
        reconnect.set()
        await wait_for(pilot, lambda: app.link == "online", what="the reconnection")
        await wait_for(pilot, lambda: app.model.view["to_act"] == 1, what="Ana's turn again")
        await pilot.pause(0.1)
        log = log_text(app)
        assert log.count(played) == 1, log
        assert "Back at the table. The hand so far:" in log
        missed = "Ben played" if "play" in move else "Ben drew"
        assert missed in log.split("The hand so far:")[1], log
        # the log on screen was drawn anew: the same lines, once each
        shown = "".join("".join(shown_in(app, app.screen.query_one("#log"))).split())
        assert shown.count("".join(played.split())) == 1, shown
        assert "".join(missed.split()) in shown


async def test_the_game_over_summary_ends_with_the_score_sheet(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "KH", short_game=True)
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: on_table(app) and app.model.view, what="the table")
        # the last hand, Ana down to one card (test shortcut inside the server)
        table = server.tables["t1"]
        table.game.hand_number = 8
        table.game.hands[1] = ["7H"]
        table.publish(Step([]))
        await wait_for(pilot, lambda: app.model.hand == ["7H"], what="one card")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), what="summary")
        await wait_text(pilot, app, "Game over after hand 8")
        sheet = app.screen.query_one("#summary-sheet")
        assert sheet.display
        app.screen.query_one("#summary").scroll_end(animate=False)
        text = await wait_text(pilot, app, "Score sheet — 1 of 8 hands played")
        assert "0 → 0" in text  # Ana went out: 0 points, total 0
