"""The lobby: the tables nobody is at (:mod:`.empty_tables`), the ``--bots``
practice tables (:mod:`.practice`), the resume tokens and the seats they hold
(:mod:`.seat_tokens`), and where a table is, here or on another node
(:mod:`.directory`: one interface for a single server and a cluster).

It may import the table, the engine and the kit; the cluster, the network, the
app and the operator's commands import it. The table never does.
"""
