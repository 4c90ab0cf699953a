"""What the server does with the account messages (protocol §7.5, issue 26,
docs/accounts.md): ``challenge``, ``register``, ``login``, ``pair_start``,
``pair_finish``, ``devices``, ``revoke_device``, ``recover``, ``set_password``,
``password_login``, ``profile``, ``history``, ``leaderboard``; and the guard
that keeps a registered name from a guest (``join``, ``create_table``).

Each connection has an :class:`AccountSession`: its login nonce (sent in
``welcome``, a fresh one on ``challenge``), spent by the first signed request
that uses it, right or wrong; and the account it is logged in as. The flows are
:class:`~craits.server.accounts.service.AccountService`'s (argon2 in the
executor, the store's statements off the loop); while one runs the
connection's later requests wait behind it
(:class:`~craits.server.net.connection.Deferred`), so replies keep their order.

Nothing secret is logged: not a key, a signature, a nonce, a code nor a
password (``tests/server/net/test_accounts.py`` reads the log to hold it so).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from craits.protocol.account_types import (
    AccountInfo,
    DeviceInfo,
    HistoryGame,
    HistoryMsg,
    HistoryRequestMsg,
    LeaderboardLine,
    LeaderboardRequestMsg,
    LoggedInMsg,
    LoginMsg,
    PairFinishMsg,
    PasswordLoginMsg,
    Profile,
    ProfileRequestMsg,
    RecoverMsg,
    RegisterMsg,
    RevokeDeviceMsg,
    SetPasswordMsg,
)
from craits.protocol.identity import NONCE_BYTES
from craits.protocol.vocab import ClientMessage, ErrorCode, ServerMessage

from ..accounts.identity import Challenge
from ..accounts.model import Account, HistoryEntry
from ..accounts.names import canonical_name
from ..accounts.ratings import Rating
from ..accounts.secrets import PAIRING_TTL
from ..accounts.service import AccountService, Refused
from ..errors import TableError

if TYPE_CHECKING:
    from .connection import Client

log = logging.getLogger("craits.server")

HISTORY_PAGE = 20
"""Games in a ``history`` page when the request names no ``limit``."""

LEADERBOARD_PAGE = 50
"""Lines in a ``leaderboard`` page when the request names no ``limit``."""

GUEST_NAME = "player"
"""The name of a connection whose ``hello`` named none: never an account's
(registering it is refused), so such a guest is never checked."""

REFUSALS: dict[str, ErrorCode] = {
    "bad_signature": ErrorCode.BAD_SIGNATURE,
    "unknown_key": ErrorCode.UNKNOWN_KEY,
    "invalid_name": ErrorCode.INVALID_ACCOUNT_NAME,
    "name_taken": ErrorCode.NAME_REGISTERED,
    "invalid_key": ErrorCode.INVALID_KEY,
    "key_in_use": ErrorCode.KEY_IN_USE,
    "bad_code": ErrorCode.BAD_CODE,
    "bad_password": ErrorCode.BAD_PASSWORD,
    "invalid_password": ErrorCode.INVALID_PASSWORD,
    "too_many_attempts": ErrorCode.TOO_MANY_ATTEMPTS,
}
"""The error code of each :class:`~craits.server.accounts.service.Refused` reason."""


class AccountSession:
    """A connection's account state: its login nonce and who it is logged in as.

    Attributes:
        nonce: the connection's unspent login nonce (32 bytes), or None once
            a signed request used it (``challenge`` gives a fresh one).
        account: the account it is logged in as, or None (a guest).
        device: the device key it logged in with (None: a password login).
    """

    __slots__ = ("account", "device", "nonce")

    def __init__(self) -> None:
        self.nonce: bytes | None = None
        self.account: Account | None = None
        self.device: int | None = None

    def fresh_nonce(self) -> str:
        """A new nonce for the connection (the old one is dropped), as the wire
        sends it: 64 lowercase hex digits."""
        self.nonce = secrets.token_bytes(NONCE_BYTES)
        return self.nonce.hex()

    def spend(self, identity: str) -> Challenge:
        """The challenge a signed request is checked against: the connection's
        nonce, spent now whatever the answer, and the server ``identity`` the
        client signed. Without a nonce (spent), a challenge no signature passes."""
        nonce, self.nonce = self.nonce, None
        challenge = Challenge(identity, nonce or bytes(NONCE_BYTES))
        if nonce is None:
            challenge.verify(b"", b"")  # spent: every check of it fails
        return challenge


def iso_time(seconds: float) -> str:
    """Seconds since the epoch as ISO 8601 UTC text, as the records write times (§7.3)."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


