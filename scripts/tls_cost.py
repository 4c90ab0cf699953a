#!/usr/bin/env python3
"""What TLS costs the server: per connection (the handshake) and per message.

It starts ``craits-server`` twice on free loopback ports, once over plain TCP
and once with ``--tls-cert``/``--tls-key`` (a certificate made by ``trustme``,
the test extra's), and against each:

1. opens ``--connections`` connections one after the other, each saying
   ``hello`` and closing once welcomed (pinned by fingerprint over TLS, as a
   self-hosted server's friends connect): the wall time per connection, and
   the server's CPU time per connection (``/proc/PID/stat``);
2. seats two players at a table and has one send ``--chats`` chat lines (300
   characters) while both read them: the server's CPU time per line (each
   line goes out twice).

Example (the figures in the report of issue 12)::

    python scripts/tls_cost.py --connections 300 --chats 5000

The figures depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import trustme
from craits.protocol.client import Connection
from craits.protocol.tls import TlsOptions, fingerprint
from cryptography import x509
from cryptography.hazmat.primitives import serialization

TICKS = os.sysconf("SC_CLK_TCK")
BATCH = 100
"""Chat lines sent before both players read them."""


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far, in seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start_server(extra: Sequence[str]) -> tuple[subprocess.Popen[str], int]:
    """``craits-server`` on a free loopback port; returns it and its port once it listens."""
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "craits.server", "--port", "0", "--no-journal",
            "--log-level", "warning", "--rate", "1000000", "--burst", "1000000", *extra,
        ],
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    while True:
        line = proc.stderr.readline()
        if not line:
            raise SystemExit("the server did not start")
        if "listening on" in line:
            return proc, int(line.split("listening on ")[1].split()[0].rsplit(":", 1)[1])


async def connections(port: int, n: int, tls: TlsOptions | None) -> None:
    """``n`` connections in turn: hello, welcome, close."""
    for i in range(n):
        conn = await Connection.open("127.0.0.1", port, f"p{i}", tls=tls)
        await conn.close()


async def chats(port: int, n: int, tls: TlsOptions | None) -> None:
    """Two players at a table; one sends ``n`` chat lines, both read them all
    (a batch at a time: no backlog builds up, §4.5)."""
    ana = await Connection.open("127.0.0.1", port, "Ana", tls=tls)
    ben = await Connection.open("127.0.0.1", port, "Ben", tls=tls)
    await ana.send({"type": "create_table", "name": "t", "seats": 3})
    for conn, name in ((ana, "Ana"), (ben, "Ben")):
        await conn.send({"type": "join", "table": "t", "name": name})
        while (await conn.recv()).get("type") != "joined":
            pass

    text = "z" * 300
    for start in range(0, n, BATCH):  # in batches, read as they go: no backlog builds up
        batch = range(start, min(n, start + BATCH))
        for i in batch:
            await ana.send({"type": "chat", "text": f"{i}{text}"[:300]})
        for conn in (ana, ben):
            seen = 0
            while seen < len(batch):
                if (await conn.recv()).get("type") == "chat":
                    seen += 1
    await ana.close()
    await ben.close()


def measure(
    label: str, extra: Sequence[str], args: argparse.Namespace, tls: TlsOptions | None
) -> tuple[float, float, float]:
    """Run both loads against one server; print and return the figures."""
    proc, port = start_server(extra)
    try:
        cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
        asyncio.run(connections(port, args.connections, tls))
        cpu1, t1 = cpu_seconds(proc.pid), time.perf_counter()
        asyncio.run(chats(port, args.chats, tls))
        cpu2 = cpu_seconds(proc.pid)
    finally:
        proc.terminate()
        proc.wait()
    per_conn_ms = (t1 - t0) / args.connections * 1000
    conn_cpu_ms = (cpu1 - cpu0) / args.connections * 1000
    chat_cpu_us = (cpu2 - cpu1) / args.chats * 1e6
    print(
        f"{label:6} connect+hello: {per_conn_ms:6.2f} ms wall, {conn_cpu_ms:5.2f} ms server CPU"
        f" per connection; chat: {chat_cpu_us:6.1f} µs server CPU per line (to 2 members)"
    )
    return per_conn_ms, conn_cpu_ms, chat_cpu_us


def main() -> None:
    """Parse the options, make the certificate, measure plain TCP then TLS."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--connections", type=int, default=300, help="connections (default 300)")
    p.add_argument("--chats", type=int, default=5000, help="chat lines (default 5000)")
    args = p.parse_args()
    leaf = trustme.CA().issue_cert("localhost", "127.0.0.1")
    with tempfile.TemporaryDirectory() as folder:
        cert, key = Path(folder) / "cert.pem", Path(folder) / "key.pem"
        leaf.cert_chain_pems[0].write_to_path(str(cert))
        leaf.private_key_pem.write_to_path(str(key))
        der = x509.load_pem_x509_certificate(cert.read_bytes()).public_bytes(
            serialization.Encoding.DER
        )
        pinned = TlsOptions(fingerprint=fingerprint(der))
        plain = measure("plain", [], args, None)
        tls = measure("TLS", ["--tls-cert", str(cert), "--tls-key", str(key)], args, pinned)
    print(
        f"TLS adds {tls[0] - plain[0]:.2f} ms per connection ({tls[1] - plain[1]:.2f} ms of "
        f"server CPU) and {tls[2] - plain[2]:.1f} µs of server CPU per chat line"
    )


if __name__ == "__main__":
    main()
