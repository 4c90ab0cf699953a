#!/usr/bin/env python3
"""Crash trials: is every acknowledged action in the journal after the server
dies at a random moment?

Each trial starts ``craits-server`` (``python -m craits.server``, no turn
timeout, no pause between hands, the rate limit and the per-address limit of
connections lifted), seats ``--tables`` tables of 4 network bots
(``craits.server.bots.network.bot.BotClient``, playing game after game) and lets
them play for a random time; every ``ok`` a bot receives is noted (table,
seat, action id). Then the trial ends in one of two ways:

- ``--mode kill``: the server is SIGKILLed. All trials share one data
  directory, so each start also restores every table of the trials before
  (a restart that sets a table aside is counted as a failure).
- ``--mode powercut``: the journal lives on a fresh ext4 file system on a
  loop device (``mkfs.ext4``, ``mount -o loop``: root only). The server and
  its journal's writer are stopped (SIGSTOP: no system call of theirs
  straddles the cut), the file system
  shut down without flushing its journal (the ``EXT4_IOC_SHUTDOWN`` ioctl with
  ``EXT4_GOING_FLAGS_NOLOGFLUSH``): what the disk had not been told to keep is
  gone, as in a power cut. Acks still arriving in the next 0.3 s count too; then
  the server is killed, and the file system unmounted and mounted again.

The journal is then read and every noted action looked up. Printed per trial
and in total: acknowledged actions, and lost ones (acknowledged, not in the
journal). ``--durability normal`` runs the server with that setting.

Examples::

    python scripts/crash_trials.py --mode kill --trials 50
    sudo python scripts/crash_trials.py --mode powercut --trials 10
    sudo python scripts/crash_trials.py --mode powercut --trials 10 --durability normal
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import os
import random
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from craits.protocol.types import OkMsg
from craits.server.bots.network.bot import BotClient, connect_bot
from craits.server.errors import BotError

EXT4_IOC_SHUTDOWN = 0x8004587D
"""``_IOR('X', 125, __u32)``: shut an ext4 file system down."""
EXT4_GOING_FLAGS_NOLOGFLUSH = 2
"""…without flushing its journal: as if the power went."""
Ack = tuple[str, int, int]
"""An acknowledged action: (table, seat, action id)."""


class NotingBot(BotClient):
    """A bot that notes every ``ok`` it gets for its own pending action."""

    def __init__(self, acked: dict[Ack, float], *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.acked = acked

    def _on_ok(self, msg: OkMsg) -> None:
        if msg["id"] == self.in_flight.pending and self.seat is not None:
            self.acked[(self.table, self.seat, msg["id"])] = time.monotonic()
        super()._on_ok(msg)


@dataclass
class Trial:
    """One trial's outcome."""

    acked: int = 0
    lost: list[Ack] = field(default_factory=list)
    ran: float = 0.0
    note: str = ""


# ------------------------------------------------------------------ server


async def start_server(
    data: Path, durability: str, log: Path
) -> tuple[asyncio.subprocess.Process, int]:
    """``craits-server`` on a free loopback port with its journal in ``data``;
    returns the process and its port once it listens.

    Raises:
        RuntimeError: it did not start (its stderr says why).
    """
    with open(log, "ab") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "craits.server", "--port", "0", "--data-dir", str(data),
            "--turn-timeout", "0", "--hand-pause", "0", "--rate", "1000000", "--burst",
            "1000000", "--max-tables", "100000", "--log-level", "warning",
            "--max-connections-per-address", "0",  # every bot is 127.0.0.1
            "--durability", durability,
            stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        assert proc.stderr is not None
        try:
            async with asyncio.timeout(120):
                while True:
                    line = (await proc.stderr.readline()).decode(errors="replace")
                    if not line:
                        break
                    err.write(line.encode())
                    if line.startswith("craits-server listening on"):
                        port = int(line.split("listening on", 1)[1].split()[0].rsplit(":", 1)[1])
                        asyncio.get_running_loop().create_task(_drain(proc, log))
                        return proc, port
        except TimeoutError:
            pass
    proc.kill()
    await proc.wait()
    raise RuntimeError(f"the server did not start; see {log}")


async def _drain(proc: asyncio.subprocess.Process, log: Path) -> None:
    assert proc.stderr is not None
    with open(log, "ab") as err:
        while line := await proc.stderr.readline():
            err.write(line)


