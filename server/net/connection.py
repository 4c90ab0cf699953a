"""One client connection: its framing, its rate limit, its output queue.

A :class:`Client` is an :class:`asyncio.Protocol`: the event loop hands it
bytes as they come, the one frame reader
(:class:`craits.protocol.wire.FrameReader`) cuts them into frames, and every
whole frame is decoded, checked against its schema
(:func:`craits.protocol.parse_client_message`) and dispatched
(:func:`craits.server.net.handlers.dispatch`) at once, with no task per
connection. Bad input gets an error reply naming the problem; it never
crashes the server or touches another connection or table.

What a connection sends waits in its :class:`Outbox` until the end of the
loop's pass (:meth:`Outbound.flush <craits.server.net.outbound.Outbound>`), or later,
until the journal writes it tells of are committed by the journal's writer
(:meth:`Outbound.journal_written <craits.server.net.outbound.Outbound>`): an ``ok`` and
the ``update`` after it go out in one write.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import socket
import struct
import termios
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, cast

from craits.protocol import (
    MAX_FRAME,
    FrameReader,
    ProtocolError,
    decode,
    encode,
    parse_client_message,
)
from craits.protocol.errors import CodedError
from craits.protocol.types import ErrorMsg, ServerMsg
from craits.protocol.vocab import ErrorCode, ServerMessage

from ..ops import logs, metrics
from . import handlers
from .account_requests import AccountSession
from .address_limit import address_key

if TYPE_CHECKING:
    from ..app import Server
    from ..table.actor import Table

log = logging.getLogger("craits.server")

FATAL = frozenset({ErrorCode.BAD_FRAME, ErrorCode.FRAME_TOO_LARGE})
"""Errors in a frame after which the stream cannot be read on: the connection closes."""
_LINGER_RESET = struct.pack("ii", 1, 0)
"""SO_LINGER on, 0 s: closing the socket resets the connection and frees its buffers."""


class RateLimiter:
    """A token bucket: a connection may keep up ``rate`` messages a second,
    and send ``burst`` at once. Times are :func:`time.monotonic` seconds."""

    __slots__ = ("_burst", "_rate", "_refill_at", "_tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._refill_at = now

    def allow(self, now: float) -> bool:
        """Whether one more message, received at ``now``, is within the limit."""
        self._tokens = min(self._burst, self._tokens + (now - self._refill_at) * self._rate)
        self._refill_at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Outbox:
    """A connection's framed messages waiting for this pass's write, each with
    the journal write (ticket) it waits on: 0 for none."""

    __slots__ = ("_items", "size")

    def __init__(self) -> None:
        self._items: list[tuple[int, bytes]] = []
        self.size = 0
        """Bytes queued (0: nothing is, as every frame has a header)."""

    def put(self, ticket: int, frame: bytes) -> bool:
        """Queue ``frame``; returns whether the outbox was empty before."""
        items = self._items
        was_empty = not items
        items.append((ticket, frame))
        self.size += len(frame)
        return was_empty

    def take(self, ready: int | None = None) -> bytes:
        """What is queued that waits on no journal write after ticket ``ready``
        (None: everything), as one write; it leaves the outbox."""
        items = self._items
        if ready is None or items[-1][0] <= ready:
            self._items, self.size = [], 0
            return items[0][1] if len(items) == 1 else b"".join(b for _, b in items)
        k = 0
        while items[k][0] <= ready:  # tickets never decrease along the queue
            k += 1
        if not k:
            return b""
        data = b"".join(b for _, b in items[:k])
        self._items = items[k:]
        self.size -= len(data)
        return data

    def write(self, transport: asyncio.Transport, ready: int | None) -> int:
        """Write to ``transport`` what :meth:`take` gives; returns its bytes."""
        if not self.size:
            return 0
        data = self.take(ready)
        if data:
            transport.write(data)
        return len(data)

    def discard_from(self, ticket: int) -> None:
        """Drop the frames that wait on journal write ``ticket`` or a later one."""
        self._items = [(t, b) for t, b in self._items if t < ticket]
        self.size = sum(len(b) for _, b in self._items)

    def clear(self) -> None:
        """Drop everything queued."""
        self._items, self.size = [], 0


def bound_buffers(transport: asyncio.Transport, send_buffer: int) -> None:
    """Keep what the kernel holds for a connection small: its send buffer
    (``SO_SNDBUF``) asked at ``send_buffer`` bytes (0: the kernel's own, which
    grows to MiBs), and the transport told to pause its protocol as soon as
    anything waits in it, that is as soon as the kernel takes no more
    (:meth:`Client.pause_writing`).

    Over TLS (:mod:`craits.server.net.tls_listener`) the same holds: the TCP transport under
    the TLS layer is bounded so, and the TLS transport pauses its protocol as
    soon as anything waits in it; its limit is 1 byte, not 0, because it pauses
    at a size *at or over* the limit (0 would pause it after every write, for
    good, and the write timeout would then drop a connection that keeps up)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and send_buffer:
        with contextlib.suppress(OSError):  # not a socket that has one: the kernel's stands
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    tls = transport.get_extra_info("ssl_object") is not None
    transport.set_write_buffer_limits(high=1 if tls else 0, low=0)


