"""The repository's paths the tests read."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
"""The repository's root (this worktree's)."""

SHARED_VECTORS = REPO.parent / "shared" / "vectors"
"""The shared rule vectors (``../shared/vectors``, beside the repository)."""