def _service(client: Client) -> AccountService:
    service = client.server.accounts.service
    if service is None:
        raise TableError(ErrorCode.ACCOUNTS_UNAVAILABLE, "the server keeps no accounts")
    return service


def _account(client: Client) -> Account:
    """The account the connection is logged in as.

    Raises:
        TableError: ``not_logged_in``.
    """
    account = client.session.account
    if account is None:
        raise TableError(ErrorCode.NOT_LOGGED_IN, "log in first")
    return account


def _not_logged_in(client: Client) -> None:
    if client.session.account is not None:
        name = client.session.account.name
        raise TableError(ErrorCode.ALREADY_LOGGED_IN, f"this connection is logged in as {name}")


async def _answer(client: Client, answer: Awaitable[None]) -> None:
    """Await ``answer`` (which sends its reply), answering a refusal with its
    error: for :meth:`Deferred.wait
    <craits.server.net.connection.Deferred.wait>`, which wants an answer that
    raises nothing."""
    try:
        await answer
    except Refused as exc:
        message = str(exc.reason).replace("_", " ")
        if exc.retry_after > 0:
            message += f"; wait {exc.retry_after:.0f} s"
        client.error(REFUSALS.get(exc.reason, ErrorCode.INTERNAL), message)
    except TableError as exc:
        client.error(exc.code, exc.message)
    except Exception as exc:  # the store failed (a database down): nothing secret in it
        log.error("connection %s: the account store failed: %s", client.peer, type(exc).__name__)
        client.error(ErrorCode.ACCOUNTS_UNAVAILABLE, "the account store failed; try again later")


def _later(client: Client, work: Callable[[], Awaitable[None]]) -> None:
    """Run ``work`` off the handler, the connection's input held meanwhile."""
    client.deferred.wait(_answer(client, work()))


def account_info(account: Account) -> AccountInfo:
    """An account as its owner is told it."""
    return {"id": account.id, "name": account.name, "has_password": account.has_password}


def _identity(client: Client, stated: str) -> str:
    """The server identity a signed request names, if it is this server as a
    client may reach it: the port it listens on (or the port the operator
    gave players: ``--public-address``, a cluster's ``--advertise``, the
    workers' shared port) and, with TLS, its certificate's fingerprint; the
    host is the client's own name for it and is not checked (§7.5).

    Raises:
        TableError: ``bad_server_identity``.
    """
    config = client.server.config
    hostport, _, fingerprint = stated.partition("#sha256:")
    host, _, port = hostport.rpartition(":")
    ports = {str(client.server.port), str(config.port), str(config.shared_port)}
    for address in (config.public_address, config.advertise):
        if address:
            ports.add(address.rpartition(":")[2])
    wanted = config.tls_fingerprint or ""
    if not host or port not in ports or fingerprint != wanted or stated != stated.strip():
        raise TableError(
            ErrorCode.BAD_SERVER_IDENTITY,
            "the signed server identity is not this server's (port"
            + (", certificate fingerprint" if wanted else ", no fingerprint without TLS")
            + ")",
        )
    return stated


# ------------------------------------------------------------------- identity


def on_challenge(client: Client, msg: object) -> None:
    """A fresh login nonce for the connection (the one before is dropped)."""
    client.send({"type": ServerMessage.CHALLENGE, "nonce": client.session.fresh_nonce()})


