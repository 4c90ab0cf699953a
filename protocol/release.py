"""The installed Craits release's version, for ``--version`` and the server's ``welcome``."""

from __future__ import annotations

from importlib import metadata

DISTRIBUTION = "craits"
"""The distribution (``pip install craits``) whose metadata holds the version."""


def version() -> str:
    """The installed distribution's version (``0.1.0``), or ``unknown`` when
    the package runs from a tree that was never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"
