"""Shared test helpers."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_VECTORS = REPO.parent / "shared" / "vectors"

_USER_DIRS = ("XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME")
_HOME = pytest.StashKey[Path]()


def pytest_configure(config: pytest.Config) -> None:
    """Point the user's state, data and config directories (XDG) at a fresh folder
    of this process, for the tests and every process they start: a test never reads
    or writes the real user's files, and two workers (pytest-xdist) or two runs never
    share them. A test that needs its own sets them again (``monkeypatch.setenv``)."""
    home = Path(tempfile.mkdtemp(prefix="craits-tests-home-"))
    config.stash[_HOME] = home
    for name in _USER_DIRS:
        folder = home / name.lower()
        folder.mkdir()
        os.environ[name] = str(folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the folder :func:`pytest_configure` made."""
    home = config.stash.get(_HOME, None)
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)


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
    (:func:`tests.server.replays.exported_game`): one per test session, shared
    by the replay tests of the server and of the client."""
    from tests.server.replays import exported_game

    return asyncio.run(exported_game(tmp_path_factory.mktemp("replay")))
