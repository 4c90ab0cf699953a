"""What the server does with each client message (protocol §5, §7).

:data:`HANDLERS` maps each :class:`~craits.protocol.vocab.ClientMessage` to
its handler, a function of the connection and the message, checked against its
schema and typed (:func:`craits.protocol.parse_client_message`);
:func:`dispatch` picks it. A refused request raises
:class:`~craits.server.errors.TableError` (or
:class:`~craits.protocol.ProtocolError`), which the connection answers as an
``error``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar, cast

from craits.protocol import (
    MAX_CHAT,
    MAX_FRAME,
    MAX_NAME,
    SUPPORTED_VERSIONS,
    VERSION,
    ProtocolError,
)
from craits.protocol.release import version
from craits.protocol.types import (
    BackMsg,
    ChatSendMsg,
    CheckedAct,
    CheckedAddBot,
    CheckedClientMsg,
    CloseTableMsg,
    CreateTableMsg,
    HandOverMsg,
    HelloMsg,
    JoinMsg,
    KickMsg,
    LeaveMsg,
    ListTablesMsg,
    LockMsg,
    MuteMsg,
    NewGameMsg,
    PingMsg,
    PongMsg,
    QuickPlayMsg,
    RematchMsg,
    ResumeMsg,
    ServerPongMsg,
    SpectateMsg,
    StartMsg,
    TableCreatedMsg,
    TableInfo,
    UnbarMsg,
    WelcomeMsg,
)
from craits.protocol.vocab import (
    DEFAULT_BOT_LEVEL,
    AbandonReason,
    ClientMessage,
    ErrorCode,
    ServerMessage,
)

from ..engine import Rules
from ..errors import TableError
from ..lobby import quick_play
from ..ops import metrics
from ..table.access import new_creator_token
from ..table.actor import check_turn_timeout
from ..table.timing import check_correspondence, check_time_bank
from .account_requests import ACCOUNT_HANDLERS, guard_name
from .analysis_requests import on_analysis
from .hint_requests import on_hint
from .my_games import on_my_games
from .record_requests import on_get_record, on_get_replay, on_list_records

log = logging.getLogger("craits.server")

if TYPE_CHECKING:
    from ..table.actor import Table
    from .connection import Client

Handler = Callable[["Client", CheckedClientMsg], None]
"""What answers one message: a function of the connection and the message."""
M = TypeVar("M")

LIST_PAGE = 100
"""Tables listed per ``tables`` reply (``list_tables`` pages with ``offset``)."""


def dispatch(client: Client, message: CheckedClientMsg) -> None:
    """Handle one checked ``message`` from ``client``. Before its ``hello`` a
    connection may only say ``hello``, ``ping`` or ``pong``.

    Raises:
        ProtocolError: ``hello_first``, or ``bad_message`` (a second hello).
        TableError: the request is refused.
    """
    kind = message["type"]
    if client.hello:
        handler = HANDLERS[kind]
    else:
        found = _BEFORE_HELLO.get(kind)
        if found is None:
            raise ProtocolError(ErrorCode.HELLO_FIRST, "the first message must be hello")
        handler = found
    handler(client, message)


# ------------------------------------------------------------- connection


def on_hello(client: Client, msg: HelloMsg) -> None:
    """The connection's first message: its protocol version and name (§4.1);
    from a trusted relay, the address of the person it speaks for, which the
    connection then counts against (``forwarded_for``, §4.1)."""
    if msg["version"] not in SUPPORTED_VERSIONS:
        client.error(
            ErrorCode.UNSUPPORTED_VERSION,
            f"protocol version {msg['version']} is not supported",
            supported=list(SUPPORTED_VERSIONS),
        )
        client.abort_after_flush()
        return
    if not client.server.per_address.greeted(client, msg.get("forwarded_for")):
        return  # a forwarded address from no trusted relay, or too many from it (§4.1, §4.7)
    client.hello = True
    client.name = msg.get("name") or "player"
    cfg = client.server.config
    welcome: WelcomeMsg = {
        "type": ServerMessage.WELCOME,
        "version": VERSION,
        "server": "craits",
        "server_version": version(),
        "heartbeat_ms": round(cfg.heartbeat * 1000),
        "limits": {
            "max_frame": MAX_FRAME,
            "max_name": MAX_NAME,
            "max_chat": MAX_CHAT,
            "rate": int(cfg.rate),
            "burst": int(cfg.burst),
            "max_tables": cfg.max_tables,
            "max_empty_tables": cfg.max_empty_tables,
            "max_empty_tables_per_address": cfg.max_empty_tables_per_address,
            "empty_table_grace_ms": round(cfg.empty_table_grace * 1000),
            "max_connections_per_address": cfg.max_connections_per_address,
            "min_turn_timeout_ms": round(cfg.min_turn_timeout * 1000),
            "max_correspondence_ms": round(cfg.max_correspondence_turn * 1000),
        },
    }
    if cfg.public_address is not None:
        welcome["public_address"] = cfg.public_address  # for invite links (§4.1, §11.9)
    welcome["nonce"] = client.session.fresh_nonce()  # signed to log in (§7.5)
    client.send(welcome)


def on_hello_again(client: Client, msg: HelloMsg) -> None:
    """A second ``hello`` is refused."""
    raise ProtocolError(ErrorCode.BAD_MESSAGE, "hello was already received")


def on_ping(client: Client, msg: PingMsg) -> None:
    """Answer a ``ping`` with a ``pong`` carrying the same nonce."""
    pong: ServerPongMsg = {"type": ServerMessage.PONG}
    if "nonce" in msg:
        pong["nonce"] = msg["nonce"]
    client.send(pong)


def on_pong(client: Client, msg: PongMsg) -> None:
    """A ``pong``: the connection is alive (its frame already counted)."""


# ------------------------------------------------------------------ lobby


def on_list_tables(client: Client, msg: ListTablesMsg) -> None:
    """A page of the tables (§7.2); with ``watch``, lobby updates from now on."""
    client.watching = msg.get("watch", False)
    client.server.watch(client, client.watching)
    tables = list(client.server.tables.values())
    offset = msg.get("offset", 0)
    page = tables[offset : offset + LIST_PAGE]
    infos = [t.lobby_info() for t in page]
    remote = client.server.directory.other_tables()  # a cluster's other nodes' (docs/cluster.md)
    if remote:
        start = max(0, offset - len(tables))
        infos += remote[start : start + LIST_PAGE - len(infos)]
    client.send(
        {
            "type": ServerMessage.TABLES,
            "tables": infos,
            "offset": offset,
            "total": len(tables) + len(remote),
        }
    )


def on_create_table(client: Client, msg: CreateTableMsg) -> None:
    """Open a table; the connection is its creator (§11.2). A guest whose
    name is a registered player's may not (``name_registered``, §7.5)."""
    if not guard_name(client, client.name, lambda: _create_table(client, msg)):
        _create_table(client, msg)


