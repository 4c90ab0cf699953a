"""Where a server's account store lives (docs/accounts.md, *Store*; protocol §7.5).

* ``--accounts-db postgresql://…`` (the setting ``accounts-db``): PostgreSQL,
  shared by every node of a cluster (:func:`~.postgres.open_postgres_store`);
* ``--accounts-db FILE``: that SQLite file (``craits-server --workers N``
  gives its workers the one in its data directory: SQLite serves the processes
  of one machine, and its unique names hold across them);
* else, with a data directory: ``accounts.db`` beside the journal
  (:func:`~.sqlite.open_sqlite_store`);
* else (``--no-journal``, a throwaway server): an SQLite file in a private
  temporary directory, removed when the store closes. Accounts then last as
  long as the server, like its tables: the same flows and queries as a real
  server's, no second implementation to keep.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from .sqlite import FILE_NAME, open_sqlite_store
from .store import AccountStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""The connection strings ``--accounts-db`` takes."""


class OpenedStore:
    """An open account store, and what closing it must also remove.

    Attributes:
        store: the store.
        where: what it is, for the log (never a password: a DSN's is left out).
    """

    def __init__(self, store: AccountStore, where: str, scratch: Path | None = None) -> None:
        self.store = store
        self.where = where
        self._scratch = scratch

    async def close(self) -> None:
        """Close the store; a throwaway server's file is removed."""
        await self.store.close()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)


def shown_dsn(dsn: str) -> str:
    """A connection string as logged: the password (``user:password@``) left out."""
    scheme, _, rest = dsn.partition("://")
    if "@" in rest:
        userinfo, _, host = rest.rpartition("@")
        rest = f"{userinfo.split(':', 1)[0]}@{host}"
    return f"{scheme}://{rest}"


async def open_account_store(data_dir: Path | None, dsn: str | None) -> OpenedStore:
    """The server's account store (see the module's docstring).

    Args:
        data_dir: the server's data directory, or None.
        dsn: ``--accounts-db``: a PostgreSQL URL or an SQLite file's path; None:
            the data directory's file.

    Raises:
        SchemaTooNew: the database was made by a newer release.
        OSError, sqlite3.Error, asyncpg errors: it cannot be opened.
    """
    if dsn is not None and dsn.startswith(POSTGRES_SCHEMES):
        from .postgres import open_postgres_store  # asyncpg: the cluster extra only

        return OpenedStore(await open_postgres_store(dsn), shown_dsn(dsn))
    if dsn:
        return OpenedStore(await open_sqlite_store(Path(dsn)), dsn)
    if data_dir is not None:
        path = data_dir / FILE_NAME
        return OpenedStore(await open_sqlite_store(path), str(path))
    scratch = Path(tempfile.mkdtemp(prefix="craits-accounts-"))
    try:
        store = await open_sqlite_store(scratch / FILE_NAME)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return OpenedStore(store, "a temporary file (no data directory)", scratch)
