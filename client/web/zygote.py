"""The pre-forked client: one process that has imported the client once, and forks
a visitor's client process from itself on request.

Almost all of a visitor's client process is what importing Textual and the client
costs (about 40 of its 46 MiB, and 0.5 of the 0.7 s of CPU it takes to start;
docs/performance.md). A child forked from a process that has imported them
already shares those pages with it (copy-on-write) and starts at once.

Protocol (a Unix socket, one request per connection): the web side sends the
client's three standard streams (the ends of three pipes, by ``SCM_RIGHTS``) and
a JSON object ``{"argv": [...], "env": {...}}`` — the arguments of
``craits-client`` (without the program) and the variables to add to the
environment; the zygote forks, answers ``{"pid": N}`` and closes its copies of
the streams. The child puts the streams in place, sets the environment and runs
:func:`craits.client.cli.main`. Nothing from the request is run by a shell.

Textual reads some settings from the environment when it is imported (the
driver, the frame rate, the colours): they are the same for every visitor and
are set (:data:`~.service.IMPORT_ENV`) before the zygote imports it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import random
import signal
import socket
import sys
from typing import Any

from .service import IMPORT_ENV, MAX_REQUEST


def _child(fds: list[int], request: dict[str, Any]) -> None:
    """In the forked child: take the streams and run the client; never returns."""
    code: object = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for target, fd in zip((0, 1, 2), fds, strict=True):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.update({str(k): str(v) for k, v in request["env"].items()})
        random.seed()  # not the zygote's sequence
        sys.argv = ["craits-client", *request["argv"]]
        from craits.client.cli import main

        code = main([str(a) for a in request["argv"]])
    except SystemExit as exc:
        code = exc.code
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 1)


def serve(path: str) -> None:
    """Import the client, listen on the Unix socket ``path``, fork on each request;
    returns when the parent process (craits-web) is gone."""
    os.environ.update(IMPORT_ENV)
    import craits.client.cli
    import craits.client.tui.app  # noqa: F401  (the cost paid once, shared by every child)

    gc.freeze()  # imported objects stay put: their pages stay shared with the children
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    parent = os.getppid()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(64)
        listener.settimeout(1.0)
        while os.getppid() == parent:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5.0)
                try:
                    data, fds, _, _ = socket.recv_fds(conn, MAX_REQUEST, 3)
                    request = json.loads(data)
                except (OSError, ValueError):
                    continue
                if len(fds) != 3:
                    for fd in fds:
                        os.close(fd)
                    continue
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    conn.close()
                    _child(fds, request)
                for fd in fds:
                    os.close(fd)
                with contextlib.suppress(OSError):
                    conn.sendall(json.dumps({"pid": pid}).encode())


if __name__ == "__main__":
    serve(sys.argv[1])
