"""Prometheus metrics of a running server (``craits-server --metrics-port``).

Served over HTTP by the ``prometheus_client`` library (an optional extra:
``pip install 'craits[metrics]'``) from its own thread, at
``http://HOST:PORT/metrics``:

- ``craits_connections`` (gauge): open connections.
- ``craits_tables{state}`` (gauge): tables by state (protocol §11.1).
- ``craits_actions_total`` (counter): ``act`` messages handled (§6), applied
  or refused.
- ``craits_journal_commit_seconds`` (histogram): how long each batch of
  journal writes took to be committed, from the moment the server handed it
  to the journal's writer to its answer (one transaction per batch), seconds.
- ``craits_errors_sent_total{code}`` (counter): ``error`` replies sent, by code (§12).
- ``craits_build_info{version}``: 1, labelled with the server's release.

The gauges are read when scraped, costing play nothing; on the hot path an
action costs one counter increment. Until :func:`start` the module's
instruments (:data:`actions`, :data:`errors`, :data:`journal_commit`) do
nothing, so the server calls them unconditionally: callers look them up as
``metrics.actions`` at call time.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Iterator, Sized
from typing import Any, Protocol

from craits.protocol.release import version
from craits.protocol.vocab import TableState

from ..errors import MetricsUnavailable

log = logging.getLogger("craits.server")

INSTALL_HINT = "pip install 'craits[metrics]' (the prometheus_client library)"
"""How to get the library, for the message when it is missing."""


class Instrument(Protocol):
    """What the server calls: a counter's ``inc``, a histogram's ``observe``,
    a labelled family's ``labels``."""

    def inc(self, amount: float = 1) -> None:
        """Add ``amount``."""

    def observe(self, amount: float) -> None:
        """Record one observation (seconds)."""

    def labels(self, *values: str) -> Instrument:
        """The child for these label values."""


class _Nothing:
    """An instrument that records nothing: metrics are off."""

    def inc(self, amount: float = 1) -> None:
        """Nothing."""

    def observe(self, amount: float) -> None:
        """Nothing."""

    def labels(self, *values: str) -> Instrument:
        """Itself."""
        return self


NOTHING: Instrument = _Nothing()
actions: Any = NOTHING
"""``craits_actions_total``: one ``inc()`` per ``act`` handled."""
errors: Any = NOTHING
"""``craits_errors_sent_total``: ``labels(code).inc()`` per ``error`` sent."""
journal_commit: Any = NOTHING
"""``craits_journal_commit_seconds``: ``observe(seconds)`` per journal commit."""


class Stateful(Protocol):
    """A table's status as the gauges see it."""

    @property
    def state(self) -> str:
        """Its state (``waiting``, ``playing``...)."""


class WithStatus(Protocol):
    """A table as the gauges see it: its status."""

    @property
    def status(self) -> Stateful:
        """Its status."""


class ServerView(Protocol):
    """The server as the gauges see it."""

    @property
    def clients(self) -> Sized:
        """The open connections."""

    @property
    def tables(self) -> dict[str, Any]:
        """The tables, by name."""


class Exporter:
    """The HTTP endpoint serving the metrics; :meth:`stop` ends it."""

    def __init__(self, httpd: Any, thread: Any, host: str, port: int) -> None:
        self._httpd = httpd
        self._thread = thread
        self.host = host
        self.port = port
        """The port it listens on (the one asked for, or the one picked for 0)."""

    def stop(self) -> None:
        """Stop serving and turn the instruments back off."""
        global actions, errors, journal_commit
        self._httpd.shutdown()
        self._httpd.server_close()
        actions = errors = journal_commit = NOTHING


def available() -> bool:
    """Whether ``prometheus_client`` can be imported."""
    try:
        import prometheus_client  # noqa: F401
    except ImportError:
        return False
    return True


def tables_by_state(tables: Iterable[WithStatus]) -> dict[str, int]:
    """How many of ``tables`` are in each state (every state of protocol §11.1
    listed, 0 when none)."""
    counts = Counter(str(t.status.state) for t in tables)
    return {str(state): counts.get(str(state), 0) for state in TableState}


def start(server: ServerView, host: str, port: int) -> Exporter:
    """Serve ``server``'s metrics at ``http://host:port/metrics`` (port 0:
    any free port, see :attr:`Exporter.port`) and turn the instruments on.

    Raises:
        MetricsUnavailable: ``prometheus_client`` is not installed.
        OSError: the address cannot be bound.
    """
    global actions, errors, journal_commit
    try:
        from prometheus_client import CollectorRegistry, Gauge, Histogram, Info, start_http_server
        from prometheus_client import Counter as PromCounter
        from prometheus_client.core import GaugeMetricFamily
    except ImportError:
        raise MetricsUnavailable(f"metrics need prometheus_client: {INSTALL_HINT}") from None

    registry = CollectorRegistry()
    Gauge("craits_connections", "Open connections", registry=registry).set_function(
        lambda: len(server.clients)
    )

    class Tables:
        """``craits_tables{state}``, counted when scraped."""

        def collect(self) -> Iterator[Any]:
            """One gauge family, a sample per state."""
            family = GaugeMetricFamily("craits_tables", "Tables by state", labels=["state"])
            # list(): a copy taken at once, as the loop thread may change the dict
            for state, n in tables_by_state(list(server.tables.values())).items():
                family.add_metric([state], n)
            yield family

    registry.register(Tables())
    Info("craits_build", "The server's release", registry=registry).info({"version": version()})
    new_actions = PromCounter(
        "craits_actions", "Actions (act messages) handled, applied or refused", registry=registry
    )
    new_errors = PromCounter(
        "craits_errors_sent", "Error replies sent, by code", ["code"], registry=registry
    )
    buckets = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
    new_commit = Histogram(
        "craits_journal_commit_seconds",
        "Time from handing a batch of journal writes to the writer to its commit, seconds",
        buckets=buckets,
        registry=registry,
    )
    httpd, thread = start_http_server(port, addr=host, registry=registry)
    actions, errors, journal_commit = new_actions, new_errors, new_commit
    bound = int(httpd.server_address[1])
    log.info("metrics on http://%s:%d/metrics", host, bound)
    return Exporter(httpd, thread, host, bound)
