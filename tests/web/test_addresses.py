"""Whose address a browser visitor has (``craits.client.web.addresses``), and how it
reaches the visitor's client and its hello (protocol §4.1, *Forwarded addresses*)."""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from craits.client.web.addresses import Origin, proxy_network, visitor_address
from craits.client.web.cli import build_parser
from craits.client.web.service import client_argv
from craits.client.web.visitors import Launch
from craits.protocol.address import Target

from tests.web.conftest import WebServer, free_port, stop, wait_port

PROXY = [proxy_network("127.0.0.1"), proxy_network("10.0.0.0/8")]


def test_without_a_trusted_proxy_the_request_s_own_address_counts() -> None:
    assert visitor_address("198.51.100.7", [], []) == "198.51.100.7"
    # a header from a browser (or an untrusted proxy) is never believed
    assert visitor_address("198.51.100.7", ["203.0.113.1"], PROXY) == "198.51.100.7"
    assert visitor_address("127.0.0.1", ["203.0.113.1"], []) == "127.0.0.1"
    assert visitor_address("::ffff:198.51.100.7", [], []) == "198.51.100.7"
    assert visitor_address("fe80::1%eth0", [], []) == "fe80::1"
    assert visitor_address(None, ["203.0.113.1"], PROXY) is None  # a Unix socket
    assert visitor_address("", [], []) is None


def test_behind_trusted_proxies_the_first_untrusted_from_the_right() -> None:
    # the proxy appended what it saw: the rightmost address not a proxy's is the visitor
    assert visitor_address("127.0.0.1", ["203.0.113.1"], PROXY) == "203.0.113.1"
    chain = ["6.6.6.6, 203.0.113.1", "10.1.2.3"]  # what the browser said first: a lie
    assert visitor_address("127.0.0.1", chain, PROXY) == "203.0.113.1"
    assert visitor_address("127.0.0.1", [" 2001:db8::5 "], PROXY) == "2001:db8::5"
    # garbage stops the walk: the last trusted hop (or the proxy) is all that is known
    assert visitor_address("127.0.0.1", ["203.0.113.1, junk, 10.0.0.9"], PROXY) == "10.0.0.9"
    assert visitor_address("127.0.0.1", ["junk"], PROXY) == "127.0.0.1"
    assert visitor_address("127.0.0.1", [], PROXY) == "127.0.0.1"
    many = ", ".join(["10.0.0.1"] * 100)
    assert visitor_address("127.0.0.1", [f"203.0.113.1, {many}"], PROXY) == "10.0.0.1"


def test_the_options() -> None:
    args = build_parser().parse_args([])
    assert args.trusted_proxy == [] and args.forwarded_for is True
    args = build_parser().parse_args(
        ["--trusted-proxy", "127.0.0.1", "--trusted-proxy", "fd00::/8", "--no-forwarded-for"]
    )
    assert [str(n) for n in args.trusted_proxy] == ["127.0.0.1/32", "fd00::/8"]
    assert args.forwarded_for is False
    with pytest.raises(argparse.ArgumentTypeError, match="not an IP address or network"):
        proxy_network("proxy.example.org")


