"""The account store's contract, run against a real SQLite file and a real
PostgreSQL (docs/accounts.md, *Store*)."""

from __future__ import annotations

import asyncio

import pytest
from craits.protocol.identity import public_key_bytes
from craits.server.accounts.model import (
    DuplicateGame,
    GameRecord,
    InvalidKey,
    KeyInUse,
    NameTaken,
    Seat,
    UnknownAccount,
)
from craits.server.accounts.names import InvalidName
from craits.server.accounts.ratings import Rating, Standing, rate_game
from craits.server.accounts.secrets import (
    PAIRING_TTL,
    SecretHasher,
    normalize_code,
    pairing_code,
    recovery_codes,
)
from craits.server.accounts.store import AccountStore
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

NOW = 1_800_000_000.0
DAY = 86400.0


def new_key() -> bytes:
    return public_key_bytes(Ed25519PrivateKey.generate())


async def register(store: AccountStore, name: str, now: float = NOW) -> int:
    return (await store.accounts.create(name, new_key(), "laptop", now)).id


# --- names and accounts -----------------------------------------------------------------


async def test_an_account_is_found_by_name_key_and_id(store: AccountStore) -> None:
    key = new_key()
    account = await store.accounts.create("María", key, "laptop", NOW)
    assert (account.name, account.canonical, account.created_at) == ("María", "maría", NOW)
    assert account.last_seen is None and not account.has_password
    assert await store.accounts.by_id(account.id) == account
    assert await store.accounts.by_name("MARÍA") == account
    assert await store.accounts.by_name("mari\u0301a") == account  # decomposed accent
    found = await store.accounts.by_key(key)
    assert found is not None and found[0] == account and found[1].public_key == key
    assert await store.accounts.by_name("maria") is None  # no accent: another name
    assert await store.accounts.by_name("") is None
    assert await store.accounts.by_key(new_key()) is None
    assert await store.accounts.by_id(account.id + 1000) is None


@pytest.mark.parametrize("other", ["maria", "MARIA", "Maria", "ｍａｒｉａ", "ＭＡＲＩＡ"])
async def test_a_name_differing_by_case_or_compatibility_form_is_taken(
    store: AccountStore, other: str
) -> None:
    await register(store, "Maria")
    with pytest.raises(NameTaken):
        await store.accounts.create(other, new_key(), "phone", NOW)


async def test_a_key_registers_once(store: AccountStore) -> None:
    key = new_key()
    await store.accounts.create("ana", key, "laptop", NOW)
    with pytest.raises(KeyInUse):
        await store.accounts.create("bea", key, "laptop", NOW)
    assert await store.accounts.by_name("bea") is None  # nothing half-made


@pytest.mark.parametrize("bad", ["", " ana", "ana ", "a" * 25, "ana\x00", "ana\u200b"])
async def test_bad_names_are_refused(store: AccountStore, bad: str) -> None:
    with pytest.raises(InvalidName):
        await store.accounts.create(bad, new_key(), "laptop", NOW)


async def test_one_name_claimed_at_once_goes_to_one_key(store: AccountStore) -> None:
    results = await asyncio.gather(
        *(store.accounts.create(n, new_key(), "x", NOW) for n in ["Zoe", "zoe", "ZOE", "ｚｏｅ"]),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, NameTaken) for r in results if isinstance(r, BaseException))


async def test_a_login_is_noted(store: AccountStore) -> None:
    account = await store.accounts.create("ana", new_key(), "laptop", NOW)
    device = (await store.accounts.devices(account.id))[0]
    await store.accounts.seen(account.id, device.id, NOW + 60)
    again = await store.accounts.by_id(account.id)
    assert again is not None and again.last_seen == NOW + 60
    assert (await store.accounts.devices(account.id))[0].last_used == NOW + 60


@pytest.mark.parametrize("bad", [b"", b"k" * 31, bytes(32), (1).to_bytes(32, "little")])
async def test_unusable_keys_are_refused(store: AccountStore, bad: bytes) -> None:
    with pytest.raises(InvalidKey):
        await store.accounts.create("ana", bad, "laptop", NOW)
    account_id = await register(store, "bea")
    with pytest.raises(InvalidKey):
        await store.accounts.add_device(account_id, bad, "phone", NOW)
    assert await store.accounts.by_name("ana") is None


