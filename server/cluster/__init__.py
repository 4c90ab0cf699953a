"""craits-server as a cluster: nodes sharing one lobby through Redis/Valkey (docs/cluster.md).

- :mod:`.lobby_copy`: the in-memory copy of the other nodes' tables and loads,
  which every decision on the request path reads (no Redis there);
- :mod:`.placement`: where a new table goes;
- :mod:`.registry`: the node's Redis link: heartbeat, publishing its tables,
  following the others' (imports ``redis`` only there; :mod:`.names`: claiming
  table names, :mod:`.aio`: redis-py and cancellation);
- :mod:`.start`: the node started with the server (and a worker's shared listener);
- :mod:`.directory`: the node's :class:`~craits.server.lobby.directory.Directory`
  (redirects, placement, the merged table list, the drain's refusals).

Resume tokens that name their table are the lobby's
(:mod:`craits.server.lobby.seat_tokens`); ``--workers`` and the drain command
are the operator's (:mod:`craits.server.ops`). It may import the lobby, the
table's types and the kit; only the app and the operator's commands import it.
"""
