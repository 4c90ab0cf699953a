"""Running ``craits-server``: the server until a stop signal, with its metrics'
endpoint, its ``craits-web`` child and, on a cluster node, its drain first
(:func:`serve`); the TLS context the options ask for.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import signal
import ssl
import sys

from craits.protocol import DEFAULT_PORT
from craits.protocol.tls import format_fingerprint

from ..app import Server, ServerConfig
from ..errors import (
    BindError,
    TlsSetupError,
)
from ..net.tls_listener import certificate_fingerprint, load_context
from . import metrics
from .drain import Drain
from .options import join_address
from .web import WebChild, game_address, start_web, stop_web, web_options, web_url

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop the server cleanly: every client is told ``shutdown``
and the journal is committed and closed."""


def tls_context(args: argparse.Namespace) -> ssl.SSLContext | None:
    """The TLS context ``--tls-cert``/``--tls-key`` ask for (None: plain TCP),
    its certificate's fingerprint said on stderr (logged, with ``--log-format json``)
    for clients to pin.

    Raises:
        TlsSetupError: only one of the two is given, or they cannot be used.
    """
    if args.tls_cert is None and args.tls_key is None:
        return None
    if args.tls_cert is None or args.tls_key is None:
        raise TlsSetupError("--tls-cert and --tls-key go together")
    context = load_context(args.tls_cert, args.tls_key)
    fp = certificate_fingerprint(args.tls_cert)
    said = (
        f"TLS certificate {args.tls_cert}, SHA-256 fingerprint {format_fingerprint(fp)} "
        f"(self-signed? friends join with: craits-client "
        f"craitss://{join_address(args.host, args.port or DEFAULT_PORT)}?fp={fp})"
    )
    if args.log_format == "json":
        logging.getLogger("craits.server").info("%s", said)  # every line JSON
    else:
        print(f"craits-server: {said}", file=sys.stderr, flush=True)
    return context


def tls_game_link(config: ServerConfig, args: argparse.Namespace | None, port: int) -> str | None:
    """How ``craits-web`` (``--web``) reaches a TLS server: a ``craitss://`` link
    pinning the server's own certificate (protocol §1.1, §2); None over plain TCP."""
    if config.tls is None or args is None or args.tls_cert is None:
        return None
    fp = certificate_fingerprint(args.tls_cert)
    return f"craitss://{game_address(config.host, port)}?fp={fp}"


async def serve(config: ServerConfig, args: argparse.Namespace | None = None) -> None:
    """Run a server until SIGINT, SIGTERM or SIGHUP (:data:`STOP_SIGNALS`),
    then shut down cleanly; with ``args.metrics_port``, serve its metrics too;
    with ``args.web``, ``craits-web`` beside it (:mod:`craits.server.ops.web`).

    Raises:
        OSError: the address cannot be bound.
        BindError: the metrics' or the web page's address cannot be bound.
        JournalError: as :meth:`Server.start` raises it.
    """
    # Stop signals are caught from before the port listens: one that comes
    # while the rest starts (metrics, the web page, a cluster) stops the server
    # cleanly once started, where it used to kill it (-15) mid-start.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    server = Server(config)
    await server.start()
    exporter = await _metrics(server, args)
    web_port = getattr(args, "web", None) if args is not None else None
    if config.shared_port is not None:  # a --workers worker: the supervisor runs craits-web
        web_port = None
    web = await _web(server, args, web_port, exporter) if web_port is not None else None
    # What exists at start lives as long as the server: keep it out of the
    # garbage collector's full passes, which otherwise stall every table.
    gc.freeze()
    _say_ready(server, args, web_port)
    drain = Drain(server, stop)  # a cluster node drains first (docs/cluster.md)
    drain.watch()  # for craits-server drain
    await stop.wait()
    await drain.wait()
    logging.getLogger("craits.server").info("shutting down")
    if web is not None:
        await stop_web(web)
    if exporter is not None:
        exporter.stop()
    await server.stop()


async def _metrics(server: Server, args: argparse.Namespace | None) -> metrics.Exporter | None:
    """The metrics' endpoint ``args.metrics_port`` asks for (None: none); the
    server stops if it cannot be served.

    Raises:
        BindError: its address cannot be bound.
    """
    if args is None or args.metrics_port is None:
        return None
    try:
        return metrics.start(server, args.metrics_host, args.metrics_port)
    except OSError as exc:
        await server.stop()
        where = f"{args.metrics_host}:{args.metrics_port}"
        why = exc.strerror or exc
        raise BindError(f"cannot serve metrics on {where}: {why}") from None


async def _web(
    server: Server,
    args: argparse.Namespace | None,
    web_port: int,
    exporter: metrics.Exporter | None,
) -> WebChild:
    """``craits-web`` on ``web_port`` beside ``server`` (over TLS, pinned to its
    certificate); the server and its metrics stop if it cannot be started.

    Raises:
        BindError: the web page's address cannot be bound.
    """
    config = server.config
    game = tls_game_link(config, args, server.port)  # None: plain TCP
    try:
        return await start_web(config.host, server.port, web_port, game, web_options(args))
    except OSError as exc:
        if exporter is not None:
            exporter.stop()
        await server.stop()
        where = game_address(config.host, web_port)
        raise BindError(f"cannot serve the web page on {where}: {exc.strerror or exc}") from None


def _say_ready(server: Server, args: argparse.Namespace | None, web_port: int | None) -> None:
    """Say where players join (stderr, or the log in JSON): a ``--workers``
    node listens on a port of its own (for redirects) and on the port the
    workers share; players are given the shared one."""
    config = server.config
    joined = server.port if config.shared_port is None else config.shared_port
    own = "" if config.shared_port is None else f" (a worker; its own port {server.port})"
    ready = (
        f"craits-server listening on {config.host}:{joined}{own} — "
        f"join with: craits-client {'craitss://' if config.tls else ''}"
        f"{config.public_address or join_address(config.host, joined)}"
    )
    if web_port is not None:
        ready += f"\nin a browser: {web_url(config.host, web_port)}"
    for line in ready.splitlines():
        if args is not None and args.log_format == "json":
            logging.getLogger("craits.server").info("%s", line)  # every line JSON
        else:
            print(line, file=sys.stderr, flush=True)
