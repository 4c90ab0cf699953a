"""The game's vocabulary, defined once: every code that crosses a module boundary.

Card and suit codes, action kinds, event kinds and their reasons, game
phases, the rules options with their defaults, table states, bot levels,
error codes, message types, notice kinds and the kinds of a game log's
entries. The rules engine, the protocol, the server, the bots and the client
all import these names from here; none of them spells the codes out again.
``tests/protocol/test_doc.py`` holds the tables of ``docs/protocol.md`` and
``docs/records.md`` equal to them.

A code compares equal to its plain string, so a decoded message's strings
match the members with ``==`` and ``match`` (not ``is``); on hot paths,
prefer a member's ``.value`` as a dict key (an enum member hashes slower).

This module imports nothing but the standard library (an import contract in
``pyproject.toml`` keeps it so), so the pure rules engine may use it.

Every enum is a :class:`~enum.StrEnum`: its members *are* the wire strings
(``ActionKind.PLAY == "play"``), so msgpack encodes them byte for byte as the
plain strings of protocol version 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# --- cards (RULES.md R1) ---------------------------------------------------

RANKS = "A23456789TJQK"
"""Rank codes in deck order (R1): ace, 2–9, ``T`` (ten), jack, queen, king."""


class Suit(StrEnum):
    """A suit code (R1), in deck order: spades, hearts, diamonds, clubs."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


SUITS = "SHDC"
"""Suit codes in deck order (R1), as one string: ``"SHDC"``."""

RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})
"""The red suits (R5: a 9 names the other suit of its colour)."""

SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""Each suit code in words."""

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Each suit code as its Unicode symbol."""

RANK_NAMES: dict[str, str] = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
"""Rank codes whose word is not the code itself (``"7"`` is seven)."""

CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""The 52 card codes of one deck in canonical order ``AS 2S … KS AH … KC``.

A card code is two characters, rank then suit: ``"TD"`` is the ten of
diamonds (R1)."""

CARD_SET = frozenset(CARDS)
""":data:`CARDS` as a set, for membership tests."""


def is_card(code: object) -> bool:
    """Whether ``code`` is a card code such as ``"TD"`` (R1)."""
    return isinstance(code, str) and code in CARD_SET


def is_suit(code: object) -> bool:
    """Whether ``code`` is one of the suit codes ``S H D C`` (R1)."""
    return isinstance(code, str) and len(code) == 1 and code in SUITS


# --- actions (RULES.md R3–R7) -----------------------------------------------


class ActionKind(StrEnum):
    """The kinds of action a seat may take; each is the key that names it on the wire."""

    PLAY = "play"
    """Play a card (R4), naming a suit for an 8 or 9 (R5) and announcing (R7)."""
    DRAW = "draw"
    """Draw for want of a play, or the count (R4, R6)."""
    PASS = "pass"
    """Keep the card just drawn (R4, option ``play_drawn_card``)."""
    ANNOUNCE = "announce"
    """Say "one card" (R7)."""
    IDIOT = "idiot"
    """Call "idiot" on a seat that owes an announcement (R7)."""
    NAME_SUIT = "name_suit"
    """The dealer names the suit for a turned-up 8 or 9 (R3)."""


TURN_ACTIONS = frozenset({ActionKind.PLAY, ActionKind.DRAW, ActionKind.PASS, ActionKind.NAME_SUIT})
"""Action kinds that are a seat's turn; announcements and idiot calls may come off turn (R7)."""

PLAY_FIELDS = ("suit", "announce")
"""Optional fields that may accompany ``play``: the suit named, and an announcement."""


# --- events (RULES.md R2–R10) -----------------------------------------------


class EventKind(StrEnum):
    """The wire name of each event (``{"event": kind, ...}``, protocol §9)."""

    CUT = "cut"
    DEALT = "dealt"
    TURNED_UP = "turned_up"
    PLAYED = "played"
    SUIT_NAMED = "suit_named"
    DREW = "drew"
    SHUFFLE_PENALTY = "shuffle_penalty"
    COUNT = "count"
    SKIPPED = "skipped"
    REVERSED = "reversed"
    PLAY_AGAIN = "play_again"
    PASSED = "passed"
    ANNOUNCED = "announced"
    IDIOT = "idiot"
    HAND_ENDED = "hand_ended"


