"""One table: the actor (:mod:`.actor`, the Table and its TableStatus) and its
parts, each in its lane: seating, membership, moves, powers, clocks, the game
log, fairness, access, and what members are shown and sent (:mod:`.broadcast`);
the parts answer with an Outcome (:mod:`.outcome`), the Table alone publishes
and persists; what a table needs from the world is in its ports (:mod:`.ports`).

It may import the engine, the bots' policies, the server's errors and the
operator's logs; never the network, the journal, the lobby or the cluster
(they reach it through its ports). Those rooms, and the app, import it.
"""
