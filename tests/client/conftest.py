"""Fixtures for the client's Pilot tests: an app factory pointed at the test server
(the server's fixtures and the helpers the tests share are in :mod:`tests.support`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from craits.client.core.saved.resume_tokens import TokenStore
from craits.client.tui.app import CraitsApp
from craits.server.app import Server


@pytest.fixture
def make_app(server: Server, tmp_path: Path) -> Callable[..., CraitsApp]:
    """Build a client app pointed at the test server, with its own token file."""

    def _make(name: str = "Ana", **kwargs: Any) -> CraitsApp:
        kwargs.setdefault("store", TokenStore(tmp_path / f"resume-{name}.json"))
        kwargs.setdefault("retry_base", 0.05)
        kwargs.setdefault("retry_max", 0.2)
        return CraitsApp("127.0.0.1", server.port, name, **kwargs)

    return _make
