"""Typed account messages, both ways (protocol §7.5, issue 26; docs/accounts.md).

TypedDicts over the plain maps of the account messages, kept apart from
:mod:`craits.protocol.types` (which adds them to its unions and maps:
:data:`~craits.protocol.types.ServerMsg`,
:data:`~craits.protocol.types.SERVER_MESSAGE_TYPES`,
:data:`~craits.protocol.types.CLIENT_MESSAGE_TYPES`). Keys and signatures are
lowercase hex text (the protocol sends no bin, §3); times are ISO 8601 text in
UTC, as in the records (§7.3). Optional keys are absent, never nil.
"""

# No ``from __future__ import annotations`` here: TypedDict must see NotRequired
# (as in types.py).
from typing import Literal, NotRequired, TypedDict

from .vocab import ClientMessage, ServerMessage

# --- objects ------------------------------------------------------------------


class AccountInfo(TypedDict):
    """An account as its owner sees it (``registered``, ``logged_in``)."""

    id: int
    name: str
    has_password: bool


class DeviceInfo(TypedDict):
    """One of the account's device keys (``devices``)."""

    id: int
    label: str
    added: str
    last_used: NotRequired[str]
    revoked: NotRequired[str]
    current: bool


class Profile(TypedDict):
    """A player's public profile (``profile``)."""

    name: str
    rating: str
    provisional: bool
    games: int
    completed: int
    completion_pct: NotRequired[int]
    created: str
    last_seen: NotRequired[str]
    last_game: NotRequired[str]


class HistorySeat(TypedDict):
    """One seat of a game in a history page."""

    name: str
    place: int
    points: int
    registered: bool
    left: bool


class HistoryGame(TypedDict):
    """One game of a player's history, newest first."""

    cursor: int
    game_id: str
    table: str
    private: bool
    rated: bool
    finished: str
    place: int
    points: int
    left: bool
    rating_change: NotRequired[int]
    players: list[HistorySeat]


class LeaderboardLine(TypedDict):
    """One line of the leaderboard."""

    rank: int
    name: str
    rating: int
    games: int
    last_game: str


# --- server → client ------------------------------------------------------------


class ChallengeMsg(TypedDict):
    """A fresh login nonce for the connection (answer to ``challenge``)."""

    type: Literal[ServerMessage.CHALLENGE]
    nonce: str


class RegisteredMsg(TypedDict):
    """The answer to ``register``: the account, its first device, and the
    recovery codes, shown once (the server keeps only their hashes)."""

    type: Literal[ServerMessage.REGISTERED]
    account: AccountInfo
    device: int
    recovery_codes: list[str]


class LoggedInMsg(TypedDict):
    """The answer to ``login``, ``pair_finish``, ``recover``, ``password_login``."""

    type: Literal[ServerMessage.LOGGED_IN]
    account: AccountInfo
    device: NotRequired[int]


class PairingCodeMsg(TypedDict):
    """The answer to ``pair_start``: a code for a new device (to its owner only)."""

    type: Literal[ServerMessage.PAIRING_CODE]
    code: str
    expires_ms: int


class DevicesMsg(TypedDict):
    """The answer to ``devices`` and ``revoke_device``."""

    type: Literal[ServerMessage.DEVICES]
    devices: list[DeviceInfo]


class PasswordSetMsg(TypedDict):
    """The answer to ``set_password``: whether the account now has one."""

    type: Literal[ServerMessage.PASSWORD_SET]
    password: bool


class ProfileMsg(TypedDict):
    """The answer to ``profile``."""

    type: Literal[ServerMessage.PROFILE]
    profile: Profile


class HistoryMsg(TypedDict):
    """The answer to ``history``: a page, newest first; ``next``: the ``before``
    of the next (older) page, absent on the last."""

    type: Literal[ServerMessage.HISTORY]
    name: str
    games: list[HistoryGame]
    next: NotRequired[int]


class LeaderboardMsg(TypedDict):
    """The answer to ``leaderboard``: a page, best first."""

    type: Literal[ServerMessage.LEADERBOARD]
    offset: int
    lines: list[LeaderboardLine]


# --- client → server ------------------------------------------------------------


class ChallengeRequestMsg(TypedDict):
    """Ask for a fresh login nonce (the last one was used)."""

    type: Literal[ClientMessage.CHALLENGE]


class RegisterMsg(TypedDict):
    """Register ``name`` with the key that signed the connection's nonce."""

    type: Literal[ClientMessage.REGISTER]
    name: str
    key: str
    signature: str
    server: str
    device: NotRequired[str]


class LoginMsg(TypedDict):
    """Log in with a device key that signed the connection's nonce."""

    type: Literal[ClientMessage.LOGIN]
    key: str
    signature: str
    server: str


