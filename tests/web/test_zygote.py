"""The pre-forked client: forks a client with the streams and arguments it is given,
shrugs off a bad request, and ends with everything it forked when craits-web's
lifeline is cut."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys
import time

from craits.client.web.lifeline import PARENT_GONE, open_lifeline
from craits.client.web.service import IMPORT_ENV, Zygote
from craits.server.app import Server

from tests.support.server import config, server  # noqa: F401


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (not gone, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def gone(*pids: int, timeout: float = 20.0) -> bool:
    """Wait until none of ``pids`` runs; whether they all went within ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_the_zygote_forks_a_client_and_survives_bad_requests(server: Server) -> None:  # noqa: F811
    read, write = open_lifeline()
    zygote = Zygote(read)
    assert await zygote.start()
    try:
        # Garbage, then a request without the streams: nothing forked, the zygote lives.
        for junk in (b"\xff not json", b'{"argv": [], "env": {}}'):
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.connect(zygote.path)
                s.sendall(junk)
                s.shutdown(socket.SHUT_WR)
                s.settimeout(5)
                assert s.recv(100) == b""
        assert zygote.running
        # A client that lists the server's tables and exits, its name from an argument
        # no shell would have left alone.
        client = await zygote.fork(
            [f"127.0.0.1:{server.port}", "--list", "--name=a; $(b) `c`"], {"LANG": "C.UTF-8"}
        )
        out = await asyncio.wait_for(client.stdout.read(), 30)
        assert out.decode().startswith("table\tseats\tplayers")
        assert client.pid > 0
    finally:
        await zygote.stop()
        os.close(write)
        os.close(read)
    assert not zygote.running


async def test_a_cut_lifeline_ends_the_zygote_and_its_clients(server: Server) -> None:  # noqa: F811
    """craits-web killed (SIGKILL: nothing stops its children): the pre-forked
    client and the clients it forked end at once."""
    read, write = open_lifeline()
    zygote = Zygote(read)
    assert await zygote.start()
    try:
        # A visitor's client in the lobby: it would wait there for its page for ever.
        client = await zygote.fork([f"127.0.0.1:{server.port}", "--web", "--name=kim"], {})
        await asyncio.wait_for(client.stdout.readline(), 30)  # it runs (its first output)
        proc = zygote._proc
        assert proc is not None and alive(client.pid)
        os.close(write)  # craits-web is gone
        assert await gone(client.pid, proc.pid)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        with contextlib.suppress(OSError):
            os.close(write)
        os.close(read)
        await zygote.stop()


async def test_a_client_started_anew_ends_when_its_lifeline_is_cut(server: Server) -> None:  # noqa: F811
    """``python -m craits.client.web.child FD …`` (craits-web --no-prefork): the
    client ends as soon as FD reads end of file, though its streams stay open
    (nothing else would tell it craits-web is gone)."""
    read, write = open_lifeline()
    client = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "craits.client.web.child", str(read)),
        *(f"127.0.0.1:{server.port}", "--web", "--name=lou"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        pass_fds=(read,),
        env={**os.environ, **IMPORT_ENV},
    )
    os.close(read)
    try:
        assert client.stdout is not None
        await asyncio.wait_for(client.stdout.readline(), 30)  # it runs (its first output)
        os.close(write)
        assert await asyncio.wait_for(client.wait(), 20) == PARENT_GONE
    finally:
        with contextlib.suppress(OSError):
            os.close(write)
        if client.returncode is None:
            client.kill()
            await client.wait()
