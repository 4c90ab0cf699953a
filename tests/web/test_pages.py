"""craits-web without a browser: the cookie, the name page, links checked, the
websocket refused to a stranger, the client's command line built without a shell."""

from __future__ import annotations

import asyncio
import html
import http.cookiejar
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from craits.client.web.service import client_argv
from craits.client.web.visitors import (
    VISITOR_COOKIE,
    VISITOR_ENV,
    BadLink,
    BadName,
    Launch,
    Visitors,
    display_name,
    new_visitor_id,
    valid_visitor_id,
)
from craits.protocol.address import Target, parse_target
from craits.protocol.client import Connection

from tests.web.conftest import GameServer, WebServer, free_port, stop, wait_port


class Browserless:
    """An HTTP client with its own cookie jar (one visitor)."""

    def __init__(self, web: WebServer):
        self.web = web
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def open(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with self.opener.open(self.web.url + path, data=data, timeout=10) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()


def test_first_visit_sets_an_httponly_cookie_and_asks_a_name(web: WebServer) -> None:
    with urllib.request.urlopen(web.url + "/?table=duel", timeout=10) as r:
        cookie = r.headers["Set-Cookie"]
        page = r.read().decode()
    assert cookie.startswith(f"{VISITOR_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert valid_visitor_id(cookie.split("=", 1)[1].split(";")[0])
    assert 'id="name-form"' in page
    assert 'name="table" value="duel"' in page  # the link survives the name page


def test_the_name_page_keeps_the_name_and_the_link(web: WebServer) -> None:
    v = Browserless(web)
    v.open("/")
    # A name the game server would refuse is refused here, with its words, and
    # is given back to be mended (no name altered behind the visitor's back).
    status, page = v.open("/name", {"name": " zoé [x] ", "table": "duel", "watch": "1"})
    assert status == 400 and 'id="name-error"' in page
    assert "Your name: must not hold control characters or square brackets." in page
    assert 'value=" zoé [x] "' in page and 'name="table" value="duel"' in page
    status, page = v.open("/name", {"name": " zoé ", "table": "duel", "watch": "1"})
    assert status == 200
    assert "data-session-websocket-url=" in page and "Starting the game for zoé…" in page
    # Another visitor is asked for their own name.
    assert 'id="name-form"' in Browserless(web).open("/")[1]


@pytest.mark.parametrize(
    "query",
    ["?table=%5Bbad%5D", "?table=" + "x" * 25, "?table=a&code=K3%3Brm%20-rf", "?watch=1"],
)
def test_a_bad_link_gets_a_page_saying_so(web: WebServer, query: str) -> None:
    status, page = Browserless(web).open("/" + query)
    assert status == 400
    assert "This link does not work" in page


def test_no_icon_and_no_error_for_it(web: WebServer) -> None:
    assert web.get("/favicon.ico")[0] == 204


def test_a_page_is_escaped(web: WebServer) -> None:
    v = Browserless(web)
    v.open("/")
    _, page = v.open("/name", {"name": "<b>bo</b>", "table": "<i>&"})
    assert "<b>bo</b>" not in page and "&lt;b&gt;bo&lt;/b&gt;" in page


def test_the_websocket_needs_the_launch_and_its_cookie(web: WebServer) -> None:
    status, _ = Browserless(web).open("/ws/" + new_visitor_id())
    assert status == 403
    v = Browserless(web)
    v.open("/")
    _, page = v.open("/name", {"name": "ana"})
    path = page.split('data-session-websocket-url="', 1)[1].split('"', 1)[0]
    path = "/" + path.split("/", 3)[3]
    # Another browser (no cookie of ana's) presenting ana's page's key is refused.
    assert Browserless(web).open(path)[0] == 403


def test_launch_reads_only_what_the_server_accepts() -> None:
    assert Launch.from_query({"table": " duel ", "watch": "1"}) == Launch("duel", True)
    assert Launch.from_query({"table": "duel", "code": "K3-x_9"}) == Launch("duel", False, "K3-x_9")
    assert Launch.from_query({"fontsize": "20"}) == Launch()
    for bad in ({"table": "a\nb"}, {"code": "x"}, {"table": "t", "code": "a b"}):
        with pytest.raises(BadLink):
            Launch.from_query(bad)


def test_the_command_line_is_a_list_no_shell_reads() -> None:
    server = Target("127.0.0.1", 7777)
    name = "ana; rm -rf ~ $(x) `y`"
    argv = client_argv(server, name, Launch("--list", False))
    assert argv[:4] == [sys.executable, "-m", "craits.client.cli", "--web"]
    assert f"--name={name}" in argv and "--table=--list" in argv
    assert argv[-1] == "127.0.0.1:7777"
    watch = client_argv(server, "bo", Launch("a b", True))
    assert "--spectate=a b" in watch
    # With an invite code, the whole invite link (protocol §1.1) names table and code.
    invite = client_argv(server, "bo", Launch("a b", True, "K3"))
    target = parse_target(invite[-1], 7777)
    assert (target.table, target.code, target.watch) == ("a b", "K3", True)
    # The client's own parser reads such a command line back as given.
    from craits.client.cli import build_parser

    args = build_parser().parse_args(argv[3:])
    assert args.name == name and args.table == "--list" and args.web


def test_each_visitor_has_their_own_directories(tmp_path: Path) -> None:
    visitors = Visitors(tmp_path)
    a, b = new_visitor_id(), new_visitor_id()
    assert a != b and valid_visitor_id(a) and not valid_visitor_id(a + "x")
    visitors.set_name(a, "ana")
    assert visitors.name(a) == "ana" and visitors.name(b) is None
    env_a, env_b = visitors.environment(a), visitors.environment(b)
    assert env_a["XDG_STATE_HOME"] != env_b["XDG_STATE_HOME"]
    assert env_a[VISITOR_ENV] == visitors.key(a) and a not in str(env_a)  # the id stays secret
    assert (visitors.home(a).stat().st_mode & 0o777) == 0o700
    assert display_name(" zoé ") == "zoé"
    for bad in (" \x1b[] \x07", "x" * 25, "  "):
        with pytest.raises(BadName):
            display_name(bad)
    (visitors.home(b) / visitors.PROFILE).write_text('{"name": "[bad]"}')
    assert visitors.name(b) is None  # a name kept under an older rule: asked again


def test_the_clients_state_follows_the_visitors_directories(tmp_path: Path) -> None:
    """The resume tokens' file of a visitor's client is inside its directory."""
    visitors = Visitors(tmp_path)
    vid = new_visitor_id()
    code = "from craits.client.core.saved.resume_tokens import default_path; print(default_path())"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**visitors.environment(vid), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(out).is_relative_to(visitors.home(vid))


def test_the_name_can_be_changed(web: WebServer) -> None:
    v = Browserless(web)
    v.open("/")
    v.open("/name", {"name": "hal"})
    status, page = v.open("/name?table=duel")
    assert status == 200 and 'value="hal"' in page and 'value="duel"' in page
    _, page = v.open("/name", {"name": "hal 2"})
    assert "Starting the game for hal 2" in page


async def hello_for_a_visitor(port: int) -> None:
    """A hello from the loopback forwarding a visitor's address is welcome (§4.1)."""
    conn = await Connection.open("127.0.0.1", port, "web", forwarded_for="198.51.100.3")
    await conn.close()


def test_craits_server_web_hosts_the_game_and_the_page() -> None:
    """``craits-server --web PORT``: one command, both served; both stop together."""
    game_port, web_port = free_port(), free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "craits.server.ops.cli", f"--port={game_port}"),
            *("--no-journal", f"--web={web_port}"),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_port(game_port, proc)
        wait_port(web_port, proc)
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/", timeout=10) as r:
            assert 'id="name-form"' in r.read().decode()
        # it trusts its own web process (the loopback) to say each visitor's address
        asyncio.run(hello_for_a_visitor(game_port))
    finally:
        stop(proc)
    assert proc.stderr is not None
    assert f"in a browser: http://127.0.0.1:{web_port}/" in proc.stderr.read()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", web_port), 1).close()


def test_craits_server_web_port_is_checked() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "craits.server.ops.cli", "--no-journal", "--web=70000"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert out.returncode == 2 and "--web must be a port" in out.stderr


def test_a_web_port_in_use_is_said_in_one_line() -> None:
    """craits-web, and craits-server --web, on a port another program holds:
    one line and exit status 1, no traceback, no page announced that is not ours."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen(1)
        taken = holder.getsockname()[1]
        web = subprocess.run(
            [sys.executable, "-m", "craits.client.web", "127.0.0.1:1", f"--port={taken}"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert web.returncode == 1, web.stderr
        assert f"craits-web: cannot listen on 127.0.0.1:{taken}: " in web.stderr
        assert "Traceback" not in web.stderr
        game_port = free_port()
        both = subprocess.run(
            [
                *(sys.executable, "-m", "craits.server.ops.cli", f"--port={game_port}"),
                *("--no-journal", f"--web={taken}"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert both.returncode == 1, both.stderr
    assert f"cannot serve the web page on 127.0.0.1:{taken}: " in both.stderr
    assert "in a browser" not in both.stderr and "Traceback" not in both.stderr
    with pytest.raises(OSError):  # the game server stopped too
        socket.create_connection(("127.0.0.1", game_port), 1).close()


def test_behind_a_reverse_proxy_the_page_uses_the_public_url(tmp_path: Path) -> None:
    public = "https://cards.example.org/craits"
    web = WebServer(free_port(), tmp_path, more=(f"--public-url={public}",))
    try:
        with urllib.request.urlopen(web.url + "/", timeout=10) as r:
            cookie = r.headers["Set-Cookie"]
            page = r.read().decode()
        assert "Secure" in cookie  # an https page: the cookie only goes over https
        assert f'action="{public}/name"' in page
        assert f"{public}/static/fonts/RobotoMono" in page
        visitor = {"Cookie": cookie.split(";")[0]}

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: object, **kwargs: object) -> None:
                return None

        form = urllib.parse.urlencode({"name": "ivy"}).encode()
        post = urllib.request.Request(web.url + "/name", data=form, headers=visitor)
        with pytest.raises(urllib.error.HTTPError) as redirect:
            urllib.request.build_opener(NoRedirect).open(post, timeout=10)
        assert redirect.value.code == 303
        assert redirect.value.headers["Location"] == f"{public}/"
        get = urllib.request.Request(web.url + "/", headers=visitor)
        with urllib.request.urlopen(get, timeout=10) as r:
            page = r.read().decode()
        assert 'data-session-websocket-url="wss://cards.example.org/craits/ws/' in page
    finally:
        web.stop()


def test_without_a_public_url_links_follow_the_address_asked(web: WebServer) -> None:
    """Listening on every address (--host 0.0.0.0), a friend's browser asks for the
    host's LAN address: the page's links use that address, never 0.0.0.0."""
    with urllib.request.urlopen(web.url + "/", timeout=10) as r:
        cookie = r.headers["Set-Cookie"].split(";")[0]
    form = urllib.parse.urlencode({"name": "jo"}).encode()
    urllib.request.urlopen(
        urllib.request.Request(web.url + "/name", data=form, headers={"Cookie": cookie}),
        timeout=10,
    ).close()
    asked = {"Cookie": cookie, "Host": "192.0.2.7:8080"}
    with urllib.request.urlopen(urllib.request.Request(web.url + "/", headers=asked)) as r:
        page = r.read().decode()
    assert 'data-session-websocket-url="ws://192.0.2.7:8080/ws/' in page
    assert "http://192.0.2.7:8080/static/" in page


async def refusal(port: int, name: str) -> str | None:
    """Why the game server refuses ``name`` in a hello (its words after
    ``hello.name: ``), or None when it takes it."""
    from craits.protocol.client import ConnectError

    try:
        conn = await Connection.open("127.0.0.1", port, name)
    except ConnectError as exc:
        assert "hello.name: " in str(exc), exc
        return str(exc).split("hello.name: ", 1)[1]
    await conn.close()
    return None


NAMES = [
    "ana",
    " zoé ",
    "zoe\u0301",  # an accent typed apart
    "[x]",
    "x" * 25,
    "tab\there",
    "\u200b",  # a zero-width space alone
    "a\u200db",  # letters joined by a zero-width joiner
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: emoji joined by ZWJ
    "\U0001f1eb\U0001f1f7",  # a flag
    "\u2066ana\u2069",  # direction isolates
    "王小明",
]


def test_the_name_form_takes_and_refuses_what_the_game_server_does(
    game: GameServer, web: WebServer
) -> None:
    """The name page refuses a name exactly when the game server's hello would,
    with the server's words (the page said "letters, digits, spaces" and took
    anything, dropping what the server refuses without a word)."""
    v = Browserless(web)
    v.open("/")
    for name in NAMES:
        status, page = v.open("/name", {"name": name})
        why = asyncio.run(refusal(game.port, name))
        if why is None:
            assert status == 200 and "data-session-websocket-url=" in page, name
        else:
            assert status == 400 and html.escape(f"Your name: {why}.", False) in page, (name, why)
    # The rule is said before anything is typed.
    assert "Up to 24 characters, each drawn on its own" in Browserless(web).open("/")[1]


@pytest.mark.parametrize(
    ("query", "said", "button"),
    [
        ("?table=duel", "You are invited to table duel: you will sit there.", "Play"),
        ("?table=duel&code=K3-x", "You are invited to the private table duel", "Play"),
        ("?table=duel&watch=1", "You are about to watch table duel.", "Watch"),
        ("", None, "Play"),
    ],
)
def test_the_name_page_of_a_link_names_its_table(
    web: WebServer, query: str, said: str | None, button: str
) -> None:
    _, page = Browserless(web).open("/" + query)
    if said is None:
        assert 'id="invitation"' not in page
    else:
        assert said in page
    assert f'<button type="submit">{button}</button>' in page


def test_alive_answers_while_craits_web_runs(web: WebServer) -> None:
    """What a page whose connection dropped asks until craits-web is back."""
    with urllib.request.urlopen(web.url + "/alive", timeout=10) as r:
        assert r.status == 204 and r.headers["Cache-Control"] == "no-store"
