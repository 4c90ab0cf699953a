"""Fixtures of the screens' tests: the watched and exported game the replay and the
end of a game are shown from (``tests/support/plugin.py``'s ``watched_game``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.replays import WatchedGame


@pytest.fixture
def watched(watched_game: WatchedGame) -> WatchedGame:
    """The session's watched and exported game (``tests/support/plugin.py``)."""
    return watched_game


@pytest.fixture
def record(watched: WatchedGame) -> dict[str, Any]:
    """The record of that game (its hands with their frames)."""
    return watched.record