def _create_table(client: Client, msg: CreateTableMsg) -> None:
    try:
        rules = Rules.from_dict(msg.get("rules"))
    except ValueError as exc:
        raise TableError(ErrorCode.BAD_RULES, str(exc)) from None
    timeout_ms = msg.get("turn_timeout_ms")
    check_turn_timeout(client.server.config.min_turn_timeout, timeout_ms)
    time_bank = check_time_bank(msg.get("time_bank"), timeout_ms)  # (§11.10)
    others = timeout_ms is not None or time_bank is not None
    most = client.server.config.max_correspondence_turn
    correspondence = check_correspondence(msg.get("correspondence_ms"), others, most)  # (§11.11)
    client.server.practice.refuse_name(msg["name"])  # kept for the --bots tables (§11.8)
    if client.server.directory.place_table(client, msg["name"], msg.get("placed", False)):
        return  # a cluster placed it on another node: redirected (§7.4)

    rated = msg.get("rated", False)
    if rated and client.session.account is None:
        raise TableError(ErrorCode.NOT_LOGGED_IN, "a rated table is a logged-in player's: log in")

    def create() -> None:
        token = new_creator_token() if msg.get("private", False) else None
        table = client.server.create_table(
            msg["name"],
            msg["seats"],
            rules,
            timeout_ms,
            client,
            token,
            time_bank,
            correspondence,
            rated,
        )
        created: TableCreatedMsg = {"type": ServerMessage.TABLE_CREATED, "table": table.info()}
        code = table.powers.access.code
        if code is not None and token is not None:
            created["code"] = code  # to the creator only (§11.9)
            created["creator_token"] = token  # proves the creator for the records (§7.3)
        client.send(created)

    directory = client.server.directory  # a cluster's names are unique in it
    if not directory.claim_name(client, msg["name"], create):
        create()


