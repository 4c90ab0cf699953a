"""Ending with the parent, however the parent ends.

A *lifeline* is a pipe whose write end only the parent process holds and never
writes to. When the parent ends — it exits, crashes, or is killed with SIGKILL —
the kernel closes that end, and the read end, in the child, reads end of file
at once. Each level of the web side hangs on one:

* ``craits-server --web`` → ``craits-web`` (``craits-web --lifeline FD``,
  :mod:`craits.server.ops.web`): craits-web stops as on SIGTERM — its port freed
  first, its visitors' pages told to come back (they reconnect once the web
  side is up again);
* ``craits-web`` → its pre-forked client (:mod:`.zygote`) and every visitor's
  client process (forked, or started anew: :mod:`.child`): each ends at once.

So nothing the server started outlives it, and a server killed with SIGKILL
starts again on the same ports. ``PR_SET_PDEATHSIG`` is not used: it is Linux
only, and it fires when the *thread* that started the child ends, not the
process; a pipe is the portable signal, and an exact one.

Only the read end may be handed to another process (``pass_fds``): a process
holding a copy of the write end would keep the line alive. :func:`open_lifeline`
makes both ends non-inheritable, as :func:`os.pipe` does.
"""

from __future__ import annotations

import os
import select
import threading

PARENT_GONE = 1
"""The exit status of a process whose lifeline was cut (:func:`end_with`)."""


def open_lifeline() -> tuple[int, int]:
    """A new lifeline: ``(read end, write end)``, both non-inheritable.

    Raises:
        OSError: no file descriptors left.
    """
    return os.pipe()


def cut(fd: int) -> bool:
    """Whether the lifeline's read end ``fd`` reads end of file now (the parent
    is gone). Never blocks; anything written into the pipe is read and ignored.

    Raises:
        OSError: ``fd`` is not open.
    """
    while select.select([fd], [], [], 0)[0]:
        if not os.read(fd, 4096):
            return True
    return False


def end_with(fd: int) -> threading.Thread:
    """End this process (``os._exit(PARENT_GONE)``, no clean-up: there is
    nobody left to talk to) as soon as the lifeline's read end ``fd`` reads end
    of file. Watched by a daemon thread, returned started."""

    def watch() -> None:
        try:
            while os.read(fd, 4096):
                pass
        except OSError:
            pass
        os._exit(PARENT_GONE)

    thread = threading.Thread(target=watch, name="craits-lifeline", daemon=True)
    thread.start()
    return thread
