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

What a child shares with the zygote is what it does not write to: CPython
writes the reference count of every object a program touches, and so copies
the page it lies on. So the zygote (:func:`preload`) imports, besides the
client, the modules every visitor's client imported after the fork (their
code and objects then lie in shared pages, not in each child's own), runs no
garbage collection while it imports (a collection frees objects among the
imported ones: each child's first allocations would fill those holes and copy
their pages), and freezes what it imported out of the collector's reach
(``gc.freeze``). docs/performance.md, "The web client's cost", says what is
left private to each child and why.

The zygote and every child it forks hang on craits-web's lifeline
(:mod:`.lifeline`): they end as soon as craits-web is gone, however it ends.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import random
import select
import signal
import socket
import sys
from typing import Any

from .child import run
from .lifeline import cut
from .service import IMPORT_ENV, MAX_REQUEST

VISITOR_MODULES = (
    IMPORT_ENV["TEXTUAL_DRIVER"].split(":")[0],  # the web driver, its input reader and parser
    "textual.drivers.headless_driver",  # (App.run imports it, whichever driver runs)
    "textual.pilot",
    "textual.scrollbar",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "rich._emoji_codes",
    "email.parser",  # (the client's version, read from the package's metadata)
)
"""Modules every visitor's client imported after the fork, besides the client's
own (found by listing ``sys.modules`` in the children of a game): imported by
the zygote, they are shared instead of loaded by each child."""


def _child(fds: list[int], request: dict[str, Any], lifeline: int) -> None:
    """In the forked child: take the streams and run the client until it ends
    or craits-web is gone (``lifeline``); never returns."""
    code: object = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        gc.enable()
        for target, fd in zip((0, 1, 2), fds, strict=True):
            os.dup2(fd, target)
            os.close(fd)
        os.environ.update({str(k): str(v) for k, v in request["env"].items()})
        random.seed()  # not the zygote's sequence
        argv = [str(a) for a in request["argv"]]
        sys.argv = ["craits-client", *argv]
        code = run(argv, lifeline)
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


def preload() -> None:
    """Import what every visitor's client needs before it is forked: Textual's
    settings (:data:`~.service.IMPORT_ENV`), the client, :data:`VISITOR_MODULES`
    (one that is missing, from another version of Textual, is left out) and
    Rich's table of character widths; with the garbage collector off (the
    children turn it on again), then frozen (``gc.freeze``)."""
    gc.disable()
    os.environ.update(IMPORT_ENV)
    import craits.client.cli
    import craits.client.tui.app  # noqa: F401  (the cost paid once, shared by every child)

    for name in VISITOR_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    from rich.cells import cell_len

    cell_len("♠")  # loads the table of widths, kept for the process (functools.cache)
    gc.freeze()  # imported objects stay put: their pages stay shared with the children


def serve(path: str, lifeline: int) -> None:
    """Import the client (:func:`preload`), listen on the Unix socket ``path``,
    fork on each request; returns as soon as craits-web is gone (``lifeline``,
    the read end of its lifeline, reads end of file)."""
    preload()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(path)
        listener.listen(64)
        while True:
            ready = select.select([listener.fileno(), lifeline], [], [])[0]
            if lifeline in ready and cut(lifeline):
                return
            if listener.fileno() in ready:
                _answer(listener, lifeline)


def _answer(listener: socket.socket, lifeline: int) -> None:
    """Take one request from ``listener``: fork a client for it (a bad request
    is dropped)."""
    try:
        conn, _ = listener.accept()
    except OSError:
        return  # (gone before it was taken)
    with conn:
        conn.settimeout(5.0)
        try:
            data, fds, _, _ = socket.recv_fds(conn, MAX_REQUEST, 3)
            request = json.loads(data)
        except (OSError, ValueError):
            return
        if len(fds) != 3:
            for fd in fds:
                os.close(fd)
            return
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            listener.close()
            conn.close()
            _child(fds, request, lifeline)
        for fd in fds:
            os.close(fd)
        with contextlib.suppress(OSError):
            conn.sendall(json.dumps({"pid": pid}).encode())


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
