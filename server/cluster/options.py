"""``craits-server``'s cluster options (docs/cluster.md), kept in one block
for :mod:`craits.server.cli`: ``--cluster``, ``--advertise``, ``--cluster-heartbeat``."""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

from craits.protocol.address import parse_target
from craits.server.cluster.registry import MISSING


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


def cluster_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the cluster's options, or None."""
    if args.cluster is None:
        return None
    if not str(args.cluster).startswith(("redis://", "rediss://", "valkey://")):
        return "--cluster takes a URL redis://HOST:PORT"
    if importlib.util.find_spec("redis") is None:
        return MISSING
    if not args.cluster_heartbeat > 0:
        return "--cluster-heartbeat must be > 0"
    if args.advertise is not None:
        try:
            parse_target(args.advertise, args.port or 1)
        except ValueError as exc:
            return f"--advertise: {exc}"
    return None


def cluster_config(args: argparse.Namespace) -> dict[str, Any]:
    """The :class:`~craits.server.app.ServerConfig` fields the options set."""
    url = str(args.cluster).replace("valkey://", "redis://", 1) if args.cluster else None
    return {
        "cluster": url,
        "advertise": args.advertise,
        "cluster_heartbeat": args.cluster_heartbeat,
    }
