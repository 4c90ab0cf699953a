"""The client's core, without Textual: the session with a server (what the user asked
for, what the server said), the connection kept up, the tables as the client knows
them, and what it keeps on disk (:mod:`.saved`).

It may import the protocol and :mod:`craits.client.errors`, never the client's
presentation (:mod:`craits.client.present`) or screens (:mod:`craits.client.tui`):
they read the core, the core reads nothing of them.
"""
