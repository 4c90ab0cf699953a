"""The asyncio server: it listens, keeps the lobby, and runs the tables.

One :class:`Server` listens on TCP. Each connection is a
:class:`~craits.server.net.connection.Client` (framing, rate limit, output
queue), whose messages :mod:`craits.server.net.handlers` answers, in the lobby or
at the connection's :class:`~craits.server.table.actor.Table`. The server is
the tables' :class:`~craits.server.table.ports.TableHost`: it tells the lobby's
watchers when a table changes, and closes tables; its
:class:`~craits.server.lobby.seat_tokens.SeatTokens` keeps the resume tokens,
and its :class:`~craits.server.lobby.directory.Directory` says where a table is
(here, or on another node of its cluster). At the end of
each pass of the event loop it hands the journal's writes to the journal's
writer, and sends what was queued that waits on no write still in flight; the
rest goes when the writer has committed what it waits on
(:mod:`craits.server.net.outbound`).
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
from dataclasses import dataclass
from pathlib import Path

from craits.protocol import DEFAULT_PORT
from craits.protocol.types import ErrorMsg, ServerPingMsg, TableClosedMsg, TableInfoMsg
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, ErrorCode, ServerMessage

from .accounts.secrets import PRODUCTION, HashParams
from .cluster.directory import ClusterDirectory
from .cluster.registry import ClusterNode
from .cluster.start import start_node
from .engine import Rules
from .errors import JournalError, TableError
from .journal.journal import Durability, Journal, SavedTable
from .journal.recorder import Recorder
from .journal.restore import SetAside, open_journal, rebuild_table
from .lobby.directory import Directory, LocalDirectory
from .lobby.empty_tables import EmptyTables
from .lobby.practice import MAX_PRACTICE_TABLES, PracticeTables
from .lobby.quick_play import QUICK_BOTS_AFTER
from .lobby.seat_tokens import SeatTokens
from .net.account_desk import AccountDesk
from .net.address_limit import (
    DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
    ConnectionsPerAddress,
    TrustedRelays,
)
from .net.analysis_requests import BACKGROUND, close_desk, desk_of
from .net.connection import Client
from .net.outbound import Outbound
from .net.tls_listener import accepting
from .ops import logs
from .table.access import WrongCodes
from .table.actor import ABANDON_AFTER, ABANDON_OFFLINE_AFTER, MIN_TURN_TIMEOUT, Table, TableConfig
from .table.timing import MAX_CORRESPONDENCE, TimeBank, Timekeeper

log = logging.getLogger("craits.server")


@dataclass
class ServerConfig:
    """Everything a server operator can set; times in seconds, sizes in bytes."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    public_address: str | None = None
    """``HOST:PORT`` players elsewhere reach the server at, sent in ``welcome``
    for the invite links of private tables (protocol §4.1); None: not known."""
    max_connections: int = 5000
    max_connections_per_address: int = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS
    """Connections one address (IPv4, or IPv6 /64) may hold at once; 0: no limit."""
    trusted_relays: tuple[str, ...] = ()
    """Addresses or networks (``10.0.0.5``, ``10.0.0.0/24``) whose connections may
    name the address they speak for (``hello.forwarded_for``, protocol §4.1): a
    web front such as ``craits-web``; none by default."""
    max_tables: int = 2000
    empty_table_grace: float = 30.0
    """Seconds a table nobody has come to (new, or restored) waits, then closes."""
    max_empty_tables: int = 2
    """Tables nobody sits at that one connection may hold at once."""
    max_empty_tables_per_address: int = 10
    """Tables nobody sits at that one address (IPv4, or IPv6 /64) may hold at once."""
    heartbeat: float = 10.0
    hello_timeout: float = 5.0
    frame_timeout: float = 10.0
    out_buffer: int = 256 * 1024
    """Bytes that may wait for one connection beyond the kernel's buffer (protocol §4.5)."""
    send_buffer: int = 64 * 1024
    """The kernel's send buffer asked for each connection (``SO_SNDBUF``; Linux
    doubles it for its bookkeeping); 0 leaves the kernel's own, which grows to MiBs."""
    write_timeout: float = 10.0
    """Seconds a connection whose kernel buffer is full may go without taking
    any of what waits for it (protocol §4.5)."""
    rate: float = 100.0
    """Messages per second a connection may keep up."""
    burst: float = 200.0
    """Messages a connection may send at once."""
    max_errors: int = 20
    turn_timeout: float = 60.0
    """Seconds a person has for a turn at a table that does not set its own (0: no timeout)."""
    min_turn_timeout: float = MIN_TURN_TIMEOUT
    """The shortest turn timeout a table may have, seconds; 0 (no timeout) is always
    allowed (protocol §5, error ``bad_turn_timeout``)."""
    hand_pause: float = 4.0
    bot_delay: float = 0.6
    away_delay: float = 0.3
    abandon_after: float = ABANDON_AFTER
    """A running game nobody plays (every person's seat away or disconnected)
    for this long is abandoned: its game ends, its table closes (0: never;
    protocol §11.1)."""
    abandon_offline_after: float = ABANDON_OFFLINE_AFTER
    """The shorter grace of a table with a game and no person connected at its
    seats (0: as ``abandon_after``; never more than it)."""
    bots: int = 0
    """Keep practice tables with this many bots, one free at a time (0: none)."""
    max_practice_tables: int = MAX_PRACTICE_TABLES
    """The practice tables open at once, at most (:mod:`craits.server.lobby.practice`)."""
    quick_play_bots_after: float = QUICK_BOTS_AFTER
    """Seconds a table quick play opened waits for people before bots take its
    free seats (protocol §11.13)."""
    data_dir: Path | None = None
    """Where the journal lives; None runs without one (a throwaway server)."""
    bot_level: str = DEFAULT_BOT_LEVEL
    durability: Durability = Durability.FULL
    """Whether each journal commit is fsynced before its messages go out."""
    tls: ssl.SSLContext | None = None
    """Serve TLS with this context (:func:`craits.server.net.tls_listener.load_context`);
    None: plain TCP (protocol §2)."""
    cluster: str | None = None
    """Redis's URL (``redis://HOST:PORT``) to join a cluster; None: a single server
    (docs/cluster.md)."""
    advertise: str | None = None
    """The ``HOST:PORT`` other nodes send clients to for this node's tables
    (None: the address it listens on)."""
    cluster_heartbeat: float = 1.0
    """Seconds between a cluster node's heartbeats (its key lives four)."""
    shared_port: int | None = None
    """A cluster node started by ``--workers``: it also accepts on this port,
    shared with the other workers (``SO_REUSEPORT``)."""
    drain_timeout: float = 0.0
    """A cluster node told to stop first takes no new tables and waits up to this
    many seconds for its games to end (0: it stops at once; docs/cluster.md)."""
    invite_tries: int = 5
    """Wrong invite codes a connection may give before it must wait (protocol §11.9)."""
    invite_tries_per_address: int = 20
    """Wrong invite codes all the connections of an address may give before they must wait."""
    invite_refill: float = 30.0
    """Seconds after which one more invite code may be tried, once the tries are spent."""
    records_share: float = 0.1
    """The share of the server's time that rebuilding finished games (``get_record``,
    ``get_replay``) may take on average; past it they are answered ``records_busy``
    (0: no limit; :mod:`craits.server.journal.rebuilds`, protocol §7.3)."""
    records_burst: float = 2.0
    """Seconds of rebuilding that may be spent at once, before ``records_share`` applies."""
    max_correspondence_turn: float = MAX_CORRESPONDENCE
    """The longest turn a correspondence game may have, seconds (protocol §11.11;
    ``welcome.limits.max_correspondence_ms``)."""
    timekeeper: Timekeeper | None = None
    """The time the tables' clocks read and set their timers on (turns, time
    banks, abandoning); None: the event loop's and the system's calendar. Tests
    give one they move (:class:`craits.server.table.timing.Timekeeper`)."""
    accounts_db: str | None = None
    """PostgreSQL's URL for the accounts of a cluster (``postgresql://…``); None:
    ``accounts.db`` in ``data_dir``, or a temporary file without one
    (:mod:`craits.server.accounts.opening`, protocol §7.5)."""
    analyse_finished: int = BACKGROUND
    """Games played to their end that may wait at once for their post-game
    analysis in the background, stored with the record (protocol §7.6,
    ``docs/bots.md``); past that, or 0, a game is analysed only when asked."""
    registrations_per_hour: int = 10
    """Accounts one address may register in an hour (0: no limit; protocol §7.5)."""
    account_hashing: HashParams = PRODUCTION
    """argon2id's cost for codes and passwords (tests pass ``FOR_TESTS``)."""
    tls_fingerprint: str | None = None
    """The SHA-256 fingerprint of the TLS certificate served (64 lowercase hex
    digits), which a login's signed server identity must name (§7.5); None
    without TLS."""


