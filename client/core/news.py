"""What the session tells its owner: the :class:`Listener` it calls with each piece of
news (the link changed, the lobby changed, a table to show…). No Textual: the terminal
client's :class:`~craits.client.tui.messages.NewsRelay` posts each piece as a Textual
message to its screens, which react with ``@on``; the session never touches a screen.
"""

from __future__ import annotations

from typing import Literal, Protocol

Severity = Literal["information", "warning", "error"]
"""How a line told to the user is shown (Textual's notification severities)."""


class Listener(Protocol):
    """Told by the session of every change, as it happens (each call returns at once)."""

    def link_changed(self) -> None:
        """The link's state or its words changed (:attr:`Session.link
        <craits.client.core.session.Session.link>`)."""

    def lobby_changed(self) -> None:
        """The list of tables changed."""

    def table_shown(self) -> None:
        """A table to show: joined, resumed, watching, or a fresh full state."""

    def table_changed(self, new_update: bool) -> None:
        """The table shown changed; ``new_update`` when by a move of the game."""

    def table_left(self) -> None:
        """No table any more (left, closed, gone): back to the lobby."""

    def said(self, text: str, severity: Severity, timeout: float, table: str | None) -> None:
        """A line to tell the user (never read as markup), for ``timeout`` seconds;
        ``table``: the table it is about, if it must not be left up over another."""

    def name_taken(self, table: str, why: str) -> None:
        """Joining ``table`` failed, the name taken: ask for another (``why``: the server's)."""

    def watch_offered(self, table: str, question: str) -> None:
        """Joining ``table`` failed, no seat there for this player (its game runs, or
        it is full): offer to watch it (``question`` says why)."""

    def code_needed(self, table: str, watch: bool, why: str) -> None:
        """``table`` is private and refused the code given (or none): ask for it,
        then join (or watch, ``watch``) with it (protocol §11.9)."""

    def invite_ready(self, table: str, link: str) -> None:
        """This client created the private ``table``: ``link`` is the invite to share
        (``craits://HOST:PORT/TABLE?code=CODE``)."""

    def failed(self, message: str) -> None:
        """The first connection failed: the client gives up with ``message``."""
