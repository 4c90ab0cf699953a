"""The asyncio server: connections, the lobby, and the tables.

One :class:`Server` listens on TCP. Each connection is a :class:`Client`: it
reads length-prefixed msgpack frames, validates every message against its
schema (:mod:`craits.protocol.messages`) and dispatches it to the lobby or to
its table. Bad input gets an error reply naming the problem; it never crashes
the server or touches another connection or table.
"""

from __future__ import annotations

import asyncio
import fcntl
import hmac
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from craits.protocol import (
    DEFAULT_PORT,
    MAX_CHAT,
    MAX_FRAME,
    MAX_NAME,
    SUPPORTED_VERSIONS,
    VERSION,
    ProtocolError,
    decode,
    encode,
    frame_length,
    validate,
)
from craits.server.engine import Rules
from craits.server.journal import Journal, JournalError, SavedTable
from craits.server.records import build_record, iso_time
from craits.server.table import Table, TableConfig, TableError, token_digest

log = logging.getLogger("craits.server")


@dataclass
class ServerConfig:
    """Everything a server operator can set; times in seconds, sizes in bytes."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    max_connections: int = 5000
    max_tables: int = 2000
    heartbeat: float = 10.0
    hello_timeout: float = 5.0
    frame_timeout: float = 10.0
    out_buffer: int = 256 * 1024
    rate: float = 100.0
    """Messages per second a connection may keep up."""
    burst: float = 200.0
    """Messages a connection may send at once."""
    max_errors: int = 20
    turn_timeout: float = 60.0
    hand_pause: float = 4.0
    bot_delay: float = 0.6
    away_delay: float = 0.3
    bots: int = 0
    """Open a table with this many bots at start (0: none)."""
    data_dir: Path | None = None
    """Where the journal lives; None runs without one (a throwaway server)."""
    bot_level: str = "basic"


FATAL = frozenset({"bad_frame", "frame_too_large"})
PRACTICE = "practice"
"""The name of the table ``--bots`` opens."""
LIST_PAGE = 100
"""Tables listed per ``tables`` reply (``list_tables`` pages with ``offset``)."""


def lock_data_dir(data_dir: Path) -> IO[str]:
    """Take the data directory for this server: an exclusive lock on
    ``craits.lock`` in it (held until the returned file is closed, or the
    process ends), so two servers never write one journal.

    Raises:
        JournalError: another server holds it (the message names its pid), or
            the lock file cannot be opened.
    """
    path = data_dir / "craits.lock"
    try:
        data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        handle = open(path, "a+")  # noqa: SIM115 - held open for the server's life
    except OSError as exc:
        raise JournalError(f"cannot open {path}: {exc}") from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        owner = handle.read().strip() or "?"
        handle.close()
        raise JournalError(
            f"another craits-server (pid {owner}) is using the journal in {data_dir}; "
            "stop it, or give this one its own --data-dir"
        ) from None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return handle


class Client(asyncio.Protocol):
    """One connection: its framing, its rate limit, and where it sits.

    An :class:`asyncio.Protocol`: the event loop hands it bytes as they come
    (:meth:`data_received`), and it decodes and dispatches every whole frame
    in them at once, with no task per connection. What it sends is queued and
    written once per pass of the loop (:meth:`Server.flush`): an ``ok`` and the
    ``update`` after it go out in one write.
    """

    def __init__(self, server: Server) -> None:
        self.server = server
        self.transport: asyncio.Transport | None = None
        self.peer = "?"
        self.name = "?"
        self.table: Table | None = None
        self.hello = False
        self.watching = False
        self.closed = False
        self.errors = 0
        self.last_seen = time.monotonic()
        self._tokens = server.config.burst
        self._refill_at = self.last_seen
        self._buffer = bytearray()
        # queued messages, each with the journal ticket it waits on (0: none)
        self._out: list[tuple[int, bytes]] = []
        self._out_size = 0
        self._loop = asyncio.get_running_loop()
        self._timer: asyncio.TimerHandle | None = None
        self._gone = False

    # ------------------------------------------------------------- lifecycle

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count the connection in, or turn it away if the server is full."""
        self.transport = cast(asyncio.Transport, transport)
        peer = self.transport.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        server = self.server
        if len(server.clients) >= server.config.max_connections or server.stopping:
            self.error("server_full", "the server is full; try again later")
            self.abort_after_flush()
            return
        server.clients.add(self)
        # The hello must come within hello_timeout of connecting, pings or not.
        self._timer = self._loop.call_later(server.config.hello_timeout, self._timed_out)

    def connection_lost(self, exc: Exception | None) -> None:
        """Give up the seat (it stays the player's, to resume) and forget the connection."""
        self.closed = True
        self._gone = True
        self._out.clear()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.table is not None:
            table = self.table
            self.table = None
            self.server.guard(table, table.disconnected, self)
            self.server.maybe_close(table)
        self.server.forget(self)

    # ---------------------------------------------------------------- output

    def send(self, message: dict[str, Any]) -> None:
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
        if self.transport.get_write_buffer_size() + self._out_size > self.server.config.out_buffer:
            log.warning("connection %s: not reading, backlog over the cap; dropped", self.peer)
            self.abort()
            return
        if not self._out:
            self.server.dirty(self)
        journal = self.server.journal
        self._out.append((journal.submitted if journal is not None else 0, data))
        self._out_size += len(data)

    def flush(self) -> None:
        """Write what was queued, in one write. Callers commit the journal first
        (:meth:`Server.commit_journal`): nothing goes out before the writes it
        tells of are recorded."""
        out = self._out
        if not out or self._gone:
            return
        assert self.transport is not None
        self._out, self._out_size = [], 0
        self.transport.write(out[0][1] if len(out) == 1 else b"".join(b for _, b in out))

    def discard_from(self, ticket: int) -> None:
        """Drop the queued messages that wait on journal write ``ticket`` or later."""
        self._out = [(t, b) for t, b in self._out if t < ticket]
        self._out_size = sum(len(b) for _, b in self._out)

    def error(self, code: str, message: str, **extra: Any) -> None:
        """Send an error reply."""
        self.send({"type": "error", "code": code, "message": message, **extra})

    def abort(self) -> None:
        """Drop the connection at once, unsent messages and all."""
        if not self.closed:
            self.closed = True
            self._out.clear()
            if self.transport is not None:
                self.transport.abort()

    def abort_after_flush(self) -> None:
        """Close once what was sent is written; a peer that does not read it
        within a second is dropped."""
        if self.closed:
            return
        self.server.commit_journal()
        self.flush()
        self.closed = True
        assert self.transport is not None
        transport = self.transport
        transport.close()
        self._loop.call_later(1.0, transport.abort)

    def detach(self) -> None:
        """Forget the table (it closed, or the seat was resumed elsewhere)."""
        self.table = None

    # ----------------------------------------------------------------- input

    def data_received(self, data: bytes) -> None:
        """Decode and handle every whole frame received; a frame cut short must
        be finished within ``frame_timeout`` of its first byte."""
        buffer = self._buffer
        had_partial = bool(buffer)
        buffer += data
        size = len(buffer)
        start = 0
        while not self.closed and size - start >= 4:
            try:
                n = frame_length(buffer[start : start + 4], MAX_FRAME)
            except ProtocolError as exc:
                self.error(exc.code, exc.message)
                self.abort_after_flush()
                return
            end = start + 4 + n
            if end > size:
                break
            body = bytes(buffer[start + 4 : end])
            start = end
            had_partial = False
            self._frame(body)
        if self.closed:
            return
        if start:
            del buffer[:start]
        if not self.hello:
            return  # the hello deadline stands
        if not buffer:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        elif not had_partial:
            # a new frame began in this read: its whole must follow in time
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self._loop.call_later(self.server.config.frame_timeout, self._timed_out)

    def eof_received(self) -> bool:
        """The peer finished sending: close (a frame left unfinished is an error)."""
        if self._buffer and not self.closed:
            self.error("bad_frame", "the connection ended inside a frame")
        self.abort_after_flush()
        return True

    def _timed_out(self) -> None:
        self._timer = None
        if self.closed:
            return
        self.error("timeout", "no hello in time" if not self.hello else "frame not finished")
        self.abort_after_flush()

    def _rate_ok(self) -> bool:
        now = self.last_seen
        cfg = self.server.config
        self._tokens = min(cfg.burst, self._tokens + (now - self._refill_at) * cfg.rate)
        self._refill_at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def _frame(self, body: bytes) -> None:
        """Handle one frame body: bad input gets an error reply naming the
        problem and never escapes this connection."""
        self.last_seen = time.monotonic()
        try:
            try:
                if not self._rate_ok():
                    self.error("rate_limited", "too many messages; closing")
                    self.abort_after_flush()
                    return
                kind, fields = validate(decode(body))
                was_hello = self.hello
                try:
                    self._dispatch(kind, fields)
                except (ProtocolError, TableError):
                    raise
                except Exception:
                    log.exception("connection %s: failed to handle a message", self.peer)
                    self.error("internal", "the server failed to handle that message")
                    self.errors += 1
                if self.hello and not was_hello and self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            except ProtocolError as exc:
                self.error(exc.code, exc.message)
                if exc.code in FATAL:
                    self.abort_after_flush()
                    return
                self.errors += 1
                if self.errors > self.server.config.max_errors:
                    self.error("too_many_errors", "too many bad messages; closing")
                    self.abort_after_flush()
            except TableError as exc:
                self.error(exc.code, exc.message)
        except Exception:  # nothing a client sends may escape to the loop
            log.exception("connection %s: failed to handle a frame", self.peer)
            self.abort()

    # -------------------------------------------------------------- dispatch

    def _dispatch(self, kind: str, f: dict[str, Any]) -> None:
        if kind == "pong":
            return
        if kind == "ping":
            self.send({"type": "pong", **f})
            return
        if not self.hello:
            if kind != "hello":
                raise ProtocolError("hello_first", "the first message must be hello")
            self._hello(f)
            return
        if kind == "hello":
            raise ProtocolError("bad_message", "hello was already received")
        handler = getattr(self, f"_on_{kind}")
        handler(f)

    def _hello(self, f: dict[str, Any]) -> None:
        if f["version"] not in SUPPORTED_VERSIONS:
            self.send(
                {
                    "type": "error",
                    "code": "unsupported_version",
                    "message": f"protocol version {f['version']} is not supported",
                    "supported": list(SUPPORTED_VERSIONS),
                }
            )
            self.abort_after_flush()
            return
        self.hello = True
        self.name = f.get("name") or "player"
        cfg = self.server.config
        self.send(
            {
                "type": "welcome",
                "version": VERSION,
                "server": "craits",
                "heartbeat_ms": round(cfg.heartbeat * 1000),
                "limits": {
                    "max_frame": MAX_FRAME,
                    "max_name": MAX_NAME,
                    "max_chat": MAX_CHAT,
                    "rate": int(cfg.rate),
                    "burst": int(cfg.burst),
                    "max_tables": cfg.max_tables,
                },
            }
        )

    def _need_table(self) -> Table:
        if self.table is None:
            raise TableError("not_at_table", "you are not at a table")
        return self.table

    def _on_list_tables(self, f: dict[str, Any]) -> None:
        self.watching = f.get("watch", False)
        self.server.watch(self, self.watching)
        tables = list(self.server.tables.values())
        offset = f.get("offset", 0)
        page = tables[offset : offset + LIST_PAGE]
        self.send(
            {
                "type": "tables",
                "tables": [t.info() for t in page],
                "offset": offset,
                "total": len(tables),
            }
        )

    def _on_create_table(self, f: dict[str, Any]) -> None:
        try:
            rules = Rules.from_dict(f.get("rules"))
        except ValueError as exc:
            raise TableError("bad_rules", str(exc)) from None
        timeout_ms = f.get("turn_timeout_ms")
        table = self.server.create_table(f["name"], f["seats"], rules, timeout_ms, self)
        self.send({"type": "table_created", "table": table.info()})

    def _on_join(self, f: dict[str, Any]) -> None:
        if self.table is not None:
            raise TableError(
                "already_at_table", f"you are at table {self.table.name!r}; leave first"
            )
        table = self.server.get_table(f["table"])
        self.name = f["name"]
        self.table = table
        try:
            self.server.guard(table, table.join, self, f["name"], reraise=True)
        except TableError:
            self.table = None
            raise

    def _on_spectate(self, f: dict[str, Any]) -> None:
        if self.table is not None:
            raise TableError(
                "already_at_table", f"you are at table {self.table.name!r}; leave first"
            )
        table = self.server.get_table(f["table"])
        self.table = table
        table.spectate(self)

    def _on_resume(self, f: dict[str, Any]) -> None:
        found = self.server.find_token(f["token"])
        if found is None:
            raise TableError("bad_token", "that resume token is not valid")
        table, seat = found
        if self.table is not None and self.table is not table:
            self.server.guard(self.table, self.table.leave, self)
        self.table = table
        self.name = table.seats[seat].name
        self.server.guard(table, table.resume, self, seat)

    def _on_leave(self, f: dict[str, Any]) -> None:
        table = self._need_table()
        self.table = None
        self.server.guard(table, table.leave, self)
        self.send({"type": "left", "table": table.name})
        self.server.maybe_close(table)

    def _on_start(self, f: dict[str, Any]) -> None:
        table = self._need_table()
        self.server.guard(table, table.start, self, reraise=True)

    def _on_new_game(self, f: dict[str, Any]) -> None:
        table = self._need_table()
        self.server.guard(table, table.new_game, self, reraise=True)

    def _on_close_table(self, f: dict[str, Any]) -> None:
        table = self._need_table()
        if table.creator is not self:
            raise TableError("not_creator", "only the table's creator may close it")
        if table.state == "playing":
            raise TableError("game_running", "a game is running; it can be closed once over")
        self.server.close_table(table)

    def _on_add_bot(self, f: dict[str, Any]) -> None:
        table = self._need_table()
        if not table.can_start(self):
            raise TableError("not_creator", "only the table's creator may seat bots")
        self.server.guard(table, table.add_bot, f.get("level", "basic"), reraise=True)

    def _on_act(self, f: dict[str, Any]) -> None:
        try:
            table = self._need_table()
            self.server.guard(
                table, table.act, self, f["id"], f["action"], f.get("seq"), reraise=True
            )
        except TableError as exc:
            self.error(exc.code, exc.message, id=f["id"])

    def _on_back(self, f: dict[str, Any]) -> None:
        table = self._need_table()
        self.server.guard(table, table.back, self, reraise=True)

    def _on_list_records(self, f: dict[str, Any]) -> None:
        journal = self.server.journal
        games = journal.games()[:LIST_PAGE] if journal is not None else []
        self.send(
            {
                "type": "records",
                "games": [
                    {**g, "started": iso_time(g["started"]), "finished": iso_time(g["finished"])}
                    for g in games
                ],
            }
        )

    def _on_get_record(self, f: dict[str, Any]) -> None:
        journal = self.server.journal
        row = journal.game(f["game"]) if journal is not None else None
        if row is None or row["finished"] is None:
            raise TableError("no_such_game", f"there is no finished game {f['game']}")
        self.send({"type": "record", "record": build_record(row)})

    def _on_chat(self, f: dict[str, Any]) -> None:
        table = self._need_table()
        text = f["text"].strip()
        if text:
            table.say(self, text)