class Server:
    """The Craits server: listens, keeps the lobby, and runs the tables."""

    def __init__(self, config: ServerConfig | None = None):
        self.config = config or ServerConfig()
        self.tables: dict[str, Table] = {}
        self.clients: set[Client] = set()
        self.stopping = False
        self.out = Outbound(self)
        """The connections' messages on their way out."""
        self._watchers: set[Client] = set()
        self.tokens = SeatTokens()  # the seats' resume tokens, and those revoked (§11.9)
        self.wrong_codes = WrongCodes.of(self.config)  # the budget of wrong invite codes
        self._server: asyncio.Server | None = None
        self.accept = accepting(self)  # the protocol factory of each port it listens on
        self._heartbeat: asyncio.Task[None] | None = None
        self.port = self.config.port
        self.journal: Journal | None = None
        self.empty_tables = EmptyTables(self)
        self.practice = PracticeTables(self)  # the --bots tables
        self.per_address = ConnectionsPerAddress(
            self.config.max_connections_per_address, TrustedRelays(self.config.trusted_relays)
        )  # and who may forward a visitor's address (protocol §4.1)
        self.set_aside = SetAside()
        """The journal's tables that did not replay at start
        (:mod:`craits.server.journal.restore`)."""
        self.recorder: Recorder | None = None
        """Commits the journal's writes (None: no journal)."""
        self.cluster: ClusterNode | None = None  # None: a single server (docs/cluster.md)
        self.directory: Directory = LocalDirectory()
        """Where a table is: here, or on another node of the cluster."""
        self.accounts = AccountDesk(self.config, self.cluster_name)
        """Accounts: the store, registrations, finished games (protocol §7.5)."""

    # ------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Open the journal and restore its tables, then start listening
        (``port`` 0 picks a free port: see :attr:`port`).

        Raises:
            OSError: the address cannot be bound.
            AccountStoreError: the account store cannot be opened.
            JournalError: the journal cannot be opened or its tables listed
                (:class:`~craits.server.errors.JournalDamaged`: it is damaged;
                ``JournalUnwritable``: it cannot be written), or another server
                holds it (``JournalLocked``). A table that does not replay is
                set aside (:attr:`set_aside`), not raised.
        """
        config = self.config
        if config.data_dir is not None:
            path, durability, pending = (
                config.data_dir / "craits.db",
                config.durability,
                self.out.schedule,
            )
            self.journal, self.set_aside = open_journal(path, durability, pending, self._restore)
            self.recorder = Recorder(self, self.journal)
        loop = asyncio.get_running_loop()
        try:
            await self.accounts.open()
            self._server = await loop.create_server(self.accept, config.host, config.port)
        except BaseException:
            if self.journal is not None:
                self.journal.close()  # lets it go for another try
            await self.accounts.close()
            raise
        self.port = self._server.sockets[0].getsockname()[1]
        self._heartbeat = asyncio.create_task(self._beat())
        self.cluster = await start_node(self)  # with --cluster: joins it in the background
        if self.cluster is not None:
            self.directory = ClusterDirectory(self.cluster, self)
        self.practice.start()  # with --bots: practice tables, one free
        log.info("listening on %s:%d%s", config.host, self.port, " (TLS)" if config.tls else "")

    async def stop(self) -> None:
        """Stop accepting, tell every client, close every connection within seconds."""
        self.stopping = True
        if self._server is not None:
            self._server.close()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self.cluster is not None:
            await self.cluster.stop()
        for table in list(self.tables.values()):
            table.close_timers()
        close_desk(self)  # the post-game analyses being made (§7.6)
        self.out.flush()  # every move is handed to the journal and sent before goodbye
        loop = asyncio.get_running_loop()
        for client in list(self.clients):
            client.error(ErrorCode.SHUTDOWN, "the server is shutting down")
            client.abort_after_flush()
        give_up = loop.time() + 2.0
        while self.clients and loop.time() < give_up:
            await asyncio.sleep(0.02)
        for client in list(self.clients):
            client.abort()
        await asyncio.sleep(0)  # let the transports finish closing
        if self.journal is not None:
            self.journal.close()  # lets the journal go
        await self.accounts.close()  # the games that ended are in the store before it closes
        log.info("stopped")

    def cluster_name(self) -> str | None:
        """This node's address in its cluster (None: a single server): a game's
        id in the shared account store is the node's and its journal's number."""
        return self.cluster.address if self.cluster is not None else None

    def forget(self, client: Client) -> None:
        """Remove a closed connection."""
        self.clients.discard(client)
        self._watchers.discard(client)
        self.out.forget(client)
        self.wrong_codes.forget(client)

    async def _beat(self) -> None:
        """Each heartbeat, ping the connections quiet for about one; drop those silent for two."""
        interval = self.config.heartbeat
        ping: ServerPingMsg = {"type": ServerMessage.PING}
        while True:
            await asyncio.sleep(interval)
            now = time.monotonic()
            for client in list(self.clients):
                if not client.hello:
                    continue
                quiet = now - client.last_seen
                if quiet > 2 * interval:
                    with logs.about(client):
                        log.info("connection %s: silent for two heartbeats; dropped", client.peer)
                    client.reset()
                elif quiet >= 0.9 * interval and not client.mid_frame:
                    # only connections that have said nothing lately are asked (a busy
                    # server does not spend a pass over every connection), and not
                    # mid-frame: the pong would be read as the rest of the frame
                    client.send(ping)

    # ------------------------------------------------------------------ lobby

    def get_table(self, name: str) -> Table:
        """The table called ``name``.

        Raises:
            TableError: ``no_such_table``.
        """
        table = self.tables.get(name)
        if table is None:
            raise TableError(ErrorCode.NO_SUCH_TABLE, f"there is no table called {name!r}")
        return table

    def _table_config(
        self, turn_timeout: float, time_bank: TimeBank | None = None, correspondence: float = 0.0
    ) -> TableConfig:
        cfg = self.config
        return TableConfig(
            turn_timeout,
            cfg.hand_pause,
            cfg.bot_delay,
            cfg.away_delay,
            cfg.abandon_after,
            cfg.abandon_offline_after,
            time_bank,
            cfg.timekeeper,
            correspondence,
        )

    def create_table(
        self,
        name: str,
        seats: int,
        rules: Rules,
        turn_timeout_ms: int | None,
        creator: Client | None,
        creator_token: str | None = None,
        time_bank: TimeBank | None = None,
        correspondence: float | None = None,
        rated: bool = False,
    ) -> Table:
        """Open a table; with ``creator_token``, a private one: it gets an
        invite code (protocol §11.9), and the token proves its creator when it
        asks for its games' records (§7.3; only its digest is kept); with
        ``time_bank``, a table whose seats each have a time bank instead of a
        turn timeout (§11.10); with ``correspondence`` (seconds), a
        correspondence game's, whose turns take that long (§11.11); ``rated``:
        only logged-in players sit, and its games move their ratings (§7.5).

        Raises:
            TableError: ``table_exists``, ``too_many_empty_tables``, ``too_many_tables``.
        """
        if name in self.tables or name in self.set_aside:
            raise TableError(ErrorCode.TABLE_EXISTS, f"a table called {name!r} exists")
        if creator is not None:
            self.empty_tables.check(creator)  # a few tables nobody sits at, no more
        if len(self.tables) >= self.config.max_tables:
            raise TableError(ErrorCode.TOO_MANY_TABLES, "the server holds no more tables")
        timeout = self.config.turn_timeout if turn_timeout_ms is None else turn_timeout_ms / 1000
        if time_bank is not None:
            timeout = 0.0  # the bank is the seat's time (§11.10)
        if correspondence is not None:
            timeout = correspondence  # (§11.11)
        config = self._table_config(timeout, time_bank, correspondence or 0.0)
        table = Table(name, seats, rules, config, creator, self, self.tokens, self.journal)
        self.tables[name] = table
        if creator_token is not None:
            table.powers.make_private(creator_token)
        table.powers.access.rated = rated
        if creator is not None:
            self.empty_tables.watch(table, creator)  # it closes if nobody comes
        table.persist()
        changed = rules.changed() or "default"
        log.info(
            "table %s: created, %d seats, rules %s, turn timeout %gs", name, seats, changed, timeout
        )
        if self.recorder is None or not self.recorder.hold(table):
            self.table_changed(table)  # else once its row is written (§4.8)
        return table

    def close_table(self, table: Table, recorded: bool = True) -> None:
        """Close and remove a table (``recorded``: its row is in the journal, to
        drop); the ``--bots`` practice tables keep one free
        (:mod:`craits.server.lobby.practice`)."""
        if self.tables.get(table.name) is not table:
            return
        del self.tables[table.name]
        self.empty_tables.forget(table)
        self.tokens.revoked.forget(table.powers.access.bars)
        table.close()
        if self.journal is not None and recorded:
            try:
                self.journal.drop_table(table.name)
            except JournalError as exc:
                log.error("table %s: %s", table.name, exc)
        message: TableClosedMsg = {"type": ServerMessage.TABLE_CLOSED, "name": table.name}
        self.tell_lobby(message)
        self.directory.table_closed(table.name)
        self.practice.closed(table)

    def _restore(self, saved: SavedTable, journal: Journal) -> None:
        """Rebuild a table from ``journal`` (:func:`~craits.server.journal.restore.rebuild_table`).

        Raises:
            Exception: the table cannot be rebuilt.
        """
        timing = saved.timing or {}
        turn = timing.get("correspondence_ms", 0) / 1000  # (§11.11)
        config = self._table_config(saved.turn_timeout, TimeBank.of(saved.timing), turn)
        table = rebuild_table(saved, config, self, self.tokens, journal)
        self.tables[saved.name] = table
        self.empty_tables.restored(table)  # closed if nobody is back within the grace

    def tell_lobby(self, message: TableInfoMsg | TableClosedMsg | ErrorMsg) -> None:
        """Send ``message`` to the lobby watchers not at a table (protocol §7.2)."""
        for client in self._watchers:
            if client.table is None:
                client.send(message)

    def watch(self, client: Client, on: bool) -> None:
        """Send (or stop sending) lobby updates to ``client``."""
        if on:
            self._watchers.add(client)
        else:
            self._watchers.discard(client)

    # ----------------------------------------- the tables' TableHost interface

    def table_changed(self, table: Table) -> None:
        """``table``'s info changed: tell the lobby watchers (and a cluster's nodes)."""
        if table.name not in self.tables:
            return
        self.directory.table_changed(table.name)
        if self._watchers:
            info = table.lobby_info()
            self.tell_lobby({"type": ServerMessage.TABLE_INFO, "table": info})

    def game_over(self, table: Table) -> None:
        """``table``'s game ended: record its result with the players'
        accounts, rated if the table is (:mod:`craits.server.net.game_results`),
        and queue its post-game analysis in the background (``analyse_finished``;
        :mod:`craits.server.net.analysis_requests`) unless only the server's
        bots played it."""
        self.accounts.game_over(table)
        game, seats = table.gamelog.game_id, table.seating.seats
        people = any(seat.bot is None for seat in seats)  # (the server's bots learn nothing)
        if self.recorder is not None and game is not None and people:
            most = self.config.analyse_finished
            desk_of(self).finished(game, len(seats), self.recorder, most)

    def find_token(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a resume token, or None (:meth:`SeatTokens.find
        <craits.server.lobby.seat_tokens.SeatTokens.find>`).

        Raises:
            TableError: ``kicked`` (revoked, protocol §11.9); ``bad_token`` (set aside).
        """
        return self.tokens.find(token, self.set_aside)
