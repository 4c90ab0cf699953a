"""The ``craits-web`` server: textual-serve's :class:`Server` with a visitor per browser.

Routes (all under ``--public-url``):

* ``GET /`` — the game page; before the browser has a name, the name page. The
  query (``?table=NAME``, ``&watch=1``, ``&code=CODE``) is checked
  (:class:`~.visitors.Launch`) and kept server-side under a one-use launch key,
  with the visitor's address (:mod:`.addresses`; the game server is told it,
  protocol §4.1); the page's websocket names only that key. Sets the visitor cookie (random,
  HttpOnly, SameSite=Lax; Secure behind https) when the browser has none.
* ``GET /name`` — the name page again (to change it); ``POST /name`` keeps the
  visitor's name — checked by the game server's own rule, refused with its
  words — then back to ``/`` with the same link. Reached through a link, the
  name page says which table the link goes to.
* ``GET /ws/{launch}`` — the terminal's websocket: starts the visitor's client
  process (:class:`~.service.VisitorAppService`) if the cookie is the one the
  launch key was made for. One page per browser: a newer page of the same
  visitor closes the older one (no two pages of one browser taking the seat
  from each other).
* ``GET /alive`` — 204 while craits-web runs: a page whose connection dropped
  asks it until craits-web is back (after a restart), then loads itself again
  (:mod:`.sessions` says how a page learns why its game ended).
* ``GET /static/…`` — textual-serve's page script, xterm's CSS and the Roboto
  Mono font files, served from the installed package: the page fetches nothing
  from the internet.

At ``max_sessions`` client processes, ``/`` answers a page saying the room is
full (HTTP 503) and the websocket is refused.

Each page's links are made for the address its browser asked for
(:class:`~.addresses.Origin`: behind a trusted reverse proxy, the scheme and
host it says), or under ``--public-url``. Started by ``craits-server --web``,
craits-web hangs on the server's lifeline (``--lifeline``, :mod:`.lifeline`):
when the server ends, however it ends, craits-web stops as on SIGTERM.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import web
from craits.protocol.address import Target
from textual_serve.server import Server

from .addresses import IPNetwork, Origin, visitor_address
from .lifeline import cut
from .sessions import Sessions, Visit
from .visitors import (
    VISITOR_COOKIE,
    BadLink,
    BadName,
    Launch,
    Visitors,
    display_name,
    new_visitor_id,
    valid_visitor_id,
)

log = logging.getLogger("craits.web")

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(textual_serve.__file__).parent / "static"
"""textual-serve's page script, xterm CSS and fonts (served as they are installed)."""

LAUNCH_TTL = 300.0
"""Seconds a page's launch key stays good before its websocket opens."""
MAX_PENDING = 1000
"""Launch keys kept at most (the oldest are dropped first)."""
PROBE_ADDRESS = "192.0.2.1"
"""The address the start-up check says it forwards (TEST-NET-1: nobody's)."""
COOKIE_MAX_AGE = 400 * 24 * 3600
"""The visitor cookie's lifetime, in seconds (browsers cap it at 400 days)."""


NAME_RULE = (
    "Up to 24 characters, each drawn on its own: no square brackets, no invisible "
    "characters, no marks or emoji joined to another."
)
"""What the name page says of a name (the rule is the game server's, protocol §4:
:func:`craits.protocol.messages.name`, and the form refuses with its words)."""


@dataclass(frozen=True, slots=True)
class PendingLaunch:
    """A page served and its websocket not yet opened: the visit it starts, and when."""

    visit: Visit
    created: float


def invitation(launch: Launch) -> str:
    """What a link does, said on the name page: "You are invited to the private
    table duel", "You are about to watch table duel"…; ``""`` for the lobby."""
    if launch.table is None:
        return ""
    table = f"the private table {launch.table}" if launch.code else f"table {launch.table}"
    if launch.watch:
        return f"You are about to watch {table}."
    return f"You are invited to {table}: you will sit there."


def players_here(n: int) -> str:
    """The full room's count in words: "1 player is here already", "2 players are…"."""
    return "1 player is here already" if n == 1 else f"{n} players are here already"


