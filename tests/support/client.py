"""Helpers shared by the client's tests (imported by them, never by a conftest of
another folder): a scripted shuffle and deal, reading what the screen shows, waiting
on a condition, and the two-seat table most Pilot tests play at."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from craits.client.core.news import Severity
from craits.client.tui.screens.table_screen import TableScreen
from craits.client.tui.widgets.key_footer import KeyFooter
from craits.server.table.fairness import RecordingShuffle
from rich.console import Console
from rich.segment import Segment
from textual.app import App
from textual.widgets import Footer


class ScriptedShuffle:
    """A shuffle source that puts the given cards on top, in order, for its first
    shuffles (the cut, then the deal), then shuffles with a seeded generator."""

    def __init__(self, *orders: Sequence[str], seed: int = 1):
        import random

        self.orders = [list(o) for o in orders]
        self.rng = random.Random(seed)

    def shuffle(self, x: list[Any], /) -> None:
        if not self.orders:
            self.rng.shuffle(x)
            return
        first = self.orders.pop(0)
        rest = list(x)
        for c in first:
            rest.remove(c)
        x[:] = first + rest


def script(table: Any, *orders: Sequence[str]) -> None:
    """Make ``table``'s next shuffles put ``orders`` on top (see :class:`ScriptedShuffle`)."""
    table.gamelog.rng = RecordingShuffle(ScriptedShuffle(*orders))


def deal_order(dealer_hand: Sequence[str], first_hand: Sequence[str], turned: str) -> list[str]:
    """The deck order (top first) dealing ``first_hand`` to the dealer's left and
    ``dealer_hand`` to the dealer (two players), then turning up ``turned``."""
    order: list[str] = []
    for a, b in zip(first_hand, dealer_hand, strict=True):
        order += [a, b]
    return [*order, turned]


def screen_text(app: App[Any]) -> str:
    """The current screen as plain text (what a player would read)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, color_system=None
    )
    screen = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(screen)
    return console.export_text(styles=False)


def shown_in(app: App[Any], widget: Any) -> list[str]:
    """The rows of the screen inside ``widget``'s content (no border, padding or
    scrollbar): what a player reads there now."""
    region = widget.scrollable_content_region
    rows = screen_text(app).splitlines()
    return [row[region.x : region.right] for row in rows[region.y : region.bottom]]


def footer_line(app: App[Any]) -> tuple[str, list[tuple[str, Any]]]:
    """The Footer's line of the screen as it reads, and each key it shows as
    drawn (``"d Draw"``) with its region (an empty line and none while it is
    not drawn yet)."""
    footer = app.screen.query_one(Footer)
    region = footer.region
    lines = screen_text(app).splitlines()
    if not region.height or region.y >= len(lines):
        return "", []
    keys = [
        (f"{key.key_display} {key.description}".strip(), key.region)  # type: ignore[attr-defined]
        for key in footer.query("FooterKey")
        if not key.has_class("-command-palette")  # (drawn after a bar, on the right)
    ]
    if not keys or not keys[0][1].width:
        return "", []
    return lines[region.y], keys


def shown_actions(app: App[Any]) -> list[str]:
    """The actions whose keys the Footer should show now (one key per action;
    a :class:`~craits.client.tui.widgets.key_footer.KeyFooter` shows those that fit its width)."""
    footers = app.screen.query(KeyFooter)
    if footers:
        return footers.first().fitted().actions
    actions: list[str] = []
    for active in app.screen.active_bindings.values():
        if active.binding.show and active.binding.action not in actions:
            actions.append(active.binding.action)
    return actions


async def footer_keys(pilot: Any, app: App[Any]) -> list[str]:
    """The keys the Footer shows (``"d Draw"``), each checked to be there whole:
    inside the screen's width, and on the Footer's line of the screen as it reads.
    The Footer draws its keys again after each change: this first waits until it
    shows the keys that apply now."""

    def ready() -> bool:
        line, _ = footer_line(app)
        shown = [
            key.action  # type: ignore[attr-defined]
            for key in app.screen.query("FooterKey")
            if not key.has_class("-command-palette")
        ]
        return bool(line.strip()) and shown == shown_actions(app)

    await wait_for(pilot, ready, what="the Footer's keys")
    line, keys = footer_line(app)
    for label, region in keys:
        assert region.right <= app.size.width, f"{label!r} ends at column {region.right}: {line!r}"
        drawn = line[region.x : region.x + len(label)]
        assert drawn == label, f"{label!r} is drawn as {drawn!r}: {line!r}"
    return [label for label, _ in keys]


def log_text(app: Any) -> str:
    """The table's event log, one line per entry."""
    return "\n".join(line.plain for line in app.model.log.lines) if app.model else ""


