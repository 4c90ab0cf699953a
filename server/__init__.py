"""The Craits server (``craits-server``), in rooms (docs/architecture.md):

- ``app.py``, the :class:`~craits.server.app.Server`: it listens, holds the
  tables, and puts the rooms together; ``errors.py``: the server's errors;
- :mod:`.net` (connections, handlers, TLS), :mod:`.table` (one table and its
  parts), :mod:`.journal` (what is recorded, restored, replayed), :mod:`.lobby`
  (tables nobody is at, practice tables, resume tokens, where a table is),
  :mod:`.cluster` (nodes sharing one lobby), :mod:`.ops` (the operator's
  commands and kit), :mod:`.bots` (computer players), :mod:`.engine` (the rules).

The rooms are layered (``pyproject.toml``'s import contracts): ops over app,
app over net, net over cluster, cluster over lobby and journal, those over
table, table over bots and engine; the errors and the operator's kit under all.
"""