def kernel_backlog(transport: asyncio.Transport) -> int:
    """Bytes the kernel holds for a connection that its peer has not
    acknowledged (Linux ``SIOCOUTQ``); 0 where that cannot be read."""
    sock = transport.get_extra_info("socket")
    try:
        out = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except (OSError, AttributeError, ValueError):
        return 0
    return int(struct.unpack("i", out)[0])


class StallWatch:
    """Drops a connection that stops reading: once the kernel's buffer for it
    is full (:meth:`start`), its peer must acknowledge some of what waits
    every ``timeout`` seconds, until the transport's buffer is empty again
    (:meth:`stop`); else the connection is reset (protocol §4.5). It costs
    nothing while the connection keeps up, and one ``ioctl`` per ``timeout``
    while it does not."""

    __slots__ = ("_client", "_timeout", "_timer", "written")

    def __init__(self, client: Client, timeout: float) -> None:
        self._client = client
        self._timeout = timeout
        self._timer: asyncio.TimerHandle | None = None
        self.written = 0
        """Bytes handed to the transport so far."""

    def start(self) -> None:
        """The kernel takes no more: start the clock, unless it runs."""
        if self._timer is None:
            self._arm(self._taken())

    def stop(self) -> None:
        """Everything was taken (or the connection is gone): stop the clock."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self, taken: int) -> None:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self._timeout, self._check, taken)

    def _taken(self) -> int:
        """Bytes the peer has acknowledged so far: written, less what waits in
        the transport and in the kernel."""
        transport = self._client.transport
        if transport is None:
            return self.written
        return self.written - transport.get_write_buffer_size() - kernel_backlog(transport)

    def _check(self, taken: int) -> None:
        """A timeout after the last check: was anything taken since (``taken``
        bytes then)? If not, drop the connection."""
        self._timer = None
        client = self._client
        if client.closed:
            return
        now = self._taken()
        if now > taken:
            self._arm(now)
            return
        with logs.about(client):
            log.warning(
                "connection %s: not reading, nothing taken for %g s; dropped",
                client.peer,
                self._timeout,
            )
        client.reset()


class InputDeadline:
    """The connection's deadline on its input (protocol §4.7): the hello within
    ``hello_timeout`` of connecting, then each frame begun finished within
    ``frame_timeout``. At the deadline the connection is told ``timeout`` and
    closed once that is written. (Its twin on the output side: :class:`StallWatch`.)"""

    __slots__ = ("_client", "_timer")

    def __init__(self, client: Client) -> None:
        self._client = client
        self._timer: asyncio.TimerHandle | None = None

    @property
    def pending(self) -> bool:
        """Whether a deadline is set."""
        return self._timer is not None

    def set(self, delay: float) -> None:
        """A deadline ``delay`` seconds from now, instead of any set before."""
        self.cancel()
        self._timer = asyncio.get_running_loop().call_later(delay, self._expired)

    def cancel(self) -> None:
        """No deadline (what was awaited came)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expired(self) -> None:
        self._timer = None
        client = self._client
        if client.closed:
            return
        why = "no hello in time" if not client.hello else "frame not finished"
        client.error(ErrorCode.TIMEOUT, why)
        client.abort_after_flush()


