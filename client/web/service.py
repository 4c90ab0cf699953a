"""One visitor's client process: textual-serve's :class:`AppService`, started from an
argument list (no shell) with the visitor's own environment.

textual-serve runs one command line for every visitor through a shell
(``create_subprocess_shell``). Here each visitor gets their own arguments (name,
table, invite code) and directories, so the process is started with
``create_subprocess_exec``: nothing from a link or a name is ever read by a
shell, and each argument is passed as ``--option=value`` so none can pose as
another option.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
import tempfile
import time
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from craits.protocol.address import Target
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from .visitors import Launch

IMPORT_ENV = {
    "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
    "TEXTUAL_FPS": "60",
    "TEXTUAL_COLOR_SYSTEM": "truecolor",
    "TERM_PROGRAM": "textual",
}
"""What textual-serve puts in each client's environment that Textual reads when it
is imported: given to the pre-forked client (:mod:`.zygote`) before it imports."""

MAX_REQUEST = 1 << 20
"""The longest request to the pre-forked client, in bytes."""

CLIENT_PREFIX = 3
"""The items of :func:`client_argv` before the client's own arguments
(``python -m craits.client.cli``)."""


def client_argv(
    server: Target,
    name: str,
    launch: Launch,
    forwarded_for: str | None = None,
    shown_address: str | None = None,
) -> list[str]:
    """The command line of a visitor's client: ``python -m craits.client.cli``
    in web mode, as ``name``, going where ``launch`` says, speaking for the
    visitor's address ``forwarded_for`` (protocol §4.1) if given, and naming
    the game by ``shown_address`` (the page's host, which the visitor knows;
    the game server's own address may be one only this machine reaches).

    With an invite code the address is the whole invite link (protocol §1.1),
    which the client reads with the table, the code and ``watch``; otherwise
    ``--table=`` or ``--spectate=``.
    """
    argv = [sys.executable, "-m", "craits.client.cli", "--web", f"--name={name}"]
    if forwarded_for:
        argv.append(f"--forwarded-for={forwarded_for}")
    if shown_address:
        argv.append(f"--shown-address={shown_address}")
    if launch.code and launch.table:
        target = Target(
            server.host,
            server.port,
            tls=server.tls,
            fingerprint=server.fingerprint,
            table=launch.table,
            code=launch.code,
            watch=launch.watch,
        )
        return [*argv, target.link()]
    if launch.table:
        argv.append(f"--spectate={launch.table}" if launch.watch else f"--table={launch.table}")
    return [*argv, server.link() if server.tls else server.hostport]


class VisitorAppService(AppService):
    """textual-serve's app service for one visitor (see the module's notes).

    Args:
        argv: the client's command line (from :func:`client_argv`).
        env: variables added to the process's environment (the visitor's directories).
        zygote: fork the client from this pre-forked client (:class:`Zygote`)
            when it is running; else (or if it fails) start a new process.
        lifeline: the read end of craits-web's lifeline (:mod:`.lifeline`),
            handed to a client started as a new process (through
            :mod:`.child`): it ends when craits-web does. (A forked client
            has it from the pre-forked client.)
        write_bytes, write_str, close, download_manager: as textual-serve's.

    ``close`` is awaited when the client says it has ended (its ``exit``), and
    again when its process has ended, whichever way (:attr:`said_exit` tells).
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        *,
        zygote: Zygote | None = None,
        lifeline: int | None = None,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
    ) -> None:
        super().__init__(
            " ".join(argv),  # shown in logs only; never run by a shell
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=download_manager,
        )
        self.argv = list(argv)
        self.extra_env = dict(env)
        self.zygote = zygote
        self.lifeline = lifeline
        self.said_exit = False
        """Whether the client said it ended (textual's ``exit``), as a client
        does however it quits; a process killed or crashed says nothing."""
        self.replaced = False
        """Set when a newer page of the same visitor takes over (this one is
        then stopped)."""

    @property
    def pid(self) -> int | None:
        """The client process's id, once started."""
        return self._process.pid if self._process is not None else None

    def kill(self) -> None:
        """End the client process at once (when it did not quit when asked)."""
        process = self._process
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()

    async def on_meta(self, data: bytes) -> None:
        """A meta packet from the client (textual-serve's), noting its ``exit``."""
        with contextlib.suppress(ValueError, AttributeError):
            if json.loads(data).get("type") == "exit":
                self.said_exit = True
        await super().on_meta(data)

    async def run(self) -> None:
        """Relay the client's output until its process ends, then close the page
        (textual-serve closes it only when the client says ``exit``)."""
        try:
            await super().run()
        finally:
            with contextlib.suppress(Exception):
                await self.remote_close()

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        """Start the client process (no shell), sized ``width`` × ``height`` cells."""
        environment = self._build_environment(width=width, height=height)
        environment.update(self.extra_env)
        if self.zygote is not None and self.zygote.running:
            added = {k: v for k, v in environment.items() if os.environ.get(k) != v}
            try:
                forked = await self.zygote.fork(self.argv[CLIENT_PREFIX:], added)
            except OSError:
                pass  # the zygote is gone or refused: start a process the plain way
            else:
                self._process = cast(Process, forked)
                self._stdin = forked.stdin
                return self._process
        argv = self.argv
        kept: tuple[int, ...] = ()
        if self.lifeline is not None:  # the client, ended with craits-web
            argv = [sys.executable, "-m", "craits.client.web.child", str(self.lifeline)]
            argv += self.argv[CLIENT_PREFIX:]
            kept = (self.lifeline,)
        self._process = process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            pass_fds=kept,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process