async def seat_bots(
    port: int, prefix: str, tables: int, think: float, acked: dict[Ack, float]
) -> list[NotingBot]:
    """``tables`` tables of 4 bots each (named ``PREFIX-N``), all seated."""
    bots: list[NotingBot] = []
    for t in range(tables):
        name = f"{prefix}-{t}"
        for seat in range(4):
            bot = NotingBot(
                acked, name, f"b{seat}", think=think, jitter=0.5,
                create=4 if seat == 0 else None, games=0,
            )  # fmt: skip
            await connect_bot("127.0.0.1", port, bot)
            if seat == 0:
                await bot.joined  # the table exists before the others come
            bots.append(bot)
    async with asyncio.timeout(30):
        for bot in bots:
            await bot.joined
    return bots


def close_bots(bots: list[NotingBot]) -> None:
    """Close every bot; their links' failures (the server died) are expected."""
    for bot in bots:
        bot.close()
        if bot.done.done() and not bot.done.cancelled():
            bot.done.exception()


# ------------------------------------------------------------------ journal


def recorded(db: Path, tables: set[str]) -> set[Ack]:
    """The actions (table, seat, id) the journal at ``db`` holds for ``tables``."""
    conn = sqlite3.connect(db, isolation_level=None)  # read-write: recovers the log
    try:
        rows = conn.execute(
            "SELECT g.table_name, l.data FROM log l JOIN games g ON g.id = l.game_id "
            "WHERE l.kind = 'action'"
        ).fetchall()
    finally:
        conn.close()
    found: set[Ack] = set()
    for table, text in rows:
        if table in tables:
            data = json.loads(text)
            if data.get("id") is not None:
                found.add((table, data["seat"], data["id"]))
    return found


# ------------------------------------------------------------ file systems


def run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, capture_output=True)


