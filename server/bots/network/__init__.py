"""The network bot, ``craits-bot``: a client of the server like any other
(:mod:`.bot`: the player; :mod:`.server_link`: its connection, on the
protocol's frame reader and typed messages; :mod:`.seen`: the hand's events
as its seat saw them, for the expert; :mod:`.cli`: its command line).

It may import the protocol, the bots' policies and the server's errors, never
the rest of the server; nothing of the server imports it.
"""