def _not_at_a_table(client: Client) -> None:
    if client.table is not None:
        raise TableError(
            ErrorCode.ALREADY_AT_TABLE, f"you are at table {client.table.name!r}; leave first"
        )


def _admit(client: Client, table: Table, code: str | None, name: str) -> None:
    """Check a ``join`` (as ``name``) or ``spectate`` (under the connection's
    name) against a private table's invite code, the bars and the lock
    (§11.9); the creator's connection passes, whatever its address or name.

    Raises:
        TableError: ``too_many_attempts``, ``bad_invite_code``, ``barred``, ``table_locked``.
    """
    if client is not table.seating.creator:
        access = table.powers.access
        access.admit(client.server.wrong_codes, client, client.address, code, name)


def on_join(client: Client, msg: JoinMsg) -> None:
    """Take the next seat at a table (§11.3); a private table's needs its
    invite code (§11.9). A registered player's name is its account's only
    (``name_registered``, §7.5)."""
    if not guard_name(client, msg["name"], lambda: _join(client, msg)):
        _join(client, msg)


def _join(client: Client, msg: JoinMsg) -> None:
    _not_at_a_table(client)
    if client.server.directory.redirect_table(client, msg["table"]):
        return  # another node of the cluster holds it (§7.4)
    table = client.server.get_table(msg["table"])
    if not table.status.holds_game:
        # a seat that would start a game: not while draining
        client.server.directory.refuse_new_game()
    _admit(client, table, msg.get("code"), msg["name"])
    if table.powers.access.rated and client.session.account is None:
        raise TableError(ErrorCode.NOT_LOGGED_IN, "a rated table seats logged-in players only")
    client.name = msg["name"]
    client.table = table
    practice = client.server.practice
    try:
        table.request(table.membership.join, client, msg["name"])
    except TableError as exc:
        client.table = None
        raise practice.taken(table, exc) from None  # a taken practice table names a free one
    table.request(table.powers.invite, client)
    if practice.owns(table.name):
        practice.tidy()  # its game started: the next newcomer gets another (§11.8)


def on_spectate(client: Client, msg: SpectateMsg) -> None:
    """Watch a table; a private table's needs its invite code (§11.9)."""
    _not_at_a_table(client)
    if client.server.directory.redirect_table(client, msg["table"]):
        return  # another node of the cluster holds it (§7.4)
    table = client.server.get_table(msg["table"])
    _admit(client, table, msg.get("code"), client.name)  # a name bar keeps from watching too
    client.table = table
    table.request(table.membership.spectate, client)
    table.request(table.powers.invite, client)


def on_resume(client: Client, msg: ResumeMsg) -> None:
    """Take back a seat with its resume token (§4.8), leaving any other table."""
    found = client.server.find_token(msg["token"])
    if found is None:
        if client.server.directory.redirect_resume(client, msg["token"]):
            return  # the token's table is on another node of the cluster (§7.4)
        raise TableError(ErrorCode.BAD_TOKEN, "that resume token is not valid")
    table, seat = found
    here = client.table
    if here is not None and here is not table:
        here.request(here.membership.leave, client, reraise=False)
        client.server.empty_tables.left(here)  # as after a leave: nobody left, it closes
    client.table = table
    client.name = table.seats[seat].name
    table.request(table.membership.resume, client, seat, reraise=False)
    table.request(table.powers.invite, client)


def _table(client: Client) -> Table:
    """The connection's table.

    Raises:
        TableError: ``not_at_table``.
    """
    if client.table is None:
        raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at a table")
    return client.table


def on_leave(client: Client, msg: LeaveMsg) -> None:
    """Leave the table (§11.3); a table left empty may close."""
    table = _table(client)
    client.table = None
    table.request(table.rematch.leave, client, reraise=False)  # frees a seat after a game (§11.12)
    client.send({"type": ServerMessage.LEFT, "table": table.name})
    client.server.empty_tables.left(table)


def on_back(client: Client, msg: BackMsg) -> None:
    """The player is back at its seat: the server stops playing for it (§11.4)."""
    table = _table(client)
    table.request(table.membership.back, client)


def on_start(client: Client, msg: StartMsg) -> None:
    """Start the game with the players seated (§11.2)."""
    table = _table(client)
    client.server.directory.refuse_new_game()  # not on a draining cluster node (docs/cluster.md)
    table.request(table.rematch.start, client)  # a series' next game: seats move on (§11.12)


