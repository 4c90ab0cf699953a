"""What an update costs, counted rather than timed (issue 13, "Cost"): the rows
Textual asks a widget to paint again. A new line of the game log paints the
log once (a deferred scroll painted it twice), and only the new row while the
log is not full; the drawn table paints only the rows that changed, none when
nothing did, and so does the prompt; the widgets beside the rows that changed
hand the screen the rows they handed it before, not rendered anew; the
containers holding them are never painted (hidden, with their children
shown); the table under a dialog is drawn as the game goes on (issue 23), only
the rows that changed.

Each count is of ``render_line`` calls: Textual calls it for a row of the
widget only when that row is to be painted again."""

from __future__ import annotations

import random
from typing import Any

from craits.client.present.card_style import CardStyle
from craits.client.present.tableview import MiddleView, SeatView, Side
from craits.client.tui.dialogs.rules import RulesScreen
from craits.client.tui.screens.table_screen import TableScreen
from craits.client.tui.widgets.felt_view import FeltView
from craits.client.tui.widgets.fixed_text import FixedText
from craits.client.tui.widgets.hand_view import HandView
from craits.client.tui.widgets.wrapped_log import WrappedLog
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.geometry import Region
from textual.strip import Strip

from tests.support.client import ANA, BEN, deal_order, script, wait_for
from tests.support.server import play_until, settle


class CountedLog(WrappedLog):
    """The game log, counting the rows it is asked to paint."""

    painted = 0

    def render_line(self, y: int) -> Strip:
        self.painted += 1
        return super().render_line(y)


class CountedFelt(FeltView):
    """The drawn table, counting the rows it is asked to paint."""

    painted = 0

    def render_line(self, y: int) -> Strip:
        self.painted += 1
        return super().render_line(y)


class Bench(App[None]):
    """A log ten rows high and a table beside it."""

    CSS = """
    Screen { layout: horizontal; }
    CountedLog { width: 40; height: 10; scrollbar-size-vertical: 0; }
    CountedFelt { width: 75; height: 28; }
    """

    def compose(self) -> ComposeResult:
        yield CountedLog(indent=2)
        yield CountedFelt(CardStyle())


def spy(widget: Any, counts: dict[str, int], name: str) -> None:
    """Count in ``counts[name]`` the rows ``widget`` is asked to paint."""
    render_line = widget.render_line

    def counted(y: int) -> Strip:
        counts[name] += 1
        return render_line(y)

    widget.render_line = counted


def spy_lines(widget: Any, counts: dict[str, int], name: str) -> None:
    """Count in ``counts[name]`` the rows the screen asks ``widget`` for (a
    container has no ``render_line`` of its own: its background is drawn)."""
    render_lines = widget.render_lines

    def counted(crop: Region) -> list[Strip]:
        counts[name] += crop.height
        return render_lines(crop)

    widget.render_lines = counted


def seats(cards: list[int]) -> list[SeatView]:
    """Four seats around the table, seat 1 to act, holding ``cards``."""
    sides = [Side.BOTTOM, Side.LEFT, Side.TOP, Side.RIGHT]
    return [
        SeatView(s, side, f"P{s}", to_act=s == 1, cards=n, score=3 * s)
        for s, (side, n) in enumerate(zip(sides, cards, strict=True))
    ]


async def test_a_new_log_line_paints_the_log_once() -> None:
    app = Bench()
    async with app.run_test(size=(120, 30)) as pilot:
        log = app.query_one(CountedLog)
        for i in range(5):
            log.add(Text(f"line {i}"))
        await pilot.pause()
        # not full yet: only the new row is painted
        log.painted = 0
        log.add(Text("line 5"))
        await pilot.pause()
        assert log.painted == 1
        # full: every row shows another line now, and is painted once (not twice)
        for i in range(6, 20):
            log.add(Text(f"line {i}"))
        await pilot.pause()
        log.painted = 0
        log.add(Text("line 20"))
        await pilot.pause()
        await pilot.pause()
        assert log.painted == log.size.height == 10
        assert log.scroll_offset.y == log.max_scroll_y  # the newest line in sight
        assert log.render_line(log.size.height - 1).text.strip() == "line 20"