# --- devices ----------------------------------------------------------------------------


async def test_devices_are_added_listed_and_revoked(store: AccountStore) -> None:
    first_key, second_key = new_key(), new_key()
    account = await store.accounts.create("ana", first_key, "laptop", NOW)
    second = await store.accounts.add_device(account.id, second_key, "phone", NOW + 1)
    devices = await store.accounts.devices(account.id)
    assert [(d.label, d.active) for d in devices] == [("laptop", True), ("phone", True)]
    assert await store.accounts.revoke_device(account.id, second.id, NOW + 2)
    assert not await store.accounts.revoke_device(account.id, second.id, NOW + 3)
    assert await store.accounts.by_key(second_key) is None  # a revoked device cannot log in
    assert await store.accounts.by_key(first_key) is not None
    listed = await store.accounts.devices(account.id)
    assert [(d.label, d.revoked_at) for d in listed] == [("laptop", None), ("phone", NOW + 2)]
    with pytest.raises(KeyInUse):  # a revoked key never comes back
        await store.accounts.add_device(account.id, second_key, "phone again", NOW + 4)


async def test_a_device_is_revoked_by_its_own_account_only(store: AccountStore) -> None:
    ana = await store.accounts.create("ana", new_key(), "laptop", NOW)
    bea_key = new_key()
    bea = await store.accounts.create("bea", bea_key, "laptop", NOW)
    bea_device = (await store.accounts.devices(bea.id))[0]
    assert not await store.accounts.revoke_device(ana.id, bea_device.id, NOW)
    assert await store.accounts.by_key(bea_key) is not None
    with pytest.raises(KeyInUse):
        await store.accounts.add_device(ana.id, bea_key, "stolen", NOW)
    with pytest.raises(UnknownAccount):
        await store.accounts.add_device(bea.id + 1000, new_key(), "x", NOW)


# --- secrets' hashes --------------------------------------------------------------------


async def test_passwords_are_kept_hashed(store: AccountStore, hasher: SecretHasher) -> None:
    account_id = await register(store, "ana")
    assert await store.accounts.password_hash(account_id) is None
    encoded = await hasher.hash("correct horse battery")
    await store.accounts.set_password_hash(account_id, encoded)
    kept = await store.accounts.password_hash(account_id)
    assert kept is not None and "correct horse" not in kept
    assert await hasher.verify(kept, "correct horse battery")
    assert not await hasher.verify(kept, "Correct horse battery")
    account = await store.accounts.by_id(account_id)
    assert account is not None and account.has_password
    await store.accounts.set_password_hash(account_id, None)
    assert await store.accounts.password_hash(account_id) is None


async def test_a_recovery_code_works_once(store: AccountStore, hasher: SecretHasher) -> None:
    account_id = await register(store, "ana")
    codes = recovery_codes()
    await store.codes.set_recovery(
        account_id, await hasher.hash_all([normalize_code(c) for c in codes])
    )
    unused = await store.codes.unused_recovery(account_id)
    assert len(unused) == 10 and all(c not in h for c in codes for _, h in unused)
    typed = normalize_code(codes[3].lower().replace("-", " "))
    code_id = await hasher.first_match(unused, typed)
    assert code_id is not None
    assert await store.codes.spend_recovery(account_id, code_id, NOW)
    assert not await store.codes.spend_recovery(account_id, code_id, NOW)  # spent
    unused = await store.codes.unused_recovery(account_id)
    assert len(unused) == 9 and await hasher.first_match(unused, typed) is None
    other = await register(store, "bea")
    assert not await store.codes.spend_recovery(other, unused[0][0], NOW)  # not bea's
    await store.codes.set_recovery(other, [])
    await store.codes.set_recovery(account_id, [await hasher.hash("NEWCODE")])  # replaced
    assert len(await store.codes.unused_recovery(account_id)) == 1


async def test_a_pairing_code_is_short_lived_and_single_use(
    store: AccountStore, hasher: SecretHasher
) -> None:
    account_id = await register(store, "ana")
    code = normalize_code(pairing_code())
    pairing_id = await store.codes.add_pairing(
        account_id, await hasher.hash(code), NOW + PAIRING_TTL
    )
    pending = await store.codes.pending_pairings(account_id, NOW + 10)
    assert await hasher.first_match(pending, code) == pairing_id
    assert await store.codes.spend_pairing(account_id, pairing_id, NOW + 10)
    assert not await store.codes.spend_pairing(account_id, pairing_id, NOW + 11)
    assert await store.codes.pending_pairings(account_id, NOW + 11) == []


