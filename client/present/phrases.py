"""A translated sentence filled with styled parts: the message is translated whole
(named placeholders, docs/i18n.md), then each ``{name}`` is replaced by its part,
plain text or a Rich :class:`~rich.text.Text` (a card in its colour), so that a
language may put the cards and names where its word order wants them."""

from __future__ import annotations

import re

from rich.text import Text

_FIELD = re.compile(r"\{(\w+)\}")
"""A named placeholder in a translated message."""


def fill(message: str, style: str = "", **parts: str | Text) -> Text:
    """``message`` (already translated) as a :class:`Text` in ``style``, each
    ``{name}`` replaced by ``parts[name]`` (a :class:`Text` keeps its own style;
    a ``str`` is plain text, never read as markup). ``{{`` and ``}}`` are not
    used in the game's messages; a placeholder without a part is left as written.
    """
    out = Text(style=style)
    done = 0
    for m in _FIELD.finditer(message):
        out.append(message[done : m.start()])
        part = parts.get(m.group(1))
        if part is None:
            out.append(m.group())
        elif isinstance(part, Text):
            out.append_text(part)
        else:
            out.append(part)
        done = m.end()
    out.append(message[done:])
    return out
