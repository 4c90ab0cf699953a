"""``craits-server --workers N``: N nodes of a cluster behind one address, to
use more cores of one machine (docs/cluster.md).

The supervisor starts a Redis of its own (``redis-server`` or
``valkey-server`` on a free loopback port, keeping nothing on disk) unless
``--cluster`` names one, then N workers: each is ``craits-server`` with the
same options, its own port (a free one, which it advertises), its own data
directory (``DATA_DIR/worker-I``), and the shared port (``--port``), which
all of them accept on (``SO_REUSEPORT``: the kernel spreads the connections).
A client that reaches the wrong worker is redirected to the right one's own
port (protocol §7.4). A worker that exits is started again after a second, on
its data directory and port (so at the same address): it takes its tables back.
With ``--web PORT`` the supervisor runs one ``craits-web`` for the shared port.

The first SIGINT or SIGTERM drains the workers (each is sent SIGTERM: with
``--drain-timeout`` it takes no new tables and lets its games end,
docs/cluster.md); ``craits-server drain`` for the shared address does the same
through Redis, with its own timeout. A second signal stops them at once (each
is sent SIGTERM again). The supervisor stops the web page and the Redis and
exits once every worker has.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import logging
import shutil
import signal
import socket
import sys
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..accounts.sqlite import FILE_NAME as ACCOUNTS_FILE
from ..cluster.start import advertised
from ..net.tls_listener import certificate_fingerprint
from .drain import COMMAND_TIMEOUT, request_drain, watch
from .web import WebChild, game_address, start_web, stop_web, web_options, web_url

log = logging.getLogger("craits.server.cluster")

REDIS_PROGRAMS = ("redis-server", "valkey-server")
"""The programs a supervisor may start as its Redis, in order of preference."""
PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal a child gets when its parent dies (Linux)."""
RESTART_DELAY = 1.0
"""Seconds before a worker that exited is started again."""
STOP_GRACE = 10.0
"""Seconds a worker has to stop, beyond its drain, before it is killed."""


def _die_with_parent() -> None:
    """In a child, before it runs: on Linux, have the kernel send it SIGTERM
    when the supervisor dies (even by SIGKILL), so no worker or Redis is left."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` right now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def port_free(host: str, port: int) -> bool:
    """Whether a listener could bind ``host``:``port`` now (as a worker does:
    with SO_REUSEADDR, so a closed connection's TIME_WAIT does not count)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def find_redis() -> str | None:
    """The path of ``redis-server`` or ``valkey-server``, or None."""
    for program in REDIS_PROGRAMS:
        found = shutil.which(program)
        if found:
            return found
    return None


async def start_redis(program: str) -> tuple[asyncio.subprocess.Process, str]:
    """Start ``program`` on a free loopback port, keeping nothing on disk;
    returns it and its URL once it answers.

    Raises:
        OSError: it did not answer within 10 s.
    """
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        program,
        *("--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
        preexec_fn=_die_with_parent,
    )
    loop = asyncio.get_running_loop()
    give_up = loop.time() + 10
    while loop.time() < give_up and proc.returncode is None:
        with contextlib.suppress(OSError, TimeoutError):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"PING\r\n")
            line = await asyncio.wait_for(reader.readline(), 1)
            writer.close()
            if line.startswith(b"+PONG"):
                return proc, f"redis://127.0.0.1:{port}"
        await asyncio.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    raise OSError(f"{program} did not start")


def worker_argv(argv: list[str], index: int, url: str, plan: Plan, port: int) -> list[str]:
    """A worker's command line: the supervisor's, without ``--workers``, then
    what each worker has of its own (argparse keeps an option's last value;
    ``--workers 1`` also overrides a ``CRAITS_WORKERS`` or a config file's)."""
    own = [a for a in argv if not a.startswith("--workers")]
    if "--workers" in argv:  # the value after a separate "--workers"
        at = argv.index("--workers")
        own = argv[:at] + argv[at + 2 :]
    extra = ["--workers", "1", "--port", str(port), "--shared-port", str(plan.port)]
    extra += ["--cluster", url]
    if plan.data is not None:
        extra += ["--data-dir", str(plan.data / f"worker-{index}")]
        if plan.accounts_db is None:  # one store for all: a name is one account (§7.5)
            extra += ["--accounts-db", str(plan.data / ACCOUNTS_FILE)]
    return [sys.executable, "-m", "craits.server.ops.cli", *own, *extra]


