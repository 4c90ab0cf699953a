"""The table and its parts without a socket: the actor's order of publishing, the
clocks, membership, moves, powers (stand-ins in :mod:`tests.support.table_parts`)."""
