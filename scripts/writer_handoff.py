#!/usr/bin/env python3
"""A journal writer beside a busy event loop: a thread, or a process?

Why the journal's writer is a process (:mod:`craits.server.journal.writer`).
A stand-in for a busy server loop (Python work, ~0.1 ms at a time, and a
socket round trip between) hands a batch of 20 log rows to a writer, goes on
working, and notes how long each batch took to come back committed (fsynced,
``synchronous=FULL``, in WAL mode, on the disk of ``--dir``). The writer is a
thread of this process (it needs CPython's global lock after every SQLite
call, and the loop holds it), or a process of its own fed over a pipe. The two
run alternately, ``--rounds`` times each, ``--seconds`` each, and the round
trips' p50/p99/max are printed per run.

    python scripts/writer_handoff.py --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import select
import socket
import sqlite3
import struct
import sys
import tempfile
import threading
import time
from pathlib import Path

ENTRY = {"seat": 1, "id": 1234567890123, "action": {"play": "8H", "suit": "S"}}
INSERT = (
    "INSERT INTO log SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
    " 'action', json_extract(value, '$[2]') FROM json_each(?)"
)


def open_db(path: Path) -> sqlite3.Connection:
    """A fresh journal-like database at ``path``: WAL, fsync at each commit."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute(
        "CREATE TABLE log (game_id INTEGER NOT NULL, n INTEGER NOT NULL, kind TEXT NOT NULL,"
        " data TEXT NOT NULL, PRIMARY KEY (game_id, n)) WITHOUT ROWID"
    )
    return db


def commit(db: sqlite3.Connection, payload: str) -> None:
    """One batch: one transaction, its rows from one JSON text."""
    db.execute("BEGIN")
    db.execute(INSERT, (payload,))
    db.execute("COMMIT")


def batch(g: int) -> str:
    return json.dumps([(g, i, ENTRY) for i in range(20)])


def busy_loop(seconds: float, ready: object, handoff: object) -> list[float]:
    """The stand-in loop: works, hands a batch over when none is in flight,
    notes each round trip. ``handoff(payload)`` starts one; ``ready()`` says
    whether it came back."""
    a, b = socket.socketpair()
    trips: list[float] = []
    sent: float | None = None
    g = 0
    x = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for i in range(2000):  # ~0.1 ms of Python
            x += i * i
        a.send(b"x")
        b.recv(10)
        if sent is None:
            g += 1
            sent = time.perf_counter()
            handoff(batch(g))  # type: ignore[operator]
        elif ready():  # type: ignore[operator]
            trips.append(time.perf_counter() - sent)
            sent = None
    a.close()
    b.close()
    return trips


def with_thread(path: Path, seconds: float) -> list[float]:
    """The writer as a thread of this process."""
    db = open_db(path)
    todo: list[str] = []
    done = threading.Event()
    wake = threading.Condition()
    stop = False

    def writer() -> None:
        while True:
            with wake:
                while not todo and not stop:
                    wake.wait()
                if stop:
                    return
                payload = todo.pop()
            commit(db, payload)
            done.set()

    thread = threading.Thread(target=writer)
    thread.start()

    def handoff(payload: str) -> None:
        done.clear()
        with wake:
            todo.append(payload)
            wake.notify()

    trips = busy_loop(seconds, done.is_set, handoff)
    with wake:
        stop = True
        wake.notify()
    thread.join()
    db.close()
    return trips


def with_process(path: Path, seconds: float) -> list[float]:
    """The writer as a process of its own, fed over a pipe."""
    to_writer, from_loop = os.pipe()
    to_loop, from_writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the writer: nothing but SQLite, no lock shared with the loop
        os.close(from_loop)
        os.close(to_loop)
        db = open_db(path)
        source = os.fdopen(to_writer, "rb")
        while (head := source.read(4)) and len(head) == 4:
            commit(db, source.read(struct.unpack(">I", head)[0]).decode())
            os.write(from_writer, b"k")
        os._exit(0)
    os.close(to_writer)
    os.close(from_writer)
    time.sleep(0.2)  # the writer opens its database

    def handoff(payload: str) -> None:
        data = payload.encode()
        os.write(from_loop, struct.pack(">I", len(data)) + data)

    def ready() -> bool:
        if select.select([to_loop], [], [], 0)[0]:
            os.read(to_loop, 16)
            return True
        return False

    trips = busy_loop(seconds, ready, handoff)
    os.close(from_loop)
    os.waitpid(pid, 0)
    os.close(to_loop)
    return trips


def report(name: str, trips: list[float]) -> str:
    trips.sort()
    if not trips:
        return f"{name:8} no batch came back"
    p = [1000 * trips[min(len(trips) - 1, int(q * len(trips)))] for q in (0.5, 0.99)]
    return (
        f"{name:8} {len(trips):5} batches  p50 {p[0]:.2f} ms  p99 {p[1]:.2f} ms  "
        f"max {1000 * trips[-1]:.2f} ms"
    )


def main() -> None:
    """Parse the command line, run the rounds, print."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--dir", type=Path, default=None, help="where the database goes")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        path = Path(d) / "handoff.db"
        for round_ in range(args.rounds):
            for name, fn in (("thread", with_thread), ("process", with_process)):
                print(f"round {round_ + 1}: {report(name, fn(path, args.seconds))}", flush=True)
    print(f"(switch interval {sys.getswitchinterval() * 1000:g} ms)")


if __name__ == "__main__":
    main()
