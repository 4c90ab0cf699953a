"""The account store: one async interface over accounts, device keys, secrets'
hashes, ratings, rated results, history and the leaderboard (docs/accounts.md,
*Store*).

:class:`AccountStore` is the same on both databases: its queries are written
once against :class:`~.database.Database`, which SQLite (:mod:`.sqlite`, a
single server) and PostgreSQL (:mod:`.postgres`, a cluster) each implement. Its
parts, by responsibility:

* :attr:`AccountStore.accounts` (:class:`Accounts`) — names, accounts, devices,
  the optional password's hash;
* :attr:`AccountStore.codes` (:class:`Codes`) — recovery and pairing codes' hashes,
  spent once;
* :attr:`AccountStore.results` (:class:`~.results.Results`) — games, ratings,
  history, the leaderboard, rerating.

The store checks nothing secret itself: callers hash and verify
(:class:`~.secrets.SecretHasher`), the store keeps hashes and spends them
atomically (a code can be spent once even by two nodes at the same moment).
"""

from __future__ import annotations

from collections.abc import Sequence

from .database import Conflict, Database, Row
from .identity import usable_public_key
from .model import Account, Device, InvalidKey, KeyInUse, NameTaken, UnknownAccount
from .names import canonical_name
from .results import Results

_ACCOUNT = "id, name, canonical, created_at, last_seen, password_hash"
_DEVICE = "id, account_id, public_key, label, added_at, last_used, revoked_at"


def _account(row: Row) -> Account:
    return Account(
        id=int(row["id"]),
        name=row["name"],
        canonical=row["canonical"],
        created_at=float(row["created_at"]),
        last_seen=row["last_seen"],
        has_password=row["password_hash"] is not None,
    )


def _device(row: Row) -> Device:
    return Device(
        id=int(row["id"]),
        account_id=int(row["account_id"]),
        public_key=bytes(row["public_key"]),
        label=row["label"],
        added_at=float(row["added_at"]),
        last_used=row["last_used"],
        revoked_at=row["revoked_at"],
    )


class Accounts:
    """Names, accounts, devices and passwords' hashes."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, name: str, public_key: bytes, label: str, now: float) -> Account:
        """Register ``name`` with its first device key.

        Raises:
            InvalidName: the name cannot be registered (:func:`~.names.check_name`).
            InvalidKey: the key may not be registered.
            NameTaken: its canonical form is another account's.
            KeyInUse: the key is another device's.
        """
        canonical = canonical_name(name)
        if not usable_public_key(public_key):
            raise InvalidKey("not a usable Ed25519 public key")
        try:
            async with self._db.transaction() as tx:
                if await tx.fetchrow("SELECT id FROM accounts WHERE canonical = $1", canonical):
                    raise NameTaken(name)
                if await tx.fetchrow("SELECT id FROM devices WHERE public_key = $1", public_key):
                    raise KeyInUse()
                row = await tx.fetchrow(
                    "INSERT INTO accounts (name, canonical, created_at) VALUES ($1, $2, $3)"
                    f" RETURNING {_ACCOUNT}",
                    name,
                    canonical,
                    float(now),
                )
                assert row is not None
                await tx.execute(
                    "INSERT INTO devices (account_id, public_key, label, added_at)"
                    " VALUES ($1, $2, $3, $4)",
                    row["id"],
                    public_key,
                    label,
                    float(now),
                )
        except Conflict as exc:  # another node took it between the check and the insert
            raise (NameTaken(name) if "canonical" in str(exc) else KeyInUse()) from exc
        return _account(row)

    async def by_id(self, account_id: int) -> Account | None:
        """The account with that id, or None."""
        row = await self._db.fetchrow(f"SELECT {_ACCOUNT} FROM accounts WHERE id = $1", account_id)
        return None if row is None else _account(row)

    async def by_name(self, name: str) -> Account | None:
        """The account whose name has the same canonical form as ``name``, or None
        (also for a name that could never be registered)."""
        try:
            canonical = canonical_name(name)
        except ValueError:
            return None
        row = await self._db.fetchrow(
            f"SELECT {_ACCOUNT} FROM accounts WHERE canonical = $1", canonical
        )
        return None if row is None else _account(row)

    async def by_key(self, public_key: bytes) -> tuple[Account, Device] | None:
        """The account and device of an active (not revoked) key, or None."""
        row = await self._db.fetchrow(
            f"SELECT {_DEVICE} FROM devices WHERE public_key = $1 AND revoked_at IS NULL",
            public_key,
        )
        if row is None:
            return None
        device = _device(row)
        account = await self.by_id(device.account_id)
        return None if account is None else (account, device)

    async def seen(self, account_id: int, device_id: int | None, now: float) -> None:
        """Note a login: the account's last seen, and the device's last use."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE accounts SET last_seen = $1 WHERE id = $2", float(now), account_id
            )
            if device_id is not None:
                await tx.execute(
                    "UPDATE devices SET last_used = $1 WHERE id = $2 AND account_id = $3",
                    float(now),
                    device_id,
                    account_id,
                )

    async def add_device(
        self, account_id: int, public_key: bytes, label: str, now: float
    ) -> Device:
        """Add a device key to an account (after a pairing code or a recovery code).

        Raises:
            InvalidKey: the key may not be registered.
            KeyInUse: the key is a device's already (any account's, revoked or not).
            UnknownAccount: no such account.
        """
        if not usable_public_key(public_key):
            raise InvalidKey("not a usable Ed25519 public key")
        if await self.by_id(account_id) is None:
            raise UnknownAccount(account_id)
        try:
            row = await self._db.fetchrow(
                "INSERT INTO devices (account_id, public_key, label, added_at)"
                f" VALUES ($1, $2, $3, $4) RETURNING {_DEVICE}",
                account_id,
                public_key,
                label,
                float(now),
            )
        except Conflict as exc:
            raise KeyInUse() from exc
        assert row is not None
        return _device(row)

    async def devices(self, account_id: int) -> list[Device]:
        """Every device of the account, revoked ones too, oldest first."""
        rows = await self._db.fetch(
            f"SELECT {_DEVICE} FROM devices WHERE account_id = $1 ORDER BY id", account_id
        )
        return [_device(r) for r in rows]

    async def revoke_device(self, account_id: int, device_id: int, now: float) -> bool:
        """Revoke one of the account's devices: its key no longer logs in.

        Returns:
            True if it was active and is revoked now; False if it is not the
            account's, or was revoked already.
        """
        row = await self._db.fetchrow(
            "UPDATE devices SET revoked_at = $1"
            " WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL RETURNING id",
            float(now),
            device_id,
            account_id,
        )
        return row is not None

    async def set_password_hash(self, account_id: int, password_hash: str | None) -> None:
        """Set (or, with None, remove) the account's password's argon2id hash."""
        await self._db.execute(
            "UPDATE accounts SET password_hash = $1 WHERE id = $2", password_hash, account_id
        )

    async def password_hash(self, account_id: int) -> str | None:
        """The account's password's hash, or None when it has no password."""
        row = await self._db.fetchrow(
            "SELECT password_hash FROM accounts WHERE id = $1", account_id
        )
        return None if row is None else row["password_hash"]


