"""The table's time: the turn's timeout, time banks, correspondence games (their
deadlines through restarts), at the table and over real sockets."""
