"""The session's news as Textual messages (client/tui/messages.py): posted to the App
and to each screen, handled where posted, never bubbled up to the App again."""

from __future__ import annotations

from typing import Any

from craits.client.tui import messages
from craits.client.tui.screens.table_screen import TableScreen

from tests.support.client import ANA, BEN, ben_at_table, wait_for


def test_no_message_of_the_session_bubbles() -> None:
    news = messages.SessionMessage.__subclasses__()
    assert len(news) == 12
    assert [cls.__name__ for cls in news if cls.bubble] == []


async def test_a_line_the_session_says_is_shown_once(
    server: Any, connect: Any, make_app: Any
) -> None:
    await ben_at_table(server, connect, BEN, ANA, "3D")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        app.session.say("one line, once")  # the App and two screens get it; only the App says it
        await wait_for(pilot, lambda: any("once" in str(n.message) for n in app._notifications))
        await pilot.pause(0.3)
        said = [n for n in app._notifications if str(n.message) == "one line, once"]
        assert len(said) == 1


def _followers(app: Any) -> set[str]:
    """The nodes the session's news is posted to now (each mounted and not removed)."""
    return {
        type(node).__name__
        for node in app.news.signal._subscriptions
        if node.is_running and node.is_attached
    }


async def test_the_news_goes_to_the_nodes_that_follow_it_and_no_others(
    server: Any, connect: Any, make_app: Any
) -> None:
    """The App, the lobby and the table screen follow the news from their mounting; so
    does the rules page (a language chosen while it is open); a screen that is gone
    is posted nothing more (nothing walks the screen stack to find the screens)."""
    await ben_at_table(server, connect, BEN, ANA, "3D")
    app = make_app("Ana", table="t1")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen), what="the table")
        table = app.screen
        everyone = {"CraitsApp", "LobbyScreen", "TableScreen"}
        await wait_for(pilot, lambda: _followers(app) == everyone, what="the table follows")
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "RulesScreen", what="rules")
        await wait_for(pilot, lambda: _followers(app) == everyone | {"RulesScreen"})
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is table, what="the table again")
        app.session.requests.leave()
        await wait_for(pilot, lambda: type(app.screen).__name__ == "LobbyScreen", what="lobby")
        await wait_for(pilot, lambda: not table.is_attached, what="the table screen removed")
        app.session.say("after the table")  # a publication drops the removed screen
        await wait_for(pilot, lambda: _followers(app) == {"CraitsApp", "LobbyScreen"})
        assert table not in app.news.signal._subscriptions
