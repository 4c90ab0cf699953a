#!/usr/bin/env python3
"""The terminal client's CPU per update while it watches a game of bots.

Usage: ``python scripts/client_cpu.py [--updates 60] [--warmup 5] [--size 120x40]
[--bots 4] [--summary-open | --rules-open] [--profile out.prof] [--against REF --rounds 3]``.

Starts ``craits-server`` as a subprocess on a free loopback port (no journal,
no turn timer) and ``--bots`` ``craits-bot`` processes at a table (each
thinking ``--think-ms`` before a move), then runs the Textual client headless (``App.run_test``) at
``--size`` as a spectator of that table. Each update of the game the client
receives is counted; after ``--warmup`` updates (the table screen being set
up), the process's CPU time (``time.process_time``, user and system, in this
process only: the server's is not counted) over the next ``--updates`` updates,
divided by their number, is the figure printed, in ms. The spectator closes
each end-of-hand summary at its first update after the summary lets it (0.8 s),
so that the table is what is drawn; with ``--summary-open`` it leaves them open,
as a watcher may (the game goes on under the summary); with ``--rules-open`` it
opens the rules page over the table as soon as the table is shown and keeps it
open (the table under it is drawn as the game goes on, through the page's
translucent background).

Headless Textual composes the screen but writes nothing: so that the figure
includes the cost of a real terminal, each screen update is also turned into
the escape sequences a terminal would receive (and thrown away).

``--profile FILE`` profiles the measured stretch with cProfile, writes its
statistics there (for ``python -m pstats``) and prints the heaviest calls.

``--against REF`` measures this tree and the client code of git ref ``REF``
(e.g. ``main``, exported with ``git archive``) side by side: ``--rounds``
alternating runs of each, in one window of the machine's load, then both
medians and their ratio. The script itself (and the server and bots) are the
same for both; only the ``craits`` package imported differs.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from textual._compositor import CompositorUpdate

try:  # the client in its rooms (issue 24)
    from craits.client.core.saved.resume_tokens import TokenStore
    from craits.client.tui import app as app_module
    from craits.client.tui.dialogs.rules import RulesScreen
    from craits.client.tui.dialogs.summary import SummaryScreen
    from craits.client.tui.screens.table_screen import TableScreen

    ROOMS = True
except ImportError:  # a tree from before them (--against an older ref)
    from craits.client import app as app_module  # type: ignore[attr-defined,no-redef]
    from craits.client.dialogs import RulesScreen  # type: ignore[import-not-found,no-redef]
    from craits.client.store import TokenStore  # type: ignore[import-not-found,no-redef]
    from craits.client.summary import SummaryScreen  # type: ignore[import-not-found,no-redef]
    from craits.client.table import TableScreen  # type: ignore[import-not-found,no-redef]

    ROOMS = False

TABLE = "cpu"


def free_port() -> int:
    """A TCP port free on the loopback right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int) -> subprocess.Popen[bytes]:
    """``craits-server`` on ``port``; returns once it accepts connections.

    Raises:
        RuntimeError: it did not accept a connection within 15 s.
    """
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "craits.server",
            "--port",
            str(port),
            "--no-journal",
            "--turn-timeout",
            "0",
            "--hand-pause",
            "0.5",
            "--log-level",
            "warning",
        ],
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("the server did not start") from None
            time.sleep(0.05)


def start_bots(port: int, bots: int, think_ms: int) -> list[subprocess.Popen[bytes]]:
    """``bots`` ``craits-bot`` processes at table ``cpu`` (the first to come
    creates it, with ``bots`` seats: each is told to create it unless it exists,
    as under load the first may not have done so within the second the others
    wait; the full table starts by itself), each thinking ``think_ms`` on
    average before a move. Bots seated by the server would not do: a table of
    server bots alone is on hold (protocol §11.4)."""
    procs = []
    for i in range(bots):
        create = ["--create", str(bots)]
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "craits.server.bots",
                    f"127.0.0.1:{port}",
                    "--table",
                    TABLE,
                    "--think-ms",
                    str(think_ms),
                    "--forever",
                    "--quiet",
                    "--seed",
                    str(i),
                    *create,
                ],
                stderr=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
            )
        )
        if i == 0:
            time.sleep(1.0)  # the table exists before the others come
    return procs