@dataclass
class Plan:
    """What ``craits-server --workers N`` runs (from its settings)."""

    workers: int
    """N, the number of workers."""
    port: int
    """The port they share."""
    host: str = "127.0.0.1"
    """The address they listen on (``--host``)."""
    advertise: str | None = None
    """``--advertise HOST``: the host clients reach the workers' own ports at."""
    cluster: str | None = None
    """``--cluster``'s Redis URL; None: the supervisor starts one."""
    data: Path | None = None
    """The data directory (each worker has ``worker-I`` in it); None: no journal."""
    drain_timeout: float = 0.0
    """``--drain-timeout``: seconds each worker drains for when told to stop."""
    web: int | None = None
    """``--web``: the port of the one ``craits-web``, for the shared port."""
    web_options: tuple[str, ...] = ()
    """craits-web's options (``--web-public-url``…: :func:`~craits.server.ops.web.web_options`)."""
    web_game: str | None = None
    """How ``craits-web`` reaches the game (``craitss://`` for TLS); None: the shared port."""
    heartbeat: float = 1.0
    """Seconds between looks for a ``craits-server drain`` request."""
    accounts_db: str | None = None
    """``--accounts-db`` as set; None: the workers share ``accounts.db`` in the
    data directory (SQLite serves several processes of one machine)."""


class Supervisor:
    """The workers of one ``--workers`` server, kept running until told to stop
    (see the module's docstring)."""

    def __init__(self, plan: Plan, argv: list[str], url: str) -> None:
        self.plan = plan
        self.argv = argv
        self.url = url
        self.own = plan.host if plan.host not in ("", "0.0.0.0", "::") else "127.0.0.1"
        """The host a worker's own port is picked free on."""
        self.ports = [free_port(self.own) for _ in range(plan.workers)]
        """Each worker's own port, kept across its restarts (so is its address)
        unless something else took it meanwhile (see :meth:`_own_port`)."""
        self.stopping = asyncio.Event()
        """Set by the first stop signal or drain request: drain the workers."""
        self.now = asyncio.Event()
        """Set by a second stop signal: stop the workers at once."""
        self.asked: float | None = None
        """The drain's timeout, when ``craits-server drain`` asked for it (else a signal did)."""
        self.by_command = False

    @property
    def address(self) -> str:
        """The supervisor's shared address, which ``craits-server drain`` names."""
        return advertised(self.plan.advertise, self.plan.host, self.plan.port)

    def worker_address(self, index: int) -> str:
        """The advertised address of worker ``index``."""
        return advertised(self.plan.advertise, self.plan.host, self.ports[index])

    def signalled(self) -> None:
        """A stop signal: the first drains, the next stops at once."""
        if self.stopping.is_set():
            self.now.set()
        self.stopping.set()

    def _asked(self, timeout: float | None) -> None:
        if not self.stopping.is_set():
            self.by_command = True
            self.asked = timeout
            log.info("drain: asked by craits-server drain; draining the workers")
            self.stopping.set()

    async def run(self) -> None:
        """Run the workers (and craits-web) until they have stopped."""
        watcher = asyncio.create_task(
            watch(self.url, self.address, self.plan.heartbeat, self._asked)
        )
        web: WebChild | None = None
        try:
            if self.plan.web is not None:
                try:
                    web = await start_web(
                        self.plan.host,
                        self.plan.port,
                        self.plan.web,
                        self.plan.web_game,
                        self.plan.web_options,
                    )
                except OSError as exc:
                    where = game_address(self.plan.host, self.plan.web)
                    why = exc.strerror or exc
                    raise OSError(f"cannot serve the web page on {where}: {why}") from None
                print(
                    f"in a browser: {web_url(self.plan.host, self.plan.web)}",
                    file=sys.stderr,
                    flush=True,
                )
            await asyncio.gather(*(self._keep(i) for i in range(self.plan.workers)))
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            if web is not None:
                await stop_web(web)

    def _grace(self) -> float:
        """Seconds a draining worker has before it is killed."""
        if not self.by_command:
            return self.plan.drain_timeout + STOP_GRACE
        timeout = self.asked
        if timeout is None:
            timeout = self.plan.drain_timeout if self.plan.drain_timeout > 0 else COMMAND_TIMEOUT
        return timeout + STOP_GRACE

    async def _keep(self, index: int) -> None:
        """Run worker ``index``; start it again when it exits, until told to
        stop; then drain it, stop it at once at a second signal, and kill it
        if it outlives its grace."""
        while True:
            cmd = worker_argv(self.argv, index, self.url, self.plan, self._own_port(index))
            # its own process group: a terminal's Ctrl-C reaches the supervisor
            # only, which passes it on once (a worker signalled twice would not drain)
            proc = await asyncio.create_subprocess_exec(
                *cmd, preexec_fn=_die_with_parent, process_group=0
            )
            if not await _first(proc.wait(), self.stopping.wait()):
                break  # told to stop, the worker running
            log.warning("a worker exited (status %s); starting it again", proc.returncode)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), RESTART_DELAY)
            if self.stopping.is_set():
                return
        if not (self.by_command and await self._ask(index)):
            _signal(proc)  # drain (or, after a second signal, stop)
        try:
            async with asyncio.timeout(self._grace()):
                if not await _first(proc.wait(), self.now.wait()):
                    _signal(proc)  # the second signal: stop at once
                    async with asyncio.timeout(STOP_GRACE):
                        await proc.wait()
        except TimeoutError:
            log.warning("a worker did not stop in time; killing it")
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()

    def _own_port(self, index: int) -> int:
        """Worker ``index``'s port for its next start: the one it had, unless
        that port is no longer free (a port picked free is an ephemeral port, which
        any outgoing connection, the other worker's to Redis included, may take
        before the worker binds it; a worker started again on a taken port would
        fail for ever): then a new free one, with a warning."""
        port = self.ports[index]
        if not port_free(self.plan.host, port):
            self.ports[index] = free_port(self.own)
            log.warning(
                "worker %d's port %d is taken; it moves to port %d", index, port, self.ports[index]
            )
        return self.ports[index]

    async def _ask(self, index: int) -> bool:
        """Pass ``craits-server drain``'s request on to worker ``index``; whether it took it."""
        from redis.exceptions import RedisError

        try:
            return await request_drain(self.url, self.worker_address(index), self.asked)
        except (RedisError, OSError):
            return False


