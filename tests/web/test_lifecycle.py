"""``craits-server --web`` and its page over a server's life (issue 23): killed with
SIGKILL, the server leaves nothing behind — craits-web, its pre-forked client, the
visitors' clients all end, the port is free — and the same command starts again;
the page comes back by itself, at the visitor's seat. Each way a game page ends
is said truthfully (left with a seat kept, left as a spectator)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import GameServer, Visitor, WebServer, free_port, stop, wait_port


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` (children, theirs…), from /proc."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = list(Path(f"/proc/{parent}/task").iterdir())
        except FileNotFoundError:
            continue
        for task in tasks:
            try:
                children = {int(c) for c in (task / "children").read_text().split()}
            except FileNotFoundError:
                continue
            todo += children - found
            found |= children
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` runs (not gone, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def listening(port: int) -> bool:
    """Whether something accepts connections on the loopback's ``port``."""
    try:
        socket.create_connection(("127.0.0.1", port), 0.5).close()
    except OSError:
        return False
    return True


def wait_until(check: Any, what: str, timeout: float = 30.0) -> float:
    """Wait until ``check()``; the seconds it took.

    Raises:
        AssertionError: not within ``timeout`` seconds.
    """
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < timeout, f"{what}: not within {timeout} s"
        time.sleep(0.02)
    return time.monotonic() - start


class ServerWithWeb:
    """``craits-server --web`` as an operator starts it: a journal in ``data``, a
    practice table with one bot, the page's visitors kept under ``state``."""

    def __init__(self, data: Path, state: Path, game_port: int, web_port: int):
        self.port = web_port
        self.game_port = game_port
        self.url = f"http://127.0.0.1:{web_port}"
        self.command = [
            *(sys.executable, "-m", "craits.server.ops.cli", f"--port={game_port}"),
            *(f"--web={web_port}", f"--data-dir={data}", "--bots=1"),
            *("--turn-timeout=0", "--hand-pause=0.01"),
        ]
        self.env = {**os.environ, "XDG_STATE_HOME": str(state)}
        self.proc = self.start()

    def start(self) -> subprocess.Popen[bytes]:
        """Run the command; returns once both ports listen."""
        proc = subprocess.Popen(self.command, env=self.env, stderr=subprocess.DEVNULL)
        wait_port(self.game_port, proc, timeout=60)
        wait_port(self.port, proc, timeout=60)
        return proc


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerWithWeb]:
    server = ServerWithWeb(tmp_path / "data", tmp_path / "state", free_port(), free_port())
    try:
        yield server
    finally:
        stop(server.proc)


def test_a_killed_server_leaves_nothing_behind_and_its_page_comes_back(
    browser: Any, served: ServerWithWeb
) -> None:
    ana = Visitor(browser, served, "ana", (1280, 800))  # type: ignore[arg-type]
    try:
        ana.open("?table=practice", name="ana")
        ana.wait_text(r"Your hand")  # the game with the bot has begun
        ana.shot("before-kill")
        # craits-web, its pre-forked client and ana's client, all the server's.
        processes = descendants(served.proc.pid)
        assert len(processes) >= 3, processes

        served.proc.send_signal(signal.SIGKILL)
        freed = wait_until(lambda: not listening(served.port), "the web port freed")
        ended = wait_until(
            lambda: not any(running(p) for p in processes), "the server's processes ended"
        )
        print(f"after SIGKILL: web port free in {freed:.2f} s, every process gone in {ended:.2f} s")
        # The page says the connection dropped and keeps trying, by itself.
        ana.page.wait_for_selector('body[data-ended="dropped"]', timeout=20_000)
        assert "Connection lost" in ana.page.inner_text("#dropped")
        ana.shot("server-killed")

        # The same command starts again, on the same ports.
        served.proc.wait(10)
        served.proc = served.start()
        # The page loads itself again and takes ana's seat back: the same game.
        ana.page.wait_for_function(
            "() => !document.body.hasAttribute('data-ended')"
            " && document.body.classList.contains('-first-byte')",
            timeout=60_000,
        )
        ana.wait_text(r"Back at table practice|Your hand", timeout=60)
        ana.wait_text(r"Your hand", timeout=30)
        ana.shot("back-after-restart")
    finally:
        ana.close()


