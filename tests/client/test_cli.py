"""The command line: --list, one-line errors, quitting while connecting, the tmux check."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import re
import select
import shutil
import socket
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest
from craits.client.cli import build_parser, clean_name, given_name, main
from craits.client.present.card_style import unicode_suits_ok
from craits.client.tui.screens.lobby_screen import LobbyScreen
from rich.cells import cell_len

from tests.support.client import wait_for, wait_text

ROOT = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_list_prints_the_tables(server: Any, connect: Any, capsys: Any) -> None:
    ben = await connect("Ben")
    await ben.send(
        {"type": "create_table", "name": "t1", "seats": 3, "rules": {"short_game": True}}
    )
    await ben.expect("table_created")
    await ben.send({"type": "join", "table": "t1", "name": "Ben"})
    await ben.expect("joined")
    code = await asyncio.to_thread(main, [f"127.0.0.1:{server.port}", "--list"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].split("\t") == ["table", "seats", "players", "state", "rules", "watching"]
    assert out[1].split("\t") == ["t1", "1/3", "Ben", "waiting", "short", "0"]


ANSI = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")
"""A terminal's escape sequences (CSI, OSC, and the two-character ones)."""


def in_a_terminal(
    argv: list[str],
    wait_for: str,
    keys: bytes = b"",
    size: tuple[int, int] = (80, 24),
    env: dict[str, str] | None = None,
) -> tuple[int, str]:
    """Run ``argv`` in a pseudo-terminal of ``size`` (columns, rows), as in a
    real terminal (with ``env`` added to the environment): once ``wait_for`` is
    among what it printed (its escape sequences left out), type ``keys``;
    returns its exit status (at most 20 s later) and what it printed, without
    the escape sequences.

    Raises:
        AssertionError: ``wait_for`` did not come, or the program did not end.
    """
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    env = {**os.environ, **(env or {}), "TERM": "xterm-256color"}
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    out = b""
    sent = False
    end = time.monotonic() + 20
    try:
        while proc.poll() is None or select.select([master], [], [], 0)[0]:
            if time.monotonic() > end:
                raise AssertionError(f"{wait_for!r} never came: {ANSI.sub('', out.decode())!r}")
            if select.select([master], [], [], 0.1)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the program ended and closed the terminal
                    break
                out += chunk
            if not sent and wait_for in ANSI.sub("", out.decode(errors="replace")):
                sent = True
                os.write(master, keys)
        assert sent, f"{wait_for!r} never came: {ANSI.sub('', out.decode())!r}"
        return proc.wait(20), ANSI.sub("", out.decode(errors="replace"))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


async def test_list_lines_up_its_columns_in_a_terminal(server: Any, connect: Any) -> None:
    """In a terminal ``--list`` lines its columns up under their headers,
    whatever the names (issue 23: tab stops did not); piped, it stays
    tab-separated for scripts (above)."""
    for table, player in (("t1", "Ben"), ("漢字のテーブル", "Zoë"), ("a-much-longer-name", "Al")):
        p = await connect(player)
        await p.send({"type": "create_table", "name": table, "seats": 3})
        await p.expect("table_created")
        await p.send({"type": "join", "table": table, "name": player})
        await p.expect("joined")
    argv = [sys.executable, "-m", "craits.client", f"127.0.0.1:{server.port}", "--list"]
    status, out = await asyncio.to_thread(in_a_terminal, argv, "")
    assert status == 0
    lines = [line for line in out.replace("\r", "").splitlines() if line.strip()]
    assert len(lines) == 4, lines
    headers = lines[0].split()
    assert headers == ["table", "seats", "players", "state", "rules", "watching"]
    starts = column_starts(lines[0])
    assert len(starts) == len(headers)
    for line in lines[1:]:  # every column starts where its heading does
        assert column_starts(line) == starts, (lines[0], line)