class Server:
    """The Craits server: listens, keeps the lobby, and runs the tables."""

    def __init__(self, config: ServerConfig | None = None):
        self.config = config or ServerConfig()
        self.tables: dict[str, Table] = {}
        self.clients: set[Client] = set()
        self.stopping = False
        self._dirty: list[Client] = []
        self._flush_soon = False
        self._lock: IO[str] | None = None
        self._watchers: set[Client] = set()
        self._tokens: dict[bytes, tuple[Table, int]] = {}
        self._server: asyncio.Server | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self.port = self.config.port
        self.journal: Journal | None = None

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Open the journal and restore its tables, then start listening
        (``port`` 0 picks a free port: see :attr:`port`).

        Raises:
            OSError: the address cannot be bound.
            JournalError: the journal cannot be opened or replayed, or another
                server holds it.
        """
        if self.config.data_dir is not None:
            self._lock = lock_data_dir(self.config.data_dir)
            self.journal = Journal(
                self.config.data_dir / "craits.db", on_pending=self._schedule_flush
            )
            for saved in self.journal.tables():
                self._restore(saved)
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: Client(self), self.config.host, self.config.port
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._heartbeat = asyncio.create_task(self._beat())
        if self.config.bots > 0 and PRACTICE not in self.tables:
            table = self.create_table("practice", self.config.bots + 1, Rules(), None, None)
            for _ in range(self.config.bots):
                table.add_bot(self.config.bot_level)
        log.info("listening on %s:%d", self.config.host, self.port)

    async def stop(self) -> None:
        """Stop accepting, tell every client, close every connection within seconds."""
        self.stopping = True
        if self._server is not None:
            self._server.close()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        for table in list(self.tables.values()):
            table.close_timers()
        self._flush()  # every move is recorded and sent before goodbye
        loop = asyncio.get_running_loop()
        for client in list(self.clients):
            client.error("shutdown", "the server is shutting down")
            client.abort_after_flush()
        give_up = loop.time() + 2.0
        while self.clients and loop.time() < give_up:
            await asyncio.sleep(0.02)
        for client in list(self.clients):
            client.abort()
        await asyncio.sleep(0)  # let the transports finish closing
        if self.journal is not None:
            self.journal.close()
        if self._lock is not None:
            self._lock.close()  # releases the lock
            self._lock = None
        log.info("stopped")

    def dirty(self, client: Client) -> None:
        """Note that ``client`` has messages queued: they are written, one write
        per connection, at the end of this pass of the event loop."""
        self._schedule_flush()
        self._dirty.append(client)

    def _schedule_flush(self) -> None:
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """The end of a pass: commit the journal writes queued in it (one
        transaction), then write each connection's messages."""
        self._flush_soon = False
        self.commit_journal()
        dirty, self._dirty = self._dirty, []
        for client in dirty:
            client.flush()
        if self.journal is not None:
            self.journal.catch_up()  # after the messages went out: it may fsync

    def commit_journal(self) -> None:
        """Commit the journal writes queued so far (one transaction) and pause
        the tables whose writes failed (dropping what their members were to be
        told of them): after this, every queued message may go out."""
        journal = self.journal
        if journal is None or journal.processed >= journal.submitted:
            return
        for failure in journal.commit():
            kind, key = failure.key
            table = next(
                (
                    t
                    for t in self.tables.values()
                    if (t.game_id == key if kind == "game" else t.name == key)
                ),
                None,
            )
            if table is None:
                log.error(
                    "journal: write %d (%s %s) failed: %s",
                    failure.ticket,
                    kind,
                    key,
                    failure.reason,
                )
            else:
                self.guard(table, table.write_failed, failure.ticket, failure.reason)

    def forget(self, client: Client) -> None:
        """Remove a closed connection."""
        self.clients.discard(client)
        self._watchers.discard(client)

    async def _beat(self) -> None:
        """Each heartbeat, ping the connections quiet for about one; drop those silent for two."""
        interval = self.config.heartbeat
        while True:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for client in list(self.clients):
                if not client.hello:
                    continue
                quiet = now - client.last_seen
                if quiet > 2 * interval:
                    log.info("connection %s: silent for two heartbeats; dropped", client.peer)
                    client.abort()
                elif quiet >= 0.9 * interval:
                    # only connections that have said nothing lately are asked: a
                    # busy server does not spend a pass over every connection
                    client.send({"type": "ping"})

    # ------------------------------------------------------------------ lobby

    def get_table(self, name: str) -> Table:
        """The table called ``name``.

        Raises:
            TableError: ``no_such_table``.
        """
        table = self.tables.get(name)
        if table is None:
            raise TableError("no_such_table", f"there is no table called {name!r}")
        return table

    def create_table(
        self,
        name: str,
        seats: int,
        rules: Rules,
        turn_timeout_ms: int | None,
        creator: Client | None,
    ) -> Table:
        """Open a table.

        Raises:
            TableError: ``table_exists``, ``too_many_tables``.
        """
        if name in self.tables:
            raise TableError("table_exists", f"a table called {name!r} exists")
        if len(self.tables) >= self.config.max_tables:
            raise TableError("too_many_tables", "the server holds no more tables")
        cfg = self.config
        timeout = cfg.turn_timeout if turn_timeout_ms is None else turn_timeout_ms / 1000
        table = Table(
            name,
            seats,
            rules,
            TableConfig(timeout, cfg.hand_pause, cfg.bot_delay, cfg.away_delay),
            creator,
            self._table_changed,
            self._register_token,
            self._drop_token,
            journal=self.journal,
        )
        self.tables[name] = table
        table.persist()
        log.info(
            "table %s: created, %d seats, rules %s, turn timeout %gs",
            name,
            seats,
            rules.changed() or "default",
            timeout,
        )
        self._table_changed(table)
        return table

    def close_table(self, table: Table) -> None:
        """Close and remove a table."""
        if self.tables.get(table.name) is table:
            del self.tables[table.name]
            table.close()
            if self.journal is not None:
                try:
                    self.journal.drop_table(table.name)
                except JournalError as exc:
                    log.error("table %s: %s", table.name, exc)
            for client in self._watchers:
                if client.table is None:
                    client.send({"type": "table_closed", "name": table.name})

    def _restore(self, saved: SavedTable) -> None:
        """Rebuild a table from the journal: seats and tokens, and its game by
        replaying every recorded shuffle and action. Every seat starts
        disconnected; turn timers restart once a player is back."""
        cfg = self.config
        table = Table(
            saved.name,
            saved.capacity,
            Rules.from_dict(saved.rules),
            TableConfig(saved.turn_timeout, cfg.hand_pause, cfg.bot_delay, cfg.away_delay),
            None,
            self._table_changed,
            self._register_token,
            self._drop_token,
            journal=self.journal,
        )
        table.restore(saved)
        self.tables[saved.name] = table
        log.info("table %s: restored (%s)", saved.name, table.state)

    def _open_practice(self) -> None:
        """Open the ``--bots`` table: N bots waiting for one player."""
        table = self.create_table(PRACTICE, self.config.bots + 1, Rules(), None, None)
        for _ in range(self.config.bots):
            table.add_bot(self.config.bot_level)

    def maybe_close(self, table: Table) -> None:
        """Close a table nobody sits at or watches, unless a game is running
        (or paused by a failed journal write).

        The ``--bots`` practice table stays open; once its game is over and
        everyone has gone, a fresh one replaces it.
        """
        if not table.is_empty() or table.state in ("playing", "paused"):
            return  # a paused game stays, in the journal too, for a restart to restore
        if table.name == PRACTICE and self.config.bots > 0:
            if table.state in ("finished", "stopped"):
                self.close_table(table)
                self._open_practice()
            return
        self.close_table(table)

    def watch(self, client: Client, on: bool) -> None:
        """Send (or stop sending) lobby updates to ``client``."""
        if on:
            self._watchers.add(client)
        else:
            self._watchers.discard(client)

    def _table_changed(self, table: Table) -> None:
        if self._watchers and table.name in self.tables:
            message = {"type": "table_info", "table": table.info()}
            for client in self._watchers:
                if client.table is None:
                    client.send(message)

    def _register_token(self, digest: bytes, table: Table, seat: int) -> None:
        self._tokens[digest] = (table, seat)

    def _drop_token(self, digest: bytes) -> None:
        self._tokens.pop(digest, None)

    def find_token(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a resume token, or None. Tokens are kept only
        as SHA-256 digests and compared in constant time."""
        digest = token_digest(token)
        found = self._tokens.get(digest)
        if found is None:
            return None
        table, seat = found
        stored = table.seats[seat].token_digest if seat < len(table.seats) else None
        if stored is None or not hmac.compare_digest(stored, digest):
            return None
        return found

    def guard(self, table: Table, fn: Any, *args: Any, reraise: bool = False) -> None:
        """Call a table method; an unexpected exception stops that table only.

        Raises:
            TableError: with ``reraise``, a refused request (for the caller to answer).
        """
        try:
            fn(*args)
        except TableError:
            if reraise:
                raise
        except Exception:
            table.stop_on_error()
