"""Helpers for the journal fault tests: a real ``craits-server`` process whose
stderr is kept, a journal with finished and unfinished games to damage, and
the machine's means of making a file truly unwritable (tests run as root,
where file modes stop nothing)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from craits.protocol.client import Connection
from craits.server.app import Server, ServerConfig

from tests.support.processes import SERVER, free_port
from tests.support.server import Player, play_until, settle

FINISHED = ("r1", "r2", "r3")
"""The tables whose (short) games the built journal holds finished, games 1–3."""
UNFINISHED = ("u1", "u2")
"""The tables whose games it holds in play (hand 2), games 4 and 5."""


@dataclass
class Launched:
    """A ``craits-server`` process started by :func:`launch`: running (``port``
    accepts connections) or already exited (``code``), its stderr in ``log``."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path
    code: int | None = None

    @property
    def stderr(self) -> str:
        """Everything it wrote to stderr so far."""
        return self.log.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 10) -> int:
        """Send ``sig`` and wait for the exit status (SIGKILL after ``timeout`` s)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.code = self.proc.returncode
        return self.code


async def launch(data: Path, *extra: str, wait: float = 15) -> Launched:
    """``craits-server`` on a free port with its journal in ``data`` (no turn
    timeout, a short pause between hands, the rate limit lifted); returns once
    it accepts connections or has exited."""
    port = free_port()
    log = data.parent / f"server-{port}.log"
    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [
                *SERVER,
                "--port",
                str(port),
                "--data-dir",
                str(data),
                "--turn-timeout",
                "0",
                "--hand-pause",
                "0.01",
                "--rate",
                "100000",
                "--burst",
                "100000",
                "--analyse-finished",  # no background analyses here
                "0",
                *extra,
            ],
            stderr=err,
        )
    launched = Launched(proc, port, log)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            launched.code = proc.returncode
            return launched
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return launched
        except OSError:
            await asyncio.sleep(0.05)
    launched.stop(signal.SIGKILL)
    raise AssertionError(f"craits-server neither listened nor exited: {launched.stderr}")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``craits-server ARGS…`` (``export``, ``check``) as a user runs it."""
    return subprocess.run([*SERVER, *args], capture_output=True, text=True, timeout=120)


@dataclass
class BuiltJournal:
    """A data directory whose journal holds the games of :data:`FINISHED`
    (ids 1–3, finished) and :data:`UNFINISHED` (ids 4–5, in play), and the
    resume tokens of the unfinished tables' seats."""

    data: Path
    tokens: dict[str, list[str]] = field(default_factory=dict)

    def copy(self, to: Path) -> Path:
        """A copy of the data directory at ``to``; returns it."""
        shutil.copytree(self.data, to)
        return to


async def _seat_two(port: int, table: str, rules: dict[str, bool]) -> list[Player]:
    players = [Player(await Connection.open("127.0.0.1", port, name=n), n) for n in ("Ana", "Ben")]
    await players[0].send({"type": "create_table", "name": table, "seats": 2, "rules": rules})
    await players[0].expect("table_created")
    for p in players:
        await p.send({"type": "join", "table": table, "name": p.name})
        await p.expect("joined")
    await settle(players, 1)
    return players


async def build_journal(data: Path) -> BuiltJournal:
    """Play the games of a :class:`BuiltJournal` on an in-process server."""
    config = ServerConfig(
        port=0,
        turn_timeout=0,
        hand_pause=0.01,
        rate=1e5,
        burst=1e5,
        data_dir=data,
        analyse_finished=0,
    )
    server = Server(config)
    await server.start()
    built = BuiltJournal(data)
    try:
        for name in FINISHED:
            players = await _seat_two(server.port, name, {"short_game": True})
            view = players[0]

            def over(p: Player = view) -> bool:
                return p.view is not None and p.view["phase"] == "game_over"

            await play_until(players, over, random.Random(name))
            for p in players:
                await p.close()
        for name in UNFINISHED:
            players = await _seat_two(server.port, name, {})

            def second_hand(p: Player = players[0]) -> bool:
                return p.view is not None and p.view["hand_number"] >= 2

            await play_until(players, second_hand, random.Random(name))
            built.tokens[name] = [str(p.token) for p in players]
            for p in players:
                await p.close()
    finally:
        await server.stop()
    return built


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    """Make ``path`` immutable (``chattr +i``: not even root may write it)
    for the block; skips the test, with the reason, where the file system
    or the machine cannot."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed: cannot make a file unwritable for root")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"chattr +i {path} failed ({done.stderr.strip()}): cannot make it unwritable")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