class ForkedClient:
    """A client process forked by the :class:`Zygote`: the parts of an asyncio
    ``Process`` textual-serve's app service uses (its streams, pid, ``kill``)."""

    def __init__(
        self,
        pid: int,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
    ) -> None:
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.returncode: int | None = None
        """Unknown: the zygote, not this process, is the client's parent."""

    def kill(self) -> None:
        """SIGKILL the client.

        Raises:
            ProcessLookupError: it has ended.
        """
        os.kill(self.pid, signal.SIGKILL)


class Zygote:
    """The pre-forked client (``craits.client.web.zygote``): a process started once that has
    imported the client, asked over a Unix socket to fork one per visitor.

    Args:
        lifeline: the read end of craits-web's lifeline (:mod:`.lifeline`): the
            zygote, and every client it forks, ends as soon as it reads end of file.
    """

    def __init__(self, lifeline: int) -> None:
        self._dir = tempfile.mkdtemp(prefix="craits-web-")
        self.path = str(Path(self._dir) / "zygote.sock")
        self.lifeline = lifeline
        self._proc: asyncio.subprocess.Process | None = None

    @property
    def running(self) -> bool:
        """Whether the zygote process is up and listening."""
        proc = self._proc
        return proc is not None and proc.returncode is None and os.path.exists(self.path)

    async def start(self, timeout: float = 60.0) -> bool:
        """Start the zygote and wait until it listens; False if it did not."""
        env = {**os.environ, **IMPORT_ENV}
        self._proc = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "craits.client.web.zygote", self.path, str(self.lifeline)),
            env=env,
            pass_fds=(self.lifeline,),
        )
        deadline = time.monotonic() + timeout
        while not os.path.exists(self.path):
            if self._proc.returncode is not None or time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    async def stop(self) -> None:
        """Stop the zygote (the clients it forked go on until their pages close,
        or craits-web's lifeline is cut)."""
        proc = self._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 5)
        with contextlib.suppress(OSError):
            os.unlink(self.path)
            os.rmdir(self._dir)

    async def fork(self, argv: Sequence[str], env: Mapping[str, str]) -> ForkedClient:
        """A new client process running ``craits-client argv`` with ``env`` added.

        Raises:
            OSError: the zygote cannot be reached or did not answer.
        """
        pipes = [os.pipe() for _ in range(3)]
        child_ends = [pipes[0][0], pipes[1][1], pipes[2][1]]
        ours = [pipes[0][1], pipes[1][0], pipes[2][0]]
        try:
            request = json.dumps({"argv": list(argv), "env": dict(env)}).encode()
            if len(request) > MAX_REQUEST:
                raise OSError("request too large")
            loop = asyncio.get_running_loop()
            pid = await loop.run_in_executor(None, self._ask, request, child_ends)
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in child_ends:
                os.close(fd)
        stdin = await _writer(ours[0])
        return ForkedClient(pid, stdin, await _reader(ours[1]), await _reader(ours[2]))

    def _ask(self, request: bytes, fds: list[int]) -> int:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10.0)
            conn.connect(self.path)
            socket.send_fds(conn, [request], fds)
            answer: Any = json.loads(conn.recv(4096) or b"{}")
        pid = answer.get("pid") if isinstance(answer, dict) else None
        if not isinstance(pid, int) or pid <= 0:
            raise OSError("the zygote did not fork")
        return pid


async def _reader(fd: int) -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", buffering=0)
    )
    return reader


async def _writer(fd: int) -> asyncio.StreamWriter:
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(fd, "wb", buffering=0)
    )
    return asyncio.StreamWriter(transport, protocol, None, loop)