class DrawReason(StrEnum):
    """Why a seat drew (the ``reason`` of a ``drew`` event)."""

    TURN = "turn"
    """No card to play (R4)."""
    SIX = "six"
    """Drawing to cover a 6 (R5)."""
    KING = "king"
    """Drawing after a king (R11, option ``face_cards``)."""
    COUNT = "count"
    """Taking the count (R6)."""
    FIVE = "five"
    """Hit by a 5 (R5)."""
    SEVEN = "seven"
    """Hit by a 7 (R5)."""
    JACK = "jack"
    """Hit by a jack (R11)."""
    QUEEN = "queen"
    """Hit by the queen of spades (R11)."""
    IDIOT = "idiot"
    """Called "idiot" (R7)."""


class SkipReason(StrEnum):
    """Why a seat's turn was skipped (the ``reason`` of a ``skipped`` event)."""

    FOUR = "four"
    """A 4 skips the next seat (R5)."""
    LOST_TURN = "lost_turn"
    """The seat owed a lost turn (R7)."""
    JACK = "jack"
    """Hit by a jack (R11)."""
    QUEEN = "queen"
    """Hit by the queen of spades (R11)."""


class Phase(StrEnum):
    """Where a game stands (the view's ``phase``, protocol §8)."""

    PLAY = "play"
    """A hand is being played."""
    HAND_OVER = "hand_over"
    """Between hands: the hand is scored, the next deal comes after a pause (R8, R9)."""
    GAME_OVER = "game_over"
    """The last hand is over (R2)."""


class NoticeKind(StrEnum):
    """Why the server played for a seat (the ``notice`` of an ``update``, protocol §11.4)."""

    TIMEOUT = "timeout"
    """The turn timed out; the seat is now away."""
    AWAY = "away"
    """A move for a seat already away."""


# --- rules options (RULES.md) -----------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One house variant of RULES.md.

    Attributes:
        name: the option's wire name (a key of ``create_table``'s ``rules``).
        section: the RULES.md section it varies, e.g. ``"R4"``.
        label: how a client offers it, a few words.
        short: its tag in a table list, one or two words.
        default: the rule book's value.
        values: every value it may take; the first is the default.
    """

    name: str
    section: str
    label: str
    short: str
    default: bool | int = False
    values: tuple[bool | int, ...] = (False, True)


RULE_OPTIONS: tuple[RuleOption, ...] = (
    RuleOption("short_game", "R2", "Short game: hands 1–8", "short"),
    RuleOption("strip_kings_queens", "R1", "No K/Q with 2–3 players", "no K/Q"),
    RuleOption("dealer_follows_direction", "R2", "Deal follows direction", "deal dir"),
    RuleOption("play_drawn_card", "R4", "Play a drawn card", "play drawn"),
    RuleOption("seven_hits_next", "R5", "7 always hits next", "7 hits next"),
    RuleOption("idiot_card", "R7", "Idiot costs 1 card only", "idiot 1 card"),
    RuleOption("one_card_deal", "R7", "Announce 1-card deal", "1-card deal"),
    RuleOption("going_out_bonus", "R9", "Going out scores −10", "out −10"),
    RuleOption("threes_cancel_eights", "R9", "3s may cancel 8s", "3 cancels 8"),
    RuleOption("cancelling_three_scores", "R9", "Cancelling 3 scores 0", "3 scores 0", 3, (3, 0)),
    RuleOption("three_penalty", "R9", "Three penalty", "3 penalty"),
    RuleOption("face_cards", "R11", "Face cards act: J Q♠ K", "face cards"),
)
"""Every rules option, in the order a client offers them; each default is the rule book's."""

RULE_DEFAULTS: dict[str, bool | int] = {o.name: o.default for o in RULE_OPTIONS}
"""Each option's default by name."""


# --- tables, bots, errors ---------------------------------------------------


class TableState(StrEnum):
    """A table's state (protocol §11.1)."""

    WAITING = "waiting"
    """Seats open; no game yet."""
    PLAYING = "playing"
    """A game is in play."""
    FINISHED = "finished"
    """The game is over; a new one may start."""
    STOPPED = "stopped"
    """A server error stopped the table."""
    PAUSED = "paused"
    """The server could not record the game; the table waits."""


class BotLevel(StrEnum):
    """How a bot plays."""

    RANDOM = "random"
    """Uniformly among its legal actions."""
    EASY = "easy"
    """The basic player with a beginner's slips."""
    BASIC = "basic"
    """A sensible player."""
    EXPERT = "expert"
    """Searches the hidden cards for the move that scores least."""


