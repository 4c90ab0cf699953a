"""How long a login with a device key takes, end to end on loopback, and what
it costs the server (issue 26, protocol §7.5; docs/accounts.md, *Figures*).

A real ``craits-server`` (its own process, no journal: its accounts in a
temporary SQLite file) and real connections: a few accounts are registered
once (argon2id at its production cost, for their recovery codes), then each
login opens a fresh connection, says ``hello``, signs the ``welcome``'s nonce
and waits for ``logged_in``. Printed: the login alone (``login`` sent →
``logged_in``) and the whole of it (connect → ``logged_in``), median and 95th
percentile, and the server's CPU time per login (user + system, from
``/proc``: an upper bound on the event loop's time, as it counts the store's
thread too).

    .venv/bin/python scripts/bench_login.py [--logins 300] [--accounts 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time

from craits.protocol.client import Connection
from craits.protocol.identity import public_key_bytes, server_identity, sign_login
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (Linux ``/proc``)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def signed(conn: Connection, key: Ed25519PrivateKey, port: int) -> dict[str, str]:
    identity = server_identity("127.0.0.1", port)
    signature = sign_login(key, bytes.fromhex(conn.welcome["nonce"]), identity)
    return {"key": public_key_bytes(key).hex(), "signature": signature.hex(), "server": identity}


async def reply(conn: Connection, kind: str) -> dict[str, object]:
    while True:
        message = await conn.recv()
        if message["type"] in (kind, "error"):
            assert message["type"] == kind, message
            return message


async def bench(port: int, pid: int, logins: int, accounts: int) -> None:
    keys = [Ed25519PrivateKey.generate() for _ in range(accounts)]
    for i, key in enumerate(keys):
        conn = await Connection.open("127.0.0.1", port, name=f"p{i}")
        await conn.send({"type": "register", "name": f"bench{i}", **await signed(conn, key, port)})
        await reply(conn, "registered")
        await conn.close()
    alone: list[float] = []
    whole: list[float] = []
    cpu_before = cpu_seconds(pid)
    for n in range(logins):
        key = keys[n % accounts]
        started = time.perf_counter()
        conn = await Connection.open("127.0.0.1", port, name="bench")
        message = {"type": "login", **await signed(conn, key, port)}
        sent = time.perf_counter()
        await conn.send(message)
        await reply(conn, "logged_in")
        done = time.perf_counter()
        alone.append(done - sent)
        whole.append(done - started)
        await conn.close()
    cpu = cpu_seconds(pid) - cpu_before

    def show(what: str, times: list[float]) -> None:
        times = sorted(times)
        p95 = times[int(0.95 * (len(times) - 1))]
        median = statistics.median(times) * 1000
        print(f"{what:<32} median {median:6.2f} ms   p95 {p95 * 1000:6.2f} ms")

    print(f"{logins} logins by key, {accounts} accounts, loopback")
    show("login (login → logged_in)", alone)
    show("end to end (connect → logged_in)", whole)
    print(f"{'server CPU per login':<32} {cpu / logins * 1000:6.2f} ms (connection, hello, login)")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--logins", type=int, default=300)
    p.add_argument("--accounts", type=int, default=3)
    args = p.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "craits.server.ops.cli", "--no-journal", "--port", str(port),
         "--log-level", "warning"],
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        asyncio.run(bench(port, server.pid, args.logins, args.accounts))
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
