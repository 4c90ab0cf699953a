"""The calls the server makes into its cluster (docs/cluster.md): each does
nothing on a single server (``server.cluster`` is None), and none waits on
Redis: they read the node's in-memory copy of the lobby.

- :func:`remote_tables`: the other nodes' tables, after this node's in ``tables``.
- :func:`redirect_table`, :func:`redirect_resume`, :func:`place_table`: answer
  ``join``/``spectate``, ``resume`` and ``create_table`` with ``redirect``
  (protocol §7.4) when the table is, or goes, elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from craits.protocol.types import RedirectMsg, TableInfo
from craits.protocol.vocab import ErrorCode, ServerMessage
from craits.server.cluster.placement import place
from craits.server.cluster.tokens import token_tag
from craits.server.interfaces import TableError

if TYPE_CHECKING:
    from craits.server.app import Server
    from craits.server.connection import Client


def remote_tables(server: Server) -> list[TableInfo]:
    """The tables of the cluster's other live nodes (none on a single server)."""
    if server.cluster is None:
        return []
    return [t for t in server.cluster.lobby.tables() if t["name"] not in server.tables]


def _redirect(client: Client, address: str, table: str) -> None:
    message: RedirectMsg = {"type": ServerMessage.REDIRECT, "address": address, "table": table}
    client.send(message)


def redirect_table(client: Client, name: str) -> bool:
    """Whether the table called ``name`` is another node's: if so, ``client``
    was sent a ``redirect`` to it (§7.4) and the request is answered.

    Raises:
        TableError: ``table_unavailable``: that node is down.
    """
    node = client.server.cluster
    if node is None or name in client.server.tables:
        return False
    address = node.lobby.node_of(name)
    if address is None:
        return False
    if node.lobby.is_down(address):
        raise TableError(
            ErrorCode.TABLE_UNAVAILABLE,
            f"table {name!r} is on a server of the cluster that is down; try again later",
        )
    _redirect(client, address, name)
    return True


def redirect_resume(client: Client, token: str) -> bool:
    """Whether the resume ``token`` (not held here) names another node's
    table: if so, ``client`` was sent a ``redirect`` to it (§7.4).

    Raises:
        TableError: ``table_unavailable``: that node is down.
    """
    node = client.server.cluster
    tag = token_tag(token)
    if node is None or tag is None:
        return False
    name = node.lobby.table_of_tag(tag)
    return name is not None and redirect_table(client, name)


def place_table(client: Client, name: str, placed: bool = False) -> bool:
    """Whether a new table called ``name`` goes to another, less loaded node:
    if so, ``client`` was sent a ``redirect`` to it (§7.4). ``placed``: the
    request was already redirected once (``create_table.placed``): it stays,
    unless this node is draining.

    Raises:
        TableError: ``table_exists``: another node holds a table by that name;
            ``too_many_tables``: this node is draining and no other takes it.
    """
    node = client.server.cluster
    if node is None:
        return False
    if node.lobby.node_of(name) is not None:
        raise TableError(ErrorCode.TABLE_EXISTS, f"a table called {name!r} exists")
    address: str | None = None
    if node.draining:  # stopping: every new table goes elsewhere
        loads = node.lobby.loads()
        if not loads:
            raise TableError(ErrorCode.TOO_MANY_TABLES, "this server is stopping: no new tables")
        address = min(loads, key=lambda a: (loads[a], a))
    elif not placed:
        address = place(len(client.server.clients), node.lobby.loads())
    if address is None:
        return False
    _redirect(client, address, name)
    return True