DEFAULT_BOT_LEVEL = BotLevel.BASIC
"""The level of a bot seated without one named."""


class ErrorCode(StrEnum):
    """Every error code the server sends (protocol §12); :data:`ERROR_MEANINGS` says each."""

    # framing and schema
    BAD_FRAME = "bad_frame"
    FRAME_TOO_LARGE = "frame_too_large"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    HELLO_FIRST = "hello_first"
    UNSUPPORTED_VERSION = "unsupported_version"
    RATE_LIMITED = "rate_limited"
    TOO_MANY_ERRORS = "too_many_errors"
    TIMEOUT = "timeout"
    SERVER_FULL = "server_full"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    UNTRUSTED_RELAY = "untrusted_relay"
    SHUTDOWN = "shutdown"
    REPLACED = "replaced"
    # lobby
    NO_SUCH_TABLE = "no_such_table"
    TABLE_EXISTS = "table_exists"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_EMPTY_TABLES = "too_many_empty_tables"
    BAD_RULES = "bad_rules"
    BAD_TURN_TIMEOUT = "bad_turn_timeout"
    BAD_TIME_CONTROL = "bad_time_control"
    """A ``create_table`` time control out of range or combined with another (§11.10)."""
    TABLE_FULL = "table_full"
    NAME_TAKEN = "name_taken"
    ALREADY_AT_TABLE = "already_at_table"
    NOT_AT_TABLE = "not_at_table"
    NOT_SEATED = "not_seated"
    NOT_CREATOR = "not_creator"
    CANNOT_START = "cannot_start"
    GAME_RUNNING = "game_running"
    GAME_NOT_RUNNING = "game_not_running"
    BAD_TOKEN = "bad_token"
    TABLE_STOPPED = "table_stopped"
    TABLE_PAUSED = "table_paused"
    NO_SUCH_GAME = "no_such_game"
    NO_SUCH_HAND = "no_such_hand"
    RECORDS_BUSY = "records_busy"
    """``get_replay`` named a hand the game did not deal (§7.3; added in round 2)."""
    CLUSTER_UNAVAILABLE = "cluster_unavailable"
    TABLE_UNAVAILABLE = "table_unavailable"
    # private tables and the creator's powers (protocol §11.9, added in round 2)
    BAD_INVITE_CODE = "bad_invite_code"
    TOO_MANY_ATTEMPTS = "too_many_attempts"
    TABLE_LOCKED = "table_locked"
    BARRED = "barred"
    KICKED = "kicked"
    MUTED = "muted"
    BAD_SEAT = "bad_seat"
    # rematches (protocol §11.12, issue 27)
    NO_REMATCH = "no_rematch"
    # play: one per kind of illegal action
    INVALID_ACTION = "invalid_action"
    HAND_NOT_IN_PLAY = "hand_not_in_play"
    CHOICE_PENDING = "choice_pending"
    NO_CHOICE_PENDING = "no_choice_pending"
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    CARD_DOES_NOT_MATCH = "card_does_not_match"
    MUST_FOLLOW_COUNT = "must_follow_count"
    MUST_PLAY_CARD = "must_play_card"
    MUST_PLAY_DRAWN_CARD = "must_play_drawn_card"
    NOTHING_TO_PASS = "nothing_to_pass"
    SUIT_NOT_ALLOWED = "suit_not_allowed"
    NOTHING_TO_ANNOUNCE = "nothing_to_announce"
    NOTHING_TO_CALL_IDIOT_ON = "nothing_to_call_idiot_on"
    SPECTATOR = "spectator"
    STALE = "stale"
    INTERNAL = "internal"
    # accounts (protocol §7.5, issue 26)
    BAD_SIGNATURE = "bad_signature"
    BAD_SERVER_IDENTITY = "bad_server_identity"
    UNKNOWN_KEY = "unknown_key"
    NAME_REGISTERED = "name_registered"
    INVALID_ACCOUNT_NAME = "invalid_account_name"
    INVALID_KEY = "invalid_key"
    KEY_IN_USE = "key_in_use"
    BAD_CODE = "bad_code"
    BAD_PASSWORD = "bad_password"
    INVALID_PASSWORD = "invalid_password"
    NOT_LOGGED_IN = "not_logged_in"
    ALREADY_LOGGED_IN = "already_logged_in"
    NO_SUCH_DEVICE = "no_such_device"
    NO_SUCH_ACCOUNT = "no_such_account"
    ACCOUNTS_UNAVAILABLE = "accounts_unavailable"
    # hints and post-game analysis (§7.6; added in this revision)
    NOTHING_TO_DECIDE = "nothing_to_decide"
    HINT_PENDING = "hint_pending"
    ANALYSES_BUSY = "analyses_busy"


