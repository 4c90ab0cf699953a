"""Shared test helpers."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from craits.protocol import i18n

REPO = Path(__file__).resolve().parent.parent
SHARED_VECTORS = REPO.parent / "shared" / "vectors"


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
    (:func:`tests.server.replays.exported_game`): one per test session, shared
    by the replay tests of the server and of the client."""
    from tests.server.replays import exported_game

    return asyncio.run(exported_game(tmp_path_factory.mktemp("replay")))
