"""The operator's kit (issue 12), as an operator uses it: real ``craits-server``
processes configured from a TOML file, the environment and flags; their log
lines read from their stderr; ``craits-server status`` against them; their
Prometheus endpoint scraped over HTTP."""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from craits.protocol import encode
from craits.protocol.client import Connection
from craits.server.ops import config as settings
from craits.server.ops.options import build_parser
from craits.server.ops.status import (
    EXIT_REFUSED,
    EXIT_TIMEOUT,
    EXIT_UNHEALTHY,
    EXIT_UNREACHABLE,
)

from tests.support.processes import SERVER, free_port, open_player, start_server, stop_server
from tests.support.server import Player

VERSION = metadata.version("craits")
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("CRAITS_")}
"""This process's environment without any CRAITS_* setting of its own."""


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``craits-server ARGS`` as a user runs it, with ``env`` added to a clean environment."""
    return subprocess.run(
        [*SERVER, *args], capture_output=True, text=True, env={**CLEAN_ENV, **(env or {})}
    )


# --------------------------------------------------------------- --version, -m


@pytest.mark.parametrize(
    ("module", "prog"),
    [
        ("craits.server", "craits-server"),
        ("craits.client", "craits-client"),
        ("craits.server.bots", "craits-bot"),
    ],
)
def test_version_from_the_installed_distribution(module: str, prog: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{prog} {VERSION}"


def test_help_lists_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "craits.server", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    for command in ("export", "check", "status"):
        assert f"craits-server {command}" in done.stdout
    assert "--config" in done.stdout and "--print-config" in done.stdout


# ---------------------------------------------------------------- settings


def printed(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """``--print-config``'s output, read back as TOML."""
    assert done.returncode == 0, done.stderr
    return tomllib.loads(done.stdout)


def source_line(done: subprocess.CompletedProcess[str], key: str) -> str:
    return next(line for line in done.stdout.splitlines() if line.startswith(f"{key} = "))


def test_precedence_flags_over_environment_over_file_over_defaults(tmp_path: Path) -> None:
    file = tmp_path / "craits.toml"
    file.write_text('port = 1111\nrate = 5\nburst = 7.5\ndurability = "normal"\n')
    env = {"CRAITS_PORT": "2222", "CRAITS_RATE": "6", "CRAITS_NO_JOURNAL": "yes"}
    done = run("--config", str(file), "--port", "3333", "--print-config", env=env)
    values = printed(done)
    assert values["port"] == 3333  # flag over env over file
    assert values["rate"] == 6.0  # env over file
    assert values["burst"] == 7.5 and values["durability"] == "normal"  # file over default
    assert values["no-journal"] is True  # env over default
    assert values["max-tables"] == 2000  # default
    assert source_line(done, "port").endswith("# flag --port")
    assert source_line(done, "rate").endswith("# env CRAITS_RATE")
    assert source_line(done, "burst").endswith(f"# config file {file}")
    assert source_line(done, "max-tables").endswith("# default")


def test_a_variable_that_is_no_setting_is_named(tmp_path: Path) -> None:
    done = run("--print-config", env={"CRAITS_PROT": "1", "CRAITS_PORT": "7000"})
    assert "# ignored, not settings: CRAITS_PROT\n" in done.stdout
    assert printed(done)["port"] == 7000
    port = free_port()
    running = start(["--no-journal"], {"CRAITS_PORT": str(port), "CRAITS_PROT": "1"}, port)
    try:
        assert "CRAITS_PROT is not a setting; ignored" in running.wait_for("CRAITS_PROT")
    finally:
        stop(running)


def test_the_file_is_named_by_the_environment_too(tmp_path: Path) -> None:
    file = tmp_path / "craits.toml"
    file.write_text("max-tables = 12\n")
    values = printed(run("--print-config", env={"CRAITS_CONFIG": str(file)}))
    assert values["max-tables"] == 12


