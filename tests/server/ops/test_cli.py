"""craits-server's command line as a user runs it (real subprocesses, real
journals): the startup line's join hint, and ``export`` into a closed pipe and
with only unfinished games."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
from pathlib import Path

from craits.protocol import DEFAULT_PORT
from craits.server.app import Server, ServerConfig
from craits.server.journal.journal import Durability, Journal
from craits.server.ops.options import build_parser, config_from, join_address
from craits.server.table.ports import TableRow

from tests.support.processes import SERVER, free_port, run_export
from tests.support.server import finished_game, unfinished_journal


def startup_line(*args: str) -> str:
    """The line a server started with ``args`` prints once it listens."""
    proc = subprocess.Popen(
        [*SERVER, *args, "--no-journal"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stderr is not None
        line = ""
        while not line.startswith("craits-server listening"):
            line = proc.stderr.readline()
            assert line, "the server ended without its startup line"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
    return line.strip()


def test_startup_line_suggests_the_readme_address() -> None:
    port = free_port()
    assert startup_line("--port", str(port)) == (
        f"craits-server listening on 127.0.0.1:{port} — join with: craits-client localhost:{port}"
    )


def test_a_workers_startup_line_gives_the_shared_port() -> None:
    """A ``--workers`` node (its own port for redirects, and the port the
    workers share) tells players the shared port, not its own."""
    shared = free_port()
    line = startup_line("--port", "0", "--shared-port", str(shared))
    assert line.startswith(
        f"craits-server listening on 127.0.0.1:{shared} (a worker; its own port "
    )
    assert line.endswith(f" — join with: craits-client localhost:{shared}")


def test_join_address() -> None:
    assert join_address("127.0.0.1", DEFAULT_PORT) == "localhost"
    assert join_address("localhost", DEFAULT_PORT) == "localhost"
    assert join_address("::1", DEFAULT_PORT) == "localhost"
    assert join_address("127.0.0.1", 7000) == "localhost:7000"
    assert join_address("0.0.0.0", DEFAULT_PORT) == "HOST"
    assert join_address("0.0.0.0", 7000) == "HOST:7000"
    assert join_address("192.168.1.5", DEFAULT_PORT) == "192.168.1.5"
    assert join_address("fe80::1", 7000) == "[fe80::1]:7000"


async def _finished_journal(config: ServerConfig, data: Path) -> Path:
    config.data_dir = data
    srv = Server(config)
    await srv.start()
    players, _ = await finished_game(srv)
    for p in players:
        await p.close()
    await srv.stop()
    return data


async def test_export_into_a_closed_pipe_exits_quietly(
    config: ServerConfig, tmp_path: Path
) -> None:
    data = await _finished_journal(config, tmp_path / "data")
    export = [*SERVER, "export", "--data-dir", str(data), "--out", "-", "--unfinished"]
    # the reader is gone before the first byte is written
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        run = subprocess.run(export, stdout=write_end, stderr=subprocess.PIPE, text=True)
    finally:
        os.close(write_end)
    assert run.returncode == 141 and run.stderr == "", run.stderr
    # what the user typed: the record is longer than a pipe holds, so head leaves early
    command = f"{shlex.join(export)} | head -c 300"
    piped = subprocess.run(["sh", "-c", command], capture_output=True, text=True)
    assert piped.returncode == 0
    assert len(piped.stdout) == 300 and piped.stdout.startswith("{")
    assert piped.stderr == "", piped.stderr


async def test_export_with_only_unfinished_games_names_the_option(
    config: ServerConfig, tmp_path: Path
) -> None:
    data = await unfinished_journal(config, tmp_path / "data")
    out = tmp_path / "records"
    run = run_export(data, out)
    assert run.returncode == 1
    assert run.stderr == (
        "craits-server export: no finished games to export; 1 still in play "
        "(--unfinished exports them as they stand)\n"
    )
    assert not out.exists()
    run = run_export(data, out, "--unfinished")
    assert run.returncode == 0, run.stderr
    assert [p.name for p in out.iterdir()] == ["craits-game-1.json"]


async def test_export_beside_a_running_server_only_reads(
    config: ServerConfig, tmp_path: Path
) -> None:
    """``export`` while the server's journal is open (its write-ahead log not
    yet checkpointed) reads the games and writes nothing: before, it opened
    the journal as a writer and on closing folded and truncated the log (with
    a reader holding a snapshot, that held the server's writes up to 5 s)."""
    data = await unfinished_journal(config, tmp_path / "data")
    live = Journal(data / "craits.db", checkpoint_every=3600)  # the server's; no checkpoint
    live.save_table(TableRow("later", 2, {}, 60.0, "Ana", "waiting", [], None))
    wal = data / "craits.db-wal"
    files = {p: p.read_bytes() for p in (data / "craits.db", wal)}
    assert files[wal], "the last write is in the write-ahead log"
    out = tmp_path / "records"
    run = run_export(data, out, "--unfinished")
    assert run.returncode == 0, run.stderr
    assert [p.name for p in out.iterdir()] == ["craits-game-1.json"]
    assert {p: p.read_bytes() for p in files} == files  # database and log untouched
    live.save_table(TableRow("later", 2, {}, 60.0, "Ana", "waiting", [], None))
    assert {t.name for t in live.tables()} == {"later", "u"}  # the server writes on
    live.close()


def test_durability_is_full_unless_asked_otherwise() -> None:
    """Issue 11, item 10: every acknowledged move is fsynced by default."""
    default = config_from(build_parser().parse_args([]))
    assert default.durability is Durability.FULL
    normal = config_from(build_parser().parse_args(["--durability", "normal"]))
    assert normal.durability is Durability.NORMAL


def test_the_public_address_is_a_setting_sent_in_welcome_and_told_at_start() -> None:
    """``--public-address`` (issue 23): the address players elsewhere reach the
    server at, for the invite links: normalized to ``HOST:PORT``, refused when
    it is no address, and the startup line tells it as the one to join."""

    def public(*args: str) -> str | None:
        return config_from(build_parser().parse_args(list(args))).public_address

    assert public() is None
    assert public("--public-address", "games.example.org") == f"games.example.org:{DEFAULT_PORT}"
    assert public("--port", "7000", "--public-address", "games.example.org") == (
        "games.example.org:7000"
    )
    assert public("--public-address", "203.0.113.5:9000") == "203.0.113.5:9000"
    assert public("--public-address", "[2001:db8::1]:9000") == "[2001:db8::1]:9000"
    for bad in ("craits://games.example.org", "games example", "me@host", "host:0", "host:x"):
        done = subprocess.run(
            [*SERVER, "--public-address", bad, "--print-config"], capture_output=True, text=True
        )
        assert done.returncode == 2, bad
        assert "public-address" in done.stderr and "HOST or HOST:PORT" in done.stderr, done.stderr
    port = free_port()
    line = startup_line("--port", str(port), "--public-address", "games.example.org")
    assert line.endswith(f" — join with: craits-client games.example.org:{port}"), line


async def test_welcome_names_the_public_address_when_there_is_one() -> None:
    from craits.protocol.client import Connection

    for given in (None, "games.example.org:7000"):
        srv = Server(ServerConfig(port=0, public_address=given))
        await srv.start()
        try:
            conn = await Connection.open("127.0.0.1", srv.port, name="Ana")
            assert conn.welcome.get("public_address") == given
            assert ("public_address" in conn.welcome) == (given is not None)
            await conn.close()
        finally:
            await srv.stop()
