"""The session's news as Textual messages.

The session (no Textual) tells a :class:`~craits.client.core.news.Listener` of every
change; :class:`NewsRelay` is the terminal client's: it publishes each piece of news
on a Textual :class:`~textual.signal.Signal`, and every node that follows the news
(:func:`follow_news`, in its ``on_mount``: the App, the lobby, the table, its summary
and score sheet) is posted it as one of the messages below. Each reacts to those that
concern it with ``@on`` (the App shows a table or the lobby, says a line, asks for a
code; the lobby redraws its list; the table, its summary and score sheet redraw the
table), so nothing routes the news by screen type, nothing walks the screen stack,
and no screen looks for another. A node that leaves stops following (the signal
forgets removed nodes). The messages do not bubble (each class says so: Textual's
default is to bubble): each is handled where it is posted.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App
from textual.dom import DOMNode
from textual.message import Message
from textual.signal import Signal

from ..core.news import Severity

log = logging.getLogger(__name__)


class SessionMessage(Message, bubble=False):
    """One piece of the session's news (:class:`~craits.client.core.news.Listener`)."""


class LinkChanged(SessionMessage, bubble=False):
    """The link's state (online, reconnecting…) or its words changed."""


class LobbyChanged(SessionMessage, bubble=False):
    """The list of tables changed."""


class TableShown(SessionMessage, bubble=False):
    """A table to show: joined, resumed, watching, or a fresh full state."""


class TableChanged(SessionMessage, bubble=False):
    """The table shown changed; ``new_update`` when by a move of the game."""

    def __init__(self, new_update: bool) -> None:
        super().__init__()
        self.new_update = new_update


class TableLeft(SessionMessage, bubble=False):
    """No table any more (left, closed, gone): back to the lobby."""


class LanguageChanged(SessionMessage, bubble=False):
    """The player chose another language (the settings): every text shown is drawn
    again in it (not the session's news, but told the same way, to the same nodes)."""


class Said(SessionMessage, bubble=False):
    """A line to tell the user (never read as markup), for ``timeout`` seconds;
    ``table``: the table it is about, not to be left up over another."""

    def __init__(self, text: str, severity: Severity, timeout: float, table: str | None) -> None:
        super().__init__()
        self.text = text
        self.severity: Severity = severity
        self.timeout = timeout
        self.table = table


class NameTaken(SessionMessage, bubble=False):
    """Joining ``table`` failed, the name taken: ask for another (``why``: the server's)."""

    def __init__(self, table: str, why: str) -> None:
        super().__init__()
        self.table = table
        self.why = why


class WatchOffered(SessionMessage, bubble=False):
    """No seat at ``table`` for this player: offer to watch it (``question`` says why)."""

    def __init__(self, table: str, question: str) -> None:
        super().__init__()
        self.table = table
        self.question = question


class CodeNeeded(SessionMessage, bubble=False):
    """The private ``table`` needs its invite code: ask for it, then join (or watch,
    ``watch``) with it; ``why``: what was wrong (protocol §11.9)."""

    def __init__(self, table: str, watch: bool, why: str) -> None:
        super().__init__()
        self.table = table
        self.watch = watch
        self.why = why


class InviteReady(SessionMessage, bubble=False):
    """This client created the private ``table``: ``link`` is its invite to share."""

    def __init__(self, table: str, link: str) -> None:
        super().__init__()
        self.table = table
        self.link = link


class Failed(SessionMessage, bubble=False):
    """The first connection failed: the client gives up with ``message``."""

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message


class NewsRelay:
    """The session's listener in the terminal client: publishes each piece of news on
    :attr:`signal`; each node that follows it (:meth:`follow`) is posted the news as a
    message of its own, in the order the nodes began to follow.

    Args:
        app: the client (the signal's owner).
    """

    def __init__(self, app: App[Any]):
        self.signal: Signal[Callable[[], SessionMessage]] = Signal(app, "session-news")
        """The news, each as a maker of its message (a message is posted once)."""

    def follow(self, node: DOMNode) -> None:
        """Post the news to ``node`` from now on, until it is removed.

        Raises:
            textual.signal.SignalError: ``node`` is not mounted yet.
        """

        def post(make: Callable[[], SessionMessage]) -> None:
            node.post_message(make())

        self.signal.subscribe(node, post, immediate=True)

    def _post(self, make: Callable[[], SessionMessage]) -> None:
        self.signal.publish(make)

    def link_changed(self) -> None:
        """Post :class:`LinkChanged`."""
        self._post(LinkChanged)

    def lobby_changed(self) -> None:
        """Post :class:`LobbyChanged`."""
        self._post(LobbyChanged)

    def table_shown(self) -> None:
        """Post :class:`TableShown`."""
        self._post(TableShown)

    def table_changed(self, new_update: bool) -> None:
        """Post :class:`TableChanged`."""
        self._post(lambda: TableChanged(new_update))

    def table_left(self) -> None:
        """Post :class:`TableLeft`."""
        self._post(TableLeft)

    def language_changed(self) -> None:
        """Post :class:`LanguageChanged`."""
        self._post(LanguageChanged)

    def said(self, text: str, severity: Severity, timeout: float, table: str | None) -> None:
        """Post :class:`Said`."""
        self._post(lambda: Said(text, severity, timeout, table))

    def name_taken(self, table: str, why: str) -> None:
        """Post :class:`NameTaken`."""
        self._post(lambda: NameTaken(table, why))

    def watch_offered(self, table: str, question: str) -> None:
        """Post :class:`WatchOffered`."""
        self._post(lambda: WatchOffered(table, question))

    def code_needed(self, table: str, watch: bool, why: str) -> None:
        """Post :class:`CodeNeeded`."""
        self._post(lambda: CodeNeeded(table, watch, why))

    def invite_ready(self, table: str, link: str) -> None:
        """Post :class:`InviteReady`."""
        self._post(lambda: InviteReady(table, link))

    def failed(self, message: str) -> None:
        """Post :class:`Failed`."""
        self._post(lambda: Failed(message))


def follow_news(node: DOMNode) -> None:
    """Have ``node`` (mounted: call it from ``on_mount``) posted the session's news as
    messages, if its App relays any (an App given a :class:`NewsRelay` as ``news``,
    :class:`~craits.client.tui.app.CraitsApp`); elsewhere (a screen shown by another
    App, as in a test) nothing."""
    relay = getattr(node.app, "news", None)
    if isinstance(relay, NewsRelay):
        relay.follow(node)


NodeT = TypeVar("NodeT", bound=DOMNode)
MessageT = TypeVar("MessageT", bound=SessionMessage)


def reported(
    handler: Callable[[NodeT, MessageT], None],
) -> Callable[[NodeT, MessageT], None]:
    """A handler of the session's news whose failure is said in a notification and
    logged, not fatal: the client goes on (the next change draws it again)."""

    @functools.wraps(handler)
    def handle(node: NodeT, message: MessageT) -> None:
        try:
            handler(node, message)
        except Exception as exc:
            log.exception("failed to show %r", message)
            node.app.notify(f"Could not show a change: {exc}", severity="error", markup=False)

    return handle
