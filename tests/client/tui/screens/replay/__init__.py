"""The replay viewer's screens: a recorded game move by move, and the analysed
decisions marked beside their moves (the game from ``tests/support/plugin.py``'s
``watched_game``)."""
