"""The client's presentation, pure: what the screens show, made from the core's model
(the prompt, the keys' states, the seats and the pile, the table drawn in character
cells, the event log's words, the summaries and the score sheet). No Textual.

It may import the core (:mod:`craits.client.core`) and the protocol; the core must
not import it (it is handed a :class:`~.describe.Narrator`), only :mod:`craits.client.tui`
and the command line do.
"""