async def test_the_log_hands_the_screen_its_rows_as_kept() -> None:
    """A scroll moves every row of the log: each line is handed to the screen as
    it was made and filtered before, not made and filtered anew (as Textual's
    own rendering of a row does)."""
    app = Bench()
    async with app.run_test(size=(120, 30)) as pilot:
        log = app.query_one(CountedLog)
        for i in range(15):
            log.add(Text(f"line {i}"))
        await pilot.pause()
        whole = Region(0, 0, *log.outer_size)
        before = {row.text.strip(): row for row in log.render_lines(whole)}
        log.add(Text("line 15"))  # full: it scrolls, every row shows another line
        await pilot.pause()
        after = {row.text.strip(): row for row in log.render_lines(whole)}
        assert "line 15" in after and "line 5" not in after
        assert all(after[text] is before[text] for text in after if text != "line 15")


async def test_a_full_log_jumps_several_lines_at_once_when_they_come_fast() -> None:
    """Lines that come faster than the jump time scroll in together. The jump time is
    5 s here, far longer than the test's own steps take on a busy machine; "long
    after the last scroll" is made so (``_scrolled_at`` moved back), not waited for."""
    app = Bench()
    async with app.run_test(size=(120, 30)) as pilot:
        log = app.query_one(CountedLog)
        log.jump_after = 5.0

        def last() -> str:  # (the newest row in sight, not counted as painted)
            return WrappedLog.render_line(log, log.size.height - 1).text.strip()

        for i in range(20):
            log.add(Text(f"line {i}"))
        # the last of them scroll in up to a jump time later
        await wait_for(pilot, lambda: last() == "line 19", timeout=20.0, what="line 19")
        await pilot.pause()  # (its paint)
        log.painted = 0
        # a line long after the last scroll: shown at once
        log._scrolled_at -= log.jump_after
        log.add(Text("line 20"))
        await pilot.pause()
        assert log.painted == 10 and last() == "line 20"
        # three more within the jump time: not painted yet, then in one scroll
        log.painted = 0
        for i in range(21, 24):
            log.add(Text(f"line {i}"))
            await pilot.pause(0.02)
        assert log.painted == 0 and last() == "line 20"
        await wait_for(pilot, lambda: last() == "line 23", timeout=20.0, what="line 23")
        await pilot.pause()  # (its paint)
        assert log.painted == 10
        # one waits; a line after the jump time, before that waiting scroll is
        # due: both scroll at once, with it
        log.painted = 0
        log.add(Text("line 23b"))
        await pilot.pause()
        assert log.painted == 0
        log._scrolled_at -= log.jump_after  # (as if the jump time had passed)
        log.add(Text("line 23c"))
        await pilot.pause()
        assert log.painted == 10 and last() == "line 23c"
        assert WrappedLog.render_line(log, log.size.height - 2).text.strip() == "line 23b"
        # the log full to its 300 lines, and in sight at its end: a line drops
        # the oldest off the top and scrolls once, nothing more is painted
        for i in range(24, 320):
            log.add(Text(f"line {i}"))
        await wait_for(pilot, lambda: last() == "line 319", timeout=20.0, what="line 319")
        await pilot.pause()  # (its paint)
        log.painted = 0
        log._scrolled_at -= log.jump_after
        log.add(Text("line 320"))
        await pilot.pause()
        assert log.painted == 10 and last() == "line 320"
        assert WrappedLog.render_line(log, 0).text.strip() == "line 311"
        assert len(log.entries) == 300 and log.entries[0][1].plain == "line 23"