CraitsApp = app_module.CraitsApp


class MeasuredApp(CraitsApp):
    """The client, counting the game's updates and the CPU they take."""

    CSS_PATH = str(Path(app_module.__file__).with_name("craits.tcss"))

    def __init__(
        self,
        *args: Any,
        updates: int,
        warmup: int = 0,
        close_summary: bool = True,
        rules_open: bool = False,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.close_summary = close_summary
        self.rules_open = rules_open
        self.wanted = updates
        self.warmup = warmup
        self.seen = 0
        self.cpu_start = 0.0
        self.cpu_end = 0.0
        self.wall_start = 0.0
        self.wall_end = 0.0
        self.done = asyncio.Event()
        self.on_first: Any = None
        self.on_last: Any = None
        if ROOMS:  # the session's listener told of each move (client/tui/messages.py)
            relay = self.session.listener
            told = relay.table_changed

            def table_changed(new_update: bool) -> None:
                self._table_changed(new_update)
                told(new_update)

            relay.table_changed = table_changed  # type: ignore[method-assign]

    def _post_news(self, news: Any) -> None:
        """(A tree from before the rooms: its App's one entry for the session's news.)"""
        if type(news).__name__ == "TableChanged":
            self._table_changed(news.new_update)
        super()._post_news(news)  # type: ignore[misc]

    def _table_changed(self, new_update: bool) -> None:
        """Count the game's updates (and the CPU from the warmup's end), and keep
        the summary closed or the rules open, as asked."""
        if new_update and not self.done.is_set():
            if self.seen == self.warmup:
                self.cpu_start, self.wall_start = time.process_time(), time.perf_counter()
                if self.on_first:
                    self.on_first()
            self.seen += 1
            if self.seen > self.warmup + self.wanted:
                self.cpu_end, self.wall_end = time.process_time(), time.perf_counter()
                if self.on_last:
                    self.on_last()
                self.done.set()
        if self.close_summary and isinstance(self.screen, SummaryScreen):
            self.screen.action_close()  # (does nothing in the summary's first moment)
        if self.rules_open and isinstance(self.screen, TableScreen):
            self.push_screen(RulesScreen(self.style.ascii))  # open over the table for good

    def _display(self, screen: Any, renderable: Any) -> None:
        """Headless: compose the terminal's bytes as a real terminal would get them."""
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(self.console)
        super()._display(screen, renderable)


async def measure(args: argparse.Namespace) -> None:
    """Run the server, the table and the client; print the figures."""
    port = free_port()
    server = start_server(port)
    width, height = (int(x) for x in args.size.split("x"))
    profiler: Any = None
    bots: list[subprocess.Popen[bytes]] = []
    try:
        bots = start_bots(port, args.bots, args.think_ms)
        with tempfile.TemporaryDirectory() as d:
            app = MeasuredApp(
                "127.0.0.1",
                port,
                "watcher",
                spectate=TABLE,
                store=TokenStore(Path(d) / "tokens.json"),
                updates=args.updates,
                warmup=args.warmup,
                close_summary=not args.summary_open,
                rules_open=args.rules_open,
                ascii=args.ascii,
            )
            if args.profile:
                profiler = cProfile.Profile()
                app.on_first = profiler.enable
                app.on_last = profiler.disable
            async with app.run_test(size=(width, height)) as pilot:
                await asyncio.wait_for(app.done.wait(), (args.updates + args.warmup) * 5 + 30)
                await pilot.pause(0.1)
    finally:
        for bot in bots:
            bot.terminate()
        server.terminate()
        server.wait(5)
    cpu = app.cpu_end - app.cpu_start
    wall = app.wall_end - app.wall_start
    n = app.wanted
    load = os.getloadavg()[0]
    print(
        f"{n} updates at {args.size}, {args.bots} bots: {cpu * 1000 / n:.1f} ms CPU per update "
        f"({cpu:.2f} s CPU over {wall:.1f} s, {cpu / wall * 100:.0f}% of a core; "
        f"load average {load:.2f})"
    )
    if profiler is not None:
        profiler.dump_stats(args.profile)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


def export_tree(ref: str, into: Path) -> Path:
    """The client, server and protocol code of git ref ``ref`` under ``into``,
    and a folder to put on ``PYTHONPATH`` for them to be the ``craits`` imported.

    Raises:
        subprocess.CalledProcessError: ``ref`` is not a commit of this repository.
    """
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", ref, "client", "server", "protocol"],
        check=True,
        capture_output=True,
    ).stdout
    tree = into / "tree"
    tree.mkdir()
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return namespace(tree, into / "ns-ref")