def on_register(client: Client, msg: RegisterMsg) -> None:
    """Register ``name`` with the key that signed the connection's nonce; the
    reply holds the recovery codes, shown once (§7.5)."""
    service = _service(client)
    _not_logged_in(client)
    challenge = client.session.spend(_identity(client, msg["server"]))
    if _canonical(msg["name"]) == GUEST_NAME:
        raise TableError(ErrorCode.INVALID_ACCOUNT_NAME, f"{GUEST_NAME!r} is every guest's name")
    key, signature = bytes.fromhex(msg["key"]), bytes.fromhex(msg["signature"])
    server, where = client.server, ("address", client.address)
    limited = server.config.registrations_per_hour > 0
    wait = server.accounts.registrations.retry_after(where) if limited else 0.0
    if wait > 0:
        raise TableError(
            ErrorCode.TOO_MANY_ATTEMPTS,
            f"too many accounts registered from your address; wait {wait:.0f} s",
        )

    async def register() -> None:
        done = await service.register(challenge, msg["name"], key, signature, msg.get("device", ""))
        _logged_in(client, done.account, done.device.id)
        server.accounts.registrations.failed(where)  # counted against the address's hour
        log.info("account %d registered (%s)", done.account.id, done.account.name)
        client.send(
            {
                "type": ServerMessage.REGISTERED,
                "account": account_info(done.account),
                "device": done.device.id,
                "recovery_codes": done.recovery_codes,
            }
        )

    _later(client, register)


def _canonical(name: str) -> str | None:
    try:
        return canonical_name(name)
    except ValueError:
        return None


def _logged_in(client: Client, account: Account, device: int | None) -> None:
    client.session.account = account
    client.account_id = account.id
    client.session.device = device
    how = "a password" if device is None else f"device {device}"
    log.info("connection %s: logged in as account %d with %s", client.peer, account.id, how)


def _send_logged_in(client: Client, account: Account, device: int | None) -> None:
    _logged_in(client, account, device)
    reply: LoggedInMsg = {"type": ServerMessage.LOGGED_IN, "account": account_info(account)}
    if device is not None:
        reply["device"] = device
    client.send(reply)


def on_login(client: Client, msg: LoginMsg) -> None:
    """Log in with a device key that signed the connection's nonce (§7.5)."""
    service = _service(client)
    _not_logged_in(client)
    challenge = client.session.spend(_identity(client, msg["server"]))
    key, signature = bytes.fromhex(msg["key"]), bytes.fromhex(msg["signature"])

    async def login() -> None:
        account, device = await service.login(challenge, key, signature)
        _send_logged_in(client, account, device.id)

    _later(client, login)


def on_pair_start(client: Client, msg: object) -> None:
    """A pairing code for a new device of the connection's account, to it only."""
    service, account = _service(client), _account(client)

    async def pair_start() -> None:
        code = await service.start_pairing(account.id)
        log.info("account %d: a pairing code was made", account.id)
        client.send(
            {
                "type": ServerMessage.PAIRING_CODE,
                "code": code,
                "expires_ms": round(PAIRING_TTL * 1000),
            }
        )

    _later(client, pair_start)


def _with_code(client: Client, msg: PairFinishMsg | RecoverMsg, *, recovery: bool) -> None:
    service = _service(client)
    _not_logged_in(client)
    challenge = client.session.spend(_identity(client, msg["server"]))
    key, signature = bytes.fromhex(msg["key"]), bytes.fromhex(msg["signature"])
    flow = service.recover if recovery else service.pair
    label = msg.get("device", "")

    async def add_device() -> None:
        account, device = await flow(
            challenge, msg["name"], msg["code"], key, signature, label, client.address
        )
        how = "a recovery code" if recovery else "a pairing code"
        log.info("account %d: device %d added with %s", account.id, device.id, how)
        _send_logged_in(client, account, device.id)

    _later(client, add_device)


def on_pair_finish(client: Client, msg: PairFinishMsg) -> None:
    """Add the key that signed the nonce to ``name``'s account with a pairing code."""
    _with_code(client, msg, recovery=False)


def on_recover(client: Client, msg: RecoverMsg) -> None:
    """Add the key that signed the nonce to ``name``'s account with a recovery code."""
    _with_code(client, msg, recovery=True)


def on_devices(client: Client, msg: object) -> None:
    """The account's devices, revoked ones too."""
    service, account = _service(client), _account(client)
    _later(client, lambda: _send_devices(client, service, account))


