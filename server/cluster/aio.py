"""Cancellation that redis-py may swallow (docs/cluster.md).

redis-py's asyncio client (seen with 8.1) can catch a cancellation that lands
while a command waits for its answer and return normally (``None``) instead
of raising :class:`asyncio.CancelledError`. A loop around such a call would
then go on for ever, and whatever awaits the cancelled task (a node's stop,
a drain) would wait for ever with it. Each loop that calls Redis calls
:func:`stop_if_cancelled` after each call.
"""

from __future__ import annotations

import asyncio


def stop_if_cancelled() -> None:
    """Raise :class:`asyncio.CancelledError` if the running task is being cancelled.

    Raises:
        asyncio.CancelledError: it is (its cancellation was swallowed on the way).
    """
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