ERROR_MEANINGS: dict[ErrorCode, str] = {
    ErrorCode.BAD_FRAME: "the frame is not a msgpack map of plain types",
    ErrorCode.FRAME_TOO_LARGE: "the frame is longer than the limit; the connection closes",
    ErrorCode.BAD_MESSAGE: "the message does not fit its schema (the message says how)",
    ErrorCode.UNKNOWN_TYPE: "no such message type",
    ErrorCode.HELLO_FIRST: "the first message must be hello",
    ErrorCode.UNSUPPORTED_VERSION: "the server does not speak that protocol version",
    ErrorCode.RATE_LIMITED: "too many messages; the connection closes",
    ErrorCode.TOO_MANY_ERRORS: "too many bad messages; the connection closes",
    ErrorCode.TIMEOUT: (
        "no hello, or a frame begun and not finished, in time; the connection closes"
    ),
    ErrorCode.SERVER_FULL: "the server has no room for another connection",
    ErrorCode.TOO_MANY_CONNECTIONS: (
        "your address holds as many connections as it may; the connection closes"
    ),
    ErrorCode.UNTRUSTED_RELAY: (
        "hello.forwarded_for from a connection the server does not trust as a relay; "
        "the connection closes"
    ),
    ErrorCode.SHUTDOWN: "the server is shutting down",
    ErrorCode.REPLACED: "this seat was resumed on another connection",
    ErrorCode.NO_SUCH_TABLE: "no table by that name",
    ErrorCode.TABLE_EXISTS: "a table by that name exists",
    ErrorCode.TOO_MANY_TABLES: "the server holds no more tables",
    ErrorCode.TOO_MANY_EMPTY_TABLES: (
        "this connection (or its address) holds as many tables nobody sits at as it may"
    ),
    ErrorCode.BAD_RULES: "an unknown rules option or a bad value",
    ErrorCode.BAD_TURN_TIMEOUT: (
        "the turn timeout is shorter than the server's shortest (0, no timeout, is allowed)"
    ),
    ErrorCode.BAD_TIME_CONTROL: (
        "the table's time control is out of the server's range, or combined with another"
    ),
    ErrorCode.TABLE_FULL: "every seat is taken",
    ErrorCode.NAME_TAKEN: "another player at the table has that name",
    ErrorCode.ALREADY_AT_TABLE: "this connection is already seated or watching; leave first",
    ErrorCode.NOT_AT_TABLE: "this connection is not at a table",
    ErrorCode.NOT_SEATED: "only a seated player may do this",
    ErrorCode.NOT_CREATOR: "only the table's creator (or host) may do this",
    ErrorCode.CANNOT_START: (
        "the game cannot start now (fewer than two players, already running, "
        "or the server is stopping)"
    ),
    ErrorCode.GAME_RUNNING: "a game is running: the table can be closed once it is over",
    ErrorCode.GAME_NOT_RUNNING: "there is no game in play at this table",
    ErrorCode.BAD_TOKEN: "the resume token is not valid",
    ErrorCode.TABLE_STOPPED: "the table was stopped by a server error",
    ErrorCode.TABLE_PAUSED: "the server could not record the game: the table is paused",
    ErrorCode.NO_SUCH_GAME: "no finished game with that id in the server's records",
    ErrorCode.NO_SUCH_HAND: "the game has no hand with that number",
    ErrorCode.RECORDS_BUSY: (
        "the server is busy rebuilding finished games: ask again in the seconds the message says"
    ),
    ErrorCode.CLUSTER_UNAVAILABLE: (
        "a notice: the cluster's lobby cannot be reached; only this node's tables are listed"
    ),
    ErrorCode.TABLE_UNAVAILABLE: "the table's server in the cluster is down; try again later",
    ErrorCode.BAD_INVITE_CODE: "the table is private: its invite code is missing or wrong",
    ErrorCode.TOO_MANY_ATTEMPTS: (
        "too many wrong invite codes (or pairing or recovery codes, or passwords) from this "
        "connection, address or for this account: wait, then try again"
    ),
    ErrorCode.TABLE_LOCKED: "the table's creator locked it: no new players or spectators",
    ErrorCode.BARRED: "the table's creator removed you from this table; only they can let you back",
    ErrorCode.KICKED: "the table's creator removed you from the table",
    ErrorCode.MUTED: "the table's creator muted your chat at this table",
    ErrorCode.BAD_SEAT: "no one the request may name sits at that seat",
    ErrorCode.NO_REMATCH: "no rematch is on offer at this table (its game is not over)",
    ErrorCode.INVALID_ACTION: "the action is malformed",
    ErrorCode.HAND_NOT_IN_PLAY: "no hand is being played",
    ErrorCode.CHOICE_PENDING: "the dealer must first name the suit for a turned-up 8 or 9 (R3)",
    ErrorCode.NO_CHOICE_PENDING: "there is no suit for this seat to name (R3)",
    ErrorCode.NOT_YOUR_TURN: "it is another seat's turn (R4)",
    ErrorCode.CARD_NOT_IN_HAND: "the card is not in the hand (R4)",
    ErrorCode.CARD_DOES_NOT_MATCH: "the card matches neither suit in force nor top rank (R4)",
    ErrorCode.MUST_FOLLOW_COUNT: "during the count only an ace or a two may be played (R6)",
    ErrorCode.MUST_PLAY_CARD: "a player holding a legal card may not draw (R4, R12)",
    ErrorCode.MUST_PLAY_DRAWN_CARD: "only the card just drawn may be played, or pass (R4)",
    ErrorCode.NOTHING_TO_PASS: "there is no drawn card to pass on (R4)",
    ErrorCode.SUIT_NOT_ALLOWED: "that suit may not be named with that card (R5, R12)",
    ErrorCode.NOTHING_TO_ANNOUNCE: "the seat owes no 'one card' announcement (R7)",
    ErrorCode.NOTHING_TO_CALL_IDIOT_ON: "that seat owes no announcement, or it is too late (R7)",
    ErrorCode.SPECTATOR: "a spectator cannot act",
    ErrorCode.STALE: "the action answers an older update (seq); the game moved on",
    ErrorCode.INTERNAL: "the server failed to handle the message",
    ErrorCode.BAD_SIGNATURE: (
        "the signature is not the key's over this connection's nonce (wrong, or the nonce "
        "was used already: ask a fresh one with challenge)"
    ),
    ErrorCode.BAD_SERVER_IDENTITY: (
        "the server identity signed is not this server's (another port, or another TLS certificate)"
    ),
    ErrorCode.UNKNOWN_KEY: "no account has this key (never registered, or revoked)",
    ErrorCode.NAME_REGISTERED: (
        "the name belongs to a registered account: log in as it, or choose another"
    ),
    ErrorCode.INVALID_ACCOUNT_NAME: "the name cannot be registered (see docs/accounts.md, Names)",
    ErrorCode.INVALID_KEY: "not an Ed25519 public key that may be registered",
    ErrorCode.KEY_IN_USE: "the key is (or was) another device's: make a new key",
    ErrorCode.BAD_CODE: "the code is wrong, used, expired, or the name has no account",
    ErrorCode.BAD_PASSWORD: "the name and password do not match an account with a password",
    ErrorCode.INVALID_PASSWORD: "a password is 8 to 256 characters",
    ErrorCode.NOT_LOGGED_IN: "the request needs a connection logged in to an account",
    ErrorCode.ALREADY_LOGGED_IN: "this connection is logged in already",
    ErrorCode.NO_SUCH_DEVICE: "the account has no active device with that id",
    ErrorCode.NO_SUCH_ACCOUNT: "no account has that name",
    ErrorCode.ACCOUNTS_UNAVAILABLE: "the server's account store cannot be reached: try again later",
    ErrorCode.NOTHING_TO_DECIDE: (
        "a hint: the seat has nothing to decide now (not its turn, no call to make)"
    ),
    ErrorCode.HINT_PENDING: "a hint is already being worked out for this connection",
    ErrorCode.ANALYSES_BUSY: (
        "the server is analysing as many games as it may: ask again in a few minutes"
    ),
}
"""Each error code's meaning in a line (``docs/protocol.md`` §12 says when each is sent)."""

