"""A power cut loses no acknowledged action (issue 11, item 10).

The journal lives on a fresh ext4 file system on a loop device. A real
``craits-server`` (default durability: every commit fsynced before its
``ok``) serves tables of network bots; mid-play the server and its journal's
writer are stopped (SIGSTOP: none of their system calls straddles the cut), the file system is
shut down without flushing its journal (``EXT4_IOC_SHUTDOWN``,
``EXT4_GOING_FLAGS_NOLOGFLUSH``: what the disk was not told to keep is gone),
the server killed, and the file system mounted again. Every action a bot got
an ``ok`` for is in the journal. With ``--durability normal`` (the setting
before) hundreds of the last second's actions were lost.

Mounting needs root and loop devices: where the machine cannot, the test is
skipped with the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import shutil
import signal
import sqlite3
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from craits.protocol.types import OkMsg
from craits.server.bots.network.bot import BotClient, connect_bot

from tests.support.faulty import launch

EXT4_IOC_SHUTDOWN = 0x8004587D
EXT4_GOING_FLAGS_NOLOGFLUSH = 2
EXT4_GOING_FLAGS_DEFAULT = 0
"""Shut down after syncing the file system: what was written is kept, every
later write and fsync fails (a disk that fails, with no race against an fsync
under way, which the shutdown without a flush can report done and drop)."""
TABLES = 3
PLAY = 1.5
"""Seconds of play before the cut."""
Ack = tuple[str, int]
"""An action by its table and its id, not its seat: a rematch moves every player a
seat on (protocol §11.12), so the seat a bot noted before it is not the one
recorded after."""


class NotingBot(BotClient):
    """A bot that notes every ``ok`` it gets for its own action: (table, id)."""

    def __init__(self, acked: set[Ack], table: str, name: str, create: int | None) -> None:
        super().__init__(table, name, think=0.0, create=create, games=0)
        self.acked = acked

    def _on_ok(self, msg: OkMsg) -> None:
        if msg["id"] == self.in_flight.pending and self.seat is not None:
            self.acked.add((self.table, msg["id"]))
        super()._on_ok(msg)


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True)


@pytest.fixture
def loop_mount(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A fresh 128 MiB ext4 file system on a loop device: (image, mount point)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a loop device needs root")
    for tool in ("mkfs.ext4", "mount", "umount", "losetup"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")
    image, mnt = tmp_path / "disk.img", tmp_path / "mnt"
    with open(image, "wb") as f:
        f.truncate(128 * 1024 * 1024)
    made = _run("mkfs.ext4", "-q", "-F", str(image))
    if made.returncode != 0:
        pytest.skip(f"mkfs.ext4 failed: {made.stderr.strip()}")
    mnt.mkdir()
    mounted = _run("mount", "-o", "loop", str(image), str(mnt))
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a loop device here: {mounted.stderr.strip()}")
    try:
        yield image, mnt
    finally:
        if _run("umount", str(mnt)).returncode != 0:
            _run("umount", "-l", str(mnt))


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the server's journal writer)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with (
                contextlib.suppress(OSError, IndexError, ValueError),
                open(f"/proc/{entry}/stat") as f,
            ):
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry))
    return found


async def _stop(pid: int) -> None:
    """SIGSTOP ``pid``, then its children (the journal's writer), and wait
    until each is stopped."""
    for p in [pid, *_children(pid)]:
        os.kill(p, signal.SIGSTOP)
        for _ in range(2000):
            with open(f"/proc/{p}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                    break
            await asyncio.sleep(0.001)
        else:
            raise AssertionError(f"process {p} did not stop")


def _power_cut(mnt: Path, flags: int = EXT4_GOING_FLAGS_NOLOGFLUSH) -> None:
    fd = os.open(mnt, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN, struct.pack("I", flags))
    finally:
        os.close(fd)


def _remount(image: Path, mnt: Path) -> None:
    for _ in range(100):
        if _run("umount", str(mnt)).returncode == 0:
            break
    else:
        raise AssertionError(f"cannot unmount {mnt}")
    assert _run("mount", "-o", "loop", str(image), str(mnt)).returncode == 0


def _recorded(db: Path) -> set[Ack]:
    conn = sqlite3.connect(db, isolation_level=None)  # read-write: recovers the log
    try:
        rows = conn.execute(
            "SELECT g.table_name, l.data FROM log l JOIN games g ON g.id = l.game_id "
            "WHERE l.kind = 'action'"
        ).fetchall()
    finally:
        conn.close()
    found = set()
    for table, text in rows:
        data = json.loads(text)
        if data.get("id") is not None:
            found.add((table, data["id"]))
    return found


async def _play(port: int, acked: set[Ack], bots: list[NotingBot]) -> None:
    """Four noting bots at each of :data:`TABLES` tables (appended to ``bots``,
    to close whatever happens), playing for :data:`PLAY` seconds and until more
    than 100 actions are acknowledged (a busy machine plays slower: 60 s at most)."""
    for t in range(TABLES):
        for seat in range(4):
            bot = NotingBot(acked, f"t{t}", f"b{seat}", 4 if seat == 0 else None)
            await connect_bot("127.0.0.1", port, bot)
            if seat == 0:
                await bot.joined
            bots.append(bot)
    await asyncio.sleep(PLAY)
    async with asyncio.timeout(60):
        while len(acked) <= 100:
            await asyncio.sleep(0.05)


def _close(bots: list[NotingBot]) -> None:
    """Close the bots, their ends read (a failed bot's error is not left unread)."""
    for bot in bots:
        bot.close()
        if bot.done.done() and not bot.done.cancelled():
            bot.done.exception()


async def test_no_acknowledged_action_is_lost_to_a_power_cut(
    loop_mount: tuple[Path, Path],
) -> None:
    image, mnt = loop_mount
    data = mnt / "data"
    server = await launch(data)
    assert server.code is None, server.stderr
    acked: set[Ack] = set()
    bots: list[NotingBot] = []
    try:
        await _play(server.port, acked, bots)
        await _stop(server.proc.pid)
        _power_cut(mnt)
        await asyncio.sleep(0.3)  # acks already on their way count too
    finally:
        server.stop(signal.SIGKILL)
        _close(bots)
    _remount(image, mnt)
    lost = acked - _recorded(data / "craits.db")
    assert len(acked) > 100, "too little play to tell"
    assert not lost, f"{len(lost)} of {len(acked)} acknowledged actions lost"


async def test_a_disk_that_fails_mid_game_pauses_the_tables_and_nothing_unrecorded_is_acknowledged(
    loop_mount: tuple[Path, Path],
) -> None:
    """The journal's file system fails under a running server (synced, then
    shut down: every write and fsync fails from then on), the server and its
    writer left running: the writer's failed commits are never acknowledged
    (an action acknowledged after the failure would be missing from the
    journal), every table pauses, the operator is told, and the server runs
    on. (Shut down without the sync, as the power-cut test does, an fsync
    under way when the shutdown comes can be reported done and its data
    dropped, which is why that test stops the server first.)"""
    image, mnt = loop_mount
    (mnt / "data").mkdir()
    data = image.parent / "data"  # the journal on the failing disk, the server's log off it
    data.symlink_to(mnt / "data")
    server = await launch(data)
    assert server.code is None, server.stderr
    acked: set[Ack] = set()
    bots: list[NotingBot] = []
    try:
        await _play(server.port, acked, bots)
        _power_cut(mnt, EXT4_GOING_FLAGS_DEFAULT)  # the disk fails; the server runs on
        for _ in range(300):  # every table says it paused (a generous ceiling: 15 s)
            if server.stderr.count("paused: journal write failed") >= TABLES:
                break
            await asyncio.sleep(0.05)
        after_cut = len(acked)
        await asyncio.sleep(0.3)
        assert len(acked) == after_cut  # nothing more acknowledged once paused
        assert server.proc.poll() is None  # the server is still up
    finally:
        server.stop(signal.SIGKILL)
        _close(bots)
    assert server.stderr.count("paused: journal write failed") >= TABLES, server.stderr
    _remount(image, mnt)
    lost = acked - _recorded(mnt / "data" / "craits.db")
    assert len(acked) > 100, "too little play to tell"
    assert not lost, f"{len(lost)} of {len(acked)} acknowledged actions lost"