async def test_the_table_paints_only_the_rows_that_changed() -> None:
    app = Bench()
    async with app.run_test(size=(120, 30)) as pilot:
        felt = app.query_one(CountedFelt)
        middle = MiddleView(top="7H", stock=20, discard=3)
        felt.show(seats([5, 6, 7, 8]), middle)
        await pilot.pause()
        # the same table again: nothing is painted
        felt.painted = 0
        felt.show(seats([5, 6, 7, 8]), MiddleView(top="7H", stock=20, discard=3))
        await pilot.pause()
        assert felt.painted == 0
        # one seat draws a card: the row of its count, and nothing else
        felt.show(seats([5, 7, 7, 8]), middle)
        await pilot.pause()
        assert felt.painted == 1
        assert "7 cards" in felt.render_line(felt.plan.seats[1].y + 1).text if felt.plan else False


class PromptBench(App[None]):
    """A prompt three rows high, with the table's padding."""

    CSS = "FixedText { height: 3; padding: 0 1; width: 40; }"

    def compose(self) -> ComposeResult:
        yield FixedText()


async def test_a_new_prompt_paints_only_its_rows_that_changed() -> None:
    app = PromptBench()
    async with app.run_test(size=(60, 10)) as pilot:
        prompt = app.query_one(FixedText)
        counts = {"prompt": 0}
        spy(prompt, counts, "prompt")
        prompt.update(Text("Ben to play.\nThe count is 2."))
        await pilot.pause()
        assert counts["prompt"] == 2  # (the third row stays blank)
        # the first line stays, the second changes: one row
        counts["prompt"] = 0
        prompt.update(Text("Ben to play.\nThe count is 4."))
        await pilot.pause()
        assert counts["prompt"] == 1
        assert prompt.render_line(1).text.startswith("The count is 4.")
        # one line fewer: the row it leaves is blanked
        counts["prompt"] = 0
        prompt.update(Text("Ana to play."))
        await pilot.pause()
        assert counts["prompt"] == 2
        assert prompt.render_line(1).text.strip() == ""
        # the same text again: nothing
        counts["prompt"] = 0
        prompt.update(Text("Ana to play."))
        await pilot.pause()
        assert counts["prompt"] == 0