async def _send_devices(client: Client, service: AccountService, account: Account) -> None:
    devices: list[DeviceInfo] = []
    for d in await service.store.accounts.devices(account.id):
        info: DeviceInfo = {
            "id": d.id,
            "label": d.label,
            "added": iso_time(d.added_at),
            "current": d.id == client.session.device,
        }
        if d.last_used is not None:
            info["last_used"] = iso_time(d.last_used)
        if d.revoked_at is not None:
            info["revoked"] = iso_time(d.revoked_at)
        devices.append(info)
    client.send({"type": ServerMessage.DEVICES, "devices": devices})


def on_revoke_device(client: Client, msg: RevokeDeviceMsg) -> None:
    """Revoke one of the account's devices: its key logs in no more. A
    connection logged in with it stays logged in until it closes."""
    service, account = _service(client), _account(client)

    async def revoke() -> None:
        now = service.now()
        if not await service.store.accounts.revoke_device(account.id, msg["device"], now):
            raise TableError(ErrorCode.NO_SUCH_DEVICE, f"no active device {msg['device']}")
        log.info("account %d: device %d revoked", account.id, msg["device"])
        await _send_devices(client, service, account)

    _later(client, revoke)


def on_set_password(client: Client, msg: SetPasswordMsg) -> None:
    """Set the account's password (for browser visitors), or remove it."""
    service, account = _service(client), _account(client)
    password = msg.get("password")

    async def set_password() -> None:
        await service.set_password(account.id, password)
        found = await service.store.accounts.by_id(account.id)
        if found is not None:
            client.session.account = found
        log.info("account %d: password %s", account.id, "set" if password else "removed")
        client.send({"type": ServerMessage.PASSWORD_SET, "password": password is not None})

    _later(client, set_password)


def on_password_login(client: Client, msg: PasswordLoginMsg) -> None:
    """Log in by name and password (browser visitors; limited per address and account)."""
    service = _service(client)
    _not_logged_in(client)

    async def password_login() -> None:
        account = await service.password_login(msg["name"], msg["password"], client.address)
        _send_logged_in(client, account, None)

    _later(client, password_login)


# ------------------------------------------------------------------- records


async def _named(client: Client, service: AccountService, name: str | None) -> Account:
    """The account ``name`` (None: the connection's own).

    Raises:
        TableError: ``not_logged_in``, ``no_such_account``.
    """
    if name is None:
        return _account(client)
    found = await service.store.accounts.by_name(name)
    if found is None:
        raise TableError(ErrorCode.NO_SUCH_ACCOUNT, f"no account is called {name!r}")
    return found


def profile_of(account: Account, rating: Rating, last_game: float | None) -> Profile:
    """An account's public profile (§7.5)."""
    profile: Profile = {
        "name": account.name,
        "rating": rating.display,
        "provisional": rating.provisional,
        "games": rating.games,
        "completed": rating.completed,
        "created": iso_time(account.created_at),
    }
    if rating.games:
        profile["completion_pct"] = round(100 * rating.completed / rating.games)
    if account.last_seen is not None:
        profile["last_seen"] = iso_time(account.last_seen)
    if last_game is not None:
        profile["last_game"] = iso_time(last_game)
    return profile


def on_profile(client: Client, msg: ProfileRequestMsg) -> None:
    """A player's profile: rating, games, completion rate, last seen."""
    service = _service(client)

    async def profile() -> None:
        account = await _named(client, service, msg.get("name"))
        results = service.store.results
        rating = (await results.ratings([account.id]))[account.id]
        last = await results.last_rated(account.id)
        client.send({"type": ServerMessage.PROFILE, "profile": profile_of(account, rating, last)})

    _later(client, profile)


