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
import sys
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable, Mapping, Sequence

from craits.protocol.address import Target
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from .visitors import Launch


def client_argv(server: Target, name: str, launch: Launch) -> list[str]:
    """The command line of a visitor's client: ``python -m craits.client.cli``
    in web mode, as ``name``, going where ``launch`` says.

    With an invite code the address is the whole invite link (protocol §1.1),
    which the client reads with the table, the code and ``watch``; otherwise
    ``--table=`` or ``--spectate=``.
    """
    argv = [sys.executable, "-m", "craits.client.cli", "--web", f"--name={name}"]
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
        write_bytes, write_str, close, download_manager: as textual-serve's.
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        *,
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

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        """Start the client process (no shell), sized ``width`` × ``height`` cells."""
        environment = self._build_environment(width=width, height=height)
        environment.update(self.extra_env)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process
