"""Two friends play in their browsers: each is their own player and keeps their own seat
through reloads; nobody else can take it; a link lets a third watch; a game server
that is down or goes down is shown in the page (issue 14)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import GameServer, Visitor, WebServer, free_port

HAND_ROWS = re.compile(r"(─*Your hand─*)[^\n]*\n[^\n]*\n([^\n]*)\n([^\n]*)")
"""The rule over the hand ("─Your hand───"), then the hand's first rows: playable
cards are raised a row, so their corners are on the row above the others'."""


def hand(text: str) -> list[str]:
    """The cards in the hand as shown, left to right, playable ones in brackets
    (``[7♥]``): read from the card faces' corners, within the hand's width."""
    match = HAND_ROWS.search(text)
    assert match, text
    width = match.end(1) - match.start(1)
    found = []
    for row, playable in ((match.group(2), True), (match.group(3), False)):
        for card in re.finditer(r"(?:10|[2-9AJQK])[♠♥♦♣]", row[:width]):
            found.append((card.start(), f"[{card.group()}]" if playable else card.group()))
    return [label for _, label in sorted(found)]


def take_turn(v: Visitor) -> bool:
    """Play a card if one is playable (not a wild 8 or 9 if there is a choice: they
    ask for a suit), else draw; True when a card was played. Returns once the hand
    has changed."""
    text = v.wait_text(r"Your turn|name the suit|d draws|Enter plays it, p keeps it")
    if "name the suit" in text:  # the dealer turned up an 8 or a 9 (R3)
        v.keys("Enter")
        v.wait_text(r"You named")
        return False
    before = hand(text)
    if "p keeps it" in text:  # the card drawn could be played: keep it (R4)
        v.keys("p")
        v.wait(lambda t: "p keeps it" not in t, "the drawn card kept")
        return False
    cards = [i for i, card in enumerate(before, 1) if card.startswith("[") and i <= 9]
    if not cards:  # nothing to play, or the count on and no ace or two (R6)
        v.keys("d")
    else:
        wild = [i for i in cards if before[i - 1][1] in "89"]
        v.keys(str(next((i for i in cards if i not in wild), cards[0])), "Enter")
        if all(i in wild for i in cards):
            v.page.wait_for_timeout(1000)
            v.keys("Enter")  # the suit dialog's first choice
    v.wait(lambda t: "Your hand" in t and hand(t) != before, "the hand changed")
    return bool(cards)


