"""craits-server as a cluster: nodes sharing one lobby through Redis/Valkey (docs/cluster.md).

- :mod:`~craits.server.lobby.seat_tokens`: resume tokens that name their table.
- :mod:`~craits.server.cluster.lobby_copy`: the in-memory copy of the other nodes'
  tables and loads, which every decision on the request path reads (no Redis
  there).
- :mod:`~craits.server.cluster.placement`: where a new table goes.
- :mod:`~craits.server.cluster.registry`: the node's Redis link: heartbeat,
  publishing its tables, following the others' (imports ``redis`` only there).
- :mod:`~craits.server.cluster.start`: the node started with the server
  (and a worker's shared listener).
- :mod:`~craits.server.cluster.directory`: the few calls the server's handlers make
  (redirects, placement, the merged table list).

- :mod:`~craits.server.ops.workers`: ``--workers N``, N nodes behind one port.
"""
