"""TLS on the wire (protocol §2): verified and pinned connections, clients on the
wrong port, the handshake's deadline, the send buffers' bound, and the
``craits-server`` command with good and bad certificate files."""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import subprocess
from pathlib import Path
from typing import Any

import pytest
from craits.protocol import MAX_SERVER_FRAME, FrameReader, decode, encode
from craits.protocol.client import ConnectError, Connection
from craits.protocol.tls import (
    CertificateMismatch,
    NotTls,
    TlsOptions,
    UntrustedCertificate,
    format_fingerprint,
    verifying_context,
)
from craits.server.app import Server

from tests.support.processes import SERVER, free_port, stop_server
from tests.support.server import server  # noqa: F401 - a fixture
from tests.tls.conftest import HOST, Certs, tls_player


def handshake_failures(caplog: Any) -> list[logging.LogRecord]:
    return [r for r in caplog.records if "TLS handshake failed" in r.getMessage()]


async def test_a_client_trusting_the_authority_plays_over_tls(
    tls_server: Server, certs: Certs
) -> None:
    ana = await tls_player(tls_server, "Ana", TlsOptions(cafile=str(certs.ca)))
    ssl_object = ana.conn.writer.get_extra_info("ssl_object")
    assert ssl_object.version() == "TLSv1.3"
    await ana.send({"type": "create_table", "name": "t", "seats": 2})
    await ana.expect("table_created")
    await ana.send({"type": "list_tables"})
    tables = await ana.expect("tables")
    assert [t["name"] for t in tables["tables"]] == ["t"]
    await ana.close()


async def test_tls_1_2_is_spoken_and_nothing_older(tls_server: Server, certs: Certs) -> None:
    context = ssl.create_default_context(cafile=str(certs.ca))
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    _, writer = await asyncio.open_connection(HOST, tls_server.port, ssl=context)
    assert writer.get_extra_info("ssl_object").version() == "TLSv1.2"
    writer.close()
    assert tls_server.config.tls is not None
    assert tls_server.config.tls.minimum_version == ssl.TLSVersion.TLSv1_2
    assert tls_server.config.tls.options & ssl.OP_NO_RENEGOTIATION


def test_the_system_authorities_are_loaded_once(certs: Certs) -> None:
    """Loading them takes tens of milliseconds: once per file, not per connection."""
    assert verifying_context() is verifying_context()
    assert verifying_context(str(certs.ca)) is verifying_context(str(certs.ca))
    assert verifying_context(str(certs.ca)) is not verifying_context()


async def test_the_host_name_is_checked(tls_server: Server, certs: Certs) -> None:
    """Signed by a trusted authority, but for another name: not trusted."""
    assert tls_server.config.tls is not None
    tls_server.config.tls.load_cert_chain(certs.wrong_name.cert, certs.wrong_name.key)
    with pytest.raises(UntrustedCertificate) as err:
        await Connection.open(HOST, tls_server.port, "Ana", tls=TlsOptions(cafile=str(certs.ca)))
    assert "mismatch" in err.value.why.lower()
    assert err.value.fingerprint == certs.wrong_name.fingerprint


async def test_an_unknown_authority_is_not_trusted_and_its_fingerprint_is_shown(
    tls_server: Server, certs: Certs
) -> None:
    with pytest.raises(UntrustedCertificate) as err:
        await Connection.open(HOST, tls_server.port, "Ana", tls=TlsOptions())
    assert err.value.fingerprint == certs.server.fingerprint
    assert f"--tls-fingerprint {certs.server.fingerprint}" in str(err.value)
    assert not tls_server.clients


async def test_a_pinned_certificate_is_accepted_and_another_refused(
    tls_server: Server, certs: Certs
) -> None:
    """A pin trusts that certificate whoever signed it; nothing else."""
    pinned = TlsOptions(fingerprint=format_fingerprint(certs.server.fingerprint))
    ana = await tls_player(tls_server, "Ana", pinned)
    assert ana.conn.welcome["type"] == "welcome"
    await ana.close()
    with pytest.raises(CertificateMismatch) as err:
        other = pinned.pinned(certs.other.fingerprint)
        await Connection.open(HOST, tls_server.port, "Ben", tls=other)
    assert err.value.got == certs.server.fingerprint
    assert err.value.expected == certs.other.fingerprint
    text = str(err.value)
    assert format_fingerprint(certs.server.fingerprint) in text
    assert format_fingerprint(certs.other.fingerprint) in text


async def test_plain_tcp_at_the_tls_port_is_refused_cleanly(
    tls_server: Server, certs: Certs, caplog: Any
) -> None:
    """A client that forgot TLS: its hello fails the handshake; one line in the
    server's log, no traceback, and the server serves others as before."""
    caplog.set_level(logging.INFO, logger="craits.server")
    ana = await tls_player(tls_server, "Ana", TlsOptions(cafile=str(certs.ca)))
    with pytest.raises(ConnectError) as err:
        await Connection.open(HOST, tls_server.port, "Plain")
    assert "closed the connection without answering" in str(err.value)
    assert "--tls" in str(err.value)
    (failed,) = handshake_failures(caplog)
    assert "not TLS" in failed.getMessage() and failed.exc_info is None
    assert not any(r.exc_info for r in caplog.records)
    await ana.send({"type": "list_tables"})
    await ana.expect("tables")
    ben = await tls_player(tls_server, "Ben", TlsOptions(cafile=str(certs.ca)))
    assert len(tls_server.clients) == 2
    await ana.close()
    await ben.close()