def test_print_config_is_a_config_file(tmp_path: Path) -> None:
    first = tmp_path / "first.toml"
    first.write_text('host = "::1"\nheartbeat = 2.5\n')
    env = {"CRAITS_BOT_LEVEL": "random", "CRAITS_DATA_DIR": str(tmp_path / 'd "q" é')}
    done = run("--config", str(first), "--max-connections", "9", "--print-config", env=env)
    again = tmp_path / "again.toml"
    again.write_text(done.stdout)
    round_trip = run("--config", str(again), "--print-config")
    assert printed(round_trip) == printed(done)
    assert printed(done)["data-dir"] == str(tmp_path / 'd "q" é')
    assert all(
        line.endswith(f"# config file {again}") or line.startswith("#")
        for line in round_trip.stdout.splitlines()[2:]
    )


@pytest.mark.parametrize(
    ("file", "env", "message"),
    [
        ("prot = 1\n", {}, "config file {file}: unknown key 'prot'"),
        ('port = "abc"\n', {}, "config file {file}: port = 'abc': not a valid int"),
        ("port = 1.5\n", {}, "config file {file}: port = 1.5: a whole number is needed"),
        ("port = 70000\n", {}, "config file {file}: port = 70000: must be 1..65535"),
        ("no-journal = 3\n", {}, "config file {file}: no-journal = 3: true or false is needed"),
        ("[server]\nport = 1\n", {}, "config file {file}: unknown key 'server'"),
        ("port = \n", {}, "config file {file}: not TOML"),
        ("", {"CRAITS_PORT": "x"}, "env CRAITS_PORT: port = 'x': not a valid int"),
        ("", {"CRAITS_BOTS": "9"}, "env CRAITS_BOTS: bots = 9: must be 0..7"),
        (
            "",
            {"CRAITS_DURABILITY": "fast"},
            "env CRAITS_DURABILITY: durability = 'fast': not one of full, normal",
        ),
        ("", {"CRAITS_NO_JOURNAL": "maybe"}, "env CRAITS_NO_JOURNAL: no-journal = 'maybe'"),
    ],
)
def test_a_bad_setting_is_one_line_naming_key_and_source(
    tmp_path: Path, file: str, env: dict[str, str], message: str
) -> None:
    path = tmp_path / "craits.toml"
    path.write_text(file)
    done = run("--config", str(path), "--print-config", env=env)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("craits-server: " + message.format(file=path)), done.stderr


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    done = run("--config", str(tmp_path / "nowhere.toml"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"craits-server: config file {tmp_path / 'nowhere.toml'}: ")


def test_a_bad_flag_still_names_the_flag() -> None:
    done = run("--port", "70000")
    assert (done.returncode, done.stderr) == (
        2,
        "craits-server: --port must be 1..65535 (got 70000)\n",
    )


def test_an_option_added_later_is_a_setting_with_no_code(tmp_path: Path) -> None:
    """What another branch adds to the parser (e.g. --tls-cert, now in it) can
    be set in every place at once."""
    parser = build_parser()
    parser.add_argument("--web-port", type=int, default=8080)
    parser.add_argument("--no-web", action="store_true")
    file = tmp_path / "craits.toml"
    file.write_text('tls-cert = "/etc/cert.pem"\nweb-port = 81\n')
    env = {"CRAITS_WEB_PORT": "82", "CRAITS_NO_WEB": "on"}
    got = settings.resolve(parser, ["--config", str(file)], env)
    assert got.values.tls_cert == Path("/etc/cert.pem")
    assert (got.values.web_port, got.values.no_web) == (82, True)
    assert got.sources["tls_cert"] == f"config file {file}"
    text = settings.render(parser, got)
    assert 'tls-cert = "/etc/cert.pem"' in text and "web-port = 82  # env CRAITS_WEB_PORT" in text
    with pytest.raises(settings.ConfigError, match="env CRAITS_WEB_PORT: web-port = 'x'"):
        settings.resolve(parser, [], {"CRAITS_WEB_PORT": "x"})


def test_every_kind_of_option_is_a_setting(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="x")
    parser.add_argument("--web", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--no-color", dest="color", action="store_false")
    parser.add_argument("--fast", dest="speed", action="store_const", const="fast", default="slow")
    parser.add_argument("--verbose", "-v", action="count", default=0)
    parser.add_argument("--tag", action="append")
    settings.add_config_options(parser)
    env = {"CRAITS_WEB": "off", "CRAITS_NO_COLOR": "1", "CRAITS_FAST": "yes", "CRAITS_VERBOSE": "2"}
    got = settings.resolve(parser, [], env).values
    assert (got.web, got.color, got.speed, got.verbose, got.tag) == (False, False, "fast", 2, None)
    got = settings.resolve(parser, ["--web", "-v", "--tag", "a", "--tag", "b"], env).values
    assert (got.web, got.verbose, got.tag) == (True, 1, ["a", "b"])
    assert settings.resolve(parser, [], {"CRAITS_TAG": "c d"}).values.tag == ["c", "d"]
    defaults = settings.resolve(parser, [], {})
    assert (defaults.values.web, defaults.values.color, defaults.values.speed) == (
        True,
        True,
        "slow",
    )
    text = settings.render(parser, defaults)
    assert "web = true  # default" in text and "no-color = false  # default" in text
    assert "fast = false  # default" in text
    on = settings.resolve(parser, [], env)
    again = tomllib.loads(settings.render(parser, on))
    assert again == {"web": False, "no-color": True, "fast": True, "verbose": 2}
    file = tmp_path / "x.toml"
    file.write_text(settings.render(parser, on))
    from_file = settings.resolve(parser, ["--config", str(file)], {}).values
    assert {k: v for k, v in vars(from_file).items() if k != "config"} == {
        k: v for k, v in vars(on.values).items() if k != "config"
    }
    with pytest.raises(settings.ConfigError, match="verbose = 'x': a count"):
        settings.resolve(parser, [], {"CRAITS_VERBOSE": "x"})


def test_two_options_with_one_dest() -> None:
    parser = argparse.ArgumentParser(prog="x")
    parser.add_argument("--color", dest="color", action="store_true", default=True)
    parser.add_argument("--no-color", dest="color", action="store_false")
    settings.add_config_options(parser)
    assert settings.resolve(parser, ["--no-color"], {"CRAITS_COLOR": "1"}).values.color is False
    by_env = settings.resolve(parser, [], {"CRAITS_NO_COLOR": "1"})
    assert (by_env.values.color, by_env.sources["color"]) == (False, "env CRAITS_NO_COLOR")
    text = settings.render(parser, by_env)
    assert tomllib.loads(text) == {"color": False}


def test_every_option_of_the_server_is_a_setting() -> None:
    parser = build_parser()
    keys = {s.key for s in settings.settings(parser)}
    options = {
        o[2:]
        for a in parser._actions
        for o in a.option_strings
        if o.startswith("--")
        and a.dest not in ("help", "version", "config", "print_config")
        and a.help != argparse.SUPPRESS
    }
    assert keys == options
    # the hidden plumbing of --workers is no setting: not printed, not read from the environment
    assert "shared-port" not in keys and "shared-port" not in printed(run("--print-config"))
    assert {s.env for s in settings.settings(parser)} >= {"CRAITS_PORT", "CRAITS_DATA_DIR"}


# ------------------------------------------ a real server from a config file


@dataclass
class Running:
    """A ``craits-server`` process and where to reach it."""

    proc: subprocess.Popen[str]
    port: int
    metrics_port: int
    lines: list[str]
    """Its stderr, line by line, as it comes (read by a thread)."""
    data: Path | None = None
    """Its data directory."""

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        """The first stderr line holding ``text``, waiting for it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if text in line:
                    return line
            time.sleep(0.02)
        raise AssertionError(f"no line with {text!r} in {self.lines}")


def start(args: list[str], env: dict[str, str], port: int, metrics_port: int = 0) -> Running:
    """Start ``craits-server ARGS`` and wait until it accepts connections."""
    proc = subprocess.Popen(
        [*SERVER, *args],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**CLEAN_ENV, **env, "PYTHONUNBUFFERED": "1"},
    )
    lines: list[str] = []
    assert proc.stderr is not None
    stream = proc.stderr
    threading.Thread(target=lambda: lines.extend(iter(stream.readline, "")), daemon=True).start()
    deadline = time.monotonic() + 15
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return Running(proc, port, metrics_port, lines)
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise AssertionError(f"the server did not start: {lines}") from None
            time.sleep(0.05)


def stop(running: Running) -> None:
    running.proc.terminate()
    try:
        running.proc.wait(10)
    except subprocess.TimeoutExpired:
        running.proc.kill()
        running.proc.wait()


@pytest.fixture(scope="module")
def json_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A server whose every setting comes from a TOML file (but its data
    directory, from the environment): JSON logs, metrics on."""
    root = tmp_path_factory.mktemp("ops")
    port, metrics_port = free_port(), free_port()
    file = root / "craits-server.toml"
    file.write_text(
        f'port = {port}\nlog-format = "json"\nlog-level = "debug"\nturn-timeout = 0\n'
        f'hand-pause = 0.01\nmetrics-port = {metrics_port}\ndurability = "normal"\n'
        "empty-table-grace = 2\n"
    )
    env = {"CRAITS_DATA_DIR": str(root / "data")}
    running = start(["--config", str(file)], env, port, metrics_port)
    running.data = root / "data"
    yield running
    stop(running)


async def player(port: int, name: str) -> Player:
    return Player(await Connection.open("127.0.0.1", port, name=name), name)


def local_peer(p: Player) -> str:
    """The ``ip:port`` the server sees for this player."""
    host, port = p.conn.writer.get_extra_info("sockname")[:2]
    return f"{host}:{port}"


async def test_a_server_started_from_a_config_file_says_its_version(json_server: Running) -> None:
    p = await player(json_server.port, "vera")
    try:
        assert p.conn.welcome["server_version"] == VERSION
    finally:
        await p.close()
    # every setting of the file is in force: the line logged at start is JSON
    json.loads(json_server.wait_for("listening on"))


async def test_json_logs_name_peer_table_and_seat(json_server: Running) -> None:
    ana, ben = await player(json_server.port, "ana"), await player(json_server.port, "ben")
    try:
        await ana.send({"type": "create_table", "name": "logs", "seats": 3})
        await ana.expect("table_created")
        await ana.send({"type": "join", "table": "logs", "name": "ana"})
        await ana.expect("joined")
        await ben.send({"type": "join", "table": "logs", "name": "ben"})
        await ben.expect("joined")
        await ana.send({"type": "start"})
        await ana.expect("update")
        took = json.loads(json_server.wait_for("logs: ben took seat"))
        assert took["peer"] == local_peer(ben)
        assert (took["table"], took["seat"], took["level"]) == ("logs", 1, "info")
        assert took["logger"] == "craits.server" and took["time"].endswith("Z")
        started = json.loads(json_server.wait_for("logs: game started"))
        assert (started["peer"], started["seat"]) == (local_peer(ana), 0)
    finally:
        await ana.close()
        await ben.close()
    gone = json.loads(json_server.wait_for("logs: ben disconnected"))
    assert (gone["peer"], gone["table"], gone["seat"]) == (local_peer(ben), "logs", 1)
    for line in list(json_server.lines):
        assert isinstance(json.loads(line), dict), line  # every line is one JSON object


def test_plain_logs_name_the_peer(tmp_path: Path) -> None:
    port = free_port()
    running = start(["--port", str(port), "--no-journal", "--bots", "1"], {}, port)
    try:

        async def sit() -> str:
            p = await player(port, "pia")
            await p.send({"type": "join", "table": "practice", "name": "pia"})
            await p.expect("joined")
            peer = local_peer(p)
            await p.close()
            return peer

        peer = asyncio.run(sit())
        line = running.wait_for("practice: pia took seat")
        assert line.rstrip().endswith(f"[peer={peer} table=practice seat=1]"), line
        line = running.wait_for("practice: pia disconnected")
        assert f"[peer={peer} table=practice seat=1]" in line
    finally:
        stop(running)


# ------------------------------------------------------------------ status


def status(*args: str) -> subprocess.CompletedProcess[str]:
    return run("status", *args)


async def test_status_of_a_healthy_server(json_server: Running) -> None:
    ana = await player(json_server.port, "ana")
    watcher = await player(json_server.port, "wes")
    try:
        await ana.send({"type": "create_table", "name": "probe", "seats": 3})
        await ana.expect("table_created")
        await ana.send({"type": "join", "table": "probe", "name": "ana"})
        await ana.expect("joined")
        await watcher.send({"type": "spectate", "table": "probe"})
        await watcher.expect("state")
        done = await asyncio.to_thread(status, f"127.0.0.1:{json_server.port}", "--json")
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout)
        assert got["healthy"] is True and got["server_version"] == VERSION
        assert got["tables_by_state"]["waiting"] >= 1
        assert got["players"] >= 1 and got["spectators"] >= 1
        text = await asyncio.to_thread(status, f"localhost:{json_server.port}")
        assert text.returncode == 0
        assert text.stdout.startswith(f"localhost:{json_server.port}: healthy, craits {VERSION}")
        assert "waiting" in text.stdout and "spectators: " in text.stdout
    finally:
        await ana.close()
        await watcher.close()


async def test_status_counts_the_people_at_private_tables_too(tmp_path: Path) -> None:
    """A private table's lobby entry names nobody, but its people count: two
    players connected at a private table with a bot, and at a public table one
    connected, one offline, make 4 players, 3 connected, 1 bot (it said
    "players: 2 (1 connected), bots: 0")."""
    port = free_port()
    proc = await start_server(port, tmp_path)
    people: list[Player] = []
    try:
        ana, bo, cy, di = [await open_player(port, n) for n in ("Ana", "Bo", "Cy", "Di")]
        people = [ana, bo, cy, di]
        await cy.send({"type": "create_table", "name": "p", "seats": 3, "private": True})
        code = (await cy.expect("table_created"))["code"]
        for p in (cy, di):
            await p.send({"type": "join", "table": "p", "name": p.name, "code": code})
            await p.expect("joined")
        await cy.send({"type": "add_bot"})
        await cy.expect("update")
        await ana.send({"type": "create_table", "name": "t", "seats": 2})
        await ana.expect("table_created")
        for p in (ana, bo):
            await p.send({"type": "join", "table": "t", "name": p.name})
            await p.expect("joined")
        await ana.expect("update")
        await bo.close()
        await ana.expect("table_info", where=lambda m: not m["table"]["players"][1]["connected"])
        done = await asyncio.to_thread(status, f"127.0.0.1:{port}", "--json")
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout)
        assert (got["players"], got["players_connected"], got["bots"]) == (4, 3, 1), got
        text = await asyncio.to_thread(status, f"127.0.0.1:{port}")
        assert "players: 4 (3 connected), bots: 1, spectators: 0" in text.stdout, text.stdout
    finally:
        for p in people:
            await p.close()
        await stop_server(proc)


