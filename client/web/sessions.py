"""The visitors' client processes of ``craits-web``: one per open game page, at
most ``max_sessions``, one page per browser, and how each page is told why its
game ended.

Each client process is forked by the pre-forked client (:mod:`.zygote`) or
started anew (:mod:`.child`), and hangs on this process's lifeline
(:mod:`.lifeline`): if craits-web ends without stopping them (SIGKILL, a
crash), they end at once too.

When a page's game ends, craits-web closes the page's websocket with a code the
page reads (``templates/game.html``) to say what happened and what to do:

==========  ==================================================================
code        why, and what the page does
==========  ==================================================================
1000        the visitor left (their client ended); the reason is
            ``seat:TABLE`` when their client keeps a seat to take back at
            TABLE (a spectator's never does): the page says so
1011        the client process ended without a word (killed, crashed): the
            page offers to start it again
1012        craits-web is stopping (with its server, or restarting): the page
            tries again by itself until craits-web answers, then reloads
4001        the visitor opened the game in another page of the same browser,
            which took over: this one offers to play here instead
==========  ==================================================================

Any other end (the connection dropped, craits-web killed) reaches the page as
1006, which it treats as 1012.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web
from craits.protocol.address import Target
from textual_serve.download_manager import DownloadManager

from .lifeline import open_lifeline
from .service import VisitorAppService, Zygote, client_argv
from .visitors import Launch, Visitors

log = logging.getLogger("craits.web")

LEFT = 1000
"""The page's close code: the visitor left (reason ``seat:TABLE`` when a seat is kept)."""
STOPPED = 1011
"""The page's close code: the client process ended without a word."""
RESTARTING = 1012
"""The page's close code: craits-web is stopping; the page comes back by itself."""
REPLACED = 4001
"""The page's close code: another page of the same browser took over."""
SEAT = "seat:"
"""How the reason of a :data:`LEFT` close names the table where a seat is kept."""


@dataclass(frozen=True, slots=True)
class Visit:
    """A game page about to open its client: whose, as whom, going where, from
    which address (told to the game server; None: not told), and the host the
    page was asked for (the client names the game by it)."""

    visitor_id: str
    name: str
    launch: Launch
    address: str | None
    shown_host: str


class Sessions:
    """The running client processes (see the module's notes).

    Args:
        game: the game server the clients connect to.
        visitors: the visitors' directories.
        max_sessions: client processes at most.
        prefork: fork the clients from a pre-forked client (:mod:`.zygote`).
        download_manager: textual-serve's, for the clients' downloads.
    """

    def __init__(
        self,
        game: Target,
        visitors: Visitors,
        max_sessions: int,
        prefork: bool,
        download_manager: DownloadManager,
    ) -> None:
        self.game = game
        self.visitors = visitors
        self.max_sessions = max_sessions
        self.prefork = prefork
        self.download_manager = download_manager
        self.running: dict[str, VisitorAppService] = {}
        """The running client processes, by their service id."""
        self.by_visitor: dict[str, VisitorAppService] = {}
        """Each visitor's running client process, by visitor id (one page each)."""
        self.zygote: Zygote | None = None
        """The pre-forked client, while it runs."""
        self.stopping = False
        """Set once craits-web stops: pages are closed with :data:`RESTARTING`."""
        self._lifeline: tuple[int, int] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self.running)

    def full_for(self, visitor_id: str) -> bool:
        """Whether ``max_sessions`` leaves no room for this visitor (a visitor with a
        page open already always has room: their new page replaces the old)."""
        return len(self.running) >= self.max_sessions and visitor_id not in self.by_visitor

    def keep(self, coroutine: Awaitable[None]) -> None:
        """Run ``coroutine`` as a task, held until it is done (a task nobody holds
        may be collected before it ends)."""
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def start(self) -> None:
        """Open this process's lifeline for the clients; start the pre-forked
        client (``prefork``; if it does not start, each client is a new process).

        Raises:
            OSError: no file descriptors left for the lifeline.
        """
        self._lifeline = open_lifeline()
        if self.prefork:
            zygote = Zygote(self._lifeline[0])
            if await zygote.start():
                self.zygote = zygote
            else:
                log.warning("the pre-forked client did not start: one process per visitor")
                await zygote.stop()

    async def stop(self) -> None:
        """Stop every client process (at once, each given 5 s to quit, then
        killed), their pages told craits-web is stopping (:data:`RESTARTING`);
        then the pre-forked client; then cut the lifeline (anything of ours
        still running ends)."""
        self.stopping = True
        await asyncio.gather(*(retire(s, grace=5) for s in list(self.running.values())))
        if self.zygote is not None:
            await self.zygote.stop()
        if self._lifeline is not None:
            for fd in self._lifeline:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._lifeline = None

    async def run(
        self,
        websocket: web.WebSocketResponse,
        visit: Visit,
        size: tuple[int, int],
        relay: Callable[[web.WebSocketResponse, VisitorAppService], Awaitable[None]],
    ) -> None:
        """Run the visitor's client for the page's open ``websocket`` (``size``:
        columns, rows), ``relay`` carrying the page's input to it, until either
        ends; an older page of the same visitor is closed (:data:`REPLACED`)."""
        service = VisitorAppService(
            client_argv(self.game, visit.name, visit.launch, visit.address, visit.shown_host),
            self.visitors.environment(visit.visitor_id),
            zygote=self.zygote,
            lifeline=self._lifeline[0] if self._lifeline else None,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=lambda: self._close(websocket, service, visit),
            download_manager=self.download_manager,
        )
        self.running[service.app_service_id] = service
        # One page per browser: an older page of the same visitor (another tab) is
        # closed, so two pages of one browser never take the seat from each other.
        older = self.by_visitor.get(visit.visitor_id)
        self.by_visitor[visit.visitor_id] = service
        if older is not None:
            older.replaced = True
            self.keep(retire(older))
        try:
            await service.start(*size)
            key = self.visitors.key(visit.visitor_id)
            log.info("visitor %s at %s: client process %s", key, visit.address, service.pid)
            await relay(websocket, service)
        except asyncio.CancelledError:
            await self._close(websocket, service, visit)
        except Exception:
            log.exception("visitor session failed")
        finally:
            self.running.pop(service.app_service_id, None)
            if self.by_visitor.get(visit.visitor_id) is service:
                del self.by_visitor[visit.visitor_id]
            await retire(service)

    async def _close(
        self, websocket: web.WebSocketResponse, service: VisitorAppService, visit: Visit
    ) -> None:
        """Close the page, its close code saying why its game ended (see the
        module's notes)."""
        if websocket.closed:
            return
        reason = ""
        if self.stopping:
            code = RESTARTING
        elif service.replaced:
            code = REPLACED
        elif not service.said_exit:
            code = STOPPED
        else:
            code = LEFT
            table = self.visitors.saved_table(visit.visitor_id, self.game, visit.name)
            reason = SEAT + table if table else ""
        await websocket.close(code=code, message=reason.encode())


async def retire(service: VisitorAppService, grace: float = 10) -> None:
    """Ask a client process to quit (its page's websocket closes); kill it if it
    has not within ``grace`` seconds."""
    try:
        await asyncio.wait_for(service.stop(), grace)
    except Exception:
        service.kill()
