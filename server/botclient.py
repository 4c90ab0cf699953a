"""``craits-bot``: a computer player that sits at a table over the network, like any client.

It connects to a Craits server over TCP, says ``hello``, joins a table (or
creates it first with ``--create SEATS``), and plays every turn from its own
seat's ``view`` only, with the policies of :mod:`craits.server.bots`
(``random`` or ``basic``). It sends each action as an ``act`` with a fresh,
never reused ``id`` and the ``seq`` of the update it answers, takes its
"one card" and "idiot" chances off its turn (R7), waits out the pause
between hands, answers the heartbeat, and stops at the end of the game
(``--forever``: it keeps playing new games).

The same :class:`BotClient` drives ``scripts/loadtest.py``: it is an
:class:`asyncio.Protocol` (no task per connection), so thousands of bots fit
in one process, and it can record round trips and errors in a shared
:class:`BotStats`.

Example::

    craits-bot localhost --table practice
    craits-bot 10.0.0.5:7777 --table friday --create 4 --level random --think-ms 300
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack
from craits.protocol import DEFAULT_PORT, MAX_NAME, MAX_SERVER_FRAME, VERSION, encode
from craits.protocol.client import parse_address
from craits.protocol.wire import HEADER
from craits.server.bots import LEVELS, choose

__all__ = ["BotClient", "BotError", "BotStats", "build_parser", "connect_bot", "main", "run"]

TURN_KEYS = ("play", "draw", "pass", "name_suit")
"""Keys of the actions only the seat to act may take: these carry ``seq`` (protocol §11.6)."""
RACE_CODES = frozenset({"stale", "nothing_to_announce", "nothing_to_call_idiot_on"})
"""Refusals that only mean another action got in first: decide again on the newer view."""
IDLESS_ACT_CODES = frozenset(
    {"not_at_table", "spectator", "not_seated", "game_not_running", "bad_message"}
)
"""Errors that answer an ``act`` without its ``id`` (protocol §14)."""
FATAL_CODES = frozenset(
    {
        "bad_frame",
        "frame_too_large",
        "unsupported_version",
        "rate_limited",
        "too_many_errors",
        "timeout",
        "server_full",
        "shutdown",
        "replaced",
        "table_stopped",
        "not_at_table",
        "not_seated",
        "spectator",
    }
)
"""Errors after which the bot cannot go on."""
MAX_REFUSALS = 5
"""Unexpected refusals in a row after which the bot gives up (a bug somewhere)."""
NAME_TRIES = 5
"""Names tried when the one asked for is taken at the table."""


class BotError(Exception):
    """The bot cannot go on; ``str()`` says why in one line."""


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


class BotClient(asyncio.Protocol):
    """One bot on one connection: an :class:`asyncio.Protocol` that plays by itself.

    Create it, hand it to :meth:`asyncio.loop.create_connection` (or use
    :func:`connect_bot`), then await :attr:`done`: it resolves to 0 once the
    bot has played ``games`` games (0: never), or fails with
    :class:`BotError`. :attr:`joined` resolves once the bot is seated.
    """

    def __init__(
        self,
        table: str,
        name: str,
        level: str = "basic",
        think: float = 0.6,
        jitter: float = 0.0,
        create: int | None = None,
        rules: dict[str, Any] | None = None,
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
            jitter: each wait is ``think`` times a uniform draw in
                ``[1 - jitter, 1 + jitter]`` (0: always ``think``).
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
        self.table = table
        self.name = name[:MAX_NAME]
        self.level = level
        self.think = think
        self.jitter = min(max(jitter, 0.0), 1.0)
        self.create = create
        self.rules = rules
        self.games = games
        self.rng = rng or random.Random()
        self.stats = stats if stats is not None else BotStats()
        self.say = say or (lambda _line: None)
        loop = asyncio.get_running_loop()
        self._loop = loop
        self.welcomed: asyncio.Future[dict[str, Any]] = loop.create_future()
        self.joined: asyncio.Future[int] = loop.create_future()
        self.done: asyncio.Future[int] = loop.create_future()
        for fut in (self.welcomed, self.joined):
            # Their failures are also ``done``'s: nobody need read them twice.
            fut.add_done_callback(lambda f: f.cancelled() or f.exception())
        self.transport: asyncio.Transport | None = None
        self.seat: int | None = None
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.games_played = 0
        self.created = False
        self._creator: str | None = None
        self._people: set[str] = set()
        self._buf = bytearray()
        # Action ids: a microsecond clock reading to start with, then +1 per
        # action, so ids never repeat at a seat — not even across restarts.
        self._next_id = time.time_ns() // 1000
        self._pending: int | None = None
        self._acked = False
        self._sent_at = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._want = False
        self._refusals = 0
        self._name_tries = 0
        self._over_seq = -1
        self._closing = False

    # ------------------------------------------------------------ transport

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Say hello."""
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self._send({"type": "hello", "version": VERSION, "name": self.name, "client": "craits-bot"})

    def data_received(self, data: bytes) -> None:
        """Split the stream into frames, handle each, then decide once on the newest view."""
        buf = self._buf
        buf += data
        pos = 0
        end = len(buf)
        while end - pos >= 4:
            (n,) = HEADER.unpack_from(buf, pos)
            if n == 0 or n > MAX_SERVER_FRAME:
                self._fail(f"the server does not speak the Craits protocol (frame of {n} bytes)")
                return
            if end - pos - 4 < n:
                break
            try:
                message = msgpack.unpackb(buf[pos + 4 : pos + 4 + n], raw=False)
                if not isinstance(message, dict):
                    raise ValueError("a message is not a map")
            except Exception as exc:  # msgpack raises several types for bad input
                self._fail(f"the server does not speak the Craits protocol ({exc})")
                return
            pos += 4 + n
            self.stats.frames_in += 1
            self._handle(message)
            if self._closing:
                return
        del buf[:pos]
        if self._want:
            self._want = False
            if self.think <= 0:
                self._decide()
            elif self._timer is None:
                self._timer = self._loop.call_later(self._think_time(), self._decide)

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection ended: fine if the bot closed it, a failure otherwise."""
        self._cancel_timer()
        if not self._closing:
            self.stats.dropped += 1
            self._fail("the server closed the connection")

    def _send(self, message: dict[str, Any]) -> None:
        if self.transport is not None and not self._closing:
            self.transport.write(encode(message))
            self.stats.frames_out += 1

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def close(self) -> None:
        """Leave: close the connection (the seat stays in a running game, protocol §11.3)."""
        self._closing = True
        self._cancel_timer()
        if self.transport is not None:
            self.transport.close()
        for fut in (self.welcomed, self.joined):
            if not fut.done():
                fut.cancel()
        if not self.done.done():
            self.done.set_result(0)

    def _finish(self, code: int) -> None:
        if not self.done.done():
            self.done.set_result(code)
        self.close()

    def _fail(self, reason: str) -> None:
        if not self.done.done():
            self.done.set_exception(BotError(reason))
        for fut in (self.welcomed, self.joined):
            if not fut.done():
                fut.set_exception(BotError(reason))
        self._closing = True
        self._cancel_timer()
        if self.transport is not None:
            self.transport.close()

    # -------------------------------------------------------------- messages

    def _handle(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        if kind == "update" or kind == "state":
            self._on_view(m)
        elif kind == "ok":
            if m.get("id") == self._pending and self._pending is not None:
                self._acked = True
                self._refusals = 0
                if self.stats.recording:
                    self.stats.moves += 1
        elif kind == "error":
            self._on_error(m)
        elif kind == "ping":
            pong: dict[str, Any] = {"type": "pong"}
            if "nonce" in m:
                pong["nonce"] = m["nonce"]
            self._send(pong)
        elif kind == "table_info":
            self._on_table_info(m.get("table") or {})
        elif kind == "welcome":
            if not self.welcomed.done():
                self.welcomed.set_result(m)
            if self.create:
                message: dict[str, Any] = {
                    "type": "create_table",
                    "name": self.table,
                    "seats": self.create,
                }
                if self.rules:
                    message["rules"] = self.rules
                self._send(message)
            else:
                self._join()
        elif kind == "table_created":
            self.created = True
            self._join()
        elif kind == "joined":
            self.seat = m.get("seat")
            if not self.joined.done():
                self.joined.set_result(self.seat if self.seat is not None else -1)
            self.say(f"{self.name}: seated at table {self.table!r}, seat {self.seat}")
        elif kind == "table_closed" and m.get("name") == self.table:
            self._fail(f"table {self.table!r} was closed")

    def _join(self) -> None:
        self._send({"type": "join", "table": self.table, "name": self.name})

    def _on_table_info(self, info: dict[str, Any]) -> None:
        if info.get("name") != self.table:
            return
        self._creator = info.get("creator")
        self._people = {
            p["name"]
            for p in info.get("players", [])
            if p.get("bot") is None and p.get("connected") and p.get("name") != self.name
        }

    def _on_view(self, m: dict[str, Any]) -> None:
        v = m.get("view")
        self.seq = m.get("seq", self.seq)
        if v is None:
            return
        self.view = v
        if self._pending is not None and self._acked and m.get("type") == "update":
            # The update after our ok is our own move's: the round trip ends here.
            if self.stats.recording:
                self.stats.rtts.append(time.perf_counter() - self._sent_at)
            self._pending = None
        phase = v.get("phase")
        if phase == "game_over":
            self._game_over(v)
        elif phase == "play" and v.get("legal") and self._pending is None:
            self._want = True

    def _on_error(self, m: dict[str, Any]) -> None:
        code = m.get("code", "?")
        text = m.get("message", code)
        answered = self._pending is not None and (
            m.get("id") == self._pending or ("id" not in m and code in IDLESS_ACT_CODES)
        )
        if answered:
            self._pending = None
            if code in RACE_CODES or code == "game_not_running":
                # Someone acted first (or the hand ended): look at the newest view again.
                self.stats.races[code] += 1
                self._want = True
                return
            self.stats.errors[code] += 1
            self._refusals += 1
            if code in FATAL_CODES:
                self._fail(f"the server refused: {text} ({code})")
            elif self._refusals >= MAX_REFUSALS:
                self._fail(f"{self._refusals} actions refused in a row, last: {text} ({code})")
            else:
                self._want = True
            return
        if code in ("not_creator", "cannot_start") and self.joined.done():
            return  # a new_game someone else started first
        if code == "table_exists" and self.create and not self.created:
            self._join()  # --create on an existing table: just sit down
            return
        if code == "name_taken" and self._name_tries < NAME_TRIES:
            self._name_tries += 1
            suffix = f"-{self.rng.randrange(100, 1000)}"
            self.name = self.name[: MAX_NAME - len(suffix)] + suffix
            self._join()
            return
        self.stats.errors[code] += 1
        if code == "no_such_table":
            text += "; create it with --create SEATS"
        self._fail(f"server: {text} ({code})")

    # -------------------------------------------------------------- deciding

    def _think_time(self) -> float:
        if not self.jitter:
            return self.think
        return self.think * self.rng.uniform(1 - self.jitter, 1 + self.jitter)

    def _decide(self) -> None:
        """Take the bot's action now, from the newest view, if it has one to take."""
        self._timer = None
        v = self.view
        if v is None or self._closing or self._pending is not None or v.get("phase") != "play":
            return
        choice = choose(self.level, v, self.rng)
        if choice is None:
            return
        action = {k: x for k, x in choice.items() if k != "seat"}
        self._next_id += 1
        message: dict[str, Any] = {"type": "act", "id": self._next_id, "action": action}
        if any(k in action for k in TURN_KEYS):
            message["seq"] = self.seq
        self._pending = self._next_id
        self._acked = False
        self._sent_at = time.perf_counter()
        self._send(message)

    def _game_over(self, v: dict[str, Any]) -> None:
        if self._over_seq == self.seq:
            return
        self._over_seq = self.seq
        self._cancel_timer()
        self.games_played += 1
        self.stats.games += 1
        result = v.get("result") or {}
        seat = v.get("seat")
        won = seat in result.get("winners", [])
        self.say(
            f"{self.name}: game over at {self.table!r}; scores {v.get('scores')}, "
            f"{'won' if won else 'lost'} (seat {seat})"
        )
        if self.games and self.games_played >= self.games:
            self._finish(0)
            return
        # Start the next game: the creator may; so may anyone once the creator is gone.
        if self.created or self._creator is None or self._creator not in self._people:
            if self.think > 0:
                self._loop.call_later(self._think_time(), self._new_game)
            else:
                self._new_game()

    def _new_game(self) -> None:
        v = self.view
        if v is not None and v.get("phase") == "game_over":
            self._send({"type": "new_game"})


