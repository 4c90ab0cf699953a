"""The language spoken is one per process: each test that changes it gets English back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from craits.protocol import i18n


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Speak English again after the test."""
    yield
    i18n.set_language(i18n.SOURCE)
