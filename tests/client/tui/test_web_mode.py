"""The client in a browser (``--web``, issue 14): a server that cannot be reached is
shown in the app with a retry, and Ctrl+C copies instead of quitting."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.tui.app import CraitsApp
from craits.client.tui.dialogs.problem import ProblemScreen
from craits.server.app import Server, ServerConfig

from tests.support.client import wait_for, wait_text
from tests.support.processes import free_port


async def test_unreachable_server_is_shown_with_a_retry(
    config: ServerConfig, tmp_path: Path
) -> None:
    port = free_port()
    app = CraitsApp(
        "127.0.0.1",
        port,
        "Ana",
        store=TokenStore(tmp_path / "resume.json"),
        retry_base=0.05,
        web=True,
    )
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ProblemScreen), what="the problem")
        await wait_text(pilot, app, f"cannot reach 127.0.0.1:{port}")
        assert app.is_running and app.error_message is None
        # Try again once the server is there: the lobby, online.
        server = Server(dataclasses.replace(config, port=port))
        await server.start()
        try:
            await pilot.press("r")
            await wait_text(pilot, app, f"Craits at 127.0.0.1:{port} — you are Ana")
            assert not isinstance(app.screen, ProblemScreen)
        finally:
            await server.stop()


async def test_leave_from_the_problem_screen(tmp_path: Path) -> None:
    app = CraitsApp(
        "127.0.0.1", free_port(), "Ana", store=TokenStore(tmp_path / "r.json"), web=True
    )
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ProblemScreen), what="the problem")
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
    assert app.return_code in (0, None)


async def test_ctrl_c_copies_and_does_not_quit_in_a_browser(server: Server, tmp_path: Path) -> None:
    app = CraitsApp(
        "127.0.0.1", server.port, "Ana", store=TokenStore(tmp_path / "r.json"), web=True
    )
    async with app.run_test() as pilot:
        await wait_text(pilot, app, "you are Ana")
        await pilot.press("ctrl+c")

        def told() -> bool:
            return any("press q in the lobby" in n.message for n in app._notifications)

        await wait_for(pilot, told, what="how to leave")
        await pilot.pause(0.1)
        assert app.is_running


async def test_ctrl_c_still_quits_in_a_terminal(server: Server, tmp_path: Path) -> None:
    app = CraitsApp("127.0.0.1", server.port, "Ana", store=TokenStore(tmp_path / "r.json"))
    async with app.run_test() as pilot:
        await wait_text(pilot, app, "you are Ana")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: not app.is_running, what="the app to end")