def test_the_client_is_given_the_address_and_says_it_in_its_hello() -> None:
    server = Target("127.0.0.1", 7777)
    argv = client_argv(server, "ana", Launch(), "203.0.113.1")
    assert "--forwarded-for=203.0.113.1" in argv
    assert not any(a.startswith("--forwarded-for") for a in client_argv(server, "ana", Launch()))
    from craits.client.cli import build_parser as client_parser

    assert client_parser().parse_args(argv[3:]).forwarded_for == "203.0.113.1"

    async def hello_of_the_client() -> dict[str, object]:
        """What a client's Connection says first, read by a bare listener."""
        from craits.protocol.client import ConnectError, Connection
        from craits.protocol.wire import FrameReader, decode

        got: asyncio.Future[dict[str, object]] = asyncio.get_running_loop().create_future()

        async def listener(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            frames = FrameReader(1 << 16)
            while not got.done():
                for body in frames.feed(await reader.read(4096)):
                    got.set_result(decode(body))
            writer.close()  # no welcome: the client gives up

        srv = await asyncio.start_server(listener, "127.0.0.1", 0)
        port = srv.sockets[0].getsockname()[1]
        with pytest.raises(ConnectError):
            await Connection.open("127.0.0.1", port, "ana", forwarded_for="203.0.113.1")
        srv.close()
        return await got

    hello = asyncio.run(hello_of_the_client())
    assert hello["forwarded_for"] == "203.0.113.1" and hello["name"] == "ana"


def test_a_game_server_that_does_not_trust_craits_web_is_said_at_start(tmp_path: Path) -> None:
    """Its operator reads, once, what to change (else every visitor is refused)."""
    game = subprocess.Popen(
        [sys.executable, "-m", "craits.server.ops.cli", f"--port={free_port()}", "--no-journal"],
        stderr=subprocess.DEVNULL,
    )
    port = int(game.args[3].split("=")[1])
    web_port = free_port()
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "craits.client.web", f"127.0.0.1:{port}"),
            *(f"--port={web_port}", f"--state-dir={tmp_path}", "--log-level=warning"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_port(port, game)
        wait_port(web_port, web)
        assert web.stderr is not None
        line = web.stderr.readline()  # (the test's timeout guards the wait)
        assert "does not take forwarded addresses from 127.0.0.1" in line
        assert "--trusted-relay 127.0.0.1" in line and "--no-forwarded-for" in line
    finally:
        stop(web)
        stop(game)


def test_craits_server_web_hands_the_web_settings_to_craits_web() -> None:
    """``--web-public-url``, ``--web-trusted-proxy``, ``--web-max-sessions`` (here from
    the environment, as a container sets them) reach the page craits-server starts."""
    from craits.server.ops.options import build_parser
    from craits.server.ops.web import web_options

    parser = build_parser()
    assert web_options(parser.parse_args(["--web", "8080"])) == ["--max-sessions=50"]
    given = ["--web", "8080", "--web-public-url", "https://cards.example.org"]
    args = parser.parse_args(
        [*given, "--web-trusted-proxy", "10.0.0.1", "--web-max-sessions", "200"]
    )
    assert web_options(args) == [
        "--max-sessions=200",
        "--public-url=https://cards.example.org",
        "--trusted-proxy=10.0.0.1/32",
    ]
    for bad in (["--web-public-url", "cards.example.org"], ["--web-max-sessions", "0"]):
        done = subprocess.run(
            [sys.executable, "-m", "craits.server.ops.cli", "--no-journal", *bad],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 2 and bad[0] in done.stderr

    game_port, web_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CRAITS_")}
    env.update(CRAITS_WEB_PUBLIC_URL="https://cards.example.org", CRAITS_WEB_MAX_SESSIONS="1")
    command = [sys.executable, "-m", "craits.server.ops.cli", "--no-journal"]
    proc = subprocess.Popen(
        [*command, f"--port={game_port}", f"--web={web_port}"],
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        wait_port(game_port, proc)
        wait_port(web_port, proc)
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=10) as r:
            assert 'action="https://cards.example.org/name"' in r.read().decode()
    finally:
        stop(proc)


def test_a_trusted_proxy_says_the_scheme_and_host_the_browser_used() -> None:
    said = (["https"], ["cards.example.org"])
    # From the proxy: believed (the first of a list: what the proxy nearest the
    # browser wrote); the request's own otherwise, or when it says nonsense.
    assert Origin.of_request("http", "127.0.0.1:8080", "127.0.0.1", *said, PROXY) == Origin(
        "https", "cards.example.org"
    )
    assert Origin.of_request(
        "http", "h:1", "10.0.0.2", ["HTTPS, http"], ["[2001:db8::1]:8443"], PROXY
    ) == Origin("https", "[2001:db8::1]:8443")
    for proto, host in ((["ftp"], ["a b"]), (["javascript"], ["evil/path"]), ([], [])):
        assert Origin.of_request("http", "h:1", "127.0.0.1", proto, host, PROXY) == Origin(
            "http", "h:1"
        )
    # From anyone else (a browser straight to craits-web): never.
    assert Origin.of_request("http", "h:1", "198.51.100.7", *said, PROXY) == Origin("http", "h:1")
    assert Origin.of_request("http", "h:1", "127.0.0.1", *said, []) == Origin("http", "h:1")
    assert Origin.of_url("https://cards.example.org/craits").base == "https://cards.example.org"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Redirects are not followed (a 303 is raised, to be read)."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_behind_an_https_proxy_no_public_url_is_needed(tmp_path: Path) -> None:
    """The proxy says X-Forwarded-Proto and -Host (nginx: proxy_set_header): the
    page's links, websocket and cookie are made for https://cards.example.org;
    the same headers from an address not trusted change nothing."""
    web = WebServer(free_port(), tmp_path, more=("--trusted-proxy=127.0.0.1",))
    plain = WebServer(free_port(), tmp_path / "plain")
    proxied = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cards.example.org"}
    try:
        request = urllib.request.Request(web.url + "/", headers=proxied)
        with urllib.request.urlopen(request, timeout=10) as r:
            cookie = r.headers["Set-Cookie"]
            page = r.read().decode()
        assert "Secure" in cookie
        assert 'action="https://cards.example.org/name"' in page
        asked = {**proxied, "Cookie": cookie.split(";")[0]}
        form = urllib.parse.urlencode({"name": "ivy"}).encode()
        post = urllib.request.Request(web.url + "/name", data=form, headers=asked)
        with pytest.raises(urllib.error.HTTPError) as redirect:
            urllib.request.build_opener(NoRedirect).open(post, timeout=10)
        assert redirect.value.code == 303
        assert redirect.value.headers["Location"] == "https://cards.example.org/"
        request = urllib.request.Request(web.url + "/", headers=asked)
        with urllib.request.urlopen(request, timeout=10) as r:
            page = r.read().decode()
        assert 'data-session-websocket-url="wss://cards.example.org/ws/' in page
        request = urllib.request.Request(plain.url + "/", headers=proxied)
        with urllib.request.urlopen(request, timeout=10) as r:
            assert "Secure" not in r.headers["Set-Cookie"]
            assert f'action="{plain.url}/name"' in r.read().decode()
    finally:
        web.stop()
        plain.stop()


def test_the_client_names_the_game_by_the_page_s_host() -> None:
    server = Target("10.0.0.5", 7777)
    argv = client_argv(server, "ana", Launch(), None, "cards.example.org")
    from craits.client.cli import build_parser as client_parser

    assert client_parser().parse_args(argv[3:]).shown_address == "cards.example.org"
    assert argv[-1] == "10.0.0.5:7777"  # (where it connects is unchanged)