class CraitsWebServer(Server):
    """Serves the Craits client to browsers (see the module's notes).

    Args:
        game: the game server the visitors' clients connect to.
        state_dir: where the visitors' directories are kept.
        host, port: where to listen for HTTP.
        public_url: the URL browsers use (behind a reverse proxy); else each
            page's links are made from the address its browser asked for (the
            ``Host`` header), so ``--host 0.0.0.0`` works from any machine.
        max_sessions: client processes at most (one per open page).
        log_level: ``DEBUG``, ``INFO`` (a line per request), ``WARNING``, ``ERROR``.
        prefork: fork each visitor's client from a process that has imported the
            client once (:mod:`.zygote`: a fraction of the memory and start-up
            CPU); else start each one as a new process, as textual-serve does.
        proxies: reverse proxies trusted to say (``X-Forwarded-For``) whom they
            forward for (:func:`~.addresses.visitor_address`), and the scheme and
            host the browser asked for (``X-Forwarded-Proto``, ``-Host``).
        forward_addresses: tell the game server each visitor's address
            (``hello.forwarded_for``, protocol §4.1; the server must trust this
            one as a relay), so its limits per address count each visitor apart.
        lifeline: the read end of the lifeline of the process that started this
            one (:mod:`.lifeline`): stop when it reads end of file.
    """

    def __init__(
        self,
        game: Target,
        state_dir: Path,
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        public_url: str | None = None,
        max_sessions: int = 50,
        log_level: str = "INFO",
        prefork: bool = True,
        proxies: Sequence[IPNetwork] = (),
        forward_addresses: bool = True,
        lifeline: int | None = None,
    ) -> None:
        super().__init__(
            "craits-client",
            host=host,
            port=port,
            title="Craits",
            public_url=public_url.rstrip("/") if public_url else None,
            statics_path=STATIC,
            templates_path=TEMPLATES,
        )
        self.game = game
        self.log_level = log_level
        self.proxies = tuple(proxies)
        self.forward_addresses = forward_addresses
        self.lifeline = lifeline
        self.configured_url = public_url.rstrip("/") if public_url else None
        self.visitors = Visitors(state_dir)
        self.sessions = Sessions(game, self.visitors, max_sessions, prefork, self.download_manager)
        """The visitors' client processes."""
        self.pending: dict[str, PendingLaunch] = {}

    # -------------------------------------------------------------- the app

    async def _make_app(self) -> web.Application:
        """The aiohttp application: routes, templates (autoescaped), startup."""
        app = web.Application()
        aiohttp_jinja2.setup(
            app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True
        )
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/name", self.handle_name_page, name="name-page"),
                web.post("/name", self.handle_name, name="name"),
                web.get("/ws/{launch}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.get("/alive", self.handle_alive, name="alive"),
                web.get("/favicon.ico", self.handle_favicon, name="favicon"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Start the visitors' side (the pre-forked client); watch the lifeline;
        say where the page is (one line on stdout)."""
        await self.sessions.start()
        if self.lifeline is not None:
            asyncio.get_running_loop().add_reader(self.lifeline, self._check_lifeline)
        if self.forward_addresses:
            self.sessions.keep(check_trusted(self.game))
        print(
            f"craits-web serving the game at {self.game.hostport} on "
            f"{self.configured_url or f'http://{self.host}:{self.port}'}/",
            flush=True,
        )

    def _check_lifeline(self) -> None:
        """The lifeline is readable: stop as on SIGTERM if it was cut (the
        process that started this one is gone). The port is let go of first.

        Raises:
            web.GracefulExit: it was cut (caught by aiohttp, which stops).
        """
        assert self.lifeline is not None
        if cut(self.lifeline):
            asyncio.get_running_loop().remove_reader(self.lifeline)
            log.warning("the server that started craits-web is gone: stopping")
            raise web.GracefulExit()

    async def on_shutdown(self, app: web.Application) -> None:
        """Stop every visitor's client process (their pages try again until
        craits-web is back), then the pre-forked client."""
        await self.sessions.stop()

    async def handle_favicon(self, request: web.Request) -> web.Response:
        """No icon (and no 404 in the browser's console for it)."""
        return web.Response(status=204)

    async def handle_alive(self, request: web.Request) -> web.Response:
        """204, no body: craits-web is up (asked by pages whose connection dropped)."""
        response = web.Response(status=204)
        response.headers["Cache-Control"] = "no-store"
        return response

    def initialize_logging(self) -> None:
        """Plain log lines on stderr (textual-serve's own are rich console output)."""
        logging.basicConfig(
            level=logging.DEBUG if self.debug else self.log_level,
            format="%(asctime)s %(levelname)s %(name)s %(message)s",
        )

    # ------------------------------------------------------------- pages

    def origin(self, request: web.Request) -> Origin:
        """The scheme and host ``request``'s browser asked for: ``--public-url``'s,
        else :func:`request_origin`'s."""
        if self.configured_url:
            return Origin.of_url(self.configured_url)
        return request_origin(request, self.proxies)

    def _url(self, request: web.Request, path: str, query: dict[str, str] | None = None) -> str:
        """An absolute URL of this site for ``request``'s browser."""
        base = self.configured_url or self.origin(request).base
        tail = "?" + urlencode(query) if query else ""
        return f"{base}{path}{tail}"

    def _page(
        self, request: web.Request, template: str, context: dict[str, Any], status: int = 200
    ) -> web.Response:
        context = {"static_url": self._url(request, "/static/"), "title": "Craits", **context}
        return aiohttp_jinja2.render_template(template, request, context, status=status)

    def _set_cookie(self, request: web.Request, response: web.Response, visitor_id: str) -> None:
        response.set_cookie(
            VISITOR_COOKIE,
            visitor_id,
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=self.origin(request).scheme == "https",
            path="/",
        )

    def _message(self, request: web.Request, heading: str, text: str, status: int) -> web.Response:
        context = {"heading": heading, "text": text, "home": self._url(request, "/")}
        return self._page(request, "message.html", context, status)

    async def handle_index(self, request: web.Request) -> web.Response:
        """The game page, the name page, or a page saying why not (bad link, full)."""
        cookie = request.cookies.get(VISITOR_COOKIE)
        visitor_id = cookie if cookie is not None and valid_visitor_id(cookie) else None
        fresh = visitor_id is None
        if visitor_id is None:
            visitor_id = new_visitor_id()
        try:
            launch = Launch.from_query(request.query)
        except BadLink as exc:
            response = self._message(request, "This link does not work", str(exc), 400)
        else:
            response = self._index(request, visitor_id, launch)
        if fresh or cookie != visitor_id:
            self._set_cookie(request, response, visitor_id)
        return response

    def _index(self, request: web.Request, visitor_id: str, launch: Launch) -> web.Response:
        name = self.visitors.name(visitor_id)
        if name is None:
            return self._name_page(request, launch)
        if self.sessions.full_for(visitor_id):
            return self._full(request)
        address = request_address(request, self.proxies) if self.forward_addresses else None
        visit = Visit(visitor_id, name, launch, address, self.origin(request).host)
        key = self._remember(visit)
        font_size = request.query.get("fontsize", "")
        context: dict[str, Any] = {
            "websocket_url": websocket_url(self._url(request, f"/ws/{key}")),
            "alive_url": self._url(request, "/alive"),
            # 0: fitted to the window by the page
            "font_size": min(32, max(8, int(font_size))) if font_size.isdigit() else 0,
            "name": name,
            "name_url": self._url(request, "/name", launch.query()),
        }
        response = self._page(request, "game.html", context)
        response.headers["Cache-Control"] = "no-store"
        return response

    def _name_page(
        self,
        request: web.Request,
        launch: Launch,
        name: str = "",
        error: str | None = None,
        status: int = 200,
    ) -> web.Response:
        """The name page (``name`` filled in; ``error`` said under it), for ``launch``."""
        context = {
            "action": self._url(request, "/name"),
            "launch": launch.query(),
            "invitation": invitation(launch),
            "rule": NAME_RULE,
            "name": name,
            "error": error,
        }
        return self._page(request, "name.html", context, status)

    def _full(self, request: web.Request) -> web.Response:
        return self._message(
            request,
            "The room is full",
            f"{players_here(len(self.sessions))}, as many as this server takes. "
            "Try again in a minute.",
            503,
        )

    def _remember(self, visit: Visit) -> str:
        """A launch key for the page being served (old and surplus ones dropped)."""
        now = time.monotonic()
        for key, pending in list(self.pending.items()):
            if now - pending.created > LAUNCH_TTL or len(self.pending) >= MAX_PENDING:
                del self.pending[key]
        key = new_visitor_id()
        self.pending[key] = PendingLaunch(visit, now)
        return key

    async def handle_name_page(self, request: web.Request) -> web.Response:
        """The name page, to change the name (the link kept)."""
        cookie = request.cookies.get(VISITOR_COOKIE)
        name = self.visitors.name(cookie) if cookie and valid_visitor_id(cookie) else None
        try:
            launch = Launch.from_query(request.query)
        except BadLink:
            launch = Launch()
        return self._name_page(request, launch, name or "")

    async def handle_name(self, request: web.Request) -> web.Response:
        """Keep the name typed in the name page; back to the game page."""
        cookie = request.cookies.get(VISITOR_COOKIE)
        if cookie is None or not valid_visitor_id(cookie):
            raise web.HTTPSeeOther(self._url(request, "/"))
        form = await request.post()
        fields = {k: v for k, v in form.items() if isinstance(v, str)}
        try:
            launch = Launch.from_query(fields)
        except BadLink as exc:
            return self._message(request, "This link does not work", str(exc), 400)
        typed = fields.get("name", "")
        try:
            name = display_name(typed)
        except BadName as exc:
            return self._name_page(request, launch, typed, f"{exc}.", 400)
        self.visitors.set_name(cookie, name)
        raise web.HTTPSeeOther(self._url(request, "/", launch.query()))

    # ------------------------------------------------------------ the socket

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """The terminal's websocket: runs the visitor's client process while it is open.

        Raises:
            web.HTTPForbidden: an unknown or used launch key, or another browser's.
            web.HTTPServiceUnavailable: ``max_sessions`` processes running.
        """
        pending = self.pending.pop(request.match_info["launch"], None)
        cookie = request.cookies.get(VISITOR_COOKIE)
        if pending is None or cookie != pending.visit.visitor_id:
            raise web.HTTPForbidden(text="this page is out of date: load it again")
        if self.sessions.full_for(pending.visit.visitor_id):
            raise web.HTTPServiceUnavailable(text="the room is full")
        size = (_cells(request.query.get("width"), 80), _cells(request.query.get("height"), 24))
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        await self.sessions.run(websocket, pending.visit, size, self._process_messages)
        return websocket


async def check_trusted(game: Target) -> None:
    """Say on stderr, once at start, when the game server refuses to take each
    visitor's address from this craits-web (``untrusted_relay``, protocol §4.1):
    every visitor would be refused. A server that is down or unreachable now is
    not this check's business (each page says so)."""
    from craits.protocol.client import ConnectError, Connection
    from craits.protocol.tls import TlsOptions

    tls = TlsOptions(fingerprint=game.fingerprint) if game.tls else None
    try:
        conn = await Connection.open(
            game.host, game.port, "craits-web", tls=tls, forwarded_for=PROBE_ADDRESS
        )
    except ConnectError as exc:
        if "forwarded addresses" in str(exc):
            log.error(
                "%s; until then, every visitor is refused (or run craits-web with "
                "--no-forwarded-for: all visitors then count as this host's address)",
                exc,
            )
        return
    await conn.close()


def request_origin(request: web.Request, proxies: Sequence[IPNetwork]) -> Origin:
    """The scheme and host of ``request``, but for what a trusted proxy says
    (:meth:`~.addresses.Origin.of_request`)."""
    headers = request.headers
    return Origin.of_request(
        request.scheme,
        request.host,
        request.remote,
        headers.getall("X-Forwarded-Proto", []),
        headers.getall("X-Forwarded-Host", []),
        proxies,
    )


def request_address(request: web.Request, proxies: Sequence[IPNetwork]) -> str | None:
    """The address of the visitor behind ``request`` (:func:`~.addresses.visitor_address`)."""
    forwarded = request.headers.getall("X-Forwarded-For", [])
    return visitor_address(request.remote, forwarded, proxies)


def websocket_url(page_url: str) -> str:
    """The ``ws:``/``wss:`` URL of an ``http:``/``https:`` one."""
    return ("wss:" if page_url.startswith("https:") else "ws:") + page_url.split(":", 1)[1]


def _cells(text: str | None, default: int) -> int:
    """A terminal size from the query: 1…1000 cells, else ``default``."""
    if text is None or not text.isdigit():
        return default
    return min(1000, max(1, int(text)))