def namespace(tree: Path, at: Path) -> Path:
    """A folder holding ``craits/`` with links to ``tree``'s three packages."""
    (at / "craits").mkdir(parents=True)
    for name in ("client", "server", "protocol"):
        (at / "craits" / name).symlink_to(tree / name)
    return at


def compare(args: argparse.Namespace) -> None:
    """Measure this tree and ``args.against`` side by side; print both medians."""
    root = Path(__file__).resolve().parent.parent
    figures: dict[str, list[float]] = {"this tree": [], args.against: []}
    with tempfile.TemporaryDirectory() as d:
        paths = {
            "this tree": namespace(root, Path(d) / "ns-here"),
            args.against: export_tree(args.against, Path(d)),
        }
        passed = [
            *("--updates", str(args.updates), "--warmup", str(args.warmup)),
            *("--size", args.size, "--bots", str(args.bots), "--think-ms", str(args.think_ms)),
            *(["--ascii"] if args.ascii else []),
            *(["--summary-open"] if args.summary_open else []),
            *(["--rules-open"] if args.rules_open else []),
        ]
        for round_ in range(args.rounds):
            for name, path in paths.items():
                env = {**os.environ, "PYTHONPATH": str(path)}
                out = subprocess.run(
                    [sys.executable, __file__, *passed],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                line = next(x for x in out.splitlines() if "ms CPU per update" in x)
                figures[name].append(float(re.findall(r"([\d.]+) ms CPU per update", line)[0]))
                print(f"round {round_ + 1}, {name}: {line}", flush=True)
    here, there = (statistics.median(v) for v in figures.values())
    print(
        f"median at {args.size}: this tree {here:.1f} ms, {args.against} {there:.1f} ms "
        f"per update ({there / here:.1f}x)"
    )


def main() -> None:
    """Parse the command line and measure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--updates", type=int, default=60, help="updates measured (default 60)")
    parser.add_argument(
        "--warmup", type=int, default=5, help="updates before measuring (default 5)"
    )
    parser.add_argument("--size", default="120x40", help="terminal size WxH (default 120x40)")
    parser.add_argument("--bots", type=int, default=4, help="bots at the table (default 4)")
    parser.add_argument(
        "--think-ms", type=int, default=300, help="the bots' think time (default 300 ms)"
    )
    parser.add_argument("--ascii", action="store_true", help="the client's --ascii mode")
    parser.add_argument(
        "--summary-open", action="store_true", help="leave the end-of-hand summaries open"
    )
    parser.add_argument(
        "--rules-open", action="store_true", help="keep the rules page open over the table"
    )
    parser.add_argument("--profile", default=None, help="write cProfile statistics here")
    parser.add_argument(
        "--against", default=None, help="a git ref to measure side by side with this tree"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="runs of each with --against (default 3)"
    )
    args = parser.parse_args()
    if args.against:
        compare(args)
    else:
        asyncio.run(measure(args))


if __name__ == "__main__":
    main()
