"""The server's log lines: plain text or JSON, each naming the connection
(its peer's ``ip:port``), the table and the seat it is about.

Nothing at the call sites changes: the connection binds itself
(:data:`CONNECTION`) while it handles what it received, and the table it
is at (:data:`TABLE`) while it handles a frame; a table's own timers run in a
context naming only the table (:func:`table_context`). The
:class:`ContextFilter` on the handler reads them when a line is written and
adds ``peer``, ``table`` and ``seat`` to the record; the formatters write them.

- plain: ``2026-12-01 22:00:00,123 INFO table t: ana took seat 0``
  ``[peer=127.0.0.1:5123 table=t seat=0]`` (on one line)
- json: one object per line: ``time`` (ISO 8601, UTC, ms), ``level``,
  ``logger``, ``message``, and ``peer``, ``table``, ``seat`` when known
  (``exc``: a traceback, when there is one).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Protocol, TextIO

FORMATS = ("plain", "json")
"""The values of ``--log-format``."""
LEVELS = ("debug", "info", "warning", "error")
"""The values of ``--log-level``."""


class _Seating(Protocol):
    def seat_of(self, member: Any) -> int | None: ...


class _Table(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def seating(self) -> _Seating: ...


class Subject(Protocol):
    """What a log line can be about: a connection, with its peer and table."""

    @property
    def peer(self) -> str: ...
    @property
    def table(self) -> _Table | None: ...


CONNECTION: contextvars.ContextVar[Subject | None] = contextvars.ContextVar(
    "craits_connection", default=None
)
"""The connection whose input is being handled (None: none)."""
TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("craits_table", default=None)
SEAT: contextvars.ContextVar[int | None] = contextvars.ContextVar("craits_seat", default=None)
"""The connection's seat when :func:`about` began (it may give it up inside)."""
"""The name of the table being acted on: the connection's table as the frame
began (it may leave during it), or the table whose timer fired."""


def table_context(name: str) -> contextvars.Context:
    """A fresh context naming only table ``name``, for the table's timers
    (``loop.call_later(..., context=table_context(name))``): what they log is
    about the table, not about whichever connection set them."""
    context = contextvars.Context()
    context.run(TABLE.set, name)
    return context


def bare_context() -> contextvars.Context:
    """A context naming nothing, for the server's own callbacks (the end-of-pass
    flush), which are about no one connection."""
    return contextvars.Context()


@contextlib.contextmanager
def about(subject: Subject) -> Iterator[None]:
    """Within the block, log lines are about ``subject`` (a connection): for
    the rare lines written from outside its own input (a heartbeat drop, a
    backlog over the cap found while another connection writes to it)."""
    at = subject.table
    connection = CONNECTION.set(subject)
    table = TABLE.set(at.name if at is not None else None)
    seat = SEAT.set(at.seating.seat_of(subject) if at is not None else None)
    try:
        yield
    finally:
        SEAT.reset(seat)
        TABLE.reset(table)
        CONNECTION.reset(connection)


def context_fields() -> dict[str, Any]:
    """``peer``, ``table`` and ``seat`` of the line being written, those known."""
    fields: dict[str, Any] = {}
    subject = CONNECTION.get()
    table_name = TABLE.get()
    if subject is not None:
        fields["peer"] = subject.peer
        table = subject.table
        seat = SEAT.get()
        if table is not None:
            table_name = table.name
            seat = table.seating.seat_of(subject)
        if seat is not None:
            fields["seat"] = seat
    if table_name is not None:
        fields["table"] = table_name
    return fields


class ContextFilter(logging.Filter):
    """Adds ``peer``, ``table`` and ``seat`` (each None when not known) to
    every record; a value given with ``extra=`` stands."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Add the fields; keeps every record. A line outside any context
        that follows the server's convention (``"table %s: ..."``,
        ``"connection %s: ..."``, the name or peer first) is taken at its word."""
        fields = context_fields()
        args = record.args
        if isinstance(args, tuple) and args and isinstance(record.msg, str):
            if "table" not in fields and record.msg.startswith("table %s"):
                fields["table"] = str(args[0])
            elif "peer" not in fields and record.msg.startswith("connection %s"):
                fields["peer"] = str(args[0])
        for key in ("peer", "table", "seat"):
            if not hasattr(record, key):
                setattr(record, key, fields.get(key))
        return True


class PlainFormatter(logging.Formatter):
    """``TIME LEVEL message [peer=… table=… seat=…]`` (the bracket only when known)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """The line, with the context it is about."""
        text = super().format(record)
        known = [
            f"{key}={value}"
            for key in ("peer", "table", "seat")
            if (value := getattr(record, key, None)) is not None
        ]
        if not known:
            return text
        first, newline, rest = text.partition("\n")
        return f"{first} [{' '.join(known)}]{newline}{rest}"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``time``, ``level``, ``logger``, ``message``,
    then ``peer``, ``table``, ``seat`` when known, ``exc`` when there is a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        stamp = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": stamp.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("peer", "table", "seat"):
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def setup(level: str = "info", fmt: str = "plain", stream: TextIO | None = None) -> None:
    """Send every log line at ``level`` or above to ``stream`` (stderr) in
    format ``fmt`` (:data:`FORMATS`), with its context (:class:`ContextFilter`).

    Raises:
        ValueError: an unknown format or level.
    """
    if fmt not in FORMATS or level not in LEVELS:
        raise ValueError(f"log format {fmt!r} / level {level!r} unknown")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else PlainFormatter())
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