async def test_an_expired_pairing_code_is_refused(
    store: AccountStore, hasher: SecretHasher
) -> None:
    account_id = await register(store, "ana")
    code = normalize_code(pairing_code())
    pairing_id = await store.codes.add_pairing(
        account_id, await hasher.hash(code), NOW + PAIRING_TTL
    )
    later = NOW + PAIRING_TTL
    assert await store.codes.pending_pairings(account_id, later) == []
    assert not await store.codes.spend_pairing(account_id, pairing_id, later)
    other = await register(store, "bea")
    fresh = await store.codes.add_pairing(account_id, await hasher.hash(code), later + PAIRING_TTL)
    assert not await store.codes.spend_pairing(other, fresh, later)  # not bea's
    assert await store.codes.purge_pairings(later) == 1
    assert len(await store.codes.pending_pairings(account_id, later)) == 1


# --- games, ratings, history, leaderboard -----------------------------------------------


def game(
    game_id: str, at: float, *seats: Seat, rated: bool = True, private: bool = False
) -> GameRecord:
    return GameRecord(game_id, "oak", private, rated, at, tuple(seats))


async def test_a_rated_game_moves_its_accounts_ratings(store: AccountStore) -> None:
    a, b, c = [await register(store, n) for n in ("ana", "bea", "cy")]
    recorded = await store.results.record(
        game(
            "g1",
            NOW,
            Seat("ana", 1, 20, a),
            Seat("bot", 2, 30),
            Seat("bea", 3, 40, b),
            Seat("cy", 4, 9, c, left=True),
        )
    )
    expected = rate_game(
        {}, [Standing(a, 1), Standing(None, 2), Standing(b, 3), Standing(c, 4, True)]
    )
    ratings = await store.results.ratings([a, b, c, 999])
    assert ratings[999] == Rating()
    for account in (a, b, c):
        assert ratings[account] == expected[account].after
    assert ratings[c].completed == 0 and ratings[a].completed == 1
    changes = {s.account: s.change for s in recorded.seats}
    assert changes[None] is None  # the bot counts for nobody
    assert changes[a] is not None and changes[a].delta > 0
    assert await store.results.last_rated(a) == NOW
    assert await store.results.game("g1") == recorded
    assert await store.results.game("nope") is None
    with pytest.raises(DuplicateGame):
        await store.results.record(game("g1", NOW + 1, Seat("ana", 1, 0, a), Seat("bea", 2, 5, b)))
    assert (await store.results.ratings([a]))[a] == ratings[a]  # the duplicate changed nothing


async def test_an_unrated_game_is_history_but_moves_nothing(store: AccountStore) -> None:
    a, b = await register(store, "ana"), await register(store, "bea")
    recorded = await store.results.record(
        game(
            "u1", NOW, Seat("ana", 1, 3, a), Seat("guest", 2, 8), Seat("bea", 3, 9, b), rated=False
        )
    )
    assert all(s.change is None for s in recorded.seats)
    assert await store.results.ratings([a, b]) == {a: Rating(), b: Rating()}
    assert [e.game.game_id for e in await store.results.history(a)] == ["u1"]


async def test_history_pages_newest_first_and_hides_private_games(store: AccountStore) -> None:
    a, b = await register(store, "ana"), await register(store, "bea")
    for i in range(7):
        await store.results.record(
            game(f"g{i}", NOW + i, Seat("ana", 1, i, a), Seat("bea", 2, 50, b), private=i % 3 == 0)
        )
    first = await store.results.history(a, limit=3)
    assert [e.game.game_id for e in first] == ["g6", "g5", "g4"]
    assert first[0].seat == first[0].game.seats[0] and first[0].seat.points == 6
    assert [s.name for s in first[0].game.seats] == ["ana", "bea"]
    second = await store.results.history(a, limit=3, before=first[-1].cursor)
    assert [e.game.game_id for e in second] == ["g3", "g2", "g1"]
    last = await store.results.history(a, limit=3, before=second[-1].cursor)
    assert [e.game.game_id for e in last] == ["g0"]
    public = await store.results.history(a, limit=50, include_private=False)
    assert [e.game.game_id for e in public] == ["g5", "g4", "g2", "g1"]
    assert await store.results.history(b + 1000) == []
    for bad in (0, 501):
        with pytest.raises(ValueError):
            await store.results.history(a, limit=bad)