@contextlib.contextmanager
def loop_filesystem(root: Path, size_mb: int) -> Iterator[tuple[Path, Path]]:
    """A fresh ext4 file system in ``root/disk.img``, mounted at ``root/mnt``;
    yields (image, mount point); unmounted and removed afterwards."""
    image, mnt = root / "disk.img", root / "mnt"
    with open(image, "wb") as f:
        f.truncate(size_mb * 1024 * 1024)
    run("mkfs.ext4", "-q", "-F", str(image))
    mnt.mkdir(exist_ok=True)
    run("mount", "-o", "loop", str(image), str(mnt))
    try:
        yield image, mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)
        image.unlink(missing_ok=True)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the server's: its journal's writer)."""
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


async def stopped(pid: int) -> None:
    """SIGSTOP process ``pid``, then its children (the journal's writer), and
    wait until each is stopped: none of their system calls is then under way,
    so none can straddle the cut. (The shutdown ioctl takes milliseconds, and
    an fsync that finishes while it runs can be reported done though its data
    is dropped: a real power cut cannot do that. Stopping the server first
    keeps the trial honest: every ``ok`` it sent followed an fsync that
    finished before the cut.)"""
    for p in [pid, *children(pid)]:
        os.kill(p, signal.SIGSTOP)
        for _ in range(1000):
            with open(f"/proc/{p}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("T", "t"):
                    break
            await asyncio.sleep(0.001)
        else:
            raise RuntimeError(f"process {p} did not stop")


def power_cut(mnt: Path) -> None:
    """Shut the file system at ``mnt`` down without flushing its journal."""
    fd = os.open(mnt, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, EXT4_IOC_SHUTDOWN, struct.pack("I", EXT4_GOING_FLAGS_NOLOGFLUSH))
    finally:
        os.close(fd)


def remount(image: Path, mnt: Path) -> None:
    """Unmount (retrying while the dead server's files close) and mount again."""
    for _ in range(50):
        if subprocess.run(["umount", str(mnt)], capture_output=True).returncode == 0:
            break
        time.sleep(0.1)
    else:
        raise RuntimeError(f"cannot unmount {mnt}")
    run("mount", "-o", "loop", str(image), str(mnt))


# ------------------------------------------------------------------ trials


async def play_then(
    args: argparse.Namespace, data: Path, log: Path, n: int, end: str, mnt: Path | None
) -> Trial:
    """One trial: start, play for a random time, end it (``kill`` or ``powercut``)."""
    rng = random.Random(args.seed * 1000 + n)
    proc, port = await start_server(data, args.durability, log)
    acked: dict[Ack, float] = {}
    prefix = f"t{n}"
    bots = await seat_bots(port, prefix, args.tables, args.think_ms / 1000, acked)
    ran = rng.uniform(args.min_run, args.max_run)
    await asyncio.sleep(ran)
    cut = time.monotonic()
    if end == "powercut":
        assert mnt is not None
        await stopped(proc.pid)
        power_cut(mnt)
        await asyncio.sleep(0.3)  # acks in flight count too
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    await asyncio.sleep(0.05)
    close_bots(bots)
    trial = Trial(acked=len(acked), ran=ran)
    found = _after(end, data, mnt, {f"{prefix}-{t}" for t in range(args.tables)})
    trial.lost = sorted(set(acked) - found)
    for ack in trial.lost[:5]:
        later = sum(1 for a, at in acked.items() if at > acked[ack] and a in found)
        print(
            f"    lost: table {ack[0]} seat {ack[1]} id {ack[2]}, acked "
            f"{1000 * (acked[ack] - cut):+.1f} ms from the end; {later} acked later were kept"
        )
    return trial


def _after(end: str, data: Path, mnt: Path | None, tables: set[str]) -> set[Ack]:
    if end == "powercut":
        assert mnt is not None
        remount(Path(str(mnt.parent / "disk.img")), mnt)
    return recorded(data / "craits.db", tables)


async def restarts_cleanly(data: Path, durability: str, log: Path) -> str:
    """Start the server on ``data`` once more and stop it; what went wrong, or ''."""
    before = log.read_text(errors="replace") if log.exists() else ""
    try:
        proc, _ = await start_server(data, durability, log)
    except RuntimeError as exc:
        return str(exc)
    proc.send_signal(signal.SIGTERM)
    await proc.wait()
    after = log.read_text(errors="replace")[len(before) :]
    if "set aside" in after or "Traceback" in after or proc.returncode != 0:
        return f"restart: {after.strip()[-300:]}"
    return ""


async def main_async(args: argparse.Namespace) -> int:
    root = Path(tempfile.mkdtemp(prefix="craits-crash-"))
    log = root / "server.log"
    results: list[Trial] = []
    try:
        for n in range(args.trials):
            if args.mode == "kill":
                trial = await play_then(args, root / "data", log, n, "kill", None)
                trial.note = await restarts_cleanly(root / "data", args.durability, log)
            else:
                with loop_filesystem(root, args.disk_mb) as (_, mnt):
                    trial = await play_then(args, mnt / "data", log, n, "powercut", mnt)
                    trial.note = await restarts_cleanly(mnt / "data", args.durability, log)
            results.append(trial)
            print(
                f"trial {n + 1:3}: ran {trial.ran:5.2f} s, acked {trial.acked:6}, "
                f"lost {len(trial.lost)}{'  ' + trial.note if trial.note else ''}",
                flush=True,
            )
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            subprocess.run(["rm", "-rf", str(root)])
    acked = sum(t.acked for t in results)
    lost = sum(len(t.lost) for t in results)
    bad = sum(1 for t in results if t.note)
    print(
        f"{args.mode}, durability {args.durability}: {len(results)} trials, "
        f"{acked} acknowledged actions, {lost} lost; {bad} restarts with a problem"
    )
    return 1 if lost or bad else 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--mode", choices=["kill", "powercut"], default="kill")
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--tables", type=int, default=10, help="tables of 4 bots (default 10)")
    p.add_argument("--think-ms", type=float, default=0, help="bots' mean think time (default 0)")
    p.add_argument("--min-run", type=float, default=0.5, help="shortest play before the end (s)")
    p.add_argument("--max-run", type=float, default=4.0, help="longest play before the end (s)")
    p.add_argument("--durability", choices=["full", "normal"], default="full")
    p.add_argument("--disk-mb", type=int, default=256, help="size of the loop file system")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", action="store_true", help="keep the data directory (kill mode)")
    return p


def main() -> None:
    args = build_parser().parse_args()
    if args.mode == "powercut" and os.geteuid() != 0:
        sys.exit("crash_trials: --mode powercut mounts a loop device: run it as root")
    with contextlib.suppress(BotError):
        sys.exit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
