"""``craits-server --web PORT``: the web page beside the game, as a child process.

The server starts ``craits-web`` (``python -m craits.client.web``, the package
:mod:`craits.client.web`) pointed at itself and stops it when it stops, and
trusts it as a relay (:func:`web_relays`): each visitor's connection counts
against the visitor's own address, not the web process's (protocol §4.1). A child
process keeps the web side's imports, its visitors' client processes and any
crash of theirs out of the game server's event loop; the server imports nothing
of the client.

craits-web ends with the server however the server ends, SIGKILL included: it
is handed the read end of a pipe whose write end only the server holds
(``craits-web --lifeline FD``); when the server is gone the kernel closes that
end, and craits-web stops as on SIGTERM, its port let go of at once, its
visitors' client processes and pre-forked client with it. The same command
can then start the server again on the same ports.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import os
import signal
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from ..net.address_limit import LOOPBACK_RELAYS, relay_setting

WEB_COMMAND = [sys.executable, "-m", "craits.client.web"]
"""``craits-web``, as this interpreter runs it."""
MAX_SESSIONS = 50
"""craits-web's ``--max-sessions`` unless ``--web-max-sessions`` says otherwise."""

_ANY = {"", "0.0.0.0", "::"}


def game_address(host: str, port: int) -> str:
    """Where the web side reaches the game: the loopback when the server listens
    on every address, else its own address (``[v6]:port`` for IPv6)."""
    if host in _ANY:
        host = "127.0.0.1"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def web_relays(host: str) -> tuple[str, ...]:
    """The addresses the web process's connections come from, to trust as a
    relay (as ``--trusted-relay`` writes them): the loopback, and ``host`` (the
    server's ``--host``) when the server listens on that one address (a name:
    the addresses it resolves to)."""
    found: list[str] = []
    if host not in _ANY:
        try:
            found = [str(ipaddress.ip_address(host))]
        except ValueError:
            with contextlib.suppress(OSError):
                infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
                found = sorted({str(info[4][0]) for info in infos})
    return tuple(dict.fromkeys([*LOOPBACK_RELAYS, *map(relay_setting, found)]))


def check_port(host: str, web_port: int) -> None:
    """Bind ``host``:``web_port`` for a moment, as craits-web will, so a port
    another program holds is said at once, before the page is announced.

    Raises:
        OSError: the address cannot be bound (``strerror`` says why, e.g.
            "Address already in use").
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp binds
        probe.bind((host or "0.0.0.0", web_port))
        probe.listen(1)


def _http_url(text: str) -> str:
    if not text.startswith(("http://", "https://")):
        raise argparse.ArgumentTypeError(f"{text!r} must start with http:// or https://")
    return text


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 1")
    return value


def add_web_options(p: argparse.ArgumentParser) -> None:
    """The web page's settings besides ``--web`` (so also ``CRAITS_WEB_*`` and
    the config file's ``web-*`` keys), each handed to craits-web (:func:`web_options`)."""
    web = p.add_argument_group("the web page (with --web; craits-web's options)")
    web.add_argument(
        "--web-public-url",
        type=_http_url,
        metavar="URL",
        help="the URL browsers use, behind a reverse proxy (e.g. https://cards.example.org)",
    )
    web.add_argument(
        "--web-trusted-proxy",
        action="append",
        type=relay_setting,
        default=[],
        metavar="ADDR",
        help="a reverse proxy in front of the page (an address or network, repeatable): "
        "its X-Forwarded-For header says each visitor's address",
    )
    web.add_argument(
        "--web-max-sessions",
        type=_positive,
        default=MAX_SESSIONS,
        metavar="N",
        help=f"open game pages at most, one client process each (default {MAX_SESSIONS})",
    )


def web_options(args: argparse.Namespace | None) -> list[str]:
    """craits-web's options from the server's settings (:func:`add_web_options`;
    none set: craits-web's defaults)."""
    sessions = getattr(args, "web_max_sessions", MAX_SESSIONS)
    options = [f"--max-sessions={sessions}"]
    url = getattr(args, "web_public_url", None)
    if url:
        options.append(f"--public-url={url}")
    return options + [f"--trusted-proxy={a}" for a in getattr(args, "web_trusted_proxy", [])]


@dataclass
class WebChild:
    """``craits-web`` started by the server.

    Attributes:
        process: its process.
        lifeline: the write end of its lifeline, held by the server alone
            (closed, or the server gone: craits-web stops); -1 once closed.
    """

    process: asyncio.subprocess.Process
    lifeline: int

    def cut(self) -> None:
        """Close the lifeline's write end (craits-web then stops), once."""
        if self.lifeline >= 0:
            with contextlib.suppress(OSError):
                os.close(self.lifeline)
            self.lifeline = -1


async def start_web(
    host: str,
    game_port: int,
    web_port: int,
    game: str | None = None,
    options: Sequence[str] = (),
) -> WebChild:
    """Start ``craits-web`` on ``host``:``web_port`` for the game on ``game_port``
    (``game``: the game's address as craits-web is to reach it, e.g. a
    ``craitss://`` link for a TLS server; default :func:`game_address`), with
    ``options`` (:func:`web_options`), hanging on this process's lifeline (it
    stops when this process ends, however it ends).

    Raises:
        OSError: the page's address cannot be bound (:func:`check_port`), or
            the process could not be started.
    """
    check_port(host, web_port)
    read, write = os.pipe()  # (neither inherited by anything else this process starts)
    try:
        process = await asyncio.create_subprocess_exec(
            *WEB_COMMAND,
            game or game_address(host, game_port),
            f"--host={host or '0.0.0.0'}",
            f"--port={web_port}",
            "--log-level=warning",  # the server says where the page is; no line per request
            f"--lifeline={read}",
            *options,
            stdout=asyncio.subprocess.DEVNULL,
            pass_fds=(read,),
        )
    except BaseException:
        os.close(write)
        raise
    finally:
        os.close(read)
    return WebChild(process, write)


async def stop_web(web: WebChild, grace: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds; the lifeline closed."""
    proc = web.process
    try:
        if proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
    finally:
        web.cut()


def web_url(host: str, web_port: int) -> str:
    """The page's address to give friends (this machine's loopback when the server
    listens on every address: the operator knows the address others reach)."""
    return f"http://{game_address(host, web_port)}/"
