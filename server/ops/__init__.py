"""The operator's: ``craits-server``'s command line (:mod:`.cli`, :mod:`.options`),
running it (:mod:`.serve`, ``--workers`` :mod:`.workers`, the drain :mod:`.drain`),
its other commands (:mod:`.commands`, :mod:`.status`), ``craits-web`` beside it
(:mod:`.web`), the rule vectors' runner (:mod:`.vectors`); and the kit every room
uses: settings (:mod:`.config`), logs (:mod:`.logs`), metrics (:mod:`.metrics`).

The commands may import every room; nothing imports them but ``__main__``.
The kit imports nothing of the server but its errors.
"""
