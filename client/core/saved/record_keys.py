"""The tokens this client held at each server, kept to read its private games'
records later (protocol §7.3, ``docs/records.md``).

A private table's records are its players' and its creator's: the server lets
a request read them when it sends a token that proves a seat there (the seat's
resume token) or the creator (the creator's token, ``table_created``). The
resume tokens file (:mod:`craits.client.core.saved.resume_tokens`) holds one seat per server and
name, the one to resume; this file keeps every token held, so a game is still
readable long after its table closed, as the commitments are kept
(:mod:`craits.client.core.saved.commitments`). One JSON file beside the resume tokens,
readable by its owner only::

    <user state dir>/craits/record-keys.json

    {"format": "craits-record-keys", "version": 1,
     "servers": {"localhost:7777": [{"token": "…", "table": "t1"}, …]}}

Servers are keyed as the resume tokens are
(:func:`craits.client.core.saved.server_keys.address_key`),
each one's tokens newest first, at most :data:`KEPT` of them (what one request
may send). Errors reading or writing the file are ignored: a lost token only
means a private game's record cannot be fetched by this client.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from craits.protocol.messages import MAX_RECORD_TOKENS

from .files import write_private_json
from .server_keys import address_key

FILE_NAME = "record-keys.json"
FORMAT = "craits-record-keys"
VERSION = 1
KEPT = MAX_RECORD_TOKENS
"""Tokens kept per server: as many as a request for records may send."""


class RecordKeys:
    """The tokens kept in ``folder`` (the resume tokens' folder)."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / FILE_NAME

    def _load(self) -> dict[str, list[dict[str, Any]]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        servers = data.get("servers") if isinstance(data, dict) else None
        if not isinstance(servers, dict):
            return {}
        return {
            str(k): [e for e in v if isinstance(e, dict) and isinstance(e.get("token"), str)]
            for k, v in servers.items()
            if isinstance(v, list)
        }

    def keep(self, address: str, token: str, table: str) -> None:
        """Keep ``token`` (held at ``table`` on the server at ``address``), newest first."""
        servers = self._load()
        key = address_key(address)
        kept = [e for e in servers.get(key, []) if e["token"] != token]
        servers[key] = [{"token": token, "table": table}, *kept][:KEPT]
        self._save(servers)

    def tokens(self, address: str) -> list[str]:
        """The tokens kept for the server at ``address``, newest first."""
        return [str(e["token"]) for e in self._load().get(address_key(address), [])]

    def _save(self, servers: dict[str, list[dict[str, Any]]]) -> None:
        data = {"format": FORMAT, "version": VERSION, "servers": servers}
        with contextlib.suppress(OSError):  # (a key not kept: a record not fetched)
            write_private_json(self.path, data)
