"""Accounts: who a player is across connections, and what hangs on it (issue 26,
docs/accounts.md).

What it holds:

* :mod:`.names` — a registered name's canonical form (NFKC, then case folding);
* :mod:`.identity` — the server's side of the Ed25519 login: a connection's
  single-use :class:`~.identity.Challenge` and the signature check (the message
  itself and the client's key file are in :mod:`craits.protocol.identity`);
* :mod:`.secrets` — recovery codes and pairing codes, argon2id hashing run in an
  executor (:class:`~.secrets.SecretHasher`), and the attempt limits per address
  and per account (:class:`~.secrets.AttemptLimiter`);
* :mod:`.ratings` — OpenSkill's Plackett–Luce from a finished game's ranking,
  the Elo-like display and its provisional "?", and :func:`~.ratings.rerate`;
* :mod:`.store` — :class:`~.store.AccountStore`, the one async interface over
  accounts, device keys, secrets' hashes, ratings, rated results, history and the
  leaderboard, with its two implementations: SQLite in the data directory
  (:mod:`.sqlite`) and PostgreSQL for a cluster (:mod:`.postgres`).

What it may import: the standard library, ``cryptography``, ``argon2``,
``openskill``, ``asyncpg`` (only in :mod:`.postgres`, and only when that
module is used), :mod:`craits.protocol` (not its wire or its client) and the
engine's types. It knows nothing of the network, the handlers, the tables or
the client: the server wires it in (docs/accounts.md, *Wiring*).

What must not import it: the rules engine, the protocol and the client (the
import contracts in pyproject.toml hold all three).
"""
