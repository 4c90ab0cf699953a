"""The network bot: a computer player that sits at a table over TCP, like any client.

It connects to a Craits server, says ``hello``, joins a table (or creates it
first), and plays every turn from its own seat's ``view`` only, with the
policies of :mod:`craits.server.bots` (:func:`~.levels.decide`). It sends each
action as an ``act`` with a fresh, never reused ``id`` and the ``seq`` of the
update it answers (protocol §11.5, §11.6), takes its "one card" and "idiot"
chances off its turn (R7), waits out the pause between hands, answers the
heartbeat, and stops at the end of the game (or plays on, ``games=0``).

Its connection is a :class:`~.server_link.ServerLink` (its :attr:`BotClient.link`),
which reads frames with the protocol's one reader into the protocol's typed
messages and hands each to the bot; every code it reads or writes comes from
:mod:`craits.protocol.vocab`.

The same :class:`BotClient` drives ``scripts/loadtest.py``: its link is an
:class:`asyncio.Protocol` (no task per connection), so thousands of bots fit
in one process, and it can record round trips and errors in a shared
:class:`BotStats`. ``craits-bot`` (:mod:`.cli`) is its command line.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import time
from collections.abc import Callable

from craits.protocol import MAX_NAME
from craits.protocol.tls import TlsError, TlsOptions, start_tls
from craits.protocol.types import (
    ActMsg,
    CreateTableMsg,
    ErrorMsg,
    JoinedMsg,
    JoinMsg,
    OkMsg,
    RulesMap,
    ServerMsg,
    StateMsg,
    TableClosedMsg,
    TableInfoMsg,
    UpdateMsg,
    View,
    action_map,
)
from craits.protocol.vocab import (
    CONNECTION_CLOSING_ERRORS,
    DEFAULT_BOT_LEVEL,
    LOST_RACE_ERRORS,
    SEAT_LOST_ERRORS,
    ClientMessage,
    ErrorCode,
    Phase,
    ServerMessage,
)

from ...errors import BotError
from ..levels import LEVELS, decide
from ..view import is_turn_action
from .seen import SeenEvents
from .server_link import BotStats, ServerLink

__all__ = [
    "FATAL_CODES",
    "IDLESS_ACT_CODES",
    "MAX_REFUSALS",
    "NAME_TRIES",
    "RACE_CODES",
    "BotClient",
    "BotStats",
    "connect_bot",
]

RACE_CODES: frozenset[ErrorCode] = LOST_RACE_ERRORS
"""Refusals that only mean another action got in first: decide again on the newer view."""
IDLESS_ACT_CODES: frozenset[ErrorCode] = frozenset(
    {
        ErrorCode.NOT_AT_TABLE,
        ErrorCode.SPECTATOR,
        ErrorCode.NOT_SEATED,
        ErrorCode.GAME_NOT_RUNNING,
        ErrorCode.BAD_MESSAGE,
    }
)
"""Errors taken as the answer to the pending ``act`` even without its ``id``
(protocol §11.5: a schema failure has none)."""
FATAL_CODES: frozenset[ErrorCode] = CONNECTION_CLOSING_ERRORS | SEAT_LOST_ERRORS
"""Errors after which the bot cannot go on: the connection closes (protocol §4.6,
§4.7, §12.1), or it holds no seat to play from."""
_RETRY_CODES = RACE_CODES | {ErrorCode.GAME_NOT_RUNNING}
"""Refusals of an ``act`` after which the bot looks at the newest view again
(a lost race, or the hand ended meanwhile)."""
_LATE_LOBBY_CODES = frozenset({ErrorCode.NOT_CREATOR, ErrorCode.CANNOT_START})
"""Refusals of a ``new_game`` someone else started first."""
_IN_PLAY: str = Phase.PLAY.value
_GAME_OVER: str = Phase.GAME_OVER.value
"""Codes read from every view the bot receives, bound once as plain strings."""
MAX_REFUSALS = 5
"""Unexpected refusals in a row after which the bot gives up (a bug somewhere)."""
NAME_TRIES = 5
"""Names tried when the one asked for is taken at the table."""


class InFlight:
    """The bot's ``act`` in flight (protocol §11.5): its id, whether its ``ok``
    came, and when it was sent (its round trip ends with the update after the
    ``ok``). Ids start at a microsecond clock reading and go up by one, so they
    never repeat at a seat, not even across restarts."""

    __slots__ = ("acked", "next_id", "pending", "sent_at")

    def __init__(self) -> None:
        self.next_id = time.time_ns() // 1000
        self.pending: int | None = None
        """The id of the action sent and not yet answered (None: none)."""
        self.acked = False
        self.sent_at = 0.0

    def send(self) -> int:
        """A new action goes out now: its id."""
        self.next_id += 1
        self.pending, self.acked, self.sent_at = self.next_id, False, time.perf_counter()
        return self.next_id

    def ok(self, action_id: int) -> bool:
        """An ``ok`` came: whether it answers the action in flight."""
        if self.pending is None or action_id != self.pending:
            return False
        self.acked = True
        return True

    def answers(self, msg: ErrorMsg) -> bool:
        """Whether ``msg`` refuses the action in flight (an id-less refusal of
        an ``act`` included, :data:`IDLESS_ACT_CODES`)."""
        return self.pending is not None and (
            msg.get("id") == self.pending or ("id" not in msg and msg["code"] in IDLESS_ACT_CODES)
        )

    def done(self) -> float | None:
        """An update came: the round trip's seconds if it follows the ``ok`` of
        the action in flight (which is then done), else None."""
        if self.pending is None or not self.acked:
            return None
        self.pending = None
        return time.perf_counter() - self.sent_at


def join_message(table: str, name: str, code: str | None) -> JoinMsg:
    """The ``join`` of ``table`` as ``name``, with the invite ``code`` of a
    private table (protocol §11.9) if there is one."""
    message: JoinMsg = {"type": ClientMessage.JOIN, "table": table, "name": name}
    if code:
        message["code"] = code
    return message


class BotClient:
    """One bot on one connection, that plays by itself: the
    :class:`~.server_link.LinkListener` of its :attr:`link`.

    Create it, hand its :attr:`link` to :meth:`asyncio.loop.create_connection`
    (or use :func:`connect_bot`), then await :attr:`done`: it resolves to 0 once
    the bot has played ``games`` games (0: never), or fails with
    :class:`~craits.server.errors.BotError`. :attr:`joined` resolves once the
    bot is seated.
    """

    def __init__(
        self,
        table: str,
        name: str,
        level: str = DEFAULT_BOT_LEVEL,
        think: float = 0.6,
        jitter: float = 0.0,
        create: int | None = None,
        rules: RulesMap | None = None,
        games: int = 1,
        rng: random.Random | None = None,
        stats: BotStats | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        """Set the bot up.

        Args:
            table: the table to join.
            name: the player name to ask for (another is tried if taken).
            level: a level of :data:`craits.server.bots.LEVELS`.
            think: seconds to wait before each decision, on average.
            jitter: each wait is ``think`` times a uniform draw in ``[1 - jitter, 1 + jitter]``.
            create: create the table with this many seats first (unless it exists).
            rules: house rules for a table it creates (protocol §5).
            games: games to play before :attr:`done` resolves; 0 for ever.
            rng: the random source of the ``random`` level and of names.
            stats: counters to add to, shared with other bots if wanted.
            say: called with a one-line progress message (joined, game over).

        Raises:
            ValueError: an unknown level.
        """
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        self.name = name[:MAX_NAME]
        self.link = ServerLink(self.name, self, stats)
        """The connection (an :class:`asyncio.Protocol`) the bot plays over."""
        self.stats = self.link.stats
        self.welcomed = self.link.welcomed
        self.done = self.link.done
        self._loop = asyncio.get_running_loop()
        self.table = table
        self.level = level
        self.think = think
        self.jitter = min(max(jitter, 0.0), 1.0)
        self.create = create
        self.rules = rules
        self.games = games
        self.rng = rng or random.Random()
        self.say = say or (lambda _line: None)
        self.joined: asyncio.Future[int] = self.link.new_wait()
        self.seat: int | None = None
        self.view: View | None = None
        self.seen = SeenEvents()
        self.seq = 0
        self.games_played = 0
        self.created = False
        self._creator: str | None = None
        self._people: set[str] = set()
        self.in_flight = InFlight()
        self._timer: asyncio.TimerHandle | None = None
        self._want = False
        self._refusals = 0
        self._name_tries = 0
        self._over_seq = -1
        self.code: str | None = None  # the table's invite code, if private (set before joining)
        self.placed = False  # its create_table was redirected here: sent with placed (§7.4)
        self.redirect: str | None = None  # where a cluster sent it: it ends, to start there

    def close(self) -> None:
        """Leave: close the link (the seat stays in a running game, protocol §11.3)."""
        self.link.close()

    def on_end(self) -> None:
        """The link is ending: no decision is due any more."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def on_frames_read(self) -> None:
        """Decide once on the newest view, if one of the messages asked for it."""
        if self._want:
            self._want = False
            if self._timer is not None:
                return  # a decision is due (thinking, or held back by the rate limit)
            if self.think <= 0:
                self._decide()
            else:
                self._timer = self._loop.call_later(self._think_time(), self._decide)

    # -------------------------------------------------------------- messages

    def on_message(self, msg: ServerMsg) -> None:
        """Handle one message from the server; it needs no other (protocol §7)."""
        if msg["type"] == ServerMessage.UPDATE or msg["type"] == ServerMessage.STATE:
            self._on_view(msg)
        elif msg["type"] == ServerMessage.OK:
            self._on_ok(msg)
        elif msg["type"] == ServerMessage.ERROR:
            self._on_error(msg)
        elif msg["type"] == ServerMessage.TABLE_INFO:
            self._on_table_info(msg)
        elif msg["type"] == ServerMessage.WELCOME:
            self._on_welcome()
        elif msg["type"] == ServerMessage.TABLE_CREATED:
            self._on_table_created()
        elif msg["type"] == ServerMessage.JOINED:
            self._on_joined(msg)
        elif msg["type"] == ServerMessage.TABLE_CLOSED:
            self._on_table_closed(msg)
        elif msg["type"] == ServerMessage.REDIRECT:
            self.redirect = msg["address"]  # the table is another node's (§7.4)
            self.close()

    def _on_ok(self, msg: OkMsg) -> None:
        """The pending ``act`` was applied; its round trip ends with the next update."""
        if self.in_flight.ok(msg["id"]):
            self._refusals = 0
            if self.stats.recording:
                self.stats.moves += 1

    def _on_welcome(self) -> None:
        """The handshake is done: create the table first if asked to, else join it."""
        if not self.create:
            self._join()
            return
        message: CreateTableMsg = {
            "type": ClientMessage.CREATE_TABLE,
            "name": self.table,
            "seats": self.create,
        }
        if self.rules:
            message["rules"] = self.rules
        if self.placed:
            message["placed"] = True
        self.link.send(message)

    def _on_table_created(self) -> None:
        """The bot created its table: it sits down at it."""
        self.created = True
        self._join()

    def _on_joined(self, msg: JoinedMsg) -> None:
        """The bot is seated."""
        self.seat = msg["seat"]
        if not self.joined.done():
            self.joined.set_result(self.seat)
        self.say(f"{self.name}: seated at table {self.table!r}, seat {self.seat}")

    def _on_table_closed(self, msg: TableClosedMsg) -> None:
        """A table was closed: the end, if it was the bot's."""
        if msg["name"] == self.table:
            self.link.fail(f"table {self.table!r} was closed")

    def _join(self) -> None:
        self.link.send(join_message(self.table, self.name, self.code))

    def _on_table_info(self, msg: TableInfoMsg) -> None:
        """Note the table's creator and the people connected at it (protocol §10):
        whether the bot may start the next game (§11.2)."""
        info = msg["table"]
        if info["name"] != self.table:
            return
        self._creator = info["creator"]
        self._people = {
            p["name"]
            for p in info["players"]
            if p["bot"] is None and p["connected"] and p["name"] != self.name
        }

    def _on_view(self, msg: UpdateMsg | StateMsg) -> None:
        """An ``update`` or ``state``: the newest view, and whether to act on it."""
        v = msg["view"]
        self.seq = msg["seq"]
        self.seen.take(msg)
        if v is None:
            return
        self.view = v
        if msg["type"] == ServerMessage.UPDATE:
            rtt = self.in_flight.done()  # the update after our ok: our own move's
            if rtt is not None and self.stats.recording:
                self.stats.rtts.append(rtt)
        phase = v["phase"]
        if phase == _GAME_OVER:
            self._game_over(v)
        elif phase == _IN_PLAY and v["legal"] and self.in_flight.pending is None:
            self._want = True

    def _on_error(self, msg: ErrorMsg) -> None:
        """An error: the answer to the pending ``act``, or to a lobby request."""
        code, text = msg["code"], msg["message"]
        if self.in_flight.answers(msg):
            self._on_refusal(code, text)
        else:
            self._on_request_error(code, text)

    def _on_refusal(self, code: str, text: str) -> None:
        """The pending ``act`` was refused: decide again, or give up (protocol §11.6, §12)."""
        self.in_flight.pending = None
        if code in _RETRY_CODES:
            # Someone acted first (or the hand ended): look at the newest view again.
            self.stats.races[code] += 1
            self._want = True
            return
        self.stats.errors[code] += 1
        self._refusals += 1
        if code in FATAL_CODES:
            self.link.fail(f"the server refused: {text} ({code})")
        elif self._refusals >= MAX_REFUSALS:
            self.link.fail(f"{self._refusals} actions refused in a row, last: {text} ({code})")
        else:
            self._want = True

    def _on_request_error(self, code: str, text: str) -> None:
        """A request other than ``act`` was refused: work around it, or give up."""
        if code in _LATE_LOBBY_CODES and self.joined.done():
            return  # a new_game someone else started first
        if code == ErrorCode.TABLE_EXISTS and self.create and not self.created:
            self._join()  # --create on an existing table: just sit down
            return
        if code == ErrorCode.NAME_TAKEN and self._name_tries < NAME_TRIES:
            self._name_tries += 1
            suffix = f"-{self.rng.randrange(100, 1000)}"
            self.name = self.name[: MAX_NAME - len(suffix)] + suffix
            self._join()
            return
        self.stats.errors[code] += 1
        if code == ErrorCode.NO_SUCH_TABLE:
            text += "; create it with --create SEATS"
        self.link.fail(f"server: {text} ({code})")

    # -------------------------------------------------------------- deciding

    def _think_time(self) -> float:
        if not self.jitter:
            return self.think
        return self.think * self.rng.uniform(1 - self.jitter, 1 + self.jitter)

    def _decide(self) -> None:
        """Take the bot's action now, from the newest view, if it has one to take."""
        self._timer = None
        v = self.view
        if v is None or self.link.closing or self.in_flight.pending is not None:
            return
        if v["phase"] != _IN_PLAY:
            return
        wait = self.link.throttle.wait(self._loop.time())
        if wait > 0:  # the server's rate limit (protocol §14): decide once it allows
            self._timer = self._loop.call_later(wait, self._decide)
            return
        choice = decide(self.level, v, self.rng, self.seen.events)
        if choice is None:
            return
        action = action_map(choice)
        message: ActMsg = {"type": ClientMessage.ACT, "id": self.in_flight.send(), "action": action}
        if is_turn_action(action):
            message["seq"] = self.seq  # protocol §11.6
        self.link.send(message)

    def _game_over(self, v: View) -> None:
        """The game is over: say how it went; stop, or start the next one if the bot may."""
        if self._over_seq == self.seq:
            return
        self._over_seq = self.seq
        self.on_end()
        self.games_played += 1
        self.stats.games += 1
        result = v["result"]
        seat = v["seat"]
        won = result is not None and seat in result["winners"]
        self.say(
            f"{self.name}: game over at {self.table!r}; scores {v['scores']}, "
            f"{'won' if won else 'lost'} (seat {seat})"
        )
        if self.games and self.games_played >= self.games:
            self.link.finish(0)
            return
        # Start the next game: the creator may; so may anyone once the creator is gone.
        if self.created or self._creator is None or self._creator not in self._people:
            if self.think > 0:
                self._loop.call_later(self._think_time(), self._new_game)
            else:
                self._new_game()

    def _new_game(self) -> None:
        v = self.view
        if v is not None and v["phase"] == _GAME_OVER:
            self.link.send({"type": ClientMessage.NEW_GAME})


async def connect_bot(
    host: str, port: int, bot: BotClient, timeout: float = 5.0, tls: TlsOptions | None = None
) -> None:
    """Connect ``bot`` to ``host:port`` (over TLS with ``tls``, trusted as it
    says, protocol §2) and wait for the server's ``welcome``.

    Raises:
        BotError: unreachable, no answer in time, the hello was refused, or
            (TLS) the server is not trusted or does not speak TLS.
    """
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(timeout):
            if tls is None:
                await loop.create_connection(lambda: bot.link, host, port)
            else:
                raw, _ = await loop.create_connection(asyncio.Protocol, host, port)
                await start_tls(raw, bot.link, host, port, tls)  # says hello once trusted
            await bot.welcomed
    except TlsError as exc:
        bot.close()
        raise BotError(str(exc)) from None
    except TimeoutError:
        bot.close()
        raise BotError(f"no answer from {host}:{port} within {timeout:g} s") from None
    except OSError as exc:
        if isinstance(exc, socket.gaierror) or not exc.errno or exc.errno < 0:
            why = exc.strerror or str(exc)
        else:
            why = os.strerror(exc.errno).lower()
        raise BotError(f"cannot reach {host}:{port}: {why}") from None