def test_status_when_nothing_listens() -> None:
    done = status(f"127.0.0.1:{free_port()}", "--json")
    assert done.returncode == EXIT_REFUSED
    got = json.loads(done.stdout)
    assert (got["healthy"], got["error"]) == (False, "connection refused")
    text = status(f"127.0.0.1:{free_port()}")
    assert text.returncode == EXIT_REFUSED and "connection refused" in text.stderr


def test_status_when_the_name_does_not_resolve() -> None:
    done = status("no-such-host.invalid:7777", "--timeout", "10")
    assert done.returncode in (EXIT_UNREACHABLE, EXIT_TIMEOUT), done.stderr
    assert done.returncode == EXIT_UNREACHABLE or "no answer" in done.stderr


@pytest.fixture
def silent_listener() -> Iterator[tuple[int, list[socket.socket]]]:
    """A TCP port that accepts and then says nothing, or says what the test puts."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True).start()
    yield server.getsockname()[1], accepted
    for s in [server, *accepted]:
        s.close()


def test_status_times_out_on_a_silent_server(
    silent_listener: tuple[int, list[socket.socket]],
) -> None:
    port, _ = silent_listener
    done = status(f"127.0.0.1:{port}", "--timeout", "0.5")
    assert done.returncode == EXIT_TIMEOUT
    assert "no answer within 0.5 s" in done.stderr


def test_status_of_something_else(silent_listener: tuple[int, list[socket.socket]]) -> None:
    port, accepted = silent_listener

    def answer() -> None:
        while not accepted:
            time.sleep(0.01)
        accepted[0].sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")
        accepted[0].close()

    threading.Thread(target=answer, daemon=True).start()
    done = status(f"127.0.0.1:{port}", "--timeout", "5")
    assert done.returncode == EXIT_UNHEALTHY, done.stderr


def test_status_usage() -> None:
    assert status("127.0.0.1:99999").returncode == 2
    assert status("127.0.0.1", "--timeout", "0").returncode == 2


# ----------------------------------------------------------------- metrics


def scrape(port: int) -> dict[str, float]:
    """The endpoint's samples, by name and labels, as Prometheus reads them."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            samples[f"{s.name}{{{labels}}}"] = s.value
    return samples


