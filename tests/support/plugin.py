"""The tests' pytest plugin (``pytest_plugins`` in ``tests/conftest.py``).

- Every test process gets its own user directories (XDG state, data, config), so no
  test reads or writes the real user's files and no two workers share them.
- The fixtures every folder may use: a real server (``config``, ``server``,
  ``connect``), raw connections to it (``net``), a Redis-backed cluster (``redis``,
  ``nodes``, ``open_player``), English again after each test (``english_after``),
  the shared rule vectors (``vectors_dir``) and one
  watched and exported game per process (``watched_game``).
- The tiers (docs/development.md): a test is ``integration`` when it runs over the
  real thing (a socket, a server or other process, Textual's Pilot, tmux, Chromium,
  Redis, PostgreSQL), told from the fixtures it asks for and what its module
  calls; every other test is ``unit``. ``pytest -m unit`` runs the unit tier alone.
  A module may say so itself with ``pytestmark = pytest.mark.integration``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from craits.protocol import i18n

from tests.support.cluster import nodes, open_player, redis
from tests.support.net import net
from tests.support.paths import SHARED_VECTORS
from tests.support.server import config, connect, server

__all__ = [
    "config",
    "connect",
    "english_after",
    "net",
    "nodes",
    "open_player",
    "redis",
    "server",
    "vectors_dir",
    "watched_game",
]

_USER_DIRS = ("XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME")
_HOME = pytest.StashKey[Path]()

REAL_FIXTURES = frozenset(
    {
        "server",
        "connect",
        "net",
        "redis",
        "nodes",
        "open_player",
        "make_app",
        "watched_game",
        "watched",
        "record",
    }
)
"""Fixtures that start a server, a process or an app: a test asking for one is
``integration``."""

REAL_BACKENDS = frozenset({"postgres"})
"""Parameters that put a test on a real server process (the accounts store's
contract tests run on SQLite and on PostgreSQL, chosen by the ``backend`` fixture)."""

REAL_CALLS = re.compile(
    r"run_test\(|Server\(|start_server\(|open_connection|Connection\.open|subprocess"
    r"|socket\.|tmux|chromium|playwright|redis|postgres|asyncpg|ProcessPool|default_pool"
    r"|http\.client|urlopen|aiohttp|open_player\(|Popen\("
)
"""What a module calls when its tests run over the real thing."""


def pytest_configure(config: pytest.Config) -> None:
    """The tiers' markers, and this process's own user directories (for the tests
    and every process they start). A test that needs its own sets them again
    (``monkeypatch.setenv``)."""
    config.addinivalue_line(
        "markers", "unit: no socket, process, app or browser (the fast tier; set by the plugin)"
    )
    config.addinivalue_line(
        "markers",
        "integration: over a real socket, process, Pilot, tmux, Chromium, Redis or "
        "PostgreSQL (set by the plugin, or by a module's pytestmark)",
    )
    home = Path(tempfile.mkdtemp(prefix="craits-tests-home-"))
    config.stash[_HOME] = home
    for name in _USER_DIRS:
        folder = home / name.lower()
        folder.mkdir()
        os.environ[name] = str(folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the user directories :func:`pytest_configure` made."""
    home = config.stash.get(_HOME, None)
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)


@cache
def _calls_the_real_thing(path: Path) -> bool:
    return REAL_CALLS.search(path.read_text(encoding="utf-8")) is not None


def tier(item: pytest.Item) -> str:
    """``"integration"`` or ``"unit"`` (see the module's text)."""
    if item.get_closest_marker("integration") is not None:
        return "integration"
    if item.get_closest_marker("unit") is not None:
        return "unit"
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = set(map(str, callspec.params.values())) if callspec is not None else set()
    if (
        fixtures & REAL_FIXTURES
        or params & REAL_BACKENDS
        or _calls_the_real_thing(Path(str(item.path)))
    ):
        return "integration"
    return "unit"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its tier."""
    for item in items:
        kind = tier(item)
        if item.get_closest_marker(kind) is None:
            item.add_marker(kind)


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """The language spoken is one per process (craits.protocol.i18n, set by a
    command's main or a test): English again after each test."""
    yield
    i18n.set_language(i18n.SOURCE)


@pytest.fixture
def vectors_dir() -> Path:
    """The shared rule vectors folder (``../shared/vectors``)."""
    if not SHARED_VECTORS.is_dir():
        pytest.skip("../shared/vectors is not present")
    return SHARED_VECTORS


@pytest.fixture(scope="session")
def watched_game(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A short game of a player and a bot at a real journaled server, watched
    live by a spectator and exported with ``craits-server export --frames``
    (:func:`tests.support.replays.exported_game`): one per test process, shared
    by the replay tests of the server and of the client."""
    from tests.support.replays import exported_game

    return asyncio.run(exported_game(tmp_path_factory.mktemp("replay")))
