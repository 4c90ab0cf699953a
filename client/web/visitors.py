"""Browser visitors: their ids, their own state directories, and where their links go.

A visitor is one browser: the web side gives it a random id (:func:`new_visitor_id`,
256 bits) in an HttpOnly cookie. The id itself is never written to disk: the
visitor's directory is named by its SHA-256 (:meth:`Visitors.key`), so a listing
of the directories gives no one a cookie to present. Each directory holds the
visitor's chosen name (``profile.json``) and, through the XDG variables given to
the visitor's client process (:meth:`Visitors.environment`), everything the
client keeps per user: resume tokens, shuffle commitments, theme, pins. Another
browser has another id, so another directory: it can never present the first
one's resume token, so it can never take the first one's seat.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from craits.protocol import ProtocolError
from craits.protocol.address import Target
from craits.protocol.messages import name as check_name

from ..core.saved.files import write_private_json
from ..core.saved.resume_tokens import FILE_NAME, TokenStore

VISITOR_COOKIE = "craits_visitor"
"""The cookie that names a browser (HttpOnly, SameSite=Lax)."""

VISITOR_ENV = "CRAITS_WEB_VISITOR"
"""The environment variable that gives a visitor's client process its visitor key."""

_VISITOR_ID = re.compile(r"[A-Za-z0-9_-]{43}")
_CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_visitor_id() -> str:
    """A fresh visitor id: 32 random bytes, URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def valid_visitor_id(text: str | None) -> bool:
    """Whether ``text`` has the shape of an id from :func:`new_visitor_id`."""
    return text is not None and _VISITOR_ID.fullmatch(text) is not None


class BadName(ValueError):
    """A name the game server would refuse; ``str()`` says why, as the server
    words it (``Your name: must be 1..24 characters``)."""


def display_name(text: str) -> str:
    """A name typed in the name page, as the game server takes it: checked by
    the server's own rule (protocol §4, :func:`craits.protocol.messages.name`),
    so the page refuses exactly what the server would, with its words.

    Returns:
        The name without its surrounding spaces, as the server keeps it.

    Raises:
        BadName: the server would refuse it (``str()`` says why).
    """
    try:
        return check_name(text, "Your name")
    except ProtocolError as exc:
        raise BadName(exc.message) from None


class BadLink(ValueError):
    """A link's query names a table or code the server could never accept."""


@dataclass(frozen=True, slots=True)
class Launch:
    """Where a visitor's client goes first, from the page's query.

    Attributes:
        table: a table to sit at (or watch), or None for the lobby.
        watch: watch ``table`` as a spectator.
        code: the invite code of a private table, or None.
    """

    table: str | None = None
    watch: bool = False
    code: str | None = None

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Launch:
        """Read ``table``, ``watch`` and ``code`` from a page's query string.

        ``table`` must be a name the server accepts (protocol §4's name rule);
        ``code`` letters, digits, ``-`` and ``_`` (at most 64); ``watch`` is on for
        any value but empty or ``0``. Other keys (e.g. ``fontsize``) are ignored.

        Raises:
            BadLink: a bad table name or code, or ``watch``/``code`` without a table.
        """
        table = query.get("table") or None
        code = query.get("code") or None
        watch = query.get("watch", "") not in ("", "0")
        if table is not None:
            try:
                table = check_name(table, "table")
            except ProtocolError as exc:
                raise BadLink(f"bad table name: {exc.message}") from None
        if code is not None and not _CODE.fullmatch(code):
            raise BadLink("bad invite code: letters, digits, - and _ only")
        if (watch or code) and table is None:
            raise BadLink("watch and code need a table")
        return cls(table, watch, code)

    def query(self) -> dict[str, str]:
        """This launch as a query again (for the name page's redirect)."""
        out: dict[str, str] = {}
        if self.table:
            out["table"] = self.table
        if self.watch:
            out["watch"] = "1"
        if self.code:
            out["code"] = self.code
        return out


class Visitors:
    """The visitors' directories under ``root`` (created with mode 0700)."""

    PROFILE = "profile.json"

    def __init__(self, root: Path):
        self.root = root

    @staticmethod
    def key(visitor_id: str) -> str:
        """The visitor's directory name: the SHA-256 of its id, 32 hex digits."""
        return hashlib.sha256(visitor_id.encode("ascii")).hexdigest()[:32]

    def home(self, visitor_id: str) -> Path:
        """The visitor's own directory (not created)."""
        return self.root / self.key(visitor_id)

    def name(self, visitor_id: str) -> str | None:
        """The name the visitor chose, or None before they chose one."""
        try:
            data = json.loads((self.home(visitor_id) / self.PROFILE).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        name = data.get("name") if isinstance(data, dict) else None
        if not isinstance(name, str):
            return None
        try:
            return display_name(name)
        except BadName:
            return None  # (kept under an older rule: asked again)

    def saved_table(self, visitor_id: str, game: Target, name: str) -> str | None:
        """The table where the visitor's client keeps a seat to take back at
        ``game`` under ``name`` (its resume token, saved in the visitor's state
        directory as the client saves it: per server and name), or None."""
        path = self.home(visitor_id) / "state" / "craits" / FILE_NAME  # XDG_STATE_HOME/craits
        seat = TokenStore(path).get(f"{game.host}:{game.port} {name.casefold()}")
        return seat["table"] if seat is not None else None

    def set_name(self, visitor_id: str, name: str) -> None:
        """Keep the visitor's name (written whole or not at all, readable by the
        server's user only: :func:`~craits.client.core.saved.files.write_private_json`).

        Raises:
            OSError: the directory cannot be written.
        """
        home = self.home(visitor_id)
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        write_private_json(home / self.PROFILE, {"name": name})

    def environment(self, visitor_id: str) -> dict[str, str]:
        """Environment variables that point the visitor's client at its own
        directories: ``XDG_STATE_HOME`` (resume tokens, commitments),
        ``XDG_CONFIG_HOME`` (theme, pins), ``XDG_DATA_HOME``, ``XDG_CACHE_HOME``,
        and :data:`VISITOR_ENV` (the visitor's key)."""
        home = self.home(visitor_id)
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        return {
            "XDG_STATE_HOME": str(home / "state"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CACHE_HOME": str(home / "cache"),
            VISITOR_ENV: self.key(visitor_id),
        }