async def test_metrics_endpoint(json_server: Running) -> None:
    before = await asyncio.to_thread(scrape, json_server.metrics_port)
    ana = await player(json_server.port, "ana")
    try:
        await ana.send({"type": "create_table", "name": "metered", "seats": 2})
        await ana.expect("table_created")
        await ana.send({"type": "act", "id": 1, "action": {"draw": True}})  # not seated
        await ana.expect("error")
        after = await asyncio.to_thread(scrape, json_server.metrics_port)
    finally:
        await ana.close()
    assert after["craits_connections{}"] >= 1
    assert after[f"craits_build_info{{version={VERSION}}}"] == 1
    assert sum(v for k, v in after.items() if k.startswith("craits_tables{")) >= 1
    assert set(after) >= {f"craits_tables{{state={s}}}" for s in ("playing", "finished")}
    assert after["craits_actions_total{}"] == before.get("craits_actions_total{}", 0) + 1
    refused = "craits_errors_sent_total{code=not_at_table}"
    assert after[refused] == before.get(refused, 0) + 1
    # the table's row was committed to the journal: at least one commit timed
    assert after["craits_journal_commit_seconds_count{}"] >= 1


def test_metrics_without_the_library_say_how_to_get_it() -> None:
    code = (
        "import sys; sys.modules['prometheus_client'] = None\n"
        "from craits.server.ops.cli import main\n"
        "sys.exit(main(['--no-journal', '--metrics-port', '9']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'craits[metrics]'" in done.stderr and done.stderr.count("\n") == 1


async def test_a_table_timer_logs_about_the_table_not_its_creator(json_server: Running) -> None:
    """The line of a table's timer names the table only, never the connection
    whose message set the timer (the table nobody came to, closed after the
    server's grace)."""
    cara = await player(json_server.port, "cara")
    try:
        await cara.send({"type": "create_table", "name": "lonely", "seats": 2})
        await cara.expect("table_created")
        created = json.loads(json_server.wait_for("table lonely: created"))
        assert (created["peer"], created["table"]) == (local_peer(cara), "lonely")
        closed = json.loads(json_server.wait_for("table lonely: nobody came"))
    finally:
        await cara.close()
    assert closed["table"] == "lonely"
    assert "peer" not in closed and "seat" not in closed


def test_check_and_export_read_the_servers_data_dir_setting(
    json_server: Running, tmp_path: Path
) -> None:
    assert json_server.data is not None
    db = json_server.data / "craits.db"
    by_env = run("check", env={"CRAITS_DATA_DIR": str(json_server.data)})
    assert by_env.stdout.startswith(f"journal: {db}\n"), by_env.stderr
    file = tmp_path / "craits.toml"
    file.write_text(f"data-dir = {json.dumps(str(json_server.data))}\n")
    by_file = run("check", "--config", str(file))
    assert by_file.stdout.startswith(f"journal: {db}\n"), by_file.stderr
    file.write_text("data-dir = 3\n")
    bad = run("export", "--config", str(file))
    assert bad.returncode == 2
    assert f"config file {file}: data-dir = 3: a string is needed" in bad.stderr


def hold_the_one_connection(port: int) -> socket.socket:
    """A connection the server counted in (after its hello), once the
    start-up probe's connection is gone."""
    deadline = time.monotonic() + 10
    while True:
        held = socket.create_connection(("127.0.0.1", port))
        held.sendall(encode({"type": "hello", "version": 1, "name": "held"}))
        if b"welcome" in held.recv(4096):
            return held
        held.close()  # refused as full: the probe's connection is not counted out yet
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_status_of_a_full_server_and_metrics_on_a_taken_port() -> None:
    """A server at its connection cap answers, but not healthily (status 8);
    a server whose metrics port is taken says so and stops (status 1)."""
    port = free_port()
    running = start(["--port", str(port), "--no-journal", "--max-connections", "1"], {}, port)
    try:
        held = hold_the_one_connection(port)
        try:
            done = status(f"127.0.0.1:{port}")
            assert done.returncode == EXIT_UNHEALTHY
            assert "refused: server_full" in done.stderr
            taken = run("--port", str(free_port()), "--no-journal", "--metrics-port", str(port))
            assert taken.returncode == 1
            assert f"cannot serve metrics on 127.0.0.1:{port}: " in taken.stderr
        finally:
            held.close()
    finally:
        stop(running)


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and its key, made by openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        print("openssl is not installed (Debian: apt-get install openssl)")
        pytest.skip("openssl is not installed (Debian: apt-get install openssl)")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


async def test_status_without_an_address_probes_the_configured_server(
    json_server: Running, tmp_path: Path, certificate: tuple[Path, Path]
) -> None:
    """``craits-server status`` alone probes the server this machine's settings
    describe: its port from the config file, a wildcard host on loopback, and a
    TLS server pinned to its own certificate."""
    file = tmp_path / "craits.toml"
    file.write_text(f'host = "0.0.0.0"\nport = {json_server.port}\n')
    done = await asyncio.to_thread(run, "status", env={"CRAITS_CONFIG": str(file)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"127.0.0.1:{json_server.port}: healthy")

    cert, key = certificate
    port = free_port()
    env = {"CRAITS_PORT": str(port), "CRAITS_TLS_CERT": str(cert), "CRAITS_TLS_KEY": str(key)}
    tls = start(["--no-journal"], env, port)
    try:
        done = await asyncio.to_thread(run, "status", env=env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"127.0.0.1:{port}: healthy")
    finally:
        stop(tls)
    gone = await asyncio.to_thread(run, "status", env={"CRAITS_PORT": str(port)})
    assert gone.returncode == 5 and "connection refused" in gone.stderr


async def test_status_through_tls_with_a_pinned_fingerprint(
    json_server: Running, certificate: tuple[Path, Path]
) -> None:
    """``craitss://HOST:PORT?fp=…``, as a TLS terminator in front of the server
    serves it: the pinned certificate is healthy, another one is not, and so
    is one no authority signed when none is pinned, unless ``--tls-ca`` names
    the authority (the certificate is its own)."""
    cert, key = certificate
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, ssl.SSLError):
            pass
        finally:
            writer.close()

    async def front(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        back_reader, back_writer = await asyncio.open_connection("127.0.0.1", json_server.port)
        await asyncio.gather(pipe(reader, back_writer), pipe(back_reader, writer))

    terminator = await asyncio.start_server(front, "127.0.0.1", 0, ssl=context)
    port = terminator.sockets[0].getsockname()[1]
    right = hashlib.sha256(ssl.PEM_cert_to_DER_cert(cert.read_text())).hexdigest()
    try:
        pinned = await asyncio.to_thread(status, f"craitss://127.0.0.1:{port}?fp={right}")
        assert pinned.returncode == 0, pinned.stderr
        assert pinned.stdout.startswith(f"127.0.0.1:{port}: healthy")
        wrong = await asyncio.to_thread(status, f"craitss://127.0.0.1:{port}?fp={'ab' * 32}")
        assert wrong.returncode == EXIT_UNHEALTHY
        assert "is not the one expected" in wrong.stderr
        unsigned = await asyncio.to_thread(status, f"craitss://localhost:{port}")
        assert unsigned.returncode == EXIT_UNHEALTHY
        assert "TLS failed" in unsigned.stderr and "not trusted" in unsigned.stderr
        assert f"--tls-fingerprint {right}" in unsigned.stderr  # how to pin it, as the client says
        trusted = await asyncio.to_thread(
            status, f"craitss://localhost:{port}", "--tls-ca", str(cert)
        )
        assert trusted.returncode == 0, trusted.stderr
        plain = await asyncio.to_thread(status, f"127.0.0.1:{port}", "--timeout", "5")
        assert plain.returncode == EXIT_UNHEALTHY, plain.stderr
    finally:
        terminator.close()
        await terminator.wait_closed()