async def test_the_leaderboard_holds_settled_active_players_best_first(store: AccountStore) -> None:
    strong, weak, idle, new = [await register(store, n) for n in ("ana", "bea", "cy", "dee")]
    for i in range(25):
        at = NOW - 30 * DAY + i * DAY  # 25 days, the last ones recent
        await store.results.record(
            game(f"sw{i}", at, Seat("ana", 1, 5, strong), Seat("bea", 2, 40, weak))
        )
    for i in range(25):  # cy played 25 games, but more than 14 days ago
        await store.results.record(
            game(f"ci{i}", NOW - 60 * DAY + i, Seat("cy", 1, 5, idle), Seat("bea", 2, 40, weak))
        )
    for i in range(3):
        await store.results.record(
            game(f"dn{i}", NOW - i, Seat("dee", 1, 5, new), Seat("bea", 2, 40, weak))
        )
    board = await store.results.leaderboard(NOW)
    assert [(e.rank, e.name) for e in board] == [(1, "ana"), (2, "bea")]
    assert board[0].rating.value > board[1].rating.value
    assert not any(e.rating.provisional for e in board)
    assert [e.name for e in await store.results.leaderboard(NOW, offset=1)] == ["bea"]
    assert {e.name for e in await store.results.leaderboard(NOW, active_days=90)} == {
        "ana",
        "bea",
        "cy",
    }
    with pytest.raises(ValueError):
        await store.results.leaderboard(NOW, limit=0)


async def test_rerate_recomputes_every_rating_from_the_games(store: AccountStore) -> None:
    a, b, c = [await register(store, n) for n in ("ana", "bea", "cy")]
    order = [(a, b, c), (b, c, a), (a, c, b), (c, a, b), (a, b, c)]
    for i, (x, y, z) in enumerate(order):
        seats = sorted(
            [Seat("x", 1, 1, x), Seat("y", 2, 2, y), Seat("z", 3, 3, z, left=i == 2)],
            key=lambda s: s.account or 0,
        )
        await store.results.record(game(f"g{i}", NOW + i, *seats))
    await store.results.record(
        game("free", NOW + 9, Seat("ana", 1, 0, a), Seat("bea", 2, 1, b), rated=False)
    )
    before = await store.results.ratings([a, b, c])
    history_before = await store.results.history(a)
    # spoil the ratings and the stored changes, as a bug or a changed model would
    db = store._db
    await db.execute("UPDATE ratings SET mu = 10, sigma = 1, games = 99")
    await db.execute("UPDATE game_players SET mu_after = 0 WHERE mu_after IS NOT NULL")
    assert await store.results.ratings([a, b, c]) != before
    assert await store.results.rerate() == 5
    assert await store.results.ratings([a, b, c]) == before
    assert await store.results.history(a) == history_before
    await db.execute("UPDATE ratings SET mu = 10, sigma = 1, games = 99")
    assert await store.results.rerate(batch=2) == 5  # read two games at a time
    assert await store.results.ratings([a, b, c]) == before
    assert await store.results.history(a) == history_before
    assert await store.results.last_rated(a) == NOW + 4


async def test_games_ending_at_once_all_count(store: AccountStore) -> None:
    """Twelve rated games of overlapping players recorded at once (on PostgreSQL,
    on several pooled connections): every game counts, and the ratings are those
    a replay in the recorded order gives (each game rated from the one before)."""
    ids = [await register(store, f"p{i}") for i in range(6)]
    games = [
        game(
            f"c{i}",
            NOW + i,
            *(
                Seat(f"p{j}", k + 1, k, ids[j])
                for k, j in enumerate((i + d) % 6 for d in (0, 1, 2))
            ),
        )
        for i in range(12)
    ]
    await asyncio.gather(*(store.results.record(g) for g in games))
    after = await store.results.ratings(ids)
    assert sum(r.games for r in after.values()) == 12 * 3
    await store.results.rerate()
    assert await store.results.ratings(ids) == after
