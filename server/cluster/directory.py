"""A cluster node's :class:`~craits.server.lobby.directory.Directory`
(docs/cluster.md): none of its calls waits on Redis but the claim of a new
table's name; they read the node's in-memory copy of the lobby.

- :meth:`ClusterDirectory.other_tables`: the other nodes' tables.
- :meth:`~ClusterDirectory.redirect_table`, :meth:`~ClusterDirectory.redirect_resume`,
  :meth:`~ClusterDirectory.place_table`: answer ``join``/``spectate``,
  ``resume`` and ``create_table`` with ``redirect`` (protocol §7.4) when the
  table is, or goes, elsewhere.
- :meth:`~ClusterDirectory.claim_name`: a new table's name is claimed in Redis
  before the table is created (names are unique in the cluster); the one call
  that waits on Redis, and only for ``create_table``.
- :meth:`~ClusterDirectory.refuse_new_game`: a draining node starts no new game.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from craits.protocol.types import RedirectMsg, TableInfo
from craits.protocol.vocab import ErrorCode, ServerMessage

from ..errors import TableError
from ..lobby.seat_tokens import token_tag
from .placement import place

if TYPE_CHECKING:
    from ..app import Server
    from ..net.connection import Client
    from .registry import ClusterNode

log = logging.getLogger("craits.server.cluster")


def _redirect(client: Client, address: str, table: str) -> None:
    message: RedirectMsg = {"type": ServerMessage.REDIRECT, "address": address, "table": table}
    client.send(message)


def _exists(name: str) -> TableError:
    return TableError(ErrorCode.TABLE_EXISTS, f"a table called {name!r} exists")


class ClusterDirectory:
    """The directory of ``server``, a node of a cluster: ``node`` is its link to
    the cluster (its copy of the other nodes' lobby, its heartbeat, its claims)."""

    def __init__(self, node: ClusterNode, server: Server) -> None:
        self.node = node
        self.server = server

    def other_tables(self) -> list[TableInfo]:
        """The tables of the cluster's other live nodes."""
        here = self.server.tables
        return [t for t in self.node.lobby.tables() if t["name"] not in here]

    def redirect_table(self, client: Client, name: str) -> bool:
        """Whether the table called ``name`` is another node's: if so, ``client``
        was sent a ``redirect`` to it (§7.4) and the request is answered.

        Raises:
            TableError: ``table_unavailable``: that node is down.
        """
        lobby = self.node.lobby
        if name in self.server.tables:
            return False
        address = lobby.node_of(name)
        if address is None:
            return False
        if lobby.is_down(address):
            raise TableError(
                ErrorCode.TABLE_UNAVAILABLE,
                f"table {name!r} is on a server of the cluster that is down; try again later",
            )
        _redirect(client, address, name)
        return True

    def redirect_resume(self, client: Client, token: str) -> bool:
        """Whether the resume ``token`` (not held here) names another node's
        table: if so, ``client`` was sent a ``redirect`` to it (§7.4).

        Raises:
            TableError: ``table_unavailable``: that node is down.
        """
        tag = token_tag(token)
        if tag is None:
            return False
        name = self.node.lobby.table_of_tag(tag)
        return name is not None and self.redirect_table(client, name)

    def place_table(self, client: Client, name: str, placed: bool) -> bool:
        """Whether a new table called ``name`` goes to another, less loaded node:
        if so, ``client`` was sent a ``redirect`` to it (§7.4). ``placed``: the
        request was already redirected once (``create_table.placed``): it stays,
        unless this node is draining.

        Raises:
            TableError: ``table_exists``: another node holds a table by that name;
                ``too_many_tables``: this node is draining and no other takes it.
        """
        node = self.node
        if node.lobby.node_of(name) is not None:
            raise _exists(name)
        address: str | None = None
        if node.draining:  # stopping: every new table goes elsewhere
            loads = node.lobby.loads()
            if not loads:
                raise TableError(
                    ErrorCode.TOO_MANY_TABLES, "this server is stopping: no new tables"
                )
            address = min(loads, key=lambda a: (loads[a], a))
        elif not placed:
            address = place(len(self.server.clients), node.lobby.loads())
        if address is None:
            return False
        _redirect(client, address, name)
        return True

    def claim_name(self, client: Client, name: str, create: Callable[[], None]) -> bool:
        """Whether creating the table called ``name`` waits for the claim of its
        name in the cluster's Redis (docs/cluster.md, "Table names"): if so,
        ``create`` is called once the claim is made (or once Redis is found out
        of reach: the table is then this node's only until the name is claimed),
        and ``table_exists`` answered if another node holds the name. The
        connection's later requests wait meanwhile (their replies keep their order).

        Raises:
            TableError: ``table_exists``: a table of this node, or one being
                created on it, has that name.
        """
        server, node = self.server, self.node
        if not node.connected:
            return False  # Redis is out of reach: local only
        if name in server.tables or name in server.set_aside or name in node.names.in_flight:
            raise _exists(name)
        client.deferred.wait(_create_claimed(client, node, name, node.claim(name), create))
        return True

    def refuse_new_game(self) -> None:
        """Refuse a new game while the node drains (docs/cluster.md).

        Raises:
            TableError: ``cannot_start``.
        """
        if self.node.draining:
            raise TableError(ErrorCode.CANNOT_START, "this server is stopping: no new games")

    def table_changed(self, name: str) -> None:
        """This node's table ``name`` changed: the others are told (coalesced)."""
        self.node.table_changed(name)

    def table_closed(self, name: str) -> None:
        """This node's table ``name`` closed: the others are told, its name let go."""
        self.node.table_closed(name)


async def _create_claimed(
    client: Client,
    node: ClusterNode,
    name: str,
    claim: Awaitable[str | None],
    create: Callable[[], None],
) -> None:
    """Create the table once its name is claimed; answer ``create_table``."""
    owner: str | None = None
    try:
        owner = await claim
        if client.closed:
            return
        if owner is not None and owner != node.address:
            client.error(ErrorCode.TABLE_EXISTS, _exists(name).message)
            return
        try:
            create()
        except TableError as exc:
            client.error(exc.code, exc.message)
        except Exception:
            log.exception("connection %s: failed to create table %s", client.peer, name)
            client.error(ErrorCode.INTERNAL, "the server failed to handle that message")
    finally:
        node.names.done(name)
        if owner == node.address and name not in client.server.tables:
            node.table_closed(name)  # not created after all: the name is let go
