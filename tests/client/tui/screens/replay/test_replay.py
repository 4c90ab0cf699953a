"""``craits-client --replay FILE``: a real recorded game, exported with
``craits-server export --frames``, stepped through move by move on the live
table's widgets; and a record without frames, hand by hand."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from craits.client.core.model import sort_key
from craits.client.core.record_file import load_record
from craits.client.core.replayfetch import fetch_record
from craits.client.core.saved.prefs import PrefsStore
from craits.client.tui.replay_app import ReplayApp
from craits.client.tui.screens.replay_screens import HandByHand, TableReplay
from craits.client.tui.widgets.felt_view import FeltView
from craits.client.tui.widgets.hand_view import HandView
from craits.client.tui.widgets.wrapped_log import WrappedLog
from craits.protocol.client import ConnectError
from craits.server.app import Server
from craits.server.engine import Rules
from craits.server.journal.records import build_record
from craits.server.journal.replay_frames import with_frames
from textual.containers import VerticalScroll
from textual.widgets import Static

from tests.support.client import screen_text, shown_in
from tests.support.processes import free_port
from tests.support.replays import WatchedGame, quick_config, random_game_log


def label(card: str) -> str:
    """A card as ``--ascii`` writes it (``TH`` is ``10H``)."""
    return card.replace("T", "10")


def shown(app: ReplayApp) -> str:
    """The screen, and the "Every hand" panel's text whole (it may scroll)."""
    hands = app.screen.query_one("#hands", Static)
    return screen_text(app) + "\n" + str(hands.render())


def felt_text(app: ReplayApp) -> str:
    felt = app.screen.query_one(FeltView)
    return felt.text()


def log_lines(app: ReplayApp) -> list[str]:
    log = app.screen.query_one("#log", WrappedLog)
    return [text.plain for _, text in log.entries]


async def test_steps_move_by_move_on_the_table_forward_and_back(watched: WatchedGame) -> None:
    record = watched.record
    frames = record["hands"][0]["frames"]
    app = ReplayApp(record, ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableReplay)
        moves = len(frames) - 1
        assert "hand 1/8 . the deal" in screen_text(app)
        assert app.screen.check_action("back", ()) is None  # greyed at the very start
        for i in range(1, 4):
            await pilot.press("right")
            await pilot.pause()
            assert f"hand 1/8 . move {i}/{moves}" in screen_text(app)
            view = frames[i]["view"]
            felt = app.screen.query_one(FeltView)
            assert felt.middle.top == view["top"] and felt.middle.stock == view["stock_size"]
            assert [s.cards for s in sorted(felt.seats, key=lambda s: s.seat)] == view["hand_sizes"]
            assert label(view["top"]) in felt_text(app)
            assert len(log_lines(app)) >= i + 1  # the deal's lines and one per move at least
        await pilot.press("n")
        await pilot.press("left", "left", "p")
        await pilot.pause()
        assert "hand 1/8 . move 1/" in screen_text(app)
        assert app.screen.query_one(FeltView).middle.top == frames[1]["view"]["top"]
        await pilot.press("left")
        await pilot.pause()
        assert "the deal" in screen_text(app)