CONNECTION_CLOSING_ERRORS = frozenset(
    {
        ErrorCode.BAD_FRAME,
        ErrorCode.FRAME_TOO_LARGE,
        ErrorCode.UNSUPPORTED_VERSION,
        ErrorCode.RATE_LIMITED,
        ErrorCode.TOO_MANY_ERRORS,
        ErrorCode.TIMEOUT,
        ErrorCode.SERVER_FULL,
        ErrorCode.TOO_MANY_CONNECTIONS,
        ErrorCode.UNTRUSTED_RELAY,
        ErrorCode.SHUTDOWN,
    }
)
"""Error codes after which the server closes the connection (protocol §4.6, §4.7,
§12.1). ``replaced`` is not one: the connection stays, back in the lobby."""

ACTION_ERRORS = frozenset(
    {
        ErrorCode.INVALID_ACTION,
        ErrorCode.HAND_NOT_IN_PLAY,
        ErrorCode.CHOICE_PENDING,
        ErrorCode.NO_CHOICE_PENDING,
        ErrorCode.NOT_YOUR_TURN,
        ErrorCode.CARD_NOT_IN_HAND,
        ErrorCode.CARD_DOES_NOT_MATCH,
        ErrorCode.MUST_FOLLOW_COUNT,
        ErrorCode.MUST_PLAY_CARD,
        ErrorCode.MUST_PLAY_DRAWN_CARD,
        ErrorCode.NOTHING_TO_PASS,
        ErrorCode.SUIT_NOT_ALLOWED,
        ErrorCode.NOTHING_TO_ANNOUNCE,
        ErrorCode.NOTHING_TO_CALL_IDIOT_ON,
    }
)
"""The engine's codes: one per kind of illegal action (R3–R7, R11, R12)."""