async def test_a_full_tls_server_says_so_and_handshakes_are_capped(
    config: Any, certs: Certs
) -> None:
    """protocol §4.7 over TLS: past the handshake, a full server says
    ``server_full``; handshakes in progress are capped at the connection cap."""
    from dataclasses import replace

    from craits.server.net.tls_listener import load_context

    context = load_context(certs.server.cert, certs.server.key)
    srv = Server(replace(config, tls=context, max_connections=1, hello_timeout=5.0))
    await srv.start()
    options = TlsOptions(cafile=str(certs.ca))
    try:
        ana = await tls_player(srv, "Ana", options)
        with pytest.raises(ConnectError, match="the server is full"):
            await Connection.open(HOST, srv.port, "Ben", tls=options)
        await ana.close()
        _, silent = await asyncio.open_connection(HOST, srv.port)  # a handshake never begun
        async with asyncio.timeout(5):
            while not getattr(srv.accept, "pending", None):  # the TlsListener's
                await asyncio.sleep(0.01)
        with pytest.raises(ConnectError, match="cut the connection during the TLS handshake"):
            await Connection.open(HOST, srv.port, "Cy", tls=options)
        silent.close()
    finally:
        await srv.stop()


async def test_tls_at_a_plain_port_says_the_server_does_not_speak_tls(
    server: Server,  # noqa: F811
) -> None:
    with pytest.raises(NotTls) as err:
        await Connection.open(HOST, server.port, "Ana", tls=TlsOptions())
    assert str(err.value).startswith(f"{HOST}:{server.port} does not speak TLS")
    assert "connect without --tls" in str(err.value)


async def test_a_handshake_that_never_ends_is_dropped_at_the_hello_timeout(
    tls_server: Server, caplog: Any
) -> None:
    """Slowloris on the handshake: a peer that sends half a ClientHello, or
    nothing, holds its place no longer than the hello timeout (1 s here)."""
    caplog.set_level(logging.INFO, logger="craits.server")
    half = bytes.fromhex("160301") + b"\x02\x00" + b"\x01\x00\x01\xfc\x03\x03"
    readers = []
    for first in (b"", half):
        reader, writer = await asyncio.open_connection(HOST, tls_server.port)
        writer.write(first)
        readers.append((reader, writer))
    async with asyncio.timeout(10):  # a guard against a hang, not a measure
        for reader, writer in readers:
            assert await reader.read() == b""
            writer.close()
    failures = handshake_failures(caplog)
    assert len(failures) == 2
    assert all("hello timeout" in r.getMessage() for r in failures)
    assert not tls_server.clients


async def test_an_idle_tls_connection_is_not_taken_for_one_that_stopped_reading(
    config: Any, certs: Certs
) -> None:
    """The write timeout (§4.5) counts only while something waits for the peer:
    a TLS connection that is merely quiet for several write timeouts stays.
    (The TLS transport pauses its protocol at a size *at or over* its limit: a
    limit of 0 paused every connection after its first write, for good.)"""
    from dataclasses import replace

    from craits.server.net.tls_listener import load_context

    context = load_context(certs.server.cert, certs.server.key)
    srv = Server(replace(config, tls=context, write_timeout=0.2))
    await srv.start()
    options = TlsOptions(cafile=str(certs.ca))
    try:
        ana = await tls_player(srv, "Ana", options)
        ben = await tls_player(srv, "Ben", options)
        await ana.send({"type": "create_table", "name": "t", "seats": 3})
        await ana.expect("table_created")
        for p in (ana, ben):
            await p.send({"type": "join", "table": "t", "name": p.name})
            await p.expect("joined")
        for _ in range(2):
            await ben.send({"type": "chat", "text": "hi"})
            await ana.expect("chat")
            await asyncio.sleep(0.6)  # three write timeouts, nothing waiting
            assert len(srv.clients) == 2 and not any(c.closed for c in srv.clients)
        await ana.send({"type": "chat", "text": "still here"})
        await ben.expect("chat", where=lambda m: m.get("text") == "still here")
        await ana.close()
        await ben.close()
    finally:
        await srv.stop()


