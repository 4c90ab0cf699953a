"""The other nodes' tables, as this node knows them: an in-memory copy kept
up to date by :mod:`~craits.server.cluster.registry` (docs/cluster.md).

Everything a request needs to know about the cluster (where a table lives,
whose resume token this is, which node is least loaded, the merged table list)
is read here, without waiting on Redis. Each change returns what the lobby's
watchers are to be told (protocol §7.2): the infos that appeared or changed,
and the names that went away.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from craits.protocol.types import TableInfo

from ..lobby.seat_tokens import table_tag


@dataclass
class Changes:
    """What a change of the copy means for the lobby's watchers."""

    infos: list[TableInfo] = field(default_factory=list)
    """Tables new or changed: a ``table_info`` each."""
    closed: list[str] = field(default_factory=list)
    """Tables gone (closed, or their node is down or out of reach): a ``table_closed`` each."""

    def __bool__(self) -> bool:
        return bool(self.infos or self.closed)


@dataclass
class Node:
    """Another node: its advertised ``HOST:PORT``, load and tables by name;
    ``down``: its heartbeat stopped (its tables are listed as unavailable)."""

    address: str
    load: int = 0
    tables: dict[str, TableInfo] = field(default_factory=dict)
    down: bool = False
    draining: bool = False
    """It is stopping: no new table goes there."""


class LobbyCopy:
    """The tables and loads of the cluster's other live nodes."""

    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self._where: dict[str, str] = {}
        """Table name → the address of the node holding it."""
        self._tags: dict[str, str] = {}
        """Table tag (:func:`~craits.server.lobby.seat_tokens.table_tag`) → table name."""

    # ---------------------------------------------------------------- reading

    def node_of(self, table: str) -> str | None:
        """The address of the node holding the table called ``table`` (live or
        down: see :meth:`is_down`), or None."""
        return self._where.get(table)

    def is_down(self, address: str) -> bool:
        """Whether the node at ``address`` is known and down."""
        node = self.nodes.get(address)
        return node is not None and node.down

    def table_of_tag(self, tag: str) -> str | None:
        """The name of the table with this tag on another live node, or None."""
        return self._tags.get(tag)

    def tables(self) -> list[TableInfo]:
        """Every table of the other live nodes: by node address, then in each
        node's own order."""
        return [info for a in sorted(self.nodes) for info in self.nodes[a].tables.values()]

    def loads(self) -> dict[str, int]:
        """Every other live node's address and load (not those draining)."""
        return {a: n.load for a, n in self.nodes.items() if not (n.down or n.draining)}

    # --------------------------------------------------------------- changing

    def put(self, address: str, info: TableInfo) -> Changes:
        """The node at ``address`` says one of its tables is new or changed
        (a node not known yet is taken as live)."""
        node = self.nodes.setdefault(address, Node(address))
        name = info["name"]
        elsewhere = self._where.get(name)
        if elsewhere is not None and elsewhere != address:
            self.nodes[elsewhere].tables.pop(name, None)  # it moved: the latest word wins
        node.tables[name] = info
        self._where[name] = address
        self._tags[table_tag(name)] = name
        return Changes(infos=[info])

    def remove(self, address: str, name: str) -> Changes:
        """The node at ``address`` closed its table called ``name``."""
        node = self.nodes.get(address)
        if node is None or node.tables.pop(name, None) is None:
            return Changes()
        self._forget(name)
        return Changes(closed=[name])

    def replace(self, address: str, infos: Iterable[TableInfo], load: int | None = None) -> Changes:
        """The node at ``address`` is live and holds exactly ``infos`` (read
        whole from Redis): the tables it no longer holds go."""
        node = self.nodes.setdefault(address, Node(address))
        if load is not None:
            node.load = load
        node.down = False
        changes = Changes()
        fresh = {info["name"]: info for info in infos}
        for name in [n for n in node.tables if n not in fresh]:
            changes.closed.extend(self.remove(address, name).closed)
        for info in fresh.values():
            if node.tables.get(info["name"]) != info:
                changes.infos.extend(self.put(address, info).infos)
        return changes

    def set_load(self, address: str, load: int, draining: bool = False) -> None:
        """The live node at ``address`` has this load (and is draining, or not)."""
        node = self.nodes.get(address)
        if node is not None:
            node.load, node.draining = load, draining

    def mark_down(self, address: str) -> Changes:
        """The node at ``address`` stopped its heartbeat: its tables stay listed,
        with ``unavailable`` (protocol §10), until it is back or forgotten."""
        node = self.nodes.setdefault(address, Node(address))
        if node.down:
            return Changes()
        node.down = True
        for name, info in node.tables.items():
            node.tables[name] = {**info, "unavailable": True}
        return Changes(infos=list(node.tables.values()))

    def drop(self, address: str) -> Changes:
        """The node at ``address`` is down (or out of reach): its tables go."""
        node = self.nodes.pop(address, None)
        if node is None:
            return Changes()
        for name in node.tables:
            self._forget(name)
        return Changes(closed=list(node.tables))

    def clear(self) -> Changes:
        """Redis is out of reach: every other node's tables go."""
        changes = Changes()
        for address in list(self.nodes):
            changes.closed.extend(self.drop(address).closed)
        return changes

    def _forget(self, name: str) -> None:
        if name in self._where:
            del self._where[name]
            self._tags.pop(table_tag(name), None)