def column_starts(line: str) -> list[int]:
    """The cells (as a terminal draws them, a tab to the next multiple of 8)
    at which the words after a blank start."""
    starts, cell, before = [], 0, " "
    for ch in line:
        if ch == "\t":
            cell, before = (cell // 8 + 1) * 8, " "
            continue
        if ch != " " and before == " ":
            starts.append(cell)
        cell += cell_len(ch)
        before = ch
    return starts


async def test_ctrl_c_exits_with_status_130(server: Any, make_app: Any, tmp_path: Path) -> None:
    """Ctrl+C quits at once with 130, as an interrupted command does (issue 23:
    it was 0); ``q`` in the lobby leaves with 0. In a real terminal, then
    through Pilot."""
    argv = [sys.executable, "-m", "craits.client", f"127.0.0.1:{server.port}", "--name", "Ana"]
    home = {"HOME": str(tmp_path), "XDG_STATE_HOME": str(tmp_path / "state")}  # its tokens
    for keys, exit_status in ((b"\x03", 130), (b"q", 0)):
        status, out = await asyncio.to_thread(in_a_terminal, argv, "you are Ana", keys, env=home)
        assert status == exit_status, out[-500:]
    app = make_app("Ana")
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="online")
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: not app.is_running, what="the exit")
    assert app.return_code == 130


def test_unreachable_server_is_one_line_and_exit_1(capsys: Any) -> None:
    port = closed_port()
    assert main([f"127.0.0.1:{port}", "--list"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("craits-client: cannot reach 127.0.0.1:")


def test_bad_address_and_help(capsys: Any) -> None:
    assert main(["127.0.0.1:99999"]) == 2
    assert "bad address" in capsys.readouterr().err
    help_text = build_parser().format_help()
    for option in ("--name", "--table", "--spectate", "--list", "--ascii"):
        assert option in help_text


def test_an_empty_name_or_one_a_terminal_cannot_measure_is_refused(capsys: Any) -> None:
    """``--name ''`` was taken as no name, the login name, and so the seat of a
    client already running under it (issue 23): refused, as is a name the server
    refuses (a joined emoji); a composed name is sent as the server keeps it."""
    for name, why in (
        ("", "it is empty"),
        ("  [] ", "it is empty"),
        ("👨\u200d👩\u200d👧", "it must not hold U+200D ZERO WIDTH JOINER"),
    ):
        assert main([f"127.0.0.1:{closed_port()}", "--name", name]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"craits-client: bad --name {name!r}: {why}"), err
        assert err.count("\n") == 1
    assert given_name(" Jose\u0301 ") == "José"
    assert given_name("漢字のテーブル") == "漢字のテーブル"
    assert clean_name("Ana\u200d") == "Ana"  # a login name: what cannot be drawn is left out


def test_names_and_suits() -> None:
    assert clean_name("  Ana [x]\x07 ") == "Ana x"
    assert clean_name("[]") == "player"
    assert len(clean_name("x" * 40)) == 24
    assert unicode_suits_ok("utf-8")
    assert not unicode_suits_ok("ascii")


async def test_app_exits_with_one_line_when_unreachable(make_app: Any) -> None:
    from craits.client.tui.app import CraitsApp

    app = CraitsApp("127.0.0.1", closed_port(), "Ana", store=make_app().session.store)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.error_message is not None, what="the error")
    assert app.return_code == 1
    assert "\n" not in app.error_message
    assert app.error_message.startswith("cannot reach 127.0.0.1:")
    assert app.error_message.endswith(": connection refused"), app.error_message


async def test_other_protocol_version_is_refused(make_app: Any) -> None:
    app = make_app(protocol_version=99)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.error_message is not None, what="the refusal")
    assert app.return_code == 1
    assert "refused" in app.error_message and "not supported" in app.error_message


async def test_q_quits_at_once_while_connecting(make_app: Any) -> None:
    # a server that accepts and never answers the hello
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(30)

    mute = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = mute.sockets[0].getsockname()[1]
    from craits.client.tui.app import CraitsApp

    app = CraitsApp("127.0.0.1", port, "Ana", store=make_app().session.store, connect_timeout=60)
    async with app.run_test() as pilot:
        await wait_text(pilot, app, "Connecting to")
        assert app.link == "connecting"
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("q")
        # at once: long before the connection's 60 s timeout would end it
        await wait_for(pilot, lambda: not app.is_running, what="the exit")
    assert app.error_message is None
    mute.close()


async def test_no_color_and_light_theme(server: Any, make_app: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app("Ana")
    assert app.no_color
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.link == "online", what="online")
        app.theme = "textual-light"
        await wait_text(pilot, app, "you are Ana")
        svg = app.export_screenshot()
        assert "you" in svg


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tmux_client_check() -> None:
    script = ROOT / "scripts" / "tmux_client_check.py"
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=90
    )
    assert result.returncode == 0, result.stdout + result.stderr
