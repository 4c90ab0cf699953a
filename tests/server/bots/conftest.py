"""Fixtures for the network bot tests: the real server of ``tests/server``."""

from __future__ import annotations

from tests.server.conftest import config, server

__all__ = ["config", "server"]