class PanelBench(App[None]):
    """A prompt under the drawn table, in one container (as on the table screen)."""

    CSS = """
    CountedFelt { height: 20; }
    FixedText { height: 3; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield CountedFelt(CardStyle())
            yield FixedText()


async def test_a_row_of_the_table_renders_nothing_anew_beside_it() -> None:
    """Textual renders, in each frame, every widget whose container overlaps the
    rows that changed: the prompt is asked for its rows when a seat's count
    changes on the felt, and hands back those it handed out last (the same
    list), without its own rendering (counted at Textual's styles cache)."""
    app = PanelBench()
    async with app.run_test(size=(80, 24)) as pilot:
        felt = app.query_one(CountedFelt)
        prompt = app.query_one(FixedText)
        prompt.update(Text("Ben to play."))
        middle = MiddleView(top="7H", stock=20, discard=3)
        felt.show(seats([5, 6, 7, 8]), middle)
        await pilot.pause()
        rendered = {"prompt": 0}
        render_widget = prompt._styles_cache.render_widget

        def counted(widget: Any, crop: Region) -> list[Strip]:
            rendered["prompt"] += 1
            return render_widget(widget, crop)

        prompt._styles_cache.render_widget = counted  # type: ignore[method-assign]
        whole = Region(0, 0, *prompt.outer_size)  # (as the screen asks for it)
        first = prompt.render_lines(whole)
        assert prompt.render_lines(whole) is first
        assert rendered["prompt"] == 0
        # a seat draws a card: the felt's row is painted, the prompt rendered not
        felt.painted = 0
        felt.show(seats([5, 7, 7, 8]), middle)
        await pilot.pause()
        assert felt.painted == 1 and rendered["prompt"] == 0
        # a new prompt is rendered, and shown
        prompt.update(Text("Ana to play."))
        await pilot.pause()
        assert rendered["prompt"] > 0
        assert prompt.render_lines(whole)[0].text.strip() == "Ana to play."
        # a new theme renders it again, in the theme's colours
        rendered["prompt"] = 0
        before = prompt.render_lines(whole)[0]
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        after = prompt.render_lines(whole)[0]
        assert rendered["prompt"] > 0 and after.text == before.text and list(after) != list(before)


async def settled(pilot: Any, painted: dict[str, int]) -> None:
    """Let the app draw all it has to draw (on a busy machine the table's first
    paint can come after the screen is up), then count from zero: until a pause
    that waits for the app to be idle paints nothing more (at most 50 pauses)."""
    for _ in range(50):
        before = dict(painted)
        await pilot.pause()
        if dict(painted) == before:
            break
    for key in painted:
        painted[key] = 0


async def test_the_table_under_a_dialog_is_drawn_as_the_game_goes_on(
    server: Any, connect: Any, make_app: Any
) -> None:
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    script(server.tables["t1"], ["2C", "AC"], deal_order(BEN, ANA, "KH"))
    ana = await connect("Ana")
    await ana.send({"type": "join", "table": "t1", "name": "Ana"})
    await ana.expect("joined")
    players = [ben, ana]
    await settle(players, 1)
    app = make_app("Watcher", spectate="t1")
    app.animation_level = "none"  # no card sliding in: one paint per change
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen) and app.model.view)
        await pilot.pause(0.05)
        table = app.screen
        felt = table.query_one(FeltView)
        hand = table.query_one(HandView)
        painted = {"felt": 0, "hand": 0, "log": 0, "#main": 0, "#left": 0, "#right": 0}
        spy(felt, painted, "felt")
        spy(hand, painted, "hand")
        spy(table.query_one("#log"), painted, "log")
        for container in ("#main", "#left", "#right"):
            spy_lines(table.query_one(container), painted, container)
        await settled(pilot, painted)  # the table's first paint is not the move's
        # a move: the watcher's hand (a note) is not painted again, the table in part
        await play_until(players, lambda: False, random.Random(3), max_steps=1)
        await wait_for(pilot, lambda: app.model.seq == ben.seq, what="the move")
        # painted on the next refresh, which a busy machine may hold back: waited for
        await wait_for(pilot, lambda: painted["felt"] > 0 and painted["log"] > 0, what="a paint")
        await pilot.pause(0.05)
        assert painted["hand"] == 0
        assert painted["felt"] < felt.size.height
        # the containers around them draw nothing of their own, and are not painted
        assert painted["#main"] == painted["#left"] == painted["#right"] == 0
        shown = list(felt.seats)
        painted["felt"] = 0
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen), what="the rules")
        # a move under the rules page: the table under it is drawn as it is now
        # (issue 23: it was left as it stood until the dialog closed), the log and
        # the seats, and only the rows of the table that changed are painted
        log = table.query_one("#log", WrappedLog)
        logged = log.entries[-1][1].plain
        await play_until(players, lambda: False, random.Random(4), max_steps=1)
        await wait_for(pilot, lambda: app.model.seq == ben.seq, what="the move")

        def cards() -> list[int | None]:
            by_seat = {s.seat: s.cards for s in felt.seats}
            return [by_seat[seat] for seat in range(2)]

        await wait_for(pilot, lambda: cards() == app.model.view["hand_sizes"], what="the seats")
        assert cards() != [s.cards for s in shown]
        assert log.entries[-1][1].plain != logged and log.entries[-1][1] == app.model.log.lines[-1]
        await wait_for(pilot, lambda: painted["felt"] > 0, what="the felt painted")
        await pilot.pause(0.05)
        assert painted["felt"] < felt.size.height
        assert isinstance(app.screen, RulesScreen)
        # back on top: as it is
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is table, what="the table")
        await pilot.pause(0.05)
        assert cards() == app.model.view["hand_sizes"]