def to_act(*visitors: Visitor, timeout: float = 20.0) -> Visitor:
    """The visitor whose page marks them as the player to act (``▶ name``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for v in visitors:
            if re.search(rf"▶ {v.label}\b", v.text()):
                return v
        visitors[0].page.wait_for_timeout(100)
    raise AssertionError("nobody to act:\n" + "\n".join(v.text() for v in visitors))


@pytest.fixture(scope="module")
def duel(browser: Any, game: GameServer, web: WebServer) -> Iterator[tuple[Visitor, Visitor]]:
    """ana and bo, each in their own browser context, seated at table ``duel``
    by its link; the game has started."""
    game.create_table("duel")
    ana = Visitor(browser, web, "ana", (1280, 800))
    bo = Visitor(browser, web, "bo", (1280, 800))
    try:
        ana.open("?table=duel", name="ana")
        ana.wait_text(r"you are ana")
        bo.open("?table=duel", name="bo")
        for v in (ana, bo):
            v.wait_text(r"hand 1/15[\s\S]*Your hand")
        yield ana, bo
    finally:
        ana.close()
        bo.close()


def test_two_visitors_each_play_a_card(duel: tuple[Visitor, Visitor]) -> None:
    ana, bo = duel
    ana.shot("dealt")
    played = {"ana": False, "bo": False}
    for _ in range(40):
        if all(played.values()):
            break
        v = to_act(ana, bo)
        played[v.label] |= take_turn(v)
    assert all(played.values()), (played, ana.text(), bo.text())
    ana.wait_text(r"bo played")
    bo.wait_text(r"ana played")
    ana.shot("played")
    bo.shot("played")
    # Fonts, script and styles come from craits-web itself, nothing from the internet.
    assert ana.outside == [] and bo.outside == []


def test_a_reload_gets_the_seat_back(duel: tuple[Visitor, Visitor]) -> None:
    ana, bo = duel
    ana.page.reload()
    ana.page.wait_for_selector("body.-first-byte", timeout=30_000)
    text = ana.wait_text(r"duel · hand[\s\S]*you are ana[\s\S]*Your hand")
    assert "taken back" not in text
    ana.shot("reloaded")
    assert "taken back" not in bo.text()


def test_another_browser_never_takes_a_seat(duel: tuple[Visitor, Visitor], visitor: Any) -> None:
    ana, bo = duel
    # Same name, same link, another browser: it has no resume token of ana's.
    intruder: Visitor = visitor("intruder")
    intruder.open("?table=duel", name="ana")
    # (no seat: the client offers to watch instead, issue 23)
    text = intruder.wait_text(r"already playing: no seat[\s\S]*Watch it instead\?")
    assert "Your hand" not in text
    intruder.shot("refused")
    for v in (ana, bo):
        text = v.text()
        assert "Your hand" in text and "taken back" not in text, text


def test_a_link_lets_a_visitor_watch(duel: tuple[Visitor, Visitor], visitor: Any) -> None:
    cy: Visitor = visitor("cy")
    cy.open("?table=duel&watch=1", name="cy")
    # (the seats sit around the table: bo across it, ana at the bottom)
    text = cy.wait_text(r"duel · hand[\s\S]*(ana[\s\S]*bo|bo[\s\S]*ana)")
    assert "Your hand" not in text
    cy.wait_text(r"1 watching|watching")
    cy.shot("watching")


def test_server_down_is_shown_in_the_page(browser: Any, tmp_path: Any) -> None:
    port = free_port()
    # (This web server starts each client as a new process, the module's forks them
    # from its pre-forked client: both ways are played through.)
    web = WebServer(port, tmp_path / "state", max_sessions=1, more=("--no-prefork",))
    game: GameServer | None = None
    try:
        dan = Visitor(browser, web, "dan", (1280, 800))
        dan.open(name="dan")
        text = dan.wait_text(r"cannot reach the game server: connection refused")
        assert f":{port}" not in text  # (the game's own address is not the visitor's)
        dan.shot("server-down")
        # At --max-sessions the next visitor gets a page saying so.
        eve = Visitor(browser, web, "eve", (800, 600))
        eve.page.goto(web.url + "/")
        eve.page.fill("#name", "eve")
        eve.page.press("#name", "Enter")
        eve.page.wait_for_selector("#message")
        assert "The room is full" in eve.page.inner_text("#message")
        assert "1 player is here already" in eve.page.inner_text("#message")
        eve.close()
        # dan, who has the one page, may still load it again.
        dan.page.reload()
        dan.page.wait_for_selector("body.-first-byte", timeout=30_000)
        dan.wait_text(r"Cannot reach the game")
        # The server comes up: "Try again" (r) connects.
        game = GameServer(port)
        dan.keys("r")
        # (named by the page's address, which dan knows, not the game's)
        dan.wait_text(rf"Craits at 127\.0\.0\.1:{web.port} — you are dan")
        # It goes down while the page is open: the page says so and keeps trying.
        game.stop()
        dan.wait_text(r"Connection lost: reconnecting")
        dan.shot("connection-lost")
        # Ctrl+C does not quit in a browser: the page stays, and says how to leave.
        dan.keys("Control+c")
        dan.wait_text(r"press q in the lobby to leave")
        assert dan.page.query_selector("body.-closed") is None
        dan.keys("q")
        dan.page.wait_for_selector('body[data-ended="left"]', timeout=10_000)
        assert "You left the game" in dan.page.inner_text("#left")
        dan.shot("left")
        dan.close()
    finally:
        if game is not None:
            game.stop()
        web.stop()


@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)], ids=["phone", "full-hd"])
def test_the_game_fills_the_window(visitor: Any, size: tuple[int, int]) -> None:
    v: Visitor = visitor(f"window-{size[0]}x{size[1]}", size=size)
    v.open(name="fay")
    text = v.wait_text(r"you are fay|Craits")
    # The Footer is drawn at once (the page has the keyboard without a click).
    v.wait_text(r"j Join")
    assert v.page.evaluate("document.activeElement.className").startswith("xterm-helper")
    screen = v.page.evaluate(
        "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
        " return [r.width, r.height]; })()"
    )
    assert screen[0] >= 0.9 * size[0] and screen[1] >= 0.9 * size[1], screen
    assert "fay" in text
    v.shot("lobby")


def test_a_second_page_of_one_browser_closes_the_first(visitor: Any) -> None:
    gil: Visitor = visitor("gil")
    gil.open(name="gil")
    gil.wait_text(r"you are gil")
    second = gil.context.new_page()
    second.goto(gil.web.url + "/")
    second.wait_for_selector("body.-first-byte", timeout=30_000)
    # The first page is told the game went to another tab, with the way back (and
    # does not take it back by itself); the second plays on.
    gil.page.wait_for_selector('body[data-ended="replaced"]', timeout=20_000)
    assert "Open in another tab" in gil.page.inner_text("#replaced")
    gil.shot("closed-by-second-page")
    gil.page.wait_for_timeout(3000)
    assert gil.page.get_attribute("body", "data-ended") == "replaced"
    assert second.query_selector("body[data-ended]") is None


def test_two_visitors_count_as_two_addresses(browser: Any, tmp_path: Any) -> None:
    """Each visitor's client tells the game server the visitor's address (protocol
    §4.1): behind a trusted reverse proxy, the one its X-Forwarded-For names. With one
    connection an address, two visitors from two addresses both get in; a second from
    the first's address is refused (before: every visitor was the web server's address)."""
    game = GameServer(more=("--max-connections-per-address=1",))
    web = WebServer(game.port, tmp_path / "state", more=("--trusted-proxy=127.0.0.1",))
    try:
        for label, address in (("hal", "198.51.100.1"), ("ida", "198.51.100.2")):
            v = Visitor(browser, web, label, (1280, 800), {"X-Forwarded-For": address})
            v.open(name=label)
            v.wait_text(rf"you are {label}")
        # A browser's own X-Forwarded-For is not believed past the proxy's: the
        # proxy appended the address it saw (hal's), which is what counts.
        jon = Visitor(
            browser, web, "jon", (1280, 800), {"X-Forwarded-For": "203.0.113.9, 198.51.100.1"}
        )
        jon.open(name="jon")
        jon.wait_text(r"refused: too many connections from")
        jon.shot("same-address-refused")
    finally:
        web.stop()
        game.stop()


def test_a_player_asks_for_a_hint_in_the_page(duel: tuple[Visitor, Visitor]) -> None:
    """``t`` in the page (protocol §7.6): the expert's move shows under the prompt,
    on a turn with two cards or more to choose from."""
    ana, bo = duel
    for _ in range(40):
        v = to_act(ana, bo)
        text = v.wait_text(r"Your turn|name the suit|d draws|Enter plays it, p keeps it")
        if "Your turn" in text and sum(card.startswith("[") for card in hand(text)) >= 2:
            v.keys("t")
            shown = v.wait_text(r"Hint: play \S+ \(expected [−+]\d+\.\d points", timeout=120)
            assert "next best" in shown, shown
            v.shot("hint")
            return
        take_turn(v)
    raise AssertionError("no turn with a choice in 40 turns:\n" + ana.text() + bo.text())
