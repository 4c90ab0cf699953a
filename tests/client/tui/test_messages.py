"""The session's news as Textual messages (client/tui/messages.py): posted to the App
and to each screen, handled where posted, never bubbled up to the App again."""

from __future__ import annotations

from typing import Any

from craits.client.tui import messages
from craits.client.tui.screens.table_screen import TableScreen

from tests.client.conftest import wait_for
from tests.client.tui.screens.test_table import ANA, BEN, ben_at_table


def test_no_message_of_the_session_bubbles() -> None:
    news = messages.SessionMessage.__subclasses__()
    assert len(news) == 11
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