async def test_jumps_hand_by_hand_and_shows_each_hands_end(watched: WatchedGame) -> None:
    record = watched.record
    app = ReplayApp(record, ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for n in range(2, 5):
            await pilot.press("pagedown")
            await pilot.pause()
            assert f"hand {n}/8 . the deal" in screen_text(app)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert "hand 5/8 . the deal" in screen_text(app)
        await pilot.press("pageup", "left_square_bracket")
        await pilot.pause()
        assert "hand 3/8 . the deal" in screen_text(app)
        await pilot.press("right", "right", "pageup")  # inside a hand: back to its deal
        await pilot.pause()
        assert "hand 3/8 . the deal" in screen_text(app)
        await pilot.press("end")
        await pilot.pause()
        hand = record["hands"][2]
        assert f"move {len(hand['frames']) - 1}/" in screen_text(app)
        # the hand's result as the live summary shows it: points, not shuffle counts
        result = app.screen.query_one("#result", Static)
        text = screen_text(app)
        assert "Hand 3 of 8 - scores" in text and "Shuffle" in text and "Total" in text
        for r in hand["result"]["results"]:
            assert str(r["points"]) in text
        assert result.display and not app.screen.query_one(HandView).display
        await pilot.press("right")  # past a hand's end: the next hand's deal
        await pilot.pause()
        assert "hand 4/8 . the deal" in screen_text(app)
        await pilot.press("left")  # and back to the end of the one before
        await pilot.pause()
        assert "Hand 3 of 8 - scores" in screen_text(app)
        await pilot.press("home")
        await pilot.pause()
        assert "hand 3/8 . the deal" in screen_text(app)
        for _ in range(5):
            await pilot.press("pagedown")
        await pilot.press("end")
        await pilot.pause()
        assert app.screen.check_action("forward", ()) is None  # greyed at the very end
        assert "Game over after hand 8" in screen_text(app)
        assert "wins the game" in screen_text(app) or "Shared win" in screen_text(app)


async def test_every_hand_is_shown_face_up_and_draws_say_their_cards(
    watched: WatchedGame,
) -> None:
    record = watched.record
    frames = record["hands"][0]["frames"]
    app = ReplayApp(record, ascii=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for i, frame in enumerate(frames[:6]):
            if i:
                await pilot.press("right")
                await pilot.pause()
            text = shown(app)
            for cards in frame["hands"]:
                for card in cards:
                    assert label(card) in text, (i, card)
            seat = frame["view"]["to_act"]
            if frame["view"]["phase"] == "play":
                hand = app.screen.query_one(HandView)
                assert sorted(hand.cards) == sorted(frame["hands"][seat])
                assert hand.playable == set(frame["playable"])
                assert f"{record['players'][seat]}'s hand, to act" in screen_text(app)
        # a draw of several cards says how many, and which
        many = [
            (n, i, e)
            for n, hand in enumerate(record["hands"])
            for i, f in enumerate(hand["frames"])
            for e in f["events"]
            if e["event"] == "drew" and e["n"] > 1
        ]
        assert many, "the game had no draw of several cards"
        n, i, e = many[0]
        app.screen.replay.show(type(app.screen.replay.step)(n, i))
        app.screen.sync()
        await pilot.pause()
        drawn = " ".join(label(c) for c in e["cards"])
        assert any(f"drew {e['n']} cards" in line and drawn in line for line in log_lines(app))


async def test_a_record_without_frames_is_shown_hand_by_hand_with_how_to_get_frames(
    watched: WatchedGame,
) -> None:
    record: dict[str, Any] = json.loads(watched.record_file.read_text())
    for hand in record["hands"]:
        del hand["frames"]
    app = ReplayApp(record, ascii=True)  # type: ignore[arg-type]
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandByHand)
        screen = screen_text(app)
        assert "export --frames" in screen
        assert "Hand 1 of 8" in screen
        for cards in record["hands"][0]["dealt"]:
            for card in cards:
                assert label(card) in screen, card
        assert app.screen.check_action("previous", ()) is None  # greyed out on the first hand
        for n in range(2, 9):
            await pilot.press("right")
            await pilot.pause()
            assert f"Hand {n} of 8" in screen_text(app)
        assert app.screen.check_action("next", ()) is None
        app.screen.query_one(VerticalScroll).scroll_end(animate=False)
        await pilot.pause()
        text = screen_text(app)
        # scored as the live summary scores: hand points, shuffle penalties, totals
        assert "Shuffle" in text and "Total" in text and "penalties" not in text
        assert "wins the game" in text or "Shared win" in text
        await pilot.press("left")
        await pilot.pause()
        assert "Hand 7 of 8" in screen_text(app)


def test_replay_of_a_file_that_is_not_a_record_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text(json.dumps({"hello": 1}))
    run = subprocess.run(
        [sys.executable, "-m", "craits.client.cli", "--replay", str(bad)],
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert run.stderr.strip().count("\n") == 0
    assert "not a Craits game record" in run.stderr
    with pytest.raises(Exception, match="cannot read"):
        load_record(tmp_path / "missing.json")


async def test_damaged_frames_fall_back_to_hand_by_hand(watched: WatchedGame) -> None:
    record: dict[str, Any] = json.loads(watched.record_file.read_text())
    record["hands"][0]["frames"] = [{"view": {}}]  # not a frame
    app = ReplayApp(record, ascii=True)  # type: ignore[arg-type]
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandByHand)
        assert "Hand 1 of 8" in screen_text(app)


async def test_the_table_replay_of_an_abandoned_game_says_so_at_its_end(
    watched: WatchedGame,
) -> None:
    record: dict[str, Any] = json.loads(watched.record_file.read_text())
    record.update(complete=False, abandoned="nobody_connected", hands=record["hands"][:2])
    app = ReplayApp(record, ascii=True)  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert "unfinished" not in screen_text(app)
        await pilot.press("pagedown", "end")
        await pilot.pause()
        assert "The game ended here, unfinished: abandoned, nobody was connected" in (
            screen_text(app)
        )


async def test_at_80x24_with_ascii_every_step_is_ascii_and_a_result_takes_the_width(
    watched: WatchedGame,
) -> None:
    app = ReplayApp(watched.record, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for keys in ([], ["right"] * 3, ["end"], ["pagedown"] * 7 + ["end"]):
            await pilot.press(*keys)
            await pilot.pause()
            text = screen_text(app)
            assert [line for line in text.splitlines() if not line.isascii()] == [], text
        # the last hand's end: the result across the whole width, the log gives way
        assert not app.screen.query_one("#right").display
        assert "Game over after hand 8" in text and "Total" in text
        await pilot.press("home")
        await pilot.pause()
        assert app.screen.query_one("#right").display


async def test_a_game_fetched_from_its_server_is_the_exported_one_with_its_frames(
    watched: WatchedGame,
) -> None:
    srv = Server(quick_config(watched.data))
    await srv.start()
    try:
        record = await fetch_record("127.0.0.1", srv.port, "Rae", 1)
        assert record == watched.record
        with pytest.raises(ConnectError, match="refused: there is no finished game 9"):
            await fetch_record("127.0.0.1", srv.port, "Rae", 9)
        app = ReplayApp(record, ascii=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("right")
            await pilot.pause()
            assert isinstance(app.screen, TableReplay)
            assert "hand 1/8 . move 1/" in screen_text(app)
    finally:
        await srv.stop()


async def test_a_fetch_waits_while_the_server_is_busy_rebuilding_games(
    watched: WatchedGame,
) -> None:
    """A server whose time for rebuilding games is spent answers
    ``records_busy`` with the seconds to wait (protocol §7.3): the client waits
    them and asks again, and gets the same record."""
    busy = dataclasses.replace(quick_config(watched.data), records_share=0.1, records_burst=0.000_1)
    srv = Server(busy)
    await srv.start()
    try:
        waits: list[float] = []
        record = await fetch_record("127.0.0.1", srv.port, "Rae", 1, 60, on_busy=waits.append)
        assert record == watched.record
        assert waits and all(0 < wait <= 60 for wait in waits), waits
    finally:
        await srv.stop()


def test_replay_game_from_a_server_that_is_not_there_is_one_line() -> None:
    port = free_port()
    run = subprocess.run(
        [sys.executable, "-m", "craits.client.cli", f"127.0.0.1:{port}", "--replay-game", "1"],
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert run.stderr.strip().count("\n") == 0 and "craits-client:" in run.stderr, run.stderr


async def test_the_viewer_takes_the_clients_kept_theme(
    watched: WatchedGame, tmp_path: Path
) -> None:
    PrefsStore(tmp_path).save(theme="textual-light")
    app = ReplayApp(watched.record, ascii=True, prefs=tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-light"
    assert ReplayApp(watched.record).appearance is None  # (tests and the like: nothing kept)


async def test_eight_seats_at_80x24_show_every_hand() -> None:
    """A record of eight seats (built from an engine-played game's log, with
    its frames): every seat's name and cards in the panel at 80x24."""
    row = {
        "id": 3,
        "table": "eight",
        "players": [f"P{i}" for i in range(8)],
        "rules": Rules(short_game=True).to_dict(),
        "entries": random_game_log(8, 11),
        "started": 0,
        "finished": 1,
        "result": None,
    }
    record = with_frames(build_record(row))
    app = ReplayApp(record, ascii=True)  # type: ignore[arg-type]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("right", "right")
        await pilot.pause()
        panel = app.screen.query_one("#hands", Static)
        rows = shown_in(app, panel)
        assert len(rows) < 14 and panel.region.bottom < 20, rows  # the log keeps some room
        text = "".join("".join(rows).split())
        frame = record["hands"][0]["frames"][2]
        for seat, cards in enumerate(frame["hands"]):
            assert f"P{seat}{len(cards)}:" in text, (seat, rows)
            assert "".join(label(c) for c in sorted(cards, key=sort_key)) in text, (seat, rows)
