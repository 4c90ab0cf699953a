"""Starting a server's node of a cluster (docs/cluster.md): :func:`start_node`,
called by :meth:`Server.start <craits.server.app.Server.start>`, and the
server as the node sees it (:class:`ServerHost`)."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING

from craits.protocol.types import ErrorMsg, TableClosedMsg, TableInfo, TableInfoMsg

from .registry import ClusterNode

if TYPE_CHECKING:
    from ..app import Server

log = logging.getLogger("craits.server.cluster")


class ServerHost:
    """The server as its :class:`~craits.server.cluster.registry.ClusterNode` sees it."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def local_names(self) -> list[str]:
        """The names of the server's tables."""
        return list(self.server.tables)

    def local_info(self, name: str) -> TableInfo | None:
        """The table info (§10) of the server's table ``name``, as its lobby lists it (a private
        table names nobody: protocol §11.9)."""
        table = self.server.tables.get(name)
        return table.lobby_info() if table is not None else None

    def local_load(self) -> int:
        """The server's connections."""
        return len(self.server.clients)

    def tell_lobby(self, message: TableInfoMsg | TableClosedMsg | ErrorMsg) -> None:
        """Send ``message`` to the server's lobby watchers not at a table."""
        self.server.tell_lobby(message)


async def start_node(server: Server) -> ClusterNode | None:
    """Join the cluster named by the server's config (``cluster``: Redis's URL;
    ``advertise``: this node's ``HOST:PORT``, or ``HOST`` with the port it
    listens on; by default the address it listens on), or None without one.
    The node connects in the background. A worker of ``--workers``
    (``shared_port``) also accepts on the port it shares with the others.

    Raises:
        RuntimeError: the ``redis`` package is not installed.
        OSError: the shared port cannot be bound.
    """
    config = server.config
    if not config.cluster:
        return None
    address = advertised(config.advertise, config.host, server.port)
    node = ClusterNode(ServerHost(server), config.cluster, address, config.cluster_heartbeat)
    if config.shared_port is not None:
        loop = asyncio.get_running_loop()
        node.listeners.append(
            await loop.create_server(
                server.accept, config.host, config.shared_port, reuse_port=True
            )
        )
    node.start()
    return node


def advertised(advertise: str | None, host: str, port: int) -> str:
    """The ``HOST:PORT`` a node is known by: ``advertise``, with ``port`` added
    if it names only a host; by default ``host:port`` (a wildcard host, which no
    client can connect to, is taken as the loopback)."""
    if advertise:
        has_port = re.search(r"(^[^:]*|\])(:\d+)$", advertise) is not None
        return advertise if has_port else f"{advertise}:{port}"
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
