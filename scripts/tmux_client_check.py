#!/usr/bin/env python3
"""Run the real ``craits-server`` and ``craits-client`` in tmux and check the screen.

Starts a server on a free loopback port with a "practice" table (one bot), then
the client in an 80x24 tmux pane, and checks, by ``capture-pane``:

1. the lobby lists the practice table;
2. joining it (``j``) shows the table with a hand of cards and whose turn it is;
3. ``q`` then ``y`` leaves the game, and ``q`` in the lobby quits: the client
   exits within two seconds.

It also checks ``craits-client --list`` and the one-line error for an
unreachable server. Prints what failed (with the screen) and exits 1 on
failure, 0 on success, 2 when tmux is missing.

Usage: ``scripts/tmux_client_check.py [--keep]`` (``--keep`` leaves the tmux
session running for a look: ``tmux attach -t <name>``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CARD = re.compile(r"(10|[2-9AJQK])[♠♥♦♣]")


class CheckFailed(Exception):
    """A check did not hold; the message says which, with the screen."""


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def tool(name: str) -> str:
    """The path of a console script next to this Python (the venv), or on PATH."""
    candidate = BIN / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        raise CheckFailed(f"{name} is not installed (pip install -e .)")
    return found


def wait_port(port: int, timeout: float = 10.0) -> None:
    """Wait until something listens on ``port``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise CheckFailed(f"the server did not listen on port {port} within {timeout:g} s")


class Pane:
    """One detached tmux session running a command in an 80x24 window."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]):
        self.name = name
        exports = " ".join(f"{k}={shell_quote(v)}" for k, v in env.items())
        line = f"env {exports} {' '.join(shell_quote(c) for c in command)}"
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", name, "-x", "80", "-y", "24", line],
            check=True,
        )

    def screen(self) -> str:
        """What the pane shows now (empty once the session is gone)."""
        out = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        )
        return out.stdout

    def keys(self, *keys: str) -> None:
        """Type keys into the pane (tmux key names: Enter, Left, C-c…)."""
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def alive(self) -> bool:
        """Whether the session (so the client) still runs."""
        return (
            subprocess.run(["tmux", "has-session", "-t", self.name], capture_output=True).returncode
            == 0
        )

    def wait(self, what: str, check: object, timeout: float = 10.0) -> str:
        """Wait until ``check(screen)`` holds; the screen then."""
        end = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if check(screen):  # type: ignore[operator]
                return screen
            time.sleep(0.1)
        raise CheckFailed(f"{what}: not on the screen within {timeout:g} s. Screen:\n{screen}")

    def kill(self) -> None:
        """End the session."""
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def shell_quote(s: str) -> str:
    """Quote for the shell tmux runs the command with."""
    return "'" + s.replace("'", "'\\''") + "'"


def check_cli(client: str, port: int, dead_port: int) -> None:
    """``--list`` prints the practice table; an unreachable server is one line and exit 1."""
    listing = subprocess.run(
        [client, f"127.0.0.1:{port}", "--list"], capture_output=True, text=True, timeout=20
    )
    if listing.returncode != 0 or "practice" not in listing.stdout:
        raise CheckFailed(f"--list failed ({listing.returncode}): {listing.stdout}{listing.stderr}")
    dead = subprocess.run(
        [client, f"127.0.0.1:{dead_port}", "--list"], capture_output=True, text=True, timeout=20
    )
    lines = dead.stderr.strip().splitlines()
    if dead.returncode == 0 or len(lines) != 1 or "Traceback" in dead.stderr:
        raise CheckFailed(f"unreachable server: want one line and a failure, got {dead!r}")


def run(keep: bool) -> None:
    """The whole check."""
    server_cmd = tool("craits-server")
    client = tool("craits-client")
    port = free_port()
    state = tempfile.mkdtemp(prefix="craits-tmux-")
    server = subprocess.Popen(
        [server_cmd, "--port", str(port), "--bots", "1", "--hand-pause", "0.5"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    pane = None
    try:
        wait_port(port)
        check_cli(client, port, free_port())
        env = {
            "XDG_STATE_HOME": state,
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "COLORTERM": "truecolor",
        }
        pane = Pane(
            f"craits-check-{os.getpid()}", [client, f"127.0.0.1:{port}", "--name", "Tess"], env
        )
        # 1. the lobby lists the practice table
        pane.wait("the lobby with the practice table", lambda s: "practice" in s and "Join" in s)
        # 2. join it: two seats, so the game starts: a hand, whose turn, the keys
        pane.keys("j")
        screen = pane.wait(
            "the table with a hand",
            lambda s: "Your hand" in s and len(CARD.findall(s)) >= 8 and "Leave" in s,
        )
        if "Tess" not in screen or "basic-bot-1" not in screen:
            raise CheckFailed(f"the seats are not shown. Screen:\n{screen}")
        pane.wait(
            "whose turn it is",
            lambda s: "Your turn" in s or "to play" in s or "Nothing to play" in s,
        )
        # 3. leave (confirming), then quit from the lobby: the client exits quickly
        pane.keys("q")
        pane.wait("the leave question", lambda s: "Leave the game?" in s)
        pane.keys("y")
        pane.wait("back in the lobby", lambda s: "practice" in s and "Rejoin" in s)
        pane.keys("q")
        end = time.monotonic() + 2.0
        while pane.alive() and time.monotonic() < end:
            time.sleep(0.05)
        if pane.alive():
            raise CheckFailed(f"the client did not exit within 2 s of q. Screen:\n{pane.screen()}")
    finally:
        if pane is not None and not keep:
            pane.kill()
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(state, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Run the check; 0 if it passed, 1 if not, 2 without tmux."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="leave the tmux session running")
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux_client_check: tmux is not installed", file=sys.stderr)
        return 2
    try:
        run(args.keep)
    except CheckFailed as exc:
        print(f"tmux_client_check: FAILED: {exc}", file=sys.stderr)
        return 1
    print("tmux_client_check: lobby, table and quit all OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