def test_leaving_says_whether_a_seat_is_kept(browser: Any, tmp_path: Path) -> None:
    """A player who leaves a running game is told their seat is kept; a spectator
    who leaves is told nothing of a seat (issue 23: it told every visitor so)."""
    game = GameServer(more=("--bots=1",))
    web = WebServer(game.port, tmp_path / "state")
    lea = Visitor(browser, web, "lea", (1280, 800))
    max_ = Visitor(browser, web, "max", (1280, 800))
    try:
        lea.open("?table=practice", name="lea")
        lea.wait_text(r"Your hand")
        max_.open("?table=practice&watch=1", name="max")
        max_.wait_text(r"Watching")
        # lea leaves the table (the server plays her seat), then the lobby.
        for _ in range(3):
            lea.keys("q")
            text = lea.wait_text(r"Leave the game\?|Name the suit")
            if "Leave the game?" in text:
                break
            lea.keys("Enter")  # lea dealt and turned up an 8 or a 9 (R3): named first
            lea.wait_text(r"You named")
        lea.keys("y")
        lea.wait_text(r"Craits at \S+ — you are lea", timeout=20)  # the lobby
        lea.keys("q")
        lea.page.wait_for_selector('body[data-ended="left"]', timeout=20_000)
        said = lea.page.inner_text("#left")
        assert "Your seat at table practice is kept for you" in said, said
        lea.shot("left-with-a-seat")
        # max leaves too: no seat to speak of.
        max_.keys("q")
        max_.wait_text(r"Craits at \S+ — you are max", timeout=20)
        max_.keys("q")
        max_.page.wait_for_selector('body[data-ended="left"]', timeout=20_000)
        said = max_.page.inner_text("#left")
        assert "You left the game" in said and "seat" not in said, said
        max_.shot("left-as-spectator")
        # Neither page tries again by itself.
        lea.page.wait_for_timeout(2000)
        assert lea.page.get_attribute("body", "data-ended") == "left"
    finally:
        lea.close()
        max_.close()
        web.stop()
        game.stop()


def test_a_client_that_dies_is_said_and_started_again_on_request(
    browser: Any, game: GameServer, web: WebServer
) -> None:
    """The visitor's client process killed (no word from it): the page says the
    game stopped and offers to start it again, rather than trying by itself."""
    kai = Visitor(browser, web, "kai", (1280, 800))
    try:
        kai.open(name="kai")
        kai.wait_text(r"you are kai")
        zygote = next(
            p
            for p in descendants(web.proc.pid)
            if Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[1] == str(web.proc.pid)
        )
        clients = descendants(zygote)  # (everyone's: the module's other pages are closed)
        assert clients
        for pid in clients:
            os.kill(pid, signal.SIGKILL)
        kai.page.wait_for_selector('body[data-ended="stopped"]', timeout=20_000)
        assert "The game stopped" in kai.page.inner_text("#stopped")
        kai.page.wait_for_timeout(2000)
        assert kai.page.get_attribute("body", "data-ended") == "stopped"
        kai.page.click("#stopped button")
        kai.page.wait_for_function(
            "() => !document.body.hasAttribute('data-ended')"
            " && document.body.classList.contains('-first-byte')",
            timeout=30_000,
        )
        kai.wait_text(r"you are kai")
    finally:
        kai.close()


class Page:
    """A visitor as a browser is one, without a browser (the page, the name form,
    and the terminal's websocket, open once the client has drawn), on an event
    loop of its own thread (Playwright's runs in the test's)."""

    def __init__(self, url: str, name: str):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.session = asyncio.run_coroutine_threadsafe(self._open(url, name), self.loop).result(60)

    async def _open(self, url: str, name: str) -> Any:
        import aiohttp

        session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with session.get(url + "/") as r:
            await r.text()
        async with session.post(url + "/name", data={"name": name}) as r:
            page = await r.text()
        ws_url = page.split('data-session-websocket-url="', 1)[1].split('"', 1)[0]
        ws = await session.ws_connect(ws_url + "?width=80&height=24")
        await ws.receive(timeout=30)
        return session

    def close(self) -> None:
        """Close the page, and its loop."""
        asyncio.run_coroutine_threadsafe(self.session.close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)
        self.loop.close()


def test_a_client_started_anew_ends_with_craits_web(game: GameServer, tmp_path: Path) -> None:
    """craits-web --no-prefork (each client a new process, through
    client.web.child): craits-web stops when its lifeline is cut, its clients
    with it."""
    read, write = os.pipe()
    port = free_port()
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "craits.client.web", f"127.0.0.1:{game.port}"),
            *(f"--port={port}", f"--state-dir={tmp_path}", "--no-prefork"),
            f"--lifeline={read}",
        ],
        pass_fds=(read,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(read)
    try:
        wait_port(port, web)
        page = Page(f"http://127.0.0.1:{port}", "uma")
        clients = descendants(web.pid)
        assert len(clients) == 1, clients
        os.close(write)  # the lifeline cut: craits-web stops, the port first
        wait_until(lambda: not listening(port), "craits-web stopped")
        assert web.wait(30) == 0
        wait_until(lambda: not any(running(p) for p in clients), "the client ended")
        page.close()
    finally:
        with contextlib.suppress(OSError):
            os.close(write)
        stop(web)
