"""The plain client, ``craits-client HOST --plain``: the game in lines of text for a
screen reader or a braille display (docs/accessibility.md). It runs the core's
session (no Textual) and says every sentence through the catalogs
(:mod:`craits.protocol.i18n`):

- :mod:`~.sentences`: each event of the game in a sentence;
- :mod:`~.describe`: the hand, the table, the scores and the numbered choices;
- :mod:`~.output`: the :class:`~.output.Speaker`, writing those lines and nothing else;
- :mod:`~.commands`: what the player types;
- :mod:`~.app`: :class:`~.app.PlainClient`, the loop that joins them.
"""
