"""The client's tests against a cluster (its session and ``craits-bot`` following
redirects, the lobby's unavailable rows) share the cluster's fixtures, which live
with the cluster's own tests in ``tests/server/cluster``."""

from __future__ import annotations

from tests.server.cluster.conftest import nodes, open_player, redis

__all__ = ["nodes", "open_player", "redis"]
