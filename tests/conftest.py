"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_VECTORS = REPO.parent / "shared" / "vectors"


@pytest.fixture
def vectors_dir() -> Path:
    """The shared rule vectors folder (``../shared/vectors``)."""
    if not SHARED_VECTORS.is_dir():
        pytest.skip("../shared/vectors is not present")
    return SHARED_VECTORS
