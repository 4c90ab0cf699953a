"""The network bot's connection to a server: an :class:`asyncio.Protocol` that speaks frames.

:class:`ServerLink` says ``hello``, reads frames with the protocol's one reader
(:class:`~craits.protocol.wire.FrameReader`, :func:`~craits.protocol.wire.decode`)
into typed messages (:func:`~craits.protocol.messages.parse_server_message`),
answers the heartbeat (protocol §4.2), sends typed messages within the
server's rate (:class:`Throttle`), and ends: closed by the bot, or failed with
a one-line :class:`~craits.server.errors.BotError`. It decides nothing about
the game: it hands every message to its :class:`LinkListener`, the
:class:`~.bot.BotClient` that plays.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from craits.protocol.messages import parse_server_message
from craits.protocol.types import ClientMsg, PongMsg, ServerMsg, WelcomeMsg
from craits.protocol.vocab import ClientMessage, ErrorCode, ServerMessage
from craits.protocol.wire import (
    MAX_SERVER_FRAME,
    VERSION,
    FrameReader,
    ProtocolError,
    decode,
    encode,
)

from ...errors import BotError

__all__ = ["SERVER_DEPTH", "BotStats", "LinkListener", "ServerLink", "Throttle"]

SERVER_DEPTH = 16
"""Deepest nesting accepted in a server's message (a record's hands run deep)."""
CLIENT_NAME = "craits-bot"
"""The ``client`` the bot names in its ``hello`` (protocol §4.1)."""


@dataclass
class BotStats:
    """Counters shared by many bots (``scripts/loadtest.py``); all optional to read.

    Attributes:
        moves: actions answered ``ok``.
        rtts: for each of them, seconds from sending the ``act`` to receiving
            the bot's own ``update`` that follows the ``ok``.
        frames_in: frames received from the server.
        frames_out: frames sent to the server.
        errors: error replies that are not lost races, by code.
        races: refusals that only mean another action got in first, by code.
        dropped: connections the server closed or reset under the bot.
        games: games seen to their end (counted once per bot).
    """

    moves: int = 0
    rtts: list[float] = field(default_factory=list)
    frames_in: int = 0
    frames_out: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    races: Counter[str] = field(default_factory=Counter)
    dropped: int = 0
    games: int = 0
    recording: bool = True
    """Whether round trips and moves are being recorded (the load test's window)."""


class Throttle:
    """The bot's own rate limit, under the server's (protocol §4.4, §14): a
    token bucket like the server's, refilled at :data:`SHARE` of its
    ``rate`` with room for half its ``burst``, so that frames bunched up on
    the way still arrive within the limit. Every frame sent spends a token;
    :meth:`wait` says how long an action should wait for one. Times are the
    event loop's, in seconds.

    Before the server's ``welcome`` says its limits, nothing is held back.
    """

    SHARE = 0.9
    """The part of the server's rate the bot allows itself."""

    __slots__ = ("_burst", "_rate", "_tokens", "_when")

    def __init__(self) -> None:
        self._rate = 0.0  # no limit known yet
        self._burst = 0.0
        self._tokens = 0.0
        self._when = 0.0

    def limit(self, rate: float, burst: float, now: float, spent: int = 0) -> None:
        """The server allows ``rate`` messages a second and ``burst`` at once;
        ``spent`` frames were sent already."""
        self._rate = max(rate * self.SHARE, 0.1)
        self._burst = max(burst / 2, 1.0)
        self._tokens = self._burst - spent
        self._when = now

    def _refill(self, now: float) -> float:
        tokens = min(self._burst, self._tokens + (now - self._when) * self._rate)
        self._tokens, self._when = tokens, now
        return tokens

    def wait(self, now: float) -> float:
        """Seconds from ``now`` until one more frame is within the limit (0: now)."""
        if not self._rate:
            return 0.0
        tokens = self._refill(now)
        return 0.0 if tokens >= 1 else (1 - tokens) / self._rate

    def spend(self, now: float) -> None:
        """A frame was sent at ``now`` (one the bot could not hold back, such
        as a ``pong``, may take the bucket below zero: what follows waits)."""
        if self._rate:
            self._tokens = self._refill(now) - 1


def _read_failure(fut: asyncio.Future[Any]) -> None:
    """Mark a future's failure as read (:attr:`ServerLink.done` reports it too)."""
    if not fut.cancelled():
        fut.exception()


class LinkListener(Protocol):
    """Who plays over a :class:`ServerLink`: it is handed what the link reads."""

    def on_message(self, msg: ServerMsg) -> None:
        """One message from the server (not a heartbeat ``ping``)."""

    def on_frames_read(self) -> None:
        """The frames that arrived together are all handled (unless the link is ending)."""

    def on_end(self) -> None:
        """The link is ending: cancel whatever was scheduled."""


class ServerLink(asyncio.Protocol):
    """One connection to a Craits server, from the ``hello`` to its end, for ``listener``.

    Hand it to :meth:`asyncio.loop.create_connection`. :attr:`welcomed`
    resolves to the server's ``welcome``; :attr:`done` resolves to an exit
    code once the link is closed (:meth:`close`: 0, :meth:`finish`), or fails
    with :class:`~craits.server.errors.BotError` (:meth:`fail`), and so does
    every future made by :meth:`new_wait`.

    Args:
        name: the player name sent in ``hello`` (protocol §4.1).
        listener: who is handed every message (:class:`LinkListener`).
        stats: counters to add to (frames in and out, connections dropped).
    """

    def __init__(self, name: str, listener: LinkListener, stats: BotStats | None = None) -> None:
        self.name = name
        self.listener = listener
        self.stats = stats if stats is not None else BotStats()
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._waits: list[asyncio.Future[Any]] = []
        self.welcomed: asyncio.Future[WelcomeMsg] = self.new_wait()
        self.done: asyncio.Future[int] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.throttle = Throttle()
        """The bot's own rate limit, set from ``welcome.limits`` (protocol §14)."""
        self._frames = FrameReader(MAX_SERVER_FRAME)
        self.closing = False
        """The link is ending (closed or failed): nothing more is sent or handed on."""
        self._sent = 0

    def new_wait(self) -> asyncio.Future[Any]:
        """A future for a step of the link (welcomed, seated…) that fails with it;
        its failure need not be read, :attr:`done` has it."""
        fut: asyncio.Future[Any] = self._loop.create_future()
        fut.add_done_callback(_read_failure)
        self._waits.append(fut)
        return fut

    # ------------------------------------------------------------ transport

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Say hello (protocol §4.1)."""
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.send(
            {
                "type": ClientMessage.HELLO,
                "version": VERSION,
                "name": self.name,
                "client": CLIENT_NAME,
            }
        )

    def data_received(self, data: bytes) -> None:
        """Read the frames now complete and hand each on; a bad frame ends the link
        (the good frames before it are handled first)."""
        try:
            for body in self._frames.frames(data):
                self._receive(
                    decode(body, MAX_SERVER_FRAME, depth=SERVER_DEPTH, check_values=False)
                )
                if self.closing:
                    return
        except ProtocolError as exc:
            self.fail(f"the server does not speak the Craits protocol ({exc.message})")
            return
        self.listener.on_frames_read()

    def _receive(self, data: dict[str, Any]) -> None:
        """Count one message; answer a heartbeat, note the welcome, hand on the rest.

        Raises:
            ProtocolError: ``bad_message``, a message without a key its type requires.
        """
        self.stats.frames_in += 1
        try:
            msg = parse_server_message(data)
        except ProtocolError as exc:
            if exc.code == ErrorCode.UNKNOWN_TYPE:
                return  # a type this bot does not know: ignored (protocol §14)
            raise
        if msg["type"] == ServerMessage.PING:
            pong: PongMsg = {"type": ClientMessage.PONG}
            nonce = data.get("nonce")
            if isinstance(nonce, int):
                pong["nonce"] = nonce
            self.send(pong)
            return
        if msg["type"] == ServerMessage.WELCOME and not self.welcomed.done():
            limits = msg["limits"]
            self.throttle.limit(limits["rate"], limits["burst"], self._loop.time(), self._sent)
            self.welcomed.set_result(msg)
        self.listener.on_message(msg)

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: fine if the bot closed it, a failure otherwise."""
        self.listener.on_end()
        if not self.closing:
            self.stats.dropped += 1
            self.fail("the server closed the connection")

    def send(self, message: ClientMsg) -> None:
        """Send one message, unless the link is ending."""
        if self.transport is not None and not self.closing:
            self.transport.write(encode(message))
            self.throttle.spend(self._loop.time())
            self._sent += 1
            self.stats.frames_out += 1

    # ------------------------------------------------------------ ending

    def close(self) -> None:
        """Leave: close the connection (the seat stays in a running game, protocol §11.3)."""
        self.closing = True
        self.listener.on_end()
        if self.transport is not None:
            self.transport.close()
        for fut in self._waits:
            if not fut.done():
                fut.cancel()
        if not self.done.done():
            self.done.set_result(0)

    def finish(self, code: int) -> None:
        """End with exit code ``code``."""
        if not self.done.done():
            self.done.set_result(code)
        self.close()

    def fail(self, reason: str) -> None:
        """End with a :class:`~craits.server.errors.BotError` saying ``reason``."""
        if not self.done.done():
            self.done.set_exception(BotError(reason))
        for fut in self._waits:
            if not fut.done():
                fut.set_exception(BotError(reason))
        self.closing = True
        self.listener.on_end()
        if self.transport is not None:
            self.transport.close()
