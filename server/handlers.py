"""What the server does with each client message (protocol §5, §7).

:data:`HANDLERS` maps each :class:`~craits.protocol.vocab.ClientMessage` to
its handler, a function of the connection and the message's checked fields
(:func:`craits.protocol.validate`); :func:`dispatch` picks it. A refused
request raises :class:`~craits.server.interfaces.TableError` (or
:class:`~craits.protocol.ProtocolError`), which the connection answers as an
``error``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from craits.protocol import (
    MAX_CHAT,
    MAX_FRAME,
    MAX_NAME,
    SUPPORTED_VERSIONS,
    VERSION,
    ProtocolError,
)
from craits.protocol.vocab import DEFAULT_BOT_LEVEL, ClientMessage, ErrorCode, ServerMessage
from craits.server.engine import Rules
from craits.server.interfaces import TableError
from craits.server.records import build_record, iso_time

if TYPE_CHECKING:
    from craits.server.connection import Client
    from craits.server.table import Table

Fields = dict[str, Any]
"""A message's fields, checked against its schema (the ``type`` removed)."""
Handler = Callable[["Client", Fields], None]

LIST_PAGE = 100
"""Tables listed per ``tables`` reply (``list_tables`` pages with ``offset``)."""

M = ClientMessage


def dispatch(client: Client, kind: str, fields: Fields) -> None:
    """Handle one valid message of type ``kind`` from ``client``. Before its
    ``hello`` a connection may only say ``hello``, ``ping`` or ``pong``.

    Raises:
        ProtocolError: ``hello_first``, or ``bad_message`` (a second hello).
        TableError: the request is refused.
    """
    if client.hello:
        handler = HANDLERS[kind]
    else:
        found = _BEFORE_HELLO.get(kind)
        if found is None:
            raise ProtocolError(ErrorCode.HELLO_FIRST, "the first message must be hello")
        handler = found
    handler(client, fields)


# ------------------------------------------------------------- connection


