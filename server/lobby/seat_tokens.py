"""Resume tokens that name their table, so any node of a cluster can send a
``resume`` to the node that holds the seat (docs/cluster.md, protocol §11.7).

A token is 32 random URL-safe characters (24 random bytes), a dot, and the
table's tag: the first 11 characters of the base64url SHA-256 of the table's
name. The tag tells which table, never which seat: whoever lacks the random
part cannot take the seat.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

TAG_LENGTH = 11
"""Characters of a table's tag (66 bits of its name's SHA-256)."""


def table_tag(name: str) -> str:
    """The tag of the table called ``name``: 11 base64url characters."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:TAG_LENGTH]


def new_token(table: str) -> str:
    """A fresh resume token for a seat at the table called ``table`` (44 characters)."""
    return f"{secrets.token_urlsafe(24)}.{table_tag(table)}"


def token_tag(token: str) -> str | None:
    """The table tag a token carries, or None (a token from before tags, or not one)."""
    _, dot, tag = token.rpartition(".")
    return tag if dot and len(tag) == TAG_LENGTH else None
