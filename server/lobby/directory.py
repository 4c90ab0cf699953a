"""The lobby's directory: where a table is, this server's or another's.

A server alone holds every table it lists. A node of a cluster (docs/cluster.md)
lists the other nodes' tables too, sends a player asking for one of them
there (``redirect``, protocol §7.4), places a new table on a less loaded node,
claims a new table's name in the whole cluster, and starts no new game while
it drains. The handlers ask their server's :class:`Directory` for all of that
and never whether a cluster exists: :class:`LocalDirectory` is a single
server's (nothing elsewhere), :class:`craits.server.cluster.directory.ClusterDirectory`
a node's. None of its calls waits on the cluster's Redis but
:meth:`Directory.claim_name`, which holds the request until the claim is made.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from craits.protocol.types import TableInfo

if TYPE_CHECKING:
    from ..net.connection import Client


class Directory(Protocol):
    """Where the server's tables are, beside the other nodes' of its cluster (if any)."""

    def other_tables(self) -> list[TableInfo]:
        """The tables of the cluster's other live nodes, for the lobby's list
        after this server's own (protocol §7.2)."""
        ...

    def redirect_table(self, client: Client, name: str) -> bool:
        """Whether the table called ``name`` is another node's: if so, ``client``
        was sent a ``redirect`` to it (§7.4) and its request is answered.

        Raises:
            TableError: ``table_unavailable``: that node is down.
        """
        ...

    def redirect_resume(self, client: Client, token: str) -> bool:
        """Whether the resume ``token`` (held by no seat here) names another
        node's table: if so, ``client`` was sent a ``redirect`` to it (§7.4).

        Raises:
            TableError: ``table_unavailable``: that node is down.
        """
        ...

    def place_table(self, client: Client, name: str, placed: bool) -> bool:
        """Whether a new table called ``name`` goes to another node: if so,
        ``client`` was sent a ``redirect`` to it (§7.4). ``placed``: the request
        was redirected here once already (``create_table.placed``).

        Raises:
            TableError: ``table_exists`` (another node holds one by that name),
                ``too_many_tables`` (this node is draining and no other takes it).
        """
        ...

    def claim_name(self, client: Client, name: str, create: Callable[[], None]) -> bool:
        """Whether creating the table called ``name`` waits for its name to be
        claimed in the cluster: if so, ``create`` is called (and the request
        answered) once it is; ``client``'s later requests wait meanwhile.

        Raises:
            TableError: ``table_exists``: a table here, or one being created
                here, has that name.
        """
        ...

    def refuse_new_game(self) -> None:
        """Refuse a new game while this server is draining (docs/cluster.md).

        Raises:
            TableError: ``cannot_start``.
        """

    def table_changed(self, name: str) -> None:
        """This server's table ``name`` changed (the other nodes list it so)."""

    def table_closed(self, name: str) -> None:
        """This server's table ``name`` closed (its name is let go)."""


class LocalDirectory:
    """A single server's directory: every table is its own, none is elsewhere."""

    def other_tables(self) -> list[TableInfo]:
        """No other node: no other tables."""
        return []

    def redirect_table(self, client: Client, name: str) -> bool:
        """Never: every table is here, or nowhere."""
        return False

    def redirect_resume(self, client: Client, token: str) -> bool:
        """Never: every seat is here, or nowhere."""
        return False

    def place_table(self, client: Client, name: str, placed: bool) -> bool:
        """Never: a new table is made here."""
        return False

    def claim_name(self, client: Client, name: str, create: Callable[[], None]) -> bool:
        """Never: the server's own tables are all the names there are."""
        return False

    def refuse_new_game(self) -> None:
        """A single server does not drain: every game may start."""

    def table_changed(self, name: str) -> None:
        """Nobody else to tell."""

    def table_closed(self, name: str) -> None:
        """Nobody else to tell."""