def on_hello(client: Client, f: Fields) -> None:
    """The connection's first message: its protocol version and name (§4.1)."""
    if f["version"] not in SUPPORTED_VERSIONS:
        client.error(
            ErrorCode.UNSUPPORTED_VERSION,
            f"protocol version {f['version']} is not supported",
            supported=list(SUPPORTED_VERSIONS),
        )
        client.abort_after_flush()
        return
    client.hello = True
    client.name = f.get("name") or "player"
    cfg = client.server.config
    client.send(
        {
            "type": ServerMessage.WELCOME,
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


def on_hello_again(client: Client, f: Fields) -> None:
    """A second ``hello`` is refused."""
    raise ProtocolError(ErrorCode.BAD_MESSAGE, "hello was already received")


def on_ping(client: Client, f: Fields) -> None:
    """Answer a ``ping`` with a ``pong`` carrying the same nonce."""
    client.send({"type": ServerMessage.PONG, **f})


def on_pong(client: Client, f: Fields) -> None:
    """A ``pong``: the connection is alive (its frame already counted)."""


# ------------------------------------------------------------------ lobby


def on_list_tables(client: Client, f: Fields) -> None:
    """A page of the tables (§7.2); with ``watch``, lobby updates from now on."""
    client.watching = f.get("watch", False)
    client.server.watch(client, client.watching)
    tables = list(client.server.tables.values())
    offset = f.get("offset", 0)
    page = tables[offset : offset + LIST_PAGE]
    client.send(
        {
            "type": ServerMessage.TABLES,
            "tables": [t.info() for t in page],
            "offset": offset,
            "total": len(tables),
        }
    )


def on_create_table(client: Client, f: Fields) -> None:
    """Open a table; the connection is its creator (§11.2)."""
    try:
        rules = Rules.from_dict(f.get("rules"))
    except ValueError as exc:
        raise TableError(ErrorCode.BAD_RULES, str(exc)) from None
    timeout_ms = f.get("turn_timeout_ms")
    table = client.server.create_table(f["name"], f["seats"], rules, timeout_ms, client)
    client.send({"type": ServerMessage.TABLE_CREATED, "table": table.info()})


def _not_at_a_table(client: Client) -> None:
    if client.table is not None:
        raise TableError(
            ErrorCode.ALREADY_AT_TABLE, f"you are at table {client.table.name!r}; leave first"
        )


def on_join(client: Client, f: Fields) -> None:
    """Take the next seat at a table (§11.3)."""
    _not_at_a_table(client)
    table = client.server.get_table(f["table"])
    client.name = f["name"]
    client.table = table
    try:
        client.server.guard(table, table.membership.join, client, f["name"], reraise=True)
    except TableError:
        client.table = None
        raise


def on_spectate(client: Client, f: Fields) -> None:
    """Watch a table."""
    _not_at_a_table(client)
    table = client.server.get_table(f["table"])
    client.table = table
    table.membership.spectate(client)


def on_resume(client: Client, f: Fields) -> None:
    """Take back a seat with its resume token (§4.8), leaving any other table."""
    found = client.server.find_token(f["token"])
    if found is None:
        raise TableError(ErrorCode.BAD_TOKEN, "that resume token is not valid")
    table, seat = found
    here = client.table
    if here is not None and here is not table:
        client.server.guard(here, here.membership.leave, client)
    client.table = table
    client.name = table.seats[seat].name
    client.server.guard(table, table.membership.resume, client, seat)


def _table(client: Client) -> Table:
    """The connection's table.

    Raises:
        TableError: ``not_at_table``.
    """
    if client.table is None:
        raise TableError(ErrorCode.NOT_AT_TABLE, "you are not at a table")
    return client.table


def on_leave(client: Client, f: Fields) -> None:
    """Leave the table (§11.3); a table left empty may close."""
    table = _table(client)
    client.table = None
    client.server.guard(table, table.membership.leave, client)
    client.send({"type": ServerMessage.LEFT, "table": table.name})
    client.server.maybe_close(table)


def on_back(client: Client, f: Fields) -> None:
    """The player is back at its seat: the server stops playing for it (§11.4)."""
    table = _table(client)
    client.server.guard(table, table.membership.back, client, reraise=True)


def on_start(client: Client, f: Fields) -> None:
    """Start the game with the players seated (§11.2)."""
    table = _table(client)
    client.server.guard(table, table.play.start, client, reraise=True)


def on_new_game(client: Client, f: Fields) -> None:
    """Start a new game at a finished table (§11.2)."""
    table = _table(client)
    client.server.guard(table, table.play.new_game, client, reraise=True)


def on_close_table(client: Client, f: Fields) -> None:
    """Close the table: its creator only, not while a game runs (§11.2)."""
    table = _table(client)
    if table.seating.creator is not client:
        raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may close it")
    if table.playing:
        raise TableError(ErrorCode.GAME_RUNNING, "a game is running; it can be closed once over")
    client.server.close_table(table)


def on_add_bot(client: Client, f: Fields) -> None:
    """Seat a bot (§11.2, §11.8)."""
    table = _table(client)
    if not table.seating.can_start(client):
        raise TableError(ErrorCode.NOT_CREATOR, "only the table's creator may seat bots")
    level = f.get("level", DEFAULT_BOT_LEVEL)
    client.server.guard(table, table.membership.add_bot, level, reraise=True)


def on_chat(client: Client, f: Fields) -> None:
    """A chat line to everyone at the table."""
    table = _table(client)
    text = f["text"].strip()
    if text:
        table.membership.say(client, text)


# ------------------------------------------------------------------- game


def on_act(client: Client, f: Fields) -> None:
    """An action (§6): answered ``ok`` or an error carrying its ``id``."""
    try:
        table = _table(client)
        client.server.guard(
            table, table.play.act, client, f["id"], f["action"], f.get("seq"), reraise=True
        )
    except TableError as exc:
        client.error(exc.code, exc.message, id=f["id"])


# ---------------------------------------------------------------- records


def on_list_records(client: Client, f: Fields) -> None:
    """The finished games in the journal, newest first (at most :data:`LIST_PAGE`)."""
    journal = client.server.journal
    games = journal.games()[:LIST_PAGE] if journal is not None else []
    client.send(
        {
            "type": ServerMessage.RECORDS,
            "games": [
                {**g, "started": iso_time(g["started"]), "finished": iso_time(g["finished"])}
                for g in games
            ],
        }
    )


def on_get_record(client: Client, f: Fields) -> None:
    """One finished game's record (``docs/records.md``)."""
    journal = client.server.journal
    row = journal.game(f["game"]) if journal is not None else None
    if row is None or row["finished"] is None:
        raise TableError(ErrorCode.NO_SUCH_GAME, f"there is no finished game {f['game']}")
    client.send({"type": ServerMessage.RECORD, "record": build_record(row)})


HANDLERS: dict[str, Handler] = {
    M.HELLO: on_hello_again,
    M.PING: on_ping,
    M.PONG: on_pong,
    M.LIST_TABLES: on_list_tables,
    M.CREATE_TABLE: on_create_table,
    M.JOIN: on_join,
    M.SPECTATE: on_spectate,
    M.RESUME: on_resume,
    M.LEAVE: on_leave,
    M.BACK: on_back,
    M.START: on_start,
    M.NEW_GAME: on_new_game,
    M.CLOSE_TABLE: on_close_table,
    M.ADD_BOT: on_add_bot,
    M.ACT: on_act,
    M.CHAT: on_chat,
    M.LIST_RECORDS: on_list_records,
    M.GET_RECORD: on_get_record,
}
"""The handler of each message a connection may send after its ``hello``."""

_BEFORE_HELLO: dict[str, Handler] = {M.HELLO: on_hello, M.PING: on_ping, M.PONG: on_pong}
"""What a connection may send before its ``hello``."""