async def test_a_tls_spectator_that_stops_reading_is_dropped(
    config: Any, certs: Certs, caplog: Any
) -> None:
    """The send buffers' bound holds under TLS (§4.5): the kernel's buffer is
    kept small below the TLS layer, and a connection that takes nothing for
    the write timeout is dropped, whatever waits in the TLS layer."""
    from dataclasses import replace

    from craits.server.net.tls_listener import load_context

    context = load_context(certs.server.cert, certs.server.key)
    srv = Server(replace(config, tls=context, write_timeout=0.5, out_buffer=64 << 20))
    await srv.start()
    options = TlsOptions(cafile=str(certs.ca))
    try:
        ana = await tls_player(srv, "Ana", options)
        ben = await tls_player(srv, "Ben", options)
        await ana.send({"type": "create_table", "name": "t", "seats": 3})
        await ana.expect("table_created")
        for p in (ana, ben):
            await p.send({"type": "join", "table": "t", "name": p.name})
            await p.expect("joined")
        # the lazy spectator: a small receive buffer, a stream that stops
        # reading the socket once 2 KiB wait in it
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect((HOST, srv.port))
        context = ssl.create_default_context(cafile=str(certs.ca))
        reader, writer = await asyncio.open_connection(
            sock=sock, ssl=context, server_hostname="localhost", limit=1024
        )
        writer.write(encode({"type": "hello", "version": 1, "name": "Lazy"}))
        writer.write(encode({"type": "spectate", "table": "t"}))
        frames = FrameReader(MAX_SERVER_FRAME)
        async with asyncio.timeout(5):
            while not any(
                decode(b, MAX_SERVER_FRAME, depth=16)["type"] == "state"
                for b in frames.feed(await reader.read(65536))
            ):
                pass
        (lazy,) = srv.tables["t"].spectators
        pad = "z" * 280
        reading = asyncio.create_task(ana.drain(5.0))
        async with asyncio.timeout(20):  # a guard against a hang, not a measure
            n = 0
            while not lazy.closed:
                lines = (encode({"type": "chat", "text": f"{n + k}:{pad}"}) for k in range(50))
                ana.conn.writer.write(b"".join(lines))
                await ana.conn.writer.drain()
                n += 50
                await asyncio.sleep(0.005)
            while lazy in srv.clients:  # the TLS layer tells the Client a pass or two later
                await asyncio.sleep(0.01)
        reading.cancel()
        assert any("nothing taken" in r.getMessage() for r in caplog.records)
        assert lazy not in srv.clients and not srv.tables["t"].spectators
        assert ana.conn.writer.get_extra_info("ssl_object") is not None
        writer.transport.abort()
    finally:
        await srv.stop()


# ------------------------------------------------------------ the real command


def run_server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SERVER, "--no-journal", "--port", str(free_port()), *args],
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_bad_certificate_files_stop_the_server_at_start_in_one_line(
    certs: Certs, tmp_path: Path
) -> None:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    cases = [
        (
            ["--tls-cert", str(tmp_path / "missing.pem"), "--tls-key", str(certs.server.key)],
            "cannot read the TLS certificate",
        ),
        (
            ["--tls-cert", str(garbage), "--tls-key", str(certs.server.key)],
            "holds no PEM certificate",
        ),
        (
            ["--tls-cert", str(certs.server.cert), "--tls-key", str(certs.other.key)],
            "is not the key of the certificate",
        ),
        (["--tls-cert", str(certs.server.cert)], "--tls-cert and --tls-key go together"),
    ]
    for args, words in cases:
        done = run_server(*args)
        assert done.returncode == 1, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and words in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr


async def test_the_command_serves_tls_and_says_its_fingerprint(certs: Certs) -> None:
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        *SERVER, "--no-journal", "--port", str(port),
        "--tls-cert", str(certs.server.cert), "--tls-key", str(certs.server.key),
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        said = ""
        async with asyncio.timeout(15):
            while "listening" not in said:
                said += (await proc.stderr.readline()).decode()
        assert format_fingerprint(certs.server.fingerprint) in said
        assert f"?fp={certs.server.fingerprint}" in said
        assert "join with: craits-client craitss://" in said
        pinned = TlsOptions(fingerprint=certs.server.fingerprint)
        conn = await Connection.open(HOST, port, "Ana", tls=pinned)
        assert conn.welcome["type"] == "welcome"
        await conn.close()
    finally:
        await stop_server(proc)


def test_craits_web_beside_a_tls_server_reaches_it_pinned(certs: Certs) -> None:
    """``craits-server --web PORT --tls-cert …``: craits-web's clients get a
    ``craitss://`` link pinning the server's own certificate."""
    import argparse

    from craits.protocol.address import parse_target
    from craits.server.app import ServerConfig
    from craits.server.net.tls_listener import load_context
    from craits.server.ops.serve import tls_game_link

    args = argparse.Namespace(tls_cert=certs.server.cert)
    assert tls_game_link(ServerConfig(host="0.0.0.0"), args, 7000) is None
    config = ServerConfig(host="0.0.0.0", tls=load_context(certs.server.cert, certs.server.key))
    link = tls_game_link(config, args, 7000)
    assert link is not None
    target = parse_target(link, 7777)
    assert (target.host, target.port, target.tls) == ("127.0.0.1", 7000, True)
    assert target.fingerprint == certs.server.fingerprint
