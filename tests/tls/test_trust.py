"""Trust on first use and pins (craits.client.core.saved.known_hosts), the client's and the
bot's TLS options, and the trust dialog, against a real TLS server."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from craits.client.cli import main
from craits.client.core.saved.known_hosts import KnownHosts, ServerTrust
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.core.saved.server_keys import server_key
from craits.client.tui.app import CraitsApp
from craits.client.tui.dialogs.trust import TrustDialog
from craits.protocol.address import parse_target
from craits.protocol.client import ConnectError
from craits.protocol.tls import TlsOptions, UntrustedCertificate, format_fingerprint
from craits.server.app import Server
from craits.server.bots.network.bot import BotClient, connect_bot
from craits.server.bots.network.cli import build_parser as build_bot_parser
from craits.server.bots.network.cli import main as bot_main
from craits.server.bots.network.cli import tls_options
from craits.server.errors import BotError

from tests.support.client import wait_for, wait_text
from tests.tls.conftest import HOST, Certs

Ask = Callable[[UntrustedCertificate, Path], Awaitable[bool]]


def answering(answer: bool, asked: list[str]) -> Ask:
    """An ``ask`` that notes the fingerprint it was shown and answers ``answer``."""

    async def ask(untrusted: UntrustedCertificate, pins: Path) -> bool:
        asked.append(untrusted.fingerprint)
        return answer

    return ask


def change_certificate(srv: Server, certs: Certs) -> None:
    """The server shows another certificate (another authority's) from now on."""
    assert srv.config.tls is not None
    srv.config.tls.load_cert_chain(certs.other.cert, certs.other.key)


async def test_trust_on_first_use_pins_then_accepts_then_refuses_a_change(
    tls_server: Server, certs: Certs, tmp_path: Path
) -> None:
    known = KnownHosts(tmp_path / "known_hosts")
    port = tls_server.port
    asked: list[str] = []
    # first connection: the user is shown the fingerprint, trusts it, it is pinned
    conn = await ServerTrust(known, ask=answering(True, asked)).open(HOST, port, "Ana", timeout=5)
    await conn.close()
    assert asked == [certs.server.fingerprint]
    assert known.get(HOST, port) == certs.server.fingerprint
    assert f"localhost:{port} {certs.server.fingerprint}\n" in known.path.read_text()
    # next time: accepted without a question (an ask that answers no would refuse)
    conn = await ServerTrust(known, ask=answering(False, asked)).open(HOST, port, "Ana", timeout=5)
    await conn.close()
    assert asked == [certs.server.fingerprint]
    # the certificate changes: refused, naming both fingerprints and the file
    change_certificate(tls_server, certs)
    with pytest.raises(ConnectError) as err:
        await ServerTrust(known, ask=answering(True, asked)).open(HOST, port, "Ana", timeout=5)
    text = str(err.value)
    assert "CHANGED" in text
    assert format_fingerprint(certs.other.fingerprint) in text
    assert format_fingerprint(certs.server.fingerprint) in text
    assert str(known.path) in text and f"delete the line {server_key(HOST, port)}" in text
    assert asked == [certs.server.fingerprint]  # nobody was asked to trust the new one
    assert known.get(HOST, port) == certs.server.fingerprint
    assert not tls_server.clients


async def test_a_certificate_not_trusted_is_not_pinned(
    tls_server: Server, certs: Certs, tmp_path: Path
) -> None:
    known = KnownHosts(tmp_path / "known_hosts")
    asked: list[str] = []
    for ask in (answering(False, asked), None):  # the user says no; nobody to ask (--list)
        with pytest.raises(UntrustedCertificate) as err:
            await ServerTrust(known, ask=ask).open(HOST, tls_server.port, "Ana", timeout=5)
        assert f"--tls-fingerprint {certs.server.fingerprint}" in str(err.value)
    assert asked == [certs.server.fingerprint]
    assert not known.path.exists()


async def test_a_fingerprint_given_ahead_is_accepted_and_kept_or_refused(
    tls_server: Server, certs: Certs, tmp_path: Path
) -> None:
    known = KnownHosts(tmp_path / "known_hosts")
    port = tls_server.port
    known.put(HOST, port, certs.other.fingerprint)  # an old pin, replaced by the one given
    given = format_fingerprint(certs.server.fingerprint).lower()  # as openssl prints it
    conn = await ServerTrust(known, fingerprint=given).open(HOST, port, "Ana", timeout=5)
    await conn.close()
    assert known.get(HOST, port) == certs.server.fingerprint
    with pytest.raises(ConnectError) as err:
        await ServerTrust(known, fingerprint=certs.other.fingerprint).open(
            HOST, port, "Ana", timeout=5
        )
    assert "--tls-fingerprint" in str(err.value)
    assert format_fingerprint(certs.server.fingerprint) in str(err.value)
    assert known.get(HOST, port) == certs.server.fingerprint


async def test_a_verified_certificate_needs_no_pin(
    tls_server: Server, certs: Certs, tmp_path: Path
) -> None:
    known = KnownHosts(tmp_path / "known_hosts")
    trust = ServerTrust(known, cafile=str(certs.ca), ask=answering(True, asked := []))
    conn = await trust.open(HOST, tls_server.port, "Ana", timeout=5)
    await conn.close()
    assert asked == [] and not known.path.exists()


def test_the_known_hosts_file_keeps_other_lines(tmp_path: Path) -> None:
    path = tmp_path / "state" / "known_hosts"
    path.parent.mkdir()
    a, b = "a" * 64, "b" * 64
    path.write_text(f"# mine\nexample.org:7777 {a}\nnot a line\n[::1]:9 {a}")
    known = KnownHosts(path)
    assert known.get("EXAMPLE.org", 7777) == a
    assert known.get("::1", 9) is None  # the loopback is "localhost"
    assert known.get("example.org", 7778) is None
    known.put("example.org", 7777, b)
    known.put("[2001:db8::1]", 7777, a)
    lines = path.read_text().splitlines()
    assert lines == [
        "# mine",
        "not a line",
        f"[::1]:9 {a}",
        f"example.org:7777 {b}",
        f"[2001:db8::1]:7777 {a}",
    ]
    assert known.get("2001:db8:0::1", 7777) == a
    assert path.stat().st_mode & 0o777 == 0o600


# ------------------------------------------------------------------ commands


async def test_the_client_lists_tables_over_tls(
    tls_server: Server, certs: Certs, tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    address = f"{HOST}:{tls_server.port}"
    # --tls, a self-signed server and nobody to ask: refused, saying what to pass
    assert await asyncio.to_thread(main, ["--tls", address, "--list"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--tls-fingerprint {certs.server.fingerprint}" in err
    # the link with its fingerprint: listed, and the pin kept
    link = f"craitss://{address}?fp={certs.server.fingerprint}"
    assert await asyncio.to_thread(main, [link, "--list"]) == 0
    assert capsys.readouterr().out.startswith("table\tseats")
    assert KnownHosts(tmp_path / "craits" / "known_hosts").get(HOST, tls_server.port)
    # pinned now: --tls alone will do
    assert await asyncio.to_thread(main, ["--tls", address, "--list"]) == 0
    # a trusted authority (--tls-ca) implies TLS
    assert await asyncio.to_thread(main, ["--tls-ca", str(certs.ca), address, "--list"]) == 0
    capsys.readouterr()
    assert main(["--tls-fingerprint", "12:34", address, "--list"]) == 2
    assert "64 hex digits" in capsys.readouterr().err


async def test_a_bot_joins_over_tls_with_a_pin(tls_server: Server, certs: Certs) -> None:
    bot = BotClient("t", "Bot", think=0, create=2, rng=random.Random(1))
    await connect_bot(
        HOST, tls_server.port, bot, tls=TlsOptions(fingerprint=certs.server.fingerprint)
    )
    await bot.joined
    transport = bot.link.transport
    assert transport is not None and transport.get_extra_info("ssl_object")
    bot.close()
    other = BotClient("t", "Other", think=0)
    with pytest.raises(BotError, match="not the one expected"):
        await connect_bot(
            HOST, tls_server.port, other, tls=TlsOptions(fingerprint=certs.other.fingerprint)
        )
    with pytest.raises(BotError, match="--tls-fingerprint"):
        await connect_bot(HOST, tls_server.port, BotClient("t", "Third", think=0), tls=TlsOptions())


def test_the_bot_command_line_reads_tls_from_options_and_links(capsys: Any) -> None:
    parser = build_bot_parser()
    fp = "ab" * 32

    def options(*argv: str) -> TlsOptions | None:
        args = parser.parse_args([*argv, "--table", "t"])
        target = parse_target(args.address, 7777)
        return tls_options(args, target.tls, target.fingerprint)

    assert options("example.org") is None
    assert options("--tls", "example.org") == TlsOptions()
    assert options(f"craitss://example.org?fp={fp}") == TlsOptions(fingerprint=fp)
    assert options("--tls-fingerprint", fp.upper(), "example.org") == TlsOptions(fingerprint=fp)
    assert options("--tls-ca", "ca.pem", "example.org") == TlsOptions(cafile="ca.pem")
    assert bot_main(["example.org", "--table", "t", "--tls-fingerprint", "12"]) == 1
    assert "bad --tls-fingerprint" in capsys.readouterr().err


# ------------------------------------------------------------------ the dialog


def tls_app(srv: Server, tmp_path: Path) -> CraitsApp:
    return CraitsApp(
        HOST,
        srv.port,
        "Ana",
        store=TokenStore(tmp_path / "resume.json"),
        tls=ServerTrust(KnownHosts(tmp_path / "known_hosts")),
        retry_base=0.05,
        retry_max=0.2,
    )


async def test_the_trust_dialog_shows_the_fingerprint_and_trusting_connects(
    tls_server: Server, certs: Certs, tmp_path: Path
) -> None:
    app = tls_app(tls_server, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TrustDialog), what="the dialog")
        pairs = format_fingerprint(certs.server.fingerprint).split(":")
        text = await wait_text(pilot, app, ":".join(pairs[16:]))
        assert ":".join(pairs[:16]) in text and ":".join(pairs[16:]) in text
        assert f"The certificate of {HOST}:{tls_server.port} is not verified" in text
        assert "it is kept in" in text and "Trust it (t)" in text
        await pilot.press("t")
        await wait_for(pilot, lambda: app.online, what="the connection")
        assert not isinstance(app.screen, TrustDialog)
    known = KnownHosts(tmp_path / "known_hosts")
    assert known.get(HOST, tls_server.port) == certs.server.fingerprint


async def test_not_trusting_gives_up_with_a_message(
    tls_server: Server, certs: Certs, tmp_path: Path
) -> None:
    app = tls_app(tls_server, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TrustDialog), what="the dialog")
        await pilot.press("n")
        await wait_for(pilot, lambda: app.error_message is not None, what="giving up")
    assert app.error_message is not None and "not trusted" in app.error_message
    assert certs.server.fingerprint in app.error_message
    assert not (tmp_path / "known_hosts").exists()