class PairStartMsg(TypedDict):
    """A logged-in connection asks for a pairing code for a new device."""

    type: Literal[ClientMessage.PAIR_START]


class PairFinishMsg(TypedDict):
    """A new device adds its key to ``name``'s account with a pairing code."""

    type: Literal[ClientMessage.PAIR_FINISH]
    name: str
    code: str
    key: str
    signature: str
    server: str
    device: NotRequired[str]


class DevicesRequestMsg(TypedDict):
    """List the account's devices."""

    type: Literal[ClientMessage.DEVICES]


class RevokeDeviceMsg(TypedDict):
    """Revoke one of the account's devices."""

    type: Literal[ClientMessage.REVOKE_DEVICE]
    device: int


class RecoverMsg(TypedDict):
    """Add a new key to ``name``'s account with one of its recovery codes."""

    type: Literal[ClientMessage.RECOVER]
    name: str
    code: str
    key: str
    signature: str
    server: str
    device: NotRequired[str]


class SetPasswordMsg(TypedDict):
    """Set the account's password (absent: remove it)."""

    type: Literal[ClientMessage.SET_PASSWORD]
    password: NotRequired[str]


class PasswordLoginMsg(TypedDict):
    """Log in by name and password (browser visitors)."""

    type: Literal[ClientMessage.PASSWORD_LOGIN]
    name: str
    password: str


class ProfileRequestMsg(TypedDict):
    """A player's profile (absent ``name``: one's own)."""

    type: Literal[ClientMessage.PROFILE]
    name: NotRequired[str]


class HistoryRequestMsg(TypedDict):
    """A page of a player's history (absent ``name``: one's own)."""

    type: Literal[ClientMessage.HISTORY]
    name: NotRequired[str]
    before: NotRequired[int]
    limit: NotRequired[int]


class LeaderboardRequestMsg(TypedDict):
    """A page of the leaderboard."""

    type: Literal[ClientMessage.LEADERBOARD]
    offset: NotRequired[int]
    limit: NotRequired[int]


ACCOUNT_SERVER_TYPES: dict[ServerMessage, type] = {
    ServerMessage.CHALLENGE: ChallengeMsg,
    ServerMessage.REGISTERED: RegisteredMsg,
    ServerMessage.LOGGED_IN: LoggedInMsg,
    ServerMessage.PAIRING_CODE: PairingCodeMsg,
    ServerMessage.DEVICES: DevicesMsg,
    ServerMessage.PASSWORD_SET: PasswordSetMsg,
    ServerMessage.PROFILE: ProfileMsg,
    ServerMessage.HISTORY: HistoryMsg,
    ServerMessage.LEADERBOARD: LeaderboardMsg,
}
"""The TypedDict of each account server message."""

ACCOUNT_CLIENT_TYPES: dict[ClientMessage, type] = {
    ClientMessage.CHALLENGE: ChallengeRequestMsg,
    ClientMessage.REGISTER: RegisterMsg,
    ClientMessage.LOGIN: LoginMsg,
    ClientMessage.PAIR_START: PairStartMsg,
    ClientMessage.PAIR_FINISH: PairFinishMsg,
    ClientMessage.DEVICES: DevicesRequestMsg,
    ClientMessage.REVOKE_DEVICE: RevokeDeviceMsg,
    ClientMessage.RECOVER: RecoverMsg,
    ClientMessage.SET_PASSWORD: SetPasswordMsg,
    ClientMessage.PASSWORD_LOGIN: PasswordLoginMsg,
    ClientMessage.PROFILE: ProfileRequestMsg,
    ClientMessage.HISTORY: HistoryRequestMsg,
    ClientMessage.LEADERBOARD: LeaderboardRequestMsg,
}
"""The TypedDict of each account client message."""

AccountServerMsg = (
    ChallengeMsg
    | RegisteredMsg
    | LoggedInMsg
    | PairingCodeMsg
    | DevicesMsg
    | PasswordSetMsg
    | ProfileMsg
    | HistoryMsg
    | LeaderboardMsg
)
"""Any account message the server sends (§7.5)."""

AccountClientMsg = (
    ChallengeRequestMsg
    | RegisterMsg
    | LoginMsg
    | PairStartMsg
    | PairFinishMsg
    | DevicesRequestMsg
    | RevokeDeviceMsg
    | RecoverMsg
    | SetPasswordMsg
    | PasswordLoginMsg
    | ProfileRequestMsg
    | HistoryRequestMsg
    | LeaderboardRequestMsg
)
"""Any account message a client sends (§7.5); the schema check leaves them as sent."""