def _signal(proc: asyncio.subprocess.Process) -> None:
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)


async def _first(exited: Coroutine[Any, Any, object], other: Coroutine[Any, Any, object]) -> bool:
    """Wait for ``exited`` or ``other``; whether ``exited`` came first (``other`` is cancelled)."""
    a, b = asyncio.ensure_future(exited), asyncio.ensure_future(other)
    await asyncio.wait({a, b}, return_when=asyncio.FIRST_COMPLETED)
    for task in (a, b):
        if not task.done():
            task.cancel()
    return a.done() and not a.cancelled()


async def supervise(plan: Plan, argv: list[str]) -> int:
    """Run the workers of ``plan`` (and a Redis, unless ``plan.cluster`` names
    one) until they stopped (see the module's docstring); returns the exit status.

    Raises:
        OSError: no Redis program to start, or it did not start.
    """
    redis: asyncio.subprocess.Process | None = None
    url = plan.cluster
    if url is None:
        program = find_redis()
        if program is None:
            raise OSError("--workers needs --cluster, or redis-server/valkey-server installed")
        redis, url = await start_redis(program)
    supervisor = Supervisor(plan, argv, url)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, supervisor.signalled)
    print(
        f"craits-server: {plan.workers} workers on port {plan.port}, Redis {url}",
        file=sys.stderr,
        flush=True,
    )
    try:
        await supervisor.run()
    finally:
        if redis is not None and redis.returncode is None:
            redis.kill()
            await redis.wait()
    return 0


def workers_plan(args: argparse.Namespace, data: Path | None) -> Plan:
    """What ``--workers N`` runs, from the settings (``data``: the data directory)."""
    game = None
    if getattr(args, "tls_cert", None) is not None:  # craits-web pins the certificate
        fp = certificate_fingerprint(args.tls_cert)
        game = f"craitss://{game_address(args.host, args.port)}?fp={fp}"
    return Plan(
        workers=args.workers,
        port=args.port,
        host=args.host,
        advertise=args.advertise,
        cluster=args.cluster,
        data=data,
        drain_timeout=args.drain_timeout,
        web=getattr(args, "web", None),
        web_options=tuple(web_options(args)),
        web_game=game,
        heartbeat=args.cluster_heartbeat,
        accounts_db=getattr(args, "accounts_db", None),
    )


def run_workers(args: argparse.Namespace, argv: list[str], data: Path | None) -> int | None:
    """With ``--workers N`` (N > 1), run them (:mod:`~craits.server.ops.workers`)
    and return the exit status; None otherwise (the server runs as usual)."""
    if args.workers <= 1:
        return None
    try:
        return asyncio.run(supervise(workers_plan(args, data), argv))
    except OSError as exc:
        print(f"craits-server: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
