"""The client's screens: the lobby, the table (its game panel and layout), and the
replay viewer's; each reacts to the session's news with ``@on`` and asks for dialogs.

It may import the dialogs, the widgets, the presentation and the core; only the Apps
(:mod:`craits.client.tui.app`, :mod:`craits.client.tui.replay_app`) import it.
"""