async def connect_bot(host: str, port: int, bot: BotClient, timeout: float = 5.0) -> None:
    """Connect ``bot`` to ``host:port`` and wait for the server's ``welcome``.

    Raises:
        BotError: unreachable, no answer in time, or the hello was refused.
    """
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(timeout):
            await loop.create_connection(lambda: bot, host, port)
            await bot.welcomed
    except TimeoutError:
        bot.close()
        raise BotError(f"no answer from {host}:{port} within {timeout:g} s") from None
    except OSError as exc:
        if isinstance(exc, socket.gaierror) or not exc.errno or exc.errno < 0:
            why = exc.strerror or str(exc)
        else:
            why = os.strerror(exc.errno).lower()
        raise BotError(f"cannot reach {host}:{port}: {why}") from None


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``craits-bot``."""
    p = argparse.ArgumentParser(
        prog="craits-bot",
        description="A computer player that joins a Craits table over the network.",
    )
    p.add_argument(
        "address", metavar="HOST[:PORT]", help=f"the server (default port {DEFAULT_PORT})"
    )
    p.add_argument("--table", required=True, help="the table to join")
    p.add_argument("--level", default="basic", choices=LEVELS, help="how it plays (default basic)")
    p.add_argument("--name", help="player name (default LEVEL-bot-NNN; another is tried if taken)")
    p.add_argument(
        "--think-ms",
        type=int,
        default=600,
        metavar="N",
        help="milliseconds before each decision, on average (default 600)",
    )
    p.add_argument(
        "--jitter",
        type=float,
        default=0.5,
        metavar="J",
        help="each think time is drawn uniformly in think x [1-J, 1+J] (default 0.5; 0: fixed)",
    )
    p.add_argument(
        "--create",
        type=int,
        metavar="SEATS",
        help="create the table with SEATS seats (2-8) first, unless it exists",
    )
    p.add_argument(
        "--short-game", action="store_true", help="with --create: 8 hands instead of 15 (R2)"
    )
    p.add_argument(
        "--forever", action="store_true", help="keep playing new games instead of stopping"
    )
    p.add_argument("--seed", type=int, help="seed of the random level's choices")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    return p


async def run(args: argparse.Namespace) -> int:
    """Play as ``args`` say; returns the exit status.

    Raises:
        BotError: the bot could not connect, was refused, or lost the connection.
    """
    try:
        host, port = parse_address(args.address, DEFAULT_PORT)
    except ValueError as exc:
        raise BotError(f"bad address {args.address!r}: {exc}") from None
    rng = random.Random(args.seed)
    name = args.name or f"{args.level}-bot-{rng.randrange(100, 1000)}"

    def say(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    bot = BotClient(
        args.table,
        name,
        level=args.level,
        think=max(0, args.think_ms) / 1000,
        jitter=args.jitter,
        create=args.create,
        rules={"short_game": True} if args.short_game else None,
        games=0 if args.forever else 1,
        rng=rng,
        say=say,
    )
    await connect_bot(host, port, bot)
    try:
        return await bot.done
    finally:
        bot.close()


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``craits-bot``; returns the exit status (0: the game ended)."""
    args = build_parser().parse_args(argv)
    if args.create is not None and not 2 <= args.create <= 8:
        print("craits-bot: --create takes 2 to 8 seats", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(args))
    except BotError as exc:
        print(f"craits-bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