def history_game(entry: HistoryEntry) -> HistoryGame:
    """One game of a history page as the wire holds it (§7.5)."""
    game, seat = entry.game, entry.seat
    out: HistoryGame = {
        "cursor": entry.cursor,
        "game_id": game.game_id,
        "table": game.table,
        "private": game.private,
        "rated": game.rated,
        "finished": iso_time(game.finished_at),
        "place": seat.place,
        "points": seat.points,
        "left": seat.left,
        "players": [
            {
                "name": s.name,
                "place": s.place,
                "points": s.points,
                "registered": s.account is not None,
                "left": s.left,
            }
            for s in game.seats
        ],
    }
    if seat.change is not None:
        out["rating_change"] = seat.change.delta
    return out


def on_history(client: Client, msg: HistoryRequestMsg) -> None:
    """A page of a player's games, newest first; a private table's games only
    to the account itself (the records' rule, §7.3)."""
    service = _service(client)
    limit = msg.get("limit", HISTORY_PAGE)

    async def history() -> None:
        account = await _named(client, service, msg.get("name"))
        mine = client.session.account is not None and client.session.account.id == account.id
        entries = await service.store.results.history(
            account.id, limit=limit, before=msg.get("before"), include_private=mine
        )
        reply: HistoryMsg = {
            "type": ServerMessage.HISTORY,
            "name": account.name,
            "games": [history_game(e) for e in entries],
        }
        if len(entries) == limit:
            reply["next"] = entries[-1].cursor
        client.send(reply)

    _later(client, history)


def on_leaderboard(client: Client, msg: LeaderboardRequestMsg) -> None:
    """A page of the leaderboard, best first (docs/accounts.md, *Ratings*)."""
    service = _service(client)
    offset, limit = msg.get("offset", 0), msg.get("limit", LEADERBOARD_PAGE)

    async def leaderboard() -> None:
        found = await service.store.results.leaderboard(service.now(), limit=limit, offset=offset)
        lines: list[LeaderboardLine] = [
            {
                "rank": e.rank,
                "name": e.name,
                "rating": e.rating.value,
                "games": e.rating.games,
                "last_game": iso_time(e.last_game_at),
            }
            for e in found
        ]
        client.send({"type": ServerMessage.LEADERBOARD, "offset": offset, "lines": lines})

    _later(client, leaderboard)


# ------------------------------------------------------------------- guests


def guard_name(client: Client, name: str, then: Callable[[], None]) -> bool:
    """Keep a registered name from anyone not logged in as its account:
    ``join`` and ``create_table`` call it with the name they would show.

    Returns:
        False when nothing needs checking (the connection's own account's
        name, or a guest's default name): the caller goes on at once. True
        when the check runs off the loop: ``then`` is called after it if the
        name is free (its refusals answered as errors), else the request is
        answered ``name_registered``.
    """
    service = client.server.accounts.service
    if service is None:
        return False
    canonical = _canonical(name)
    own = client.session.account
    if canonical is None or canonical == GUEST_NAME:
        return False
    if own is not None and own.canonical == canonical:
        return False

    async def check() -> None:
        found = await service.store.accounts.by_name(name)
        if client.closed:
            return  # gone meanwhile: it takes no seat nor table (connection_lost ran)
        if found is not None and (own is None or own.id != found.id):
            raise TableError(
                ErrorCode.NAME_REGISTERED,
                f"{name!r} is a registered player's name: log in as it, or choose another",
            )
        then()

    _later(client, check)
    return True


ACCOUNT_HANDLERS: dict[ClientMessage, Callable[[Client, Any], None]] = {
    ClientMessage.CHALLENGE: on_challenge,
    ClientMessage.REGISTER: on_register,
    ClientMessage.LOGIN: on_login,
    ClientMessage.PAIR_START: on_pair_start,
    ClientMessage.PAIR_FINISH: on_pair_finish,
    ClientMessage.DEVICES: on_devices,
    ClientMessage.REVOKE_DEVICE: on_revoke_device,
    ClientMessage.RECOVER: on_recover,
    ClientMessage.SET_PASSWORD: on_set_password,
    ClientMessage.PASSWORD_LOGIN: on_password_login,
    ClientMessage.PROFILE: on_profile,
    ClientMessage.HISTORY: on_history,
    ClientMessage.LEADERBOARD: on_leaderboard,
}
"""The handler of each account message (after ``hello``), for :data:`~.handlers.HANDLERS`."""