class Codes:
    """Recovery and pairing codes' hashes, each spent once."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def set_recovery(self, account_id: int, hashes: Sequence[str]) -> None:
        """Replace the account's recovery codes with these hashes (the old ones
        stop working)."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM recovery_codes WHERE account_id = $1", account_id)
            await tx.executemany(
                "INSERT INTO recovery_codes (account_id, code_hash) VALUES ($1, $2)",
                [(account_id, h) for h in hashes],
            )

    async def unused_recovery(self, account_id: int) -> list[tuple[int, str]]:
        """The account's unused recovery codes: ``(code id, hash)``."""
        rows = await self._db.fetch(
            "SELECT id, code_hash FROM recovery_codes"
            " WHERE account_id = $1 AND used_at IS NULL ORDER BY id",
            account_id,
        )
        return [(int(r["id"]), r["code_hash"]) for r in rows]

    async def spend_recovery(self, account_id: int, code_id: int, now: float) -> bool:
        """Mark a recovery code used. Returns False if it was used already (by a
        racing attempt) or is not the account's."""
        row = await self._db.fetchrow(
            "UPDATE recovery_codes SET used_at = $1"
            " WHERE id = $2 AND account_id = $3 AND used_at IS NULL RETURNING id",
            float(now),
            code_id,
            account_id,
        )
        return row is not None

    async def add_pairing(self, account_id: int, code_hash: str, expires_at: float) -> int:
        """Keep a pairing code's hash until ``expires_at``; returns its id."""
        row = await self._db.fetchrow(
            "INSERT INTO pairing_codes (account_id, code_hash, expires_at)"
            " VALUES ($1, $2, $3) RETURNING id",
            account_id,
            code_hash,
            float(expires_at),
        )
        assert row is not None
        return int(row["id"])

    async def pending_pairings(self, account_id: int, now: float) -> list[tuple[int, str]]:
        """The account's pairing codes neither used nor expired: ``(id, hash)``."""
        rows = await self._db.fetch(
            "SELECT id, code_hash FROM pairing_codes"
            " WHERE account_id = $1 AND used_at IS NULL AND expires_at > $2 ORDER BY id",
            account_id,
            float(now),
        )
        return [(int(r["id"]), r["code_hash"]) for r in rows]

    async def spend_pairing(self, account_id: int, pairing_id: int, now: float) -> bool:
        """Mark a pairing code used. Returns False if it was used already, has
        expired, or is not the account's."""
        row = await self._db.fetchrow(
            "UPDATE pairing_codes SET used_at = $1 WHERE id = $2 AND account_id = $3"
            " AND used_at IS NULL AND expires_at > $1 RETURNING id",
            float(now),
            pairing_id,
            account_id,
        )
        return row is not None

    async def purge_pairings(self, now: float) -> int:
        """Forget used and expired pairing codes; returns how many."""
        rows = await self._db.fetch(
            "DELETE FROM pairing_codes WHERE used_at IS NOT NULL OR expires_at <= $1 RETURNING id",
            float(now),
        )
        return len(rows)


class AccountStore:
    """The account store over one database (open it with
    :func:`~.sqlite.open_sqlite_store` or :func:`~.postgres.open_postgres_store`).

    Attributes:
        accounts: names, accounts, devices, passwords' hashes.
        codes: recovery and pairing codes' hashes.
        results: games, ratings, history, the leaderboard.
        dialect: ``sqlite`` or ``postgres``.
    """

    def __init__(self, db: Database) -> None:
        self._db = db
        self.dialect = db.dialect
        self.accounts = Accounts(db)
        self.codes = Codes(db)
        self.results = Results(db)

    async def schema_version(self) -> int:
        """The schema version the database is at (:mod:`.schema`)."""
        row = await self._db.fetchrow("SELECT MAX(version) AS v FROM schema_migrations")
        return 0 if row is None or row["v"] is None else int(row["v"])

    async def close(self) -> None:
        """Close the database (the store is unusable afterwards)."""
        await self._db.close()
