"""The server's accounts desk (protocol §7.5, docs/accounts.md): the account
store it opened, the service over it, the registrations' hourly budget per
address, and the finished games on their way to the store.

The :class:`~craits.server.app.Server` holds one and asks it to open at start,
to take each finished game, and to close at stop; the account requests
(:mod:`.account_requests`) reach the service and the budget through it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..accounts.opening import OpenedStore, open_account_store, shown_dsn
from ..accounts.secrets import AttemptLimiter, Limit, SecretHasher
from ..accounts.service import AccountService
from ..errors import AccountStoreError
from .game_results import GameResults

if TYPE_CHECKING:
    from ..app import ServerConfig
    from ..table.actor import Table

log = logging.getLogger("craits.server")


class AccountDesk:
    """The accounts of one server (or one node of a cluster).

    Args:
        config: the server's settings (its data directory, ``accounts_db``,
            ``registrations_per_hour``, ``account_hashing``).
        node: this node's name in a cluster (None: a single server), which a
            game's id in a shared store starts with.
    """

    def __init__(self, config: ServerConfig, node: Callable[[], str | None]) -> None:
        self._config = config
        self.service: AccountService | None = None
        """Registration, login and the players' records; None until opened."""
        self._store: OpenedStore | None = None
        hourly = Limit(max(1, config.registrations_per_hour), 3600.0)
        self.registrations = AttemptLimiter(hourly)
        """Accounts registered per address in the last hour (§7.5)."""
        self.results = GameResults(node)
        """Finished games on their way to the account store."""

    async def open(self) -> None:
        """Open the account store (:mod:`craits.server.accounts.opening`).

        Raises:
            AccountStoreError: it cannot be opened.
        """
        config = self._config
        try:
            opened = await open_account_store(config.data_dir, config.accounts_db)
        except Exception as exc:  # sqlite3's, asyncpg's, OSError, SchemaTooNew
            where = shown_dsn(config.accounts_db) if config.accounts_db else "accounts.db"
            raise AccountStoreError(
                f"the account store ({where}) cannot be opened: {type(exc).__name__}: {exc}"
            ) from None
        self._store = opened
        self.service = AccountService(opened.store, SecretHasher(config.account_hashing))
        log.info("accounts in %s", opened.where)

    def game_over(self, table: Table) -> None:
        """``table``'s game ended: record its result with the players'
        accounts, rated if the table is (:mod:`.game_results`)."""
        if self.service is not None:
            self.results.record(self.service, table)

    async def close(self) -> None:
        """Let the finished games reach the store, then close it (a desk
        that never opened closes at once)."""
        await self.results.settle()
        if self._store is not None:
            await self._store.close()
            self._store = None