LOST_RACE_ERRORS = frozenset(
    {ErrorCode.STALE, ErrorCode.NOTHING_TO_ANNOUNCE, ErrorCode.NOTHING_TO_CALL_IDIOT_ON}
)
"""Refusals of an ``act`` that only mean the game moved on before it arrived:
another action got in first (protocol §11.6, R7). Look at the newest view and
decide again, with a new ``id``."""

SEAT_LOST_ERRORS = frozenset(
    {
        ErrorCode.REPLACED,
        ErrorCode.TABLE_STOPPED,
        ErrorCode.NOT_AT_TABLE,
        ErrorCode.NOT_SEATED,
        ErrorCode.SPECTATOR,
        ErrorCode.KICKED,
    }
)
"""Error codes that say this connection holds no seat it may act from (any
more): resumed elsewhere, the table stopped, or it is not seated at a table
(protocol §11.1, §11.7, §11.9, §12.2)."""


# --- time controls (protocol §11.10; issue 27) ------------------------------

TIME_BANK_PRESETS: dict[str, tuple[int, int]] = {
    "3+10": (180_000, 10_000),
    "5+5": (300_000, 5_000),
    "10+10": (600_000, 10_000),
}
"""The time banks a client offers in its new-table dialog, by label ("minutes
+ seconds"): ``(bank_ms, increment_ms)`` of ``create_table.time_bank``."""

CORRESPONDENCE_PRESETS: dict[str, int] = {
    "1 hour": 3_600_000,
    "12 hours": 43_200_000,
    "1 day": 86_400_000,
    "3 days": 259_200_000,
}
"""The turn times a client offers for a correspondence game (§11.11), by
label: ``create_table.correspondence_ms`` (a server may allow less than the
longest: ``welcome.limits.max_correspondence_ms``)."""


# --- message types ----------------------------------------------------------


