"""A registered name and its canonical form (docs/accounts.md, *Names*).

Two names are the same account's when their canonical forms are equal: NFKC,
then case folding, then NFKC again (Unicode's ``NFKC_Casefold`` idea: folding
can undo a normalization), so "Maria", "MARIA", "ｍａｒｉａ" (full-width) and
"maria" are one name. The store keeps the canonical form unique (across a
cluster's nodes, in PostgreSQL) and the name as typed, for display.
"""

from __future__ import annotations

import unicodedata

MAX_NAME_LENGTH = 24
"""The longest name, in characters of its canonical form."""


class InvalidName(ValueError):
    """A name that cannot be registered (empty, too long, control characters,
    or spaces at its ends)."""


def canonical_name(name: str) -> str:
    """The form names are compared in: NFKC, case folding, NFKC.

    Raises:
        InvalidName: as :func:`check_name`.
    """
    check_name(name)
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_name(name: str) -> str:
    """``name`` if it can be registered.

    A name is 1–24 characters (after NFKC), has no control, format or
    unassigned characters, and neither begins nor ends with a space.

    Raises:
        InvalidName: it cannot, with the reason.
    """
    if not isinstance(name, str):
        raise InvalidName("a name is text")
    form = unicodedata.normalize("NFKC", name)
    if not form:
        raise InvalidName("empty name")
    if len(form) > MAX_NAME_LENGTH:
        raise InvalidName(f"a name is at most {MAX_NAME_LENGTH} characters")
    if form != form.strip():
        raise InvalidName("a name neither begins nor ends with a space")
    if any(unicodedata.category(c) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"} for c in form):
        raise InvalidName("a name holds letters, digits, marks and spaces only")
    return name
