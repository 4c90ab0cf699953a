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

With ``--game`` it plays a whole short game instead: Ann opens a table with
the dialog, Bob joins, Cat watches; the two play by keys only (Enter on the
card the client pre-selects, ``d``, ``o``, ``i``, the first suit offered);
Bob's terminal is closed in the middle of the game and started again, and must
land back in his seat; at the end all three see the final standings.

Usage: ``scripts/tmux_client_check.py [--keep] [--game]`` (``--keep`` leaves
the tmux sessions running for a look: ``tmux attach -t <name>``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

# A private tmux server for this run: it never meets the user's own sessions.
TMUX = ["tmux", "-L", f"craits-check-{os.getpid()}"]

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
            [*TMUX, "new-session", "-d", "-s", name, "-x", "80", "-y", "24", line],
            check=True,
        )

    def screen(self) -> str:
        """What the pane shows now (empty once the session is gone)."""
        out = subprocess.run(
            [*TMUX, "capture-pane", "-p", "-t", self.name], capture_output=True, text=True
        )
        return out.stdout

    def keys(self, *keys: str) -> None:
        """Type keys into the pane (tmux key names: Enter, Left, C-c…), one at a time
        as a person would (a burst can arrive as one chunk, which reads as a paste)."""
        for i, key in enumerate(keys):
            if i:
                time.sleep(0.08)
            subprocess.run([*TMUX, "send-keys", "-t", self.name, key], check=True)

    def alive(self) -> bool:
        """Whether the session (so the client) still runs."""
        return (
            subprocess.run([*TMUX, "has-session", "-t", self.name], capture_output=True).returncode
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
        subprocess.run([*TMUX, "kill-session", "-t", self.name], capture_output=True)


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


@contextlib.contextmanager
def served(*options: str, log: IO[str] | int = subprocess.PIPE) -> Iterator[tuple[int, str]]:
    """A ``craits-server`` on a free loopback port with a throwaway journal, and a
    temporary folder for the clients' state; both gone afterwards. Yields the
    port and the folder."""
    server_cmd = tool("craits-server")
    port = free_port()
    state = tempfile.mkdtemp(prefix="craits-tmux-")
    data = ["--data-dir", f"{state}/server"]  # a throwaway journal
    server = subprocess.Popen(
        [server_cmd, "--port", str(port), *options, *data],
        stdout=subprocess.DEVNULL,
        stderr=log,
        text=True,
    )
    try:
        wait_port(port)
        yield port, state
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(state, ignore_errors=True)


def sit_at_practice(pane: Pane) -> None:
    """From the lobby, join the practice table: a hand, the seats, whose turn it is."""
    # 1. the lobby lists the practice table
    pane.wait("the lobby with the practice table", lambda s: "practice" in s and "Join" in s)
    # 2. join it: two seats, so the game starts: a hand, whose turn, the keys
    pane.keys("j")
    screen = pane.wait(
        "the table with a hand",
        lambda s: (
            "Your hand" in s
            and len(CARD.findall(s)) >= 8
            and ("Leave" in s or "Name the suit" in s)
        ),
    )
    if "Name the suit" in screen:
        # the dealer turned up an 8 or 9 (R3): name the first suit offered (a
        # 9 offers only its colour's suits, so "s" is no answer to a red 9)
        pane.keys("1")
        screen = pane.wait(
            "the table after naming the suit",
            lambda s: "Your hand" in s and len(CARD.findall(s)) >= 8 and "Leave" in s,
        )
    if "Tess" not in screen or "basic-bot-1" not in screen:
        raise CheckFailed(f"the seats are not shown. Screen:\n{screen}")
    pane.wait(
        "whose turn it is",
        lambda s: "Your turn" in s or "to play" in s or "Nothing to play" in s or "d draws" in s,
    )


def leave_and_quit(pane: Pane) -> None:
    """Leave the game (confirming), then quit from the lobby: the client exits quickly."""
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


def run(keep: bool) -> None:
    """The whole check."""
    client = tool("craits-client")
    with served("--bots", "1", "--hand-pause", "0.5") as (port, state):
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
        try:
            sit_at_practice(pane)
            leave_and_quit(pane)
        finally:
            if not keep:
                pane.kill()


def step(pane: Pane) -> str:
    """Look at a player's screen and press what a player would; returns what was done."""
    s = pane.screen()
    if "Game over after hand" in s:
        return "over"
    if "which suit?" in s or "Name the suit" in s or "Call idiot on whom" in s:
        pane.keys("1")
        time.sleep(0.3)
        return "choice"
    if "— scores" in s and "Enter" in s:
        time.sleep(1.0)  # the summary ignores Enter in its first moment
        pane.keys("Enter")
        return "summary"
    if 'press o to say "one card"' in s:
        pane.keys("o")
        return "announce"
    if 'did not say "one card"' in s:
        pane.keys("i")
        return "idiot"
    if "d draws" in s:
        pane.keys("d")
        return "draw"
    if "Enter plays it" in s:
        pane.keys("Enter")
        return "play"
    if "Your turn" in s:
        index = first_playable(s)
        if index is None:
            return ""
        if len(hand_cards(s)) == 2:
            pane.keys("o")  # the play leaves one card: say so with it (R7)
        pane.keys(str((index + 1) % 10) if index < 10 else "Right", "Enter")
        time.sleep(0.3)  # let the screen catch up before looking again
        return "play"
    return ""


HAND_CARD = re.compile(r"(\[)?(?:10|[2-9AJQK])[♠♥♦♣]")


def hand_cards(screen: str) -> list[bool]:
    """The cards in the hand box, in order: whether each is shown playable (in brackets)."""
    lines = screen.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if "Your hand" in line)
    except StopIteration:
        return []
    cards = []
    for line in lines[start + 1 :]:
        left = line[:50]
        if left.startswith("╰"):
            break
        cards += [bool(m.group(1)) for m in HAND_CARD.finditer(left)]
    return cards


