"""Where a new table goes in a cluster: the least-loaded node (docs/cluster.md)."""

from __future__ import annotations

from collections.abc import Mapping


def margin(load: int) -> int:
    """How much lighter another node must be before a table is sent there:
    2, or a tenth of ``load`` when that is more (so two nodes never send a
    request back and forth)."""
    return max(2, load // 10)


def place(own_load: int, others: Mapping[str, int]) -> str | None:
    """The address of the node a new table should go to, or None for this one.

    Args:
        own_load: this node's load (its connections).
        others: every other live node's address and load.
    """
    if not others:
        return None
    address, load = min(others.items(), key=lambda item: (item[1], item[0]))
    return address if load + margin(own_load) < own_load else None
