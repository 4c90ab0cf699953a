"""The pre-forked client: forks a client with the streams and arguments it is given,
and shrugs off a bad request."""

from __future__ import annotations

import asyncio
import socket

from craits.client.web.service import Zygote
from craits.server.app import Server

from tests.server.conftest import config, server  # noqa: F401


async def test_the_zygote_forks_a_client_and_survives_bad_requests(server: Server) -> None:  # noqa: F811
    zygote = Zygote()
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
    assert not zygote.running