def first_playable(screen: str) -> int | None:
    """The position of the first card shown playable in the hand box."""
    return next((i for i, ok in enumerate(hand_cards(screen)) if ok), None)


def play_to_the_end(ann: Pane, bob: Pane, open_pane: Callable[[str], Pane], timeout: float) -> None:
    """Ann and Bob play by keys until both see the final standings; at hand 3 Bob's
    terminal is closed and a new one must land back in his seat."""
    end = time.monotonic() + timeout
    reopened = False
    done: set[str] = set()
    while len(done) < 2:
        if time.monotonic() > end:
            raise CheckFailed(
                "no end of game in time. Ann:\n" + ann.screen() + "\nBob:\n" + bob.screen()
            )
        for p in (ann, bob):
            did = step(p) if p.name not in done else ""
            if did == "over":
                done.add(p.name)
            if did and os.environ.get("CRAITS_CHECK_TRACE"):
                print(f"{time.strftime('%H:%M:%S')} {p.name}: {did}", flush=True)
        if not reopened and "hand 3/8" in ann.screen():
            # Bob closes his terminal; a new one takes his seat back by itself
            bob.kill()
            time.sleep(0.3)
            bob = open_pane("Bob")
            bob.wait("Bob back in his seat", lambda s: "You are back in your" in s, 15)
            reopened = True
        time.sleep(0.05)
    if not reopened:
        raise CheckFailed("the game ended before Bob's terminal could be reopened")


def play_game(keep: bool, timeout: float = 1500.0) -> None:
    """Two players and a spectator, a whole short game, one terminal closed and reopened."""
    client = tool("craits-client")
    log = open(os.environ.get("CRAITS_CHECK_SERVER_LOG", os.devnull), "w")  # noqa: SIM115
    options = ("--hand-pause", "0.3", "--log-level", "debug")
    with served(*options, log=log) as (port, state):
        panes: dict[str, Pane] = {}
        tag = os.getpid()

        def open_pane(name: str, *extra: str) -> Pane:
            env = {
                "XDG_STATE_HOME": f"{state}/{name}",
                "TERM": "xterm-256color",
                "LANG": "C.UTF-8",
            }
            cmd = [client, f"127.0.0.1:{port}", "--name", name, *extra]
            panes[name] = Pane(f"craits-{name}-{tag}", cmd, env)
            return panes[name]

        try:
            ann = open_pane("Ann")
            ann.wait("Ann's lobby", lambda s: "No tables yet" in s)
            ann.keys("n")
            ann.wait("the new-table form", lambda s: "Open a table" in s)
            time.sleep(0.3)
            ann.keys("Tab", "Tab", "Tab", "Space")  # name, seats, turn timer, "Short game"
            ann.keys("C-s")
            ann.wait("Ann at her table", lambda s: "Waiting for players" in s)
            bob = open_pane("Bob")
            bob.wait("Bob's lobby", lambda s: "Ann's table" in s)
            bob.keys("j")
            cat = open_pane("Cat", "--spectate", "Ann's table")
            for p in (ann, bob):
                p.wait(f"{p.name}'s hand", lambda s: "Your hand" in s and "Players" in s)
            cat.wait("Cat watching", lambda s: "no hand" in s)
            play_to_the_end(ann, bob, open_pane, timeout)
            cat.wait(
                "Cat sees the standings", lambda s: "wins the game" in s or "Shared win" in s, 15
            )
        finally:
            if not keep:
                for p in panes.values():
                    p.kill()


def main(argv: list[str] | None = None) -> int:
    """Run the check; 0 if it passed, 1 if not, 2 without tmux."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="leave the tmux sessions running")
    parser.add_argument(
        "--game", action="store_true", help="play a whole game: two players, one spectator"
    )
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux_client_check: tmux is not installed", file=sys.stderr)
        return 2
    # a kill (a test timeout, say) still stops the server and the tmux sessions
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        if args.game:
            play_game(args.keep)
        else:
            run(args.keep)
    except CheckFailed as exc:
        print(f"tmux_client_check: FAILED: {exc}", file=sys.stderr)
        return 1
    what = "a whole game, a reconnect and a spectator" if args.game else "lobby, table and quit"
    print(f"tmux_client_check: {what}: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