class ClientMessage(StrEnum):
    """The ``type`` of each message a client may send (protocol §5)."""

    HELLO = "hello"
    PING = "ping"
    PONG = "pong"
    LIST_TABLES = "list_tables"
    CREATE_TABLE = "create_table"
    JOIN = "join"
    SPECTATE = "spectate"
    RESUME = "resume"
    LEAVE = "leave"
    BACK = "back"
    START = "start"
    NEW_GAME = "new_game"
    CLOSE_TABLE = "close_table"
    ADD_BOT = "add_bot"
    ACT = "act"
    CHAT = "chat"
    LIST_RECORDS = "list_records"
    GET_RECORD = "get_record"
    GET_REPLAY = "get_replay"
    """One hand of a finished game move by move (§7.3; added in round 2)."""
    KICK = "kick"
    LOCK = "lock"
    MUTE = "mute"
    HAND_OVER = "hand_over"
    UNBAR = "unbar"
    MY_GAMES = "my_games"
    """Every table where the asker holds a seat (§11.11; issue 27)."""
    # accounts (§7.5, issue 26)
    CHALLENGE = "challenge"
    REGISTER = "register"
    LOGIN = "login"
    PAIR_START = "pair_start"
    PAIR_FINISH = "pair_finish"
    DEVICES = "devices"
    REVOKE_DEVICE = "revoke_device"
    RECOVER = "recover"
    SET_PASSWORD = "set_password"
    PASSWORD_LOGIN = "password_login"
    PROFILE = "profile"
    HISTORY = "history"
    LEADERBOARD = "leaderboard"
    # hints and post-game analysis (docs/bots.md; added in this revision)
    HINT = "hint"
    """What the expert bot would do now at the asker's seat (§7.6)."""
    ANALYSIS = "analysis"
    """A finished game's post-game analysis (§7.6)."""
    # issue 27: between the games
    REMATCH = "rematch"
    """Accept (or decline) the rematch offered after a game (§11.12)."""
    QUICK_PLAY = "quick_play"
    """Be seated at a public table that starts soonest, or a new one (§11.13)."""


class ServerMessage(StrEnum):
    """The ``type`` of each message the server sends (protocol §7)."""

    WELCOME = "welcome"
    PING = "ping"
    PONG = "pong"
    ERROR = "error"
    OK = "ok"
    TABLES = "tables"
    TABLE_INFO = "table_info"
    TABLE_CREATED = "table_created"
    TABLE_CLOSED = "table_closed"
    JOINED = "joined"
    RESUMED = "resumed"
    LEFT = "left"
    STATE = "state"
    UPDATE = "update"
    DEADLINE = "deadline"
    CHAT = "chat"
    RECORDS = "records"
    RECORD = "record"
    REPLAY = "replay"
    """The answer to ``get_replay``: one hand's frames (§7.3; added in round 2)."""
    REDIRECT = "redirect"
    """The table lives on another node of a cluster: ask there (§7.4; added in round 2)."""
    INVITE = "invite"
    GAMES = "games"
    """The answer to ``my_games`` (§11.11; issue 27)."""
    # accounts (§7.5, issue 26)
    CHALLENGE = "challenge"
    REGISTERED = "registered"
    LOGGED_IN = "logged_in"
    PAIRING_CODE = "pairing_code"
    DEVICES = "devices"
    PASSWORD_SET = "password_set"
    PROFILE = "profile"
    HISTORY = "history"
    LEADERBOARD = "leaderboard"
    # hints and post-game analysis (docs/bots.md; added in this revision)
    HINT = "hint"
    """The answer to ``hint`` (§7.6)."""
    ANALYSIS = "analysis"
    """The answer to ``analysis``, running or ready (§7.6)."""


# --- game records -----------------------------------------------------------


class LogEntryKind(StrEnum):
    """The kind of each entry ``[kind, data]`` of a game's log: the journal and a
    game record's ``log`` (``docs/records.md``, "The log")."""

    SHUFFLE = "shuffle"
    """A shuffle the game made, ``{order, salt, sha256}`` (R2, R3, R10)."""
    START = "start"
    """The game starts: the cut, then hand 1 (R2, R3)."""
    ACTION = "action"
    """An accepted action, ``{seat, id, action}``."""
    NEXT_HAND = "next_hand"
    """The next hand is dealt (R2)."""


class AbandonReason(StrEnum):
    """Why a game ended before its last hand: a game record's ``abandoned``
    (``docs/records.md``; ``null`` for a game played to its end or still in play)."""

    NOBODY_CONNECTED = "nobody_connected"
    """No person held a seat with a connection for the server's grace for
    tables whose people are all gone (``craits-server --abandon-offline-after``,
    protocol §11.1)."""
    NOBODY_PLAYING = "nobody_playing"
    """Nobody played the game (every person's seat away or disconnected, a
    person still connected) for the server's abandon time (``craits-server
    --abandon-after``, protocol §11.1; added in round 3)."""
    CLOSED_BY_CREATOR = "closed_by_creator"
    """The table's creator closed the table during the game (``close_table``
    with ``end_game``, protocol §11.2)."""