async def wait_for(
    pilot: Any, cond: Callable[[], Any], timeout: float = 10.0, what: str = ""
) -> None:
    """Let the app run until ``cond()`` holds (``timeout`` seconds at most: it is
    polled, so a long one costs a passing test nothing; 5 s timed out twice in
    one CI run of the whole suite on 2 busy cores)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        await pilot.pause(0.02)


async def wait_text(pilot: Any, app: App[Any], text: str, timeout: float = 10.0) -> str:
    """Let the app run until ``text`` is on the screen; the screen's text (10 s
    at most, as :func:`wait_for`)."""
    await wait_for(pilot, lambda: text in screen_text(app), timeout, what=repr(text))
    return screen_text(app)


CARD_LABEL = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
"""A card's rank and suit as a face shows them in its corner."""


def hand_cards(app: Any) -> tuple[list[str], list[str]]:
    """The hand as the screen shows it (first row of cards): the labels of the
    raised (playable) cards and of the others, left to right."""
    rows = shown_in(app, app.table_screen().query_one("#hand"))
    return CARD_LABEL.findall(rows[1]), CARD_LABEL.findall(rows[2])


async def click_card(pilot: Any, app: Any, index: int) -> None:
    """Click the hand's card ``index`` (on its visible corner)."""
    hand = app.screen.query_one("#hand")
    spot = hand.plan.spots[index]
    await pilot.click("#hand", offset=(spot.x + 1, hand.styles.gutter.top + spot.y + 2))


# --- the two-seat table of the Pilot tests ---------------------------------------------

BEN = ["2C", "3D", "4C", "5D", "6C", "TD", "JS", "QS"]
ANA = ["8S", "7H", "3C", "4D", "JC", "QD", "9S", "TS"]
"""Ana (seat 1, to play first) holds 8♠ 9♠ 10♠ 7♥ 3♣ J♣ 4♦ Q♦ (sorted) on a turned-up K♥."""


def on_table(app: Any) -> bool:
    """Whether the table screen is the one shown."""
    return isinstance(app.screen, TableScreen)


async def ben_at_table(
    server: Any, connect: Any, ben_hand: list[str], ana_hand: list[str], turned: str, **rules: Any
) -> Any:
    """Ben opens a two-seat table t1 and sits at seat 0; he will deal (cut 2♣ to A♣)."""
    ben = await connect("Ben")
    await ben.send({"type": "create_table", "name": "t1", "seats": 2, "rules": rules})
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    script(server.tables["t1"], ["2C", "AC"], deal_order(ben_hand, ana_hand, turned))
    return ben


def segments(app: Any) -> list[Segment]:
    """The current screen as styled segments, after the app's filters."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system="truecolor",
        force_terminal=True,
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return list(console._record_buffer)


class Told:
    """The news a session told (it is the session's listener), kept in order as
    ``(kind, arguments)``."""

    def __init__(self) -> None:
        self.news: list[tuple[str, tuple[Any, ...]]] = []

    def _keep(self, kind: str, *args: Any) -> None:
        self.news.append((kind, args))

    def link_changed(self) -> None:
        self._keep("link_changed")

    def lobby_changed(self) -> None:
        self._keep("lobby_changed")

    def table_shown(self) -> None:
        self._keep("table_shown")

    def table_changed(self, new_update: bool) -> None:
        self._keep("table_changed", new_update)

    def table_left(self) -> None:
        self._keep("table_left")

    def said(self, text: str, severity: Severity, timeout: float, table: str | None) -> None:
        self._keep("said", text, severity, timeout, table)

    def name_taken(self, table: str, why: str) -> None:
        self._keep("name_taken", table, why)

    def watch_offered(self, table: str, question: str) -> None:
        self._keep("watch_offered", table, question)

    def code_needed(self, table: str, watch: bool, why: str) -> None:
        self._keep("code_needed", table, watch, why)

    def invite_ready(self, table: str, link: str) -> None:
        self._keep("invite_ready", table, link)

    def failed(self, message: str) -> None:
        self._keep("failed", message)

    def of(self, kind: str) -> list[tuple[Any, ...]]:
        """The arguments of each piece of news of ``kind``, in order."""
        return [args for k, args in self.news if k == kind]

    def notices(self) -> list[str]:
        return [str(args[0]) for args in self.of("said")]
