"""Which servers this client registered with, and under which name: one JSON file
(``accounts.json``) beside the device key, in the client's config directory
(docs/accounts.md, *Identity*). Only names are kept here, no secret: the key is
``identity.pem`` (:mod:`craits.protocol.identity`), and the recovery codes are
shown once and never written.

Errors reading the file mean no server is remembered (the player is a guest
there, and can register again); errors writing it are raised to the caller.
"""

from __future__ import annotations

import json
from pathlib import Path

import platformdirs

from .files import write_private_json

FILE_NAME = "accounts.json"


def default_account_dir() -> Path:
    """The platform's config directory for Craits (``~/.config/craits`` on Linux),
    where the device key and this file are kept."""
    return Path(platformdirs.user_config_dir("craits"))


class SavedAccounts:
    """The servers registered with, by server key (``HOST:PORT``, as
    :func:`~.server_keys.server_key` writes it).

    Args:
        folder: the folder the file lives in (the key's).
    """

    def __init__(self, folder: Path):
        self.path = folder / FILE_NAME

    def load(self) -> dict[str, str]:
        """Server key → the account's name; broken entries are left out."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        servers = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(servers, dict):
            return {}
        return {k: v for k, v in servers.items() if isinstance(k, str) and isinstance(v, str)}

    def name_for(self, server: str) -> str | None:
        """The account's name on ``server``, or None when not registered there."""
        return self.load().get(server)

    def remember(self, server: str, name: str) -> None:
        """Keep that this device has an account named ``name`` on ``server``.

        Raises:
            OSError: the file cannot be written.
        """
        servers = self.load()
        servers[server] = name
        write_private_json(self.path, {"servers": servers})
