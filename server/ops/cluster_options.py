"""``craits-server``'s cluster options (docs/cluster.md), kept in one block
for :mod:`craits.server.ops.cli`: ``--cluster``, ``--advertise``, ``--cluster-heartbeat``."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
from pathlib import Path
from typing import Any

from craits.protocol.address import parse_target

from ..cluster.start import advertised
from .workers import Plan, find_redis, supervise

INSTALL = "the redis package: pip install 'craits[cluster]'"


def add_cluster_options(p: argparse.ArgumentParser) -> None:
    """Add the cluster's options to ``craits-server``'s parser."""
    g = p.add_argument_group("cluster (docs/cluster.md)")
    g.add_argument(
        "--cluster",
        default=None,
        metavar="redis://HOST:PORT",
        help="join a cluster of servers sharing one lobby through this Redis/Valkey "
        "(default: none, a single server; needs craits[cluster])",
    )
    g.add_argument(
        "--advertise",
        default=None,
        metavar="HOST:PORT",
        help="the address the other nodes send clients to for this node's tables "
        "(default: the address it listens on)",
    )
    g.add_argument(
        "--cluster-heartbeat",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="seconds between this node's heartbeats; it is taken as down after 4 (default 1)",
    )
    g.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N nodes of a cluster behind --port, one per core (SO_REUSEPORT), with "
        "the Redis of --cluster or one started from redis-server/valkey-server (default 1)",
    )
    g.add_argument(
        "--drain-timeout",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="told to stop, a cluster node first takes no new tables and waits up to this "
        "long for its games to end; a second signal stops it at once (default 0: no wait)",
    )
    g.add_argument("--shared-port", type=int, default=None, help=argparse.SUPPRESS)


def cluster_problem(args: argparse.Namespace) -> tuple[str, str] | None:
    """What is wrong with the cluster's settings, as the ``dest`` of the first
    bad one and why, or None."""
    if args.workers < 1:
        return "workers", "must be >= 1"
    if args.workers > 1:
        if args.port == 0:
            return "port", "must be given (not 0) with --workers: the workers share it"
        if args.cluster is None and find_redis() is None:
            return "workers", "needs --cluster, or redis-server/valkey-server installed"
        if importlib.util.find_spec("redis") is None:
            return "workers", f"needs {INSTALL}"
        if args.advertise and advertised(args.advertise, "", 0) != f"{args.advertise}:0":
            return "advertise", "names a HOST only with --workers (each worker adds its port)"
    if not args.drain_timeout >= 0:
        return "drain_timeout", "must be >= 0"
    if args.cluster is None:
        return None
    if not str(args.cluster).startswith(("redis://", "rediss://", "valkey://")):
        return "cluster", "takes a URL redis://HOST:PORT"
    if importlib.util.find_spec("redis") is None:
        return "cluster", f"needs {INSTALL}"
    if not args.cluster_heartbeat > 0:
        return "cluster_heartbeat", "must be > 0"
    if args.advertise is not None:
        try:
            parse_target(args.advertise, args.port or 1)
        except ValueError as exc:
            return "advertise", str(exc)
    return None


def cluster_config(args: argparse.Namespace) -> dict[str, Any]:
    """The :class:`~craits.server.app.ServerConfig` fields the options set."""
    url = str(args.cluster).replace("valkey://", "redis://", 1) if args.cluster else None
    return {
        "cluster": url,
        "advertise": args.advertise,
        "cluster_heartbeat": args.cluster_heartbeat,
        "shared_port": args.shared_port,
        "drain_timeout": args.drain_timeout,
    }


def workers_plan(args: argparse.Namespace, data: Path | None) -> Plan:
    """What ``--workers N`` runs, from the settings (``data``: the data directory)."""
    from .web import web_options

    game = None
    if getattr(args, "tls_cert", None) is not None:  # craits-web pins the certificate
        from ..net.tls_listener import certificate_fingerprint
        from .web import game_address

        fp = certificate_fingerprint(args.tls_cert)
        game = f"craitss://{game_address(args.host, args.port)}?fp={fp}"
    return Plan(
        workers=args.workers,
        port=args.port,
        host=args.host,
        advertise=args.advertise,
        cluster=args.cluster,
        data=data,
        drain_timeout=args.drain_timeout,
        web=getattr(args, "web", None),
        web_options=tuple(web_options(args)),
        web_game=game,
        heartbeat=args.cluster_heartbeat,
    )


def run_workers(args: argparse.Namespace, argv: list[str], data: Path | None) -> int | None:
    """With ``--workers N`` (N > 1), run them (:mod:`~craits.server.ops.workers`)
    and return the exit status; None otherwise (the server runs as usual)."""
    if args.workers <= 1:
        return None
    try:
        return asyncio.run(supervise(workers_plan(args, data), argv))
    except OSError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