class Deferred:
    """The frames of a connection that wait while one of its requests waits on
    something outside the server: a cluster's claim of a new table's name in
    Redis (docs/cluster.md). Reading pauses meanwhile; once the request is
    answered the frames kept are handled in order, as if they had just come,
    so every reply still comes in the order of the requests."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.frames: list[bytes] | None = None
        """The frames kept while a request waits; None while none does."""
        self.task: asyncio.Task[None] | None = None

    def keep(self, body: bytes) -> bool:
        """Keep ``body`` for later if a request waits (True); False: handle it now."""
        if self.frames is None:
            return False
        self.frames.append(body)
        return True

    def wait(self, answer: Awaitable[None]) -> None:
        """Hold the connection's input until ``answer`` (which answers the
        request, errors included, and raises nothing) is done."""
        if self.frames is None:  # else one request's answer waits on another: frames kept
            self.frames = []
        if self.client.transport is not None:
            self.client.transport.pause_reading()
        self.task = asyncio.ensure_future(self._then(answer))

    async def _then(self, answer: Awaitable[None]) -> None:
        try:
            await answer
        finally:
            if self.task is asyncio.current_task():  # else the answer started a wait of its own
                self._release()

    def _release(self) -> None:
        """The request is answered: handle the frames kept, in order, until
        one of them waits in turn (the rest then go after it)."""
        frames, self.frames = self.frames or [], None
        client = self.client
        if not client.closed and client.transport is not None:
            client.transport.resume_reading()
            with logs.about(client):
                while frames and not self.holding() and not client.closed:
                    client.frame(frames.pop(0))
            if self.holding():  # another request waits: the rest go after it
                self.frames = frames + (self.frames or [])

    def holding(self) -> bool:
        """Whether a request waits (the frames after it are kept)."""
        return self.frames is not None


class Client(asyncio.Protocol):
    """One connection: where it sits (:attr:`table`), and its name once it
    said ``hello``. A :class:`~craits.server.table.ports.Member` of its table."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.address = "?"
        """The address it counts against (:func:`address_key`); a relay's: the one it forwards."""
        self.name = "?"
        self.table: Table | None = None
        self.hello = False
        self.watching = False
        self.closed = False
        self.errors = 0
        self.last_seen = time.monotonic()
        config = server.config
        self._limiter = RateLimiter(config.rate, config.burst, self.last_seen)
        self._reader = FrameReader(MAX_FRAME)
        self._partial = False  # the reader held part of a frame after the last read
        self._outbox = Outbox()
        self._loop = asyncio.get_running_loop()
        self._deadline = InputDeadline(self)  # the hello's, then an unfinished frame's
        self._gone = False
        self._stall = StallWatch(self, config.write_timeout)
        self._closing = False  # close once what was sent before is written
        self.deferred = Deferred(self)  # input held while a request waits (a cluster's claim)
        self.session = AccountSession()  # its login nonce, and its account once logged in
        self.account_id: int | None = None  # that account's id (a Member's, for its seat)

    # ------------------------------------------------------------- lifecycle

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the connection in, or turn it away if the server is full or
        its address holds its limit of connections (protocol §4.7)."""
        self.transport = cast(asyncio.Transport, transport)
        peer = self.transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = address_key(str(peer[0])) if isinstance(peer, tuple) else self.peer
        token = logs.CONNECTION.set(self)  # its timers log as about it
        try:
            self._admit(self.transport)
        finally:
            logs.CONNECTION.reset(token)

    def _admit(self, transport: asyncio.Transport) -> None:
        """Count the connection in (with a deadline for its hello), or turn it away."""
        server = self.server
        if len(server.clients) >= server.config.max_connections or server.stopping:
            self.error(ErrorCode.SERVER_FULL, "the server is full; try again later")
            self.abort_after_flush()
            return
        if not server.per_address.connected(self, transport.get_extra_info("peername")):
            return  # refused: too many from its address (told so; closing)
        server.clients.add(self)  # and counted in per_address until connection_lost
        # The hello must come within hello_timeout of connecting, pings or not.
        self._deadline.set(server.config.hello_timeout)
        bound_buffers(transport, server.config.send_buffer)

    def connection_lost(self, exc: Exception | None) -> None:
        """Give up the seat (it stays the player's, to resume) and forget the
        connection. While the server stops, the table is left as it is: the
        journal keeps it, seats and all, for the restart (protocol §4.8)."""
        self.closed = True
        self._gone = True
        self._outbox.clear()
        self._deadline.cancel()
        self._stall.stop()
        if self.table is not None and not self.server.stopping:
            with logs.about(self):
                table = self.table
                self.table = None
                table.request(table.membership.disconnected, self, reraise=False)
                self.server.empty_tables.left(table)
        self.server.per_address.closed(self)  # counted out of its address's connections
        self.server.forget(self)

    # ---------------------------------------------------------------- output

    def send(self, message: ServerMsg) -> None:
        """Queue a message for this pass's write; a connection whose backlog
        passes the cap is dropped."""
        if not self.closed:
            self.send_frame(encode(message))

    def send_frame(self, data: bytes) -> None:
        """:meth:`send` for a message already encoded and framed."""
        if self.closed:
            return
        # The cap is on the backlog left unread before this message: one large
        # reply (a game record) is fine, a client that never reads is not.
        assert self.transport is not None
        server = self.server
        if self.transport.get_write_buffer_size() + self._outbox.size > server.config.out_buffer:
            with logs.about(self):  # perhaps while another connection writes to it
                log.warning("connection %s: not reading, backlog over the cap; dropped", self.peer)
            self.reset()
            return
        journal = server.journal
        if self._outbox.put(journal.submitted if journal is not None else 0, data):
            server.out.dirty(self)

    def flush(self, ready: int | None = None) -> bool:
        """Write what was queued that waits on no journal write after ticket
        ``ready`` (None: everything; :attr:`Outbound.ready
        <craits.server.net.outbound.Outbound.ready>`), in one write: nothing goes
        out before the writes it tells of are recorded. Returns whether
        messages still wait (on writes in flight)."""
        if self._gone:
            return False
        assert self.transport is not None
        self._stall.written += self._outbox.write(self.transport, ready)
        if self._outbox.size:
            return True
        if self._closing:  # closing once all was written: it is
            self._closing = False
            self.transport.close()
            self._loop.call_later(1.0, self.transport.abort)
        return False

    def pause_writing(self) -> None:
        """The kernel's buffer for this connection is full: what is written now
        waits in the transport, and the connection must take some of it within
        ``write_timeout``, time and again, or be dropped (:class:`StallWatch`)."""
        if not self.closed:
            self._stall.start()

    def resume_writing(self) -> None:
        """The transport's buffer is empty again: the connection keeps up."""
        self._stall.stop()

    def discard_from(self, ticket: int) -> None:
        """Drop the queued messages that wait on journal write ``ticket`` or later."""
        self._outbox.discard_from(ticket)

    def error(
        self,
        code: ErrorCode,
        message: str,
        *,
        id: int | None = None,
        supported: list[int] | None = None,
    ) -> None:
        """Send an error reply (protocol §12); ``id``: the ``act`` it answers;
        ``supported``: the protocol versions spoken (``unsupported_version``)."""
        error: ErrorMsg = {"type": ServerMessage.ERROR, "code": code, "message": message}
        metrics.errors.labels(code).inc()
        if id is not None:
            error["id"] = id
        if supported is not None:
            error["supported"] = supported
        self.send(error)

    def abort(self) -> None:
        """Drop the connection at once, unsent messages and all."""
        if not self.closed:
            self.closed = True
            self._outbox.clear()
            if self.transport is not None:
                self.transport.abort()

    def reset(self) -> None:
        """Drop a connection that does not read: a TCP reset, so that the
        kernel lets go of what it held for it at once (closing would keep it
        until the peer read it, or gave up)."""
        if self.closed or self.transport is None:
            return
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):  # closed already: nothing to reset
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _LINGER_RESET)
        self.abort()

    def abort_after_flush(self) -> None:
        """Close once what was sent is written (after the journal writes it
        waits on are committed); a peer that does not read it within a second
        is dropped."""
        if self.closed:
            return
        out = self.server.out
        out.commit_journal()
        self.closed = self._closing = True
        if self.flush(out.ready):
            out.wait_for_journal(self)

    def detach(self) -> None:
        """Forget the table (it closed, or the seat was resumed elsewhere)."""
        self.table = None

    # ----------------------------------------------------------------- input

    @property
    def mid_frame(self) -> bool:
        """Part of a frame (or of its header) has come, not the whole of it."""
        return self._reader.pending > 0

    def data_received(self, data: bytes) -> None:
        """Handle every whole frame received; one cut short must be finished within
        ``frame_timeout`` of its first byte. Logs are about this connection (logs.py)."""
        token = logs.CONNECTION.set(self)
        try:
            self._received(data)
        finally:
            logs.CONNECTION.reset(token)

    def _received(self, data: bytes) -> None:
        had_partial = self._partial
        try:
            # each header is read once the frame before it is handled
            for body in self._reader.frames(data):
                if self.closed:
                    return
                had_partial = False
                if not self.deferred.keep(body):  # kept while a request waits on Redis
                    self.frame(body)  # raises nothing
        except ProtocolError as exc:  # a header too large or empty: the stream is lost
            self.error(exc.code, exc.message)
            self.abort_after_flush()
            return
        if self.closed:
            return
        partial = self._partial = self._reader.pending > 0
        if not self.hello:
            return  # before the hello, its deadline stands
        if not partial:
            self._deadline.cancel()
        elif not had_partial:
            # a new frame began in this read: its whole must follow in time
            self._deadline.set(self.server.config.frame_timeout)

    def eof_received(self) -> bool:
        """The peer finished sending: close (a frame left unfinished is an error)."""
        if self._reader.pending and not self.closed:
            self.error(ErrorCode.BAD_FRAME, "the connection ended inside a frame")
        self.abort_after_flush()
        return True

    def frame(self, body: bytes) -> None:
        """Handle one frame body; nothing a client sends may escape to the loop."""
        self.last_seen = time.monotonic()
        table = self.table
        token = logs.TABLE.set(table.name if table is not None else None)
        try:
            self._handle(body)
        except Exception:
            log.exception("connection %s: failed to handle a frame", self.peer)
            self.abort()
        finally:
            logs.TABLE.reset(token)

    def _handle(self, body: bytes) -> None:
        """Check the rate, decode, validate and dispatch one frame body: bad
        input gets an error reply naming the problem; a handler's own failure
        gets ``internal`` and counts as an error of this connection."""
        try:
            if not self._limiter.allow(self.last_seen):
                self.error(ErrorCode.RATE_LIMITED, "too many messages; closing")
                self.abort_after_flush()
                return
            message = parse_client_message(decode(body))
            was_hello = self.hello
            try:
                handlers.dispatch(self, message)
            except CodedError:
                raise  # a refusal or a bad message: answered below
            except Exception:
                log.exception("connection %s: failed to handle a message", self.peer)
                self.error(ErrorCode.INTERNAL, "the server failed to handle that message")
                self.errors += 1
            if self.hello and not was_hello:
                self._deadline.cancel()  # the hello came: no deadline until a frame is cut short
        except ProtocolError as exc:
            self.error(exc.code, exc.message, id=exc.id)
            if exc.code in FATAL:
                self.abort_after_flush()
                return
            self.errors += 1
            if self.errors > self.server.config.max_errors:
                self.error(ErrorCode.TOO_MANY_ERRORS, "too many bad messages; closing")
                self.abort_after_flush()
        except CodedError as exc:  # a refused request (a TableError)
            self.error(ErrorCode(exc.code), exc.message)
