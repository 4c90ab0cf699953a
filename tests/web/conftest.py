"""Browser tests of ``craits-web``: a real game server, a real ``craits-web``, and
Debian's Chromium driven by Playwright (no browser download).

One game server and one web server per module (started as processes on free
loopback ports), one browser per module, a fresh browser context (a new visitor:
its own cookies) per player. Screenshots go to ``test-artifacts/web/`` (kept by
CI, ignored by git).

The page draws the terminal with xterm.js on a WebGL canvas, where no text can be
read back; the tests' pages are given no WebGL (an init script), so xterm.js
falls back to drawing rows of text in the page, which the tests read
(:meth:`Visitor.text`). Everything else is as a player's browser has it.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import REPO

CHROMIUM = os.environ.get("CRAITS_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts" / "web"
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NO_WEBGL = """
(() => {
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, options) {
    if (kind === "webgl" || kind === "webgl2") return null;
    return getContext.call(this, kind, options);
  };
})();
"""


def _why_no_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    return None


NO_BROWSER = _why_no_browser()
if NO_BROWSER:
    print(f"tests/web skipped: {NO_BROWSER}", file=sys.stderr)


def free_port() -> int:
    """A TCP port free on the loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 20.0) -> None:
    """Return once ``port`` accepts connections.

    Raises:
        AssertionError: ``proc`` exited, or nothing listens within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            assert proc.poll() is None, f"{proc.args} exited with {proc.returncode}"
            assert time.monotonic() < deadline, f"nothing listens on {port}"
            time.sleep(0.05)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL after 5 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class GameServer:
    """A ``craits-server`` process on ``port``: no journal, no turn clock, short pauses,
    empty tables kept 10 minutes; ``craits-web`` on the loopback trusted as a relay
    (its visitors' clients say each visitor's address, protocol §4.1); ``more``
    arguments."""

    def __init__(self, port: int | None = None, more: tuple[str, ...] = ()):
        self.port = port or free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "craits.server.ops.cli",
                f"--port={self.port}",
                "--no-journal",
                "--turn-timeout=0",
                "--hand-pause=0.01",
                "--empty-table-grace=600",
                "--max-empty-tables=50",
                "--max-empty-tables-per-address=50",
                "--trusted-relay=127.0.0.1",
                *more,
            ],
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port, self.proc)

    def create_table(self, name: str, seats: int = 2) -> None:
        """Open an empty table ``name``, by the protocol."""
        from craits.protocol.client import Connection
        from craits.protocol.vocab import ClientMessage, ServerMessage

        async def create() -> None:
            conn = await Connection.open("127.0.0.1", self.port, "host")
            try:
                await conn.send(
                    {
                        "type": ClientMessage.CREATE_TABLE,
                        "name": name,
                        "seats": seats,
                    }
                )
                async with asyncio.timeout(5):
                    while True:
                        message = await conn.recv_message()
                        if message["type"] == ServerMessage.ERROR:
                            raise AssertionError(message)
                        if message["type"] == ServerMessage.TABLE_CREATED:
                            return
            finally:
                await conn.close()

        # Playwright's sync API runs an event loop in this thread: use another.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, create()).result()

    def stop(self) -> None:
        """Stop the server."""
        stop(self.proc)


class WebServer:
    """A ``craits-web`` process on a free port, for the game server on ``game_port``."""

    def __init__(
        self, game_port: int, state: Path, max_sessions: int = 20, more: tuple[str, ...] = ()
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "craits.client.web",
                f"127.0.0.1:{game_port}",
                f"--port={self.port}",
                f"--state-dir={state}",
                f"--max-sessions={max_sessions}",
                *more,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port, self.proc)

    def get(self, path: str) -> tuple[int, str]:
        """GET ``path``: the status and the body."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def stop(self) -> None:
        """Stop the server (and with it every visitor's client)."""
        stop(self.proc)


class Visitor:
    """One browser visitor: a Playwright context (its own cookies) and a page."""

    def __init__(
        self,
        browser: Any,
        web: WebServer,
        label: str,
        size: tuple[int, int],
        headers: dict[str, str] | None = None,
    ):
        self.web = web
        self.label = label
        self.context = browser.new_context(
            viewport={"width": size[0], "height": size[1]}, extra_http_headers=headers
        )
        self.context.add_init_script(NO_WEBGL)
        self.page = self.context.new_page()
        self.outside: list[str] = []
        self.page.on("request", self._request)

    def _request(self, request: Any) -> None:
        if not request.url.startswith((self.web.url, "data:", "blob:")):
            self.outside.append(request.url)

    def open(self, query: str = "", name: str | None = None) -> None:
        """Load the page (``query`` like ``?table=duel``); give ``name`` if asked."""
        self.page.goto(self.web.url + "/" + query)
        if name is not None and self.page.query_selector("#name-form"):
            self.page.fill("#name", name)
            self.page.press("#name", "Enter")
            self.page.wait_for_load_state()
        self.page.wait_for_selector("body.-first-byte", timeout=30_000)

    def text(self) -> str:
        """The terminal's rows as text (empty before the first draw)."""
        return str(
            self.page.evaluate(
                "() => { const r = document.querySelector('.xterm-rows');"
                " return r ? r.innerText : ''; }"
            )
        ).replace("\xa0", " ")

    def wait_text(self, pattern: str, timeout: float = 20.0) -> str:
        """Wait until the terminal shows ``pattern`` (a regular expression); the text.

        Raises:
            AssertionError: not shown within ``timeout`` seconds (with a screenshot).
        """

        def shown(text: str) -> bool:
            # A notification wraps its words over lines, each behind a "▌" edge.
            flat = " ".join(text.replace("▌", " ").split())
            return re.search(pattern, text) is not None or re.search(pattern, flat) is not None

        return self.wait(shown, pattern, timeout)

    def wait(self, check: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        """Wait until ``check(text)`` holds for the terminal's text; the text."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if check(text):
                return text
            if time.monotonic() > deadline:
                self.shot("timeout")
                raise AssertionError(f"{self.label}: {what!r} not shown:\n{text}")
            self.page.wait_for_timeout(100)

    def keys(self, *keys: str) -> None:
        """Press keys in the page (Playwright key names: ``j``, ``Enter``, ``Control+c``)."""
        for key in keys:
            self.page.keyboard.press(key)

    def shot(self, what: str) -> Path:
        """Save a screenshot as a test artifact; its path."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.label}-{what}.png"
        self.page.screenshot(path=str(path))
        return path

    def close(self) -> None:
        """Close the browser context (the websocket closes, the client process ends)."""
        self.context.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, headless, started once per module."""
    if NO_BROWSER:
        pytest.skip(NO_BROWSER)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium"),
            args=BROWSER_ARGS,
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def game() -> Iterator[GameServer]:
    """A game server for the module."""
    server = GameServer()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def web(game: GameServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """``craits-web`` for the module's game server."""
    server = WebServer(game.port, tmp_path_factory.mktemp("web-state"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def visitor(browser: Any, web: WebServer) -> Iterator[Callable[..., Visitor]]:
    """Make visitors (closed after the test): ``visitor("ana", size=(1280, 800))``."""
    made: list[Visitor] = []

    def make(label: str, size: tuple[int, int] = (1280, 800), server: WebServer | None = None):
        v = Visitor(browser, server or web, label, size)
        made.append(v)
        return v

    yield make
    for v in made:
        v.close()
