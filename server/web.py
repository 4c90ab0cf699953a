"""``craits-server --web PORT``: the web page beside the game, as a child process.

The server starts ``craits-web`` (``python -m craits.client.web``, the package
:mod:`craits.client.web`) pointed at itself and stops it when it stops. A child
process keeps the web side's imports, its visitors' client processes and any
crash of theirs out of the game server's event loop; the server imports nothing
of the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys

WEB_COMMAND = [sys.executable, "-m", "craits.client.web"]
"""``craits-web``, as this interpreter runs it."""

_ANY = {"", "0.0.0.0", "::"}


def game_address(host: str, port: int) -> str:
    """Where the web side reaches the game: the loopback when the server listens
    on every address, else its own address (``[v6]:port`` for IPv6)."""
    if host in _ANY:
        host = "127.0.0.1"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


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


async def start_web(
    host: str, game_port: int, web_port: int, game: str | None = None
) -> asyncio.subprocess.Process:
    """Start ``craits-web`` on ``host``:``web_port`` for the game on ``game_port``
    (``game``: the game's address as craits-web is to reach it, e.g. a
    ``craitss://`` link for a TLS server; default :func:`game_address`).

    Raises:
        OSError: the page's address cannot be bound (:func:`check_port`), or
            the process could not be started.
    """
    check_port(host, web_port)
    return await asyncio.create_subprocess_exec(
        *WEB_COMMAND,
        game or game_address(host, game_port),
        f"--host={host or '0.0.0.0'}",
        f"--port={web_port}",
        "--log-level=warning",  # the server says where the page is; no line per request
        stdout=asyncio.subprocess.DEVNULL,
    )


async def stop_web(proc: asyncio.subprocess.Process, grace: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds."""
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


def web_url(host: str, web_port: int) -> str:
    """The page's address to give friends (this machine's loopback when the server
    listens on every address: the operator knows the address others reach)."""
    return f"http://{game_address(host, web_port)}/"