def on_new_game(client: Client, msg: NewGameMsg) -> None:
    """Start a new game at a finished table (§11.2)."""
    table = _table(client)
    client.server.directory.refuse_new_game()  # not on a draining cluster node (docs/cluster.md)
    table.request(table.rematch.new_game, client)  # a series' next game: seats move on (§11.12)


def on_close_table(client: Client, msg: CloseTableMsg) -> None:
    """Close the table: its creator only; while a game runs, only with
    ``end_game``, which ends the game as abandoned (§11.2)."""
    table = _table(client)
    if table.seating.creator is not client:
        raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may close it")
    if table.status.playing:
        if not msg.get("end_game", False):
            raise TableError(
                ErrorCode.GAME_RUNNING,
                "a game is running; close with end_game to end it (it is recorded as abandoned)",
            )
        reason = AbandonReason.CLOSED_BY_CREATOR
        table.request(table.finisher.abandon, reason)
        return
    client.server.close_table(table)


def on_add_bot(client: Client, msg: CheckedAddBot) -> None:
    """Seat a bot (§11.2, §11.8); the level is checked by the table."""
    table = _table(client)
    if not table.seating.can_start(client):
        raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may seat bots")
    level = msg.get("level", DEFAULT_BOT_LEVEL)
    table.request(table.membership.add_bot, level)


def on_kick(client: Client, msg: KickMsg) -> None:
    """The creator removes a player (§11.9): the seat is freed before the first
    game, taken by a bot after; the person is barred."""
    table = _table(client)
    table.request(table.powers.kick, client, msg["seat"])


def on_lock(client: Client, msg: LockMsg) -> None:
    """The creator locks or unlocks the table (§11.9)."""
    table = _table(client)
    table.request(table.powers.lock, client, msg["locked"])


def on_mute(client: Client, msg: MuteMsg) -> None:
    """The creator mutes or unmutes a player's chat, or the spectators' (§11.9)."""
    table = _table(client)
    watchers, muted = msg.get("watchers", False), msg.get("muted", True)
    seat = msg.get("seat")
    table.request(table.powers.mute, client, seat, watchers, muted)


def on_hand_over(client: Client, msg: HandOverMsg) -> None:
    """The creator hands the role to another seated player (§11.9)."""
    table = _table(client)
    table.request(table.powers.hand_over, client, msg["seat"])


def on_unbar(client: Client, msg: UnbarMsg) -> None:
    """The creator lets a removed person back, or everyone removed (§11.9)."""
    table = _table(client)
    table.request(table.powers.unbar, client, msg.get("name"))


def on_chat(client: Client, msg: ChatSendMsg) -> None:
    """A chat line to everyone at the table."""
    table = _table(client)
    text = msg["text"].strip()
    if text:
        table.request(table.membership.say, client, text)


# ----------------------------------------------------- between the games


def on_rematch(client: Client, msg: RematchMsg) -> None:
    """Accept the rematch offered after a game, or decline it (``accept:
    false``: as a ``leave``, the seat is freed and ``left`` answers; §11.12)."""
    table = _table(client)
    if msg.get("accept", True):
        client.server.directory.refuse_new_game()  # the last accept may start it (docs/cluster.md)
        table.request(table.rematch.accept, client)
        return
    if not table.rematch.offered():
        raise TableError(ErrorCode.NO_REMATCH, "no rematch is on offer at this table")
    on_leave(client, {"type": ClientMessage.LEAVE})


def on_quick_play(client: Client, msg: QuickPlayMsg) -> None:
    """Seat the player at the public table that fits its preferences and starts
    soonest, here or (a ``redirect``) on another node of the cluster; if none
    fits, at a new table whose free seats bots take after a countdown (§11.13).
    Sent again after a redirect (``table``), only this node's tables are
    looked at, the one named first."""
    _not_at_a_table(client)
    prefs = msg.get("rules", {})
    try:
        rules = Rules.from_dict(prefs)
    except ValueError as exc:
        raise TableError(ErrorCode.BAD_RULES, str(exc)) from None
    server, directory = client.server, client.server.directory
    name, seats, named = msg.get("name") or client.name, msg.get("seats"), msg.get("table")
    tables = [t.lobby_info() for t in server.tables.values()]
    if named is None:  # no redirect brought the player here: every node's tables
        tables += directory.other_tables()
    found = quick_play.candidates(tables, seats, prefs, name)
    found.sort(key=lambda t: t["name"] != named)  # the table a redirect named first
    if _seat_at_one(client, found, name):
        return
    directory.refuse_new_game()  # a draining node opens no table to play at (docs/cluster.md)
    elsewhere = {t["name"] for t in directory.other_tables()}
    table_name = quick_play.new_table_name(server.tables, server.set_aside, elsewhere)

    def create() -> None:
        size = seats or quick_play.QUICK_SEATS
        table = server.create_table(table_name, size, rules, None, client)
        table.quick.start(server.config.quick_play_bots_after)  # shown from the join on
        client.name, client.table = name, table
        table.request(table.membership.join, client, name)

    if not directory.claim_name(client, table_name, create):
        create()


