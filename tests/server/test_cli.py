"""craits-server's command line as a user runs it (real subprocesses): the
startup line's join hint."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys

from craits.protocol import DEFAULT_PORT
from craits.server.cli import join_address

SERVER = [sys.executable, "-m", "craits.server.cli"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_startup_line_suggests_the_readme_address() -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [*SERVER, "--port", str(port), "--no-journal"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stderr is not None
        line = ""
        while not line.startswith("craits-server listening"):
            line = proc.stderr.readline()
            assert line, "the server ended without its startup line"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
    assert line.strip() == (
        f"craits-server listening on 127.0.0.1:{port} — join with: craits-client localhost:{port}"
    )


def test_join_address() -> None:
    assert join_address("127.0.0.1", DEFAULT_PORT) == "localhost"
    assert join_address("localhost", DEFAULT_PORT) == "localhost"
    assert join_address("::1", DEFAULT_PORT) == "localhost"
    assert join_address("127.0.0.1", 7000) == "localhost:7000"
    assert join_address("0.0.0.0", DEFAULT_PORT) == "HOST"
    assert join_address("0.0.0.0", 7000) == "HOST:7000"
    assert join_address("192.168.1.5", DEFAULT_PORT) == "192.168.1.5"
    assert join_address("fe80::1", 7000) == "[fe80::1]:7000"