def _seat_at_one(client: Client, found: list[TableInfo], name: str) -> bool:
    """Seat ``client`` as ``name`` at the first of the tables ``found`` that takes
    it (§11.13), or send it to another node's (``redirect``, §7.4); whether it was."""
    server, directory = client.server, client.server.directory
    for info in found:
        try:
            if info["name"] not in server.tables:
                if directory.redirect_table(client, info["name"]):
                    return True  # another node holds it: ask there (§7.4)
                continue
            on_join(client, {"type": ClientMessage.JOIN, "table": info["name"], "name": name})
            return True
        except TableError:
            continue  # barred there, its node down, taken meanwhile, draining: the next
    return False


# ------------------------------------------------------------------- game


def on_act(client: Client, msg: CheckedAct) -> None:
    """An action (§6): answered ``ok`` or an error carrying its ``id``."""
    metrics.actions.inc()
    try:
        table = _table(client)
        table.request(table.moves.act, client, msg["id"], msg["action"], msg.get("seq"))
    except TableError as exc:
        client.error(exc.code, exc.message, id=msg["id"])


def _handler(fn: Callable[[Client, M], None]) -> Handler:
    """``fn`` as a :data:`Handler`: :func:`dispatch` hands it only messages of
    the type it is registered under, which are the ``M`` it takes."""
    return cast(Handler, fn)


HANDLERS: dict[ClientMessage, Handler] = {
    ClientMessage.HELLO: _handler(on_hello_again),
    ClientMessage.PING: _handler(on_ping),
    ClientMessage.PONG: _handler(on_pong),
    ClientMessage.LIST_TABLES: _handler(on_list_tables),
    ClientMessage.CREATE_TABLE: _handler(on_create_table),
    ClientMessage.JOIN: _handler(on_join),
    ClientMessage.SPECTATE: _handler(on_spectate),
    ClientMessage.RESUME: _handler(on_resume),
    ClientMessage.LEAVE: _handler(on_leave),
    ClientMessage.BACK: _handler(on_back),
    ClientMessage.START: _handler(on_start),
    ClientMessage.NEW_GAME: _handler(on_new_game),
    ClientMessage.CLOSE_TABLE: _handler(on_close_table),
    ClientMessage.ADD_BOT: _handler(on_add_bot),
    ClientMessage.ACT: _handler(on_act),
    ClientMessage.CHAT: _handler(on_chat),
    ClientMessage.LIST_RECORDS: _handler(on_list_records),
    ClientMessage.GET_RECORD: _handler(on_get_record),
    ClientMessage.GET_REPLAY: _handler(on_get_replay),
    ClientMessage.KICK: _handler(on_kick),
    ClientMessage.LOCK: _handler(on_lock),
    ClientMessage.MUTE: _handler(on_mute),
    ClientMessage.HAND_OVER: _handler(on_hand_over),
    ClientMessage.UNBAR: _handler(on_unbar),
    ClientMessage.MY_GAMES: _handler(on_my_games),
    **{kind: _handler(fn) for kind, fn in ACCOUNT_HANDLERS.items()},
    # hints and post-game analysis (§7.6)
    ClientMessage.HINT: _handler(on_hint),
    ClientMessage.ANALYSIS: _handler(on_analysis),
    ClientMessage.REMATCH: _handler(on_rematch),
    ClientMessage.QUICK_PLAY: _handler(on_quick_play),
}
"""The handler of each message a connection may send after its ``hello``."""

_BEFORE_HELLO: dict[ClientMessage, Handler] = {
    ClientMessage.HELLO: _handler(on_hello),
    ClientMessage.PING: _handler(on_ping),
    ClientMessage.PONG: _handler(on_pong),
}
"""What a connection may send before its ``hello``."""
