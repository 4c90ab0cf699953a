"""Typed messages, both ways: TypedDicts over the plain maps of protocol version 1.

These are types only, over the very dicts that msgpack decodes and encodes:
nothing here changes a byte on the wire. Each message of ``docs/protocol.md``
has one TypedDict, named after its ``type``:

- server → client (§7): :class:`WelcomeMsg`, :class:`ErrorMsg`, :class:`OkMsg`,
  :class:`TablesMsg`, :class:`TableInfoMsg`, :class:`TableCreatedMsg`,
  :class:`TableClosedMsg`, :class:`JoinedMsg`, :class:`ResumedMsg`,
  :class:`LeftMsg`, :class:`StateMsg`, :class:`UpdateMsg`, :class:`DeadlineMsg`,
  :class:`ChatMsg`, :class:`RecordsMsg`, :class:`RecordMsg`,
  :class:`ServerPingMsg`, :class:`ServerPongMsg`; any of them is
  :data:`ServerMsg`. The objects inside: :class:`View` (§8), one TypedDict per
  event (§9, any of them :data:`WireEvent`), :class:`TableInfo` (§10),
  :class:`SeatInfo`, :class:`Limits`, :class:`ChatLine`, :class:`Commitment`,
  :class:`Notice`, :class:`RecordSummary`, :class:`GameRecord`.
- client → server (§5): :class:`HelloMsg`, :class:`PingMsg`, :class:`PongMsg`,
  :class:`ListTablesMsg`, :class:`CreateTableMsg`, :class:`JoinMsg`,
  :class:`SpectateMsg`, :class:`ResumeMsg`, :class:`LeaveMsg`, :class:`BackMsg`,
  :class:`StartMsg`, :class:`NewGameMsg`, :class:`CloseTableMsg`,
  :class:`AddBotMsg`, :class:`ActMsg`, :class:`ChatSendMsg`,
  :class:`ListRecordsMsg`, :class:`GetRecordMsg`; any of them is
  :data:`ClientMsg` (what a client sends). What the server gets from
  :func:`craits.protocol.messages.parse_client_message` is a
  :data:`CheckedClientMsg`: the same, except that ``act`` carries the parsed
  :data:`~craits.protocol.actions.Action` (:class:`CheckedAct`) and ``add_bot``
  any level name, for the server to judge (:class:`CheckedAddBot`).

Every field that holds a code is typed with its :mod:`craits.protocol.vocab`
enum (``type``, ``event``, ``reason``, ``phase``, ``state``, ``code``, ``bot``,
suits). A decoded message holds plain strings, equal to the enum members:
compare codes with ``==`` or ``match`` (a type checker narrows a union on
``msg["type"] == ServerMessage.UPDATE``), never with ``is``. Card codes are
plain ``str`` (:func:`craits.protocol.vocab.is_card`). A pair such as
``[seat, card]`` is typed as a tuple; it is an array of two on the wire, so a
decoded one is a list.

Optional keys are ``NotRequired``: absent, never nil (§3). Keys added in this
revision of protocol version 1 (additive): ``hand_ended.penalties``,
``view.penalties_paid``, the table info's ``may_start`` and ``game``,
``close_table.end_game`` and a record's ``abandoned``; in round 2, ``state.events``
and ``state.score_sheet``.
"""

# No ``from __future__ import annotations`` here: TypedDict must see NotRequired
# itself to know which keys are optional (``__required_keys__``).

from typing import Literal, NotRequired, TypedDict, cast

from .account_types import (
    ACCOUNT_CLIENT_TYPES,
    ACCOUNT_SERVER_TYPES,
    AccountClientMsg,
    AccountServerMsg,
)
from .actions import Action
from .vocab import (
    AbandonReason,
    BotLevel,
    ClientMessage,
    DrawReason,
    ErrorCode,
    EventKind,
    LogEntryKind,
    NoticeKind,
    Phase,
    ServerMessage,
    SkipReason,
    Suit,
    TableState,
)

RulesMap = dict[str, bool | int]
"""Rules options by name (:data:`craits.protocol.vocab.RULE_OPTIONS`): true/false or an integer."""


# --- actions (§6) -----------------------------------------------------------


class PlayMap(TypedDict):
    """``{"play": card, "suit"?: suit, "announce"?: true}``: play a card (R4, R5, R7)."""

    play: str
    suit: NotRequired[Suit]
    announce: NotRequired[bool]


class DrawMap(TypedDict):
    """``{"draw": true}``: draw (R4, R6)."""

    draw: Literal[True]


PassMap = TypedDict("PassMap", {"pass": Literal[True]})
"""``{"pass": true}``: keep the card just drawn (R4, ``play_drawn_card``)."""


class AnnounceMap(TypedDict):
    """``{"announce": true}``: say "one card" (R7)."""

    announce: Literal[True]


class IdiotMap(TypedDict):
    """``{"idiot": seat}``: call "idiot" on a seat (R7)."""

    idiot: int


class NameSuitMap(TypedDict):
    """``{"name_suit": suit}``: the dealer names the suit of a turned-up 8 or 9 (R3)."""

    name_suit: Suit


ActionMap = PlayMap | DrawMap | PassMap | AnnounceMap | IdiotMap | NameSuitMap
"""An action's map form, as ``act.action`` carries it (§6). To get the typed
:data:`~craits.protocol.actions.Action`, use
:func:`craits.protocol.actions.parse_action`."""


class LegalPlay(PlayMap):
    """A legal play in ``view.legal``: a :class:`PlayMap` with the receiver's ``seat``."""

    seat: int


class LegalDraw(DrawMap):
    """A legal draw in ``view.legal``."""

    seat: int


class LegalPass(PassMap):
    """A legal pass in ``view.legal``."""

    seat: int


class LegalAnnounce(AnnounceMap):
    """A legal announcement in ``view.legal``."""

    seat: int


class LegalIdiot(IdiotMap):
    """A legal idiot call in ``view.legal``."""

    seat: int


class LegalNameSuit(NameSuitMap):
    """A legal naming of the suit in ``view.legal``."""

    seat: int


LegalAction = LegalPlay | LegalDraw | LegalPass | LegalAnnounce | LegalIdiot | LegalNameSuit
"""An entry of ``view.legal``: an action map plus the receiver's ``seat`` (§6, §8).
:func:`action_map` drops the seat to send it."""


# --- events (§9) ------------------------------------------------------------


class CutEvent(TypedDict):
    """The cut for the first dealer (R2): each round pairs the seats still cutting with a card."""

    event: Literal[EventKind.CUT]
    rounds: list[list[tuple[int, str]]]
    dealer: int


class DealtEvent(TypedDict):
    """A hand was dealt (R2, R3): ``hands[s]`` is seat s's cards, or None if not the receiver's."""

    event: Literal[EventKind.DEALT]
    hand_number: int
    dealer: int
    hand_size: int
    hands: list[list[str] | None]
    stock_size: int


class TurnedUpEvent(TypedDict):
    """The dealer turned up ``card`` to start the discard pile (R3)."""

    event: Literal[EventKind.TURNED_UP]
    seat: int
    card: str


class PlayedEvent(TypedDict):
    """``seat`` played ``card``; ``suit`` is the suit in force after it (R4, R5, R7)."""

    event: Literal[EventKind.PLAYED]
    seat: int
    card: str
    suit: Suit
    announced: bool


class SuitNamedEvent(TypedDict):
    """The dealer named the suit for a turned-up 8 or 9 (R3)."""

    event: Literal[EventKind.SUIT_NAMED]
    seat: int
    suit: Suit


class DrewEvent(TypedDict):
    """``seat`` drew ``n`` cards; ``cards`` only in the drawer's own copy, else None."""

    event: Literal[EventKind.DREW]
    seat: int
    n: int
    cards: list[str] | None
    reason: DrawReason


class ShufflePenaltyEvent(TypedDict):
    """``seat`` drew from an empty stock and paid ``penalty`` points (R10, R12);
    ``order`` is never sent (always None)."""

    event: Literal[EventKind.SHUFFLE_PENALTY]
    seat: int
    penalty: int
    stock_size: int
    order: None


class CountEvent(TypedDict):
    """The count is now ``count``; 0: it ended (R6)."""

    event: Literal[EventKind.COUNT]
    count: int


class SkippedEvent(TypedDict):
    """``seat``'s turn was skipped (R5, R7, R11)."""

    event: Literal[EventKind.SKIPPED]
    seat: int
    reason: SkipReason


class ReversedEvent(TypedDict):
    """A 10 reversed the direction; ``direction`` is the new one, 1 or -1 (R5)."""

    event: Literal[EventKind.REVERSED]
    seat: int
    direction: int


class PlayAgainEvent(TypedDict):
    """``seat`` must play again: ``cards`` 1 after a 6 (R5), 3 after a king (R11)."""

    event: Literal[EventKind.PLAY_AGAIN]
    seat: int
    cards: int


class PassedEvent(TypedDict):
    """``seat`` kept the card it drew (R4)."""

    event: Literal[EventKind.PASSED]
    seat: int


class AnnouncedEvent(TypedDict):
    """``seat`` announced "one card" (R7)."""

    event: Literal[EventKind.ANNOUNCED]
    seat: int


class IdiotEvent(TypedDict):
    """``seat`` called idiot on ``target`` (R7)."""

    event: Literal[EventKind.IDIOT]
    seat: int
    target: int


class HandResult(TypedDict):
    """One seat's scoring in ``hand_ended.results`` (R9): the cards left (revealed),
    each 3 with the card it cancelled, the hand's points (penalties not included)."""

    seat: int
    cards: list[str]
    cancelled: list[tuple[str, str]]
    points: int
    went_out: bool


class HandEndedEvent(TypedDict):
    """The hand is over (R8, R9, R10, R2). ``scores``: game totals after it,
    penalties included; ``pressure``: shuffle penalties paid so far this game;
    ``penalties`` (added in this revision): the shuffle-penalty points each seat
    paid during this hand (R10); ``winners``: when ``game_over``, else empty."""

    event: Literal[EventKind.HAND_ENDED]
    hand_number: int
    results: list[HandResult]
    scores: list[int]
    pressure: list[int]
    penalties: list[int]
    next_dealer: int
    game_over: bool
    winners: list[int]


WireEvent = (
    CutEvent
    | DealtEvent
    | TurnedUpEvent
    | PlayedEvent
    | SuitNamedEvent
    | DrewEvent
    | ShufflePenaltyEvent
    | CountEvent
    | SkippedEvent
    | ReversedEvent
    | PlayAgainEvent
    | PassedEvent
    | AnnouncedEvent
    | IdiotEvent
    | HandEndedEvent
)
"""Any event of ``update.events`` (§9); narrow it on ``e["event"] == EventKind.…``."""


# --- the view (§8) ----------------------------------------------------------


class PublicView(TypedDict):
    """The keys of a view that are the same for every seat and spectator (§8).
    ``penalties_paid`` (added in this revision): the shuffle-penalty points each
    seat paid so far this game (R10)."""

    players: int
    rules: RulesMap
    phase: Phase
    hand_number: int
    hands_in_game: int
    hand_size: int
    dealer: int
    direction: int
    turn: int
    to_act: int | None
    hand_sizes: list[int]
    top: str | None
    suit: Suit
    count: int
    again: bool
    jacks: int
    king_cards: int
    pending: int | None
    deciding_drawn: bool
    stock_size: int
    discard_size: int
    scores: list[int]
    pressure: list[int]
    next_penalty: list[int]
    penalties_paid: list[int]  # added in this revision (R10)
    lost_turns: list[int]
    unannounced: list[int]
    one_card: list[int]
    result: HandEndedEvent | None


class PersonalView(TypedDict):
    """The keys of a view that are the receiver's own (§8): its seat, hand,
    drawn card and legal actions (None, None, None, [] for a spectator)."""

    seat: int | None
    hand: list[str] | None
    drawn: str | None
    legal: list[LegalAction]


class View(PublicView, PersonalView):
    """Everything the receiver may know of the game (§8): :class:`PublicView`
    plus :class:`PersonalView`."""


# --- tables (§10) -----------------------------------------------------------


class SeatInfo(TypedDict):
    """A taken seat in the table info's ``players`` (§10); ``bot`` is the bot's
    level, or None for a person."""

    seat: int
    name: str
    connected: bool
    away: bool
    bot: BotLevel | None
    registered: NotRequired[bool]
    """``true`` for a seat a logged-in player took: a registered player, not a
    guest (§7.5; added with accounts); absent for a guest's and a bot's."""


# --- time controls (protocol §11.10; issue 27) ------------------------------


class TimeBankInfo(TypedDict):
    """A table's time bank (§11.10): each seat's time for the game, and the
    time added after each of its turns, in ms (``create_table.time_bank``,
    the table info's ``time_bank``)."""

    bank_ms: int
    increment_ms: int


class Clocks(TypedDict):
    """Each seat's time bank now (§11.10), in ``update``, ``state`` and
    ``deadline`` at a table with a time bank: ``left_ms`` by seat as at
    ``at_ms`` (the server's clock, ms since the epoch), ``running`` the seat
    whose bank runs (None: none). A client counts the running seat's down
    from the moment it received the message."""

    at_ms: int
    left_ms: list[int]
    running: int | None


class MyGame(TypedDict):
    """A seat the asker holds, as ``games`` lists it (§11.11; issue 27):
    ``to_act`` the seat whose turn it is (None: no turn in play, or the
    table is not playing), ``deadline_ms`` the time it has left and
    ``deadline_at_ms`` when that is on the server's calendar (None: no clock
    runs), ``correspondence_ms`` a correspondence game's turn time."""

    table: str
    seat: int
    name: str
    state: TableState
    to_act: int | None
    to_act_name: str | None
    your_turn: bool
    deadline_ms: int | None
    deadline_at_ms: int | None
    hand_number: int
    on_hold: bool
    correspondence_ms: NotRequired[int]


class RematchInfo(TypedDict):
    """The table info's ``rematch`` (§10, §11.12; issue 27): the seats that
    accepted the next game (bots, and newcomers who joined for it, included)
    and the seats still to answer; a counter is ``len(accepted)`` of
    ``len(accepted) + len(waiting)``."""

    accepted: list[int]
    waiting: list[int]


class TableInfo(TypedDict):
    """A table as the lobby lists it (§10): no cards. ``may_start`` (added in this
    revision): the seats that may ``start``, ``new_game`` and ``add_bot`` now (§11.2);
    ``game`` (added too): the journal's id of the table's game, as its record
    has it, or None. Added in round 2 (a server of that revision always sends
    them): ``seated``, the seats taken; ``private``, ``locked``, ``muted`` (the
    seats whose chat is muted), ``watchers_muted``, ``barred`` (the names the
    creator removed): §11.9. The lobby's entry of a private table lists no
    players, creator, bars or game (§11.9)."""

    name: str
    seats: int
    players: list[SeatInfo]
    state: TableState
    rules: RulesMap
    turn_timeout_ms: int
    spectators: int
    creator: str | None
    hand_number: int
    hands_in_game: int
    on_hold: bool
    may_start: list[int]
    game: int | None
    unavailable: NotRequired[bool]
    """In a cluster's lobby: ``true`` while the table's node is down (§7.4; round 2)."""
    seated: NotRequired[int]
    private: NotRequired[bool]
    locked: NotRequired[bool]
    muted: NotRequired[list[int]]
    watchers_muted: NotRequired[bool]
    barred: NotRequired[list[str]]
    people: NotRequired[int]
    """The seats held by people, not bots (§10; added in round 3)."""
    people_connected: NotRequired[int]
    """How many of those a connection holds now: 0 while every person at the
    table is offline (§10, §11.1; added in round 3)."""
    time_bank: NotRequired[TimeBankInfo]
    """The table's time bank, present only at a table that has one (§11.10;
    issue 27)."""
    correspondence_ms: NotRequired[int]
    """A correspondence game's turn time, ms, present only at such a table
    (§11.11; issue 27)."""
    rated: NotRequired[bool]
    """A rated table: only logged-in players sit, and its games move their
    ratings (§7.5; added with accounts)."""
    # issue 27: between the games (§11.12)
    rematch: NotRequired[RematchInfo]
    """While a rematch is on offer: who accepted, who is still to answer."""
    series: NotRequired[list[int]]
    """Once a game of the table's series ended: the games each seat won in it."""
    bots_in_ms: NotRequired[int]
    """A table quick play opened: milliseconds until bots take its free seats (§11.13)."""


class Limits(TypedDict):
    """``welcome.limits`` (§4.1): sizes in bytes or code points, rates per second."""

    max_frame: int
    max_name: int
    max_chat: int
    rate: int
    burst: int
    max_tables: int
    max_empty_tables: int
    max_empty_tables_per_address: int
    empty_table_grace_ms: int
    max_connections_per_address: int
    min_turn_timeout_ms: NotRequired[int]
    """The shortest turn timeout a table may have, ms (0 excepted: no timeout);
    added in round 2."""
    max_correspondence_ms: NotRequired[int]
    """The longest turn a correspondence game may have, ms (§11.11; issue 27)."""


class Commitment(TypedDict):
    """The SHA-256 commitment to one shuffle, 64 lowercase hex digits (§7.1, records.md)."""

    sha256: str


class ChatLine(TypedDict):
    """One chat line (§7.1): ``seat`` is None for a spectator."""

    name: str
    seat: int | None
    text: str


class Notice(TypedDict):
    """Why the server played for a seat (§11.4)."""

    kind: NoticeKind
    seat: int
    name: str


class LogNotice(TypedDict):
    """A ``notice`` of the hand so far (``state.notices``, §7.1, added in round 2):
    the update whose first event is ``events[at]`` carried it."""

    at: int
    kind: NoticeKind
    seat: int
    name: str


class RecordSummary(TypedDict):
    """One finished game in ``records.games`` (§7.3); times ISO 8601 UTC."""

    id: int
    table: str
    players: list[str]
    started: str
    finished: str


# --- game records (records.md) ----------------------------------------------


class Move(TypedDict):
    """One accepted action of a hand in a record."""

    seat: int
    action: ActionMap


class ReplayFrame(TypedDict):
    """One step of a hand in a replay (records.md "Frames", §7.3 ``replay``;
    added in round 2): the deal (``move`` None) or the hand's move ``move``
    (its ``seat`` and ``action``); the step's ``events`` unfiltered (§9); the
    ``view`` after it as a spectator sees it (§8); every seat's cards
    (``hands``); the distinct cards the seat to act may play (``playable``)."""

    move: int | None
    seat: int | None
    action: ActionMap | None
    events: list[WireEvent]
    view: View
    hands: list[list[str]]
    playable: list[str]


class RecordHand(TypedDict):
    """One hand of a record: as dealt (every seat's cards), played and scored;
    ``frames`` (added in round 2) only in a record exported with ``--frames``."""

    hand_number: int
    dealer: int
    dealt: list[list[str]]
    turned_up: str | None
    moves: list[Move]
    result: HandEndedEvent | None
    frames: NotRequired[list[ReplayFrame]]


class Standing(TypedDict):
    """One seat's standing in a record, lowest score first; equal scores share a place."""

    seat: int
    name: str
    score: int
    place: int


class ShuffleEntry(TypedDict):
    """The data of a ``shuffle`` log entry: the order, the salt (hex) and the commitment."""

    order: list[str]
    salt: str
    sha256: str


class ActionEntry(TypedDict):
    """The data of an ``action`` log entry; ``id`` is None for a move the server
    made; ``played_for`` (added in round 2) when it played a person's seat: why."""

    seat: int
    id: int | None
    action: ActionMap
    played_for: NotRequired[NoticeKind]


class NoData(TypedDict):
    """The data of a ``start`` or ``next_hand`` log entry: ``{}``."""


LogEntry = tuple[LogEntryKind, ShuffleEntry | ActionEntry | NoData]
"""One entry ``[kind, data]`` of a game's log (records.md, "The log")."""


class GameRecord(TypedDict):
    """A game's record (``docs/records.md``): ``format`` is ``"craits-record"``."""

    format: str
    version: int
    game: int
    table: str
    started: str | None
    finished: str | None
    players: list[str]
    rules: RulesMap
    complete: bool
    abandoned: AbandonReason | None
    hands: list[RecordHand]
    standings: list[Standing]
    winners: list[int]
    log: list[LogEntry]


# --- server → client (§7) ---------------------------------------------------


class WelcomeMsg(TypedDict):
    """The answer to a good ``hello`` (§4.1)."""

    type: Literal[ServerMessage.WELCOME]
    version: int
    server: str
    server_version: NotRequired[str]
    heartbeat_ms: int
    limits: Limits
    public_address: NotRequired[str]
    nonce: NotRequired[str]
    """The connection's login nonce, 64 lowercase hex digits (§4.1, §7.5; added
    with accounts)."""


class ServerPingMsg(TypedDict):
    """The server's heartbeat (§4.2): answer it with a pong."""

    type: Literal[ServerMessage.PING]


class ServerPongMsg(TypedDict):
    """The answer to a client's ``ping``, with its nonce if it had one."""

    type: Literal[ServerMessage.PONG]
    nonce: NotRequired[int]


class ErrorMsg(TypedDict):
    """A request refused, or a notice (§12). ``id``: in every answer to an ``act``
    that passed its schema check; ``supported``: only with ``unsupported_version``."""

    type: Literal[ServerMessage.ERROR]
    code: ErrorCode
    message: str
    id: NotRequired[int]
    supported: NotRequired[list[int]]


class OkMsg(TypedDict):
    """The ``act`` with this ``id`` was applied."""

    type: Literal[ServerMessage.OK]
    id: int


class TablesMsg(TypedDict):
    """The answer to ``list_tables`` (§7.2): at most 100 tables from ``offset`` on, of ``total``."""

    type: Literal[ServerMessage.TABLES]
    tables: list[TableInfo]
    offset: int
    total: int


class TableInfoMsg(TypedDict):
    """A table changed (§7.2)."""

    type: Literal[ServerMessage.TABLE_INFO]
    table: TableInfo


class TableCreatedMsg(TypedDict):
    """The answer to ``create_table``; ``code``: a private table's invite code
    (§11.9, added in round 2), sent to its creator only."""

    type: Literal[ServerMessage.TABLE_CREATED]
    table: TableInfo
    code: NotRequired[str]
    creator_token: NotRequired[str]
    """A private table's creator's token, which proves the creator when it
    asks for the table's games' records (§7.3; added in round 3)."""


class TableClosedMsg(TypedDict):
    """The table named ``name`` was closed (§7.2)."""

    type: Literal[ServerMessage.TABLE_CLOSED]
    name: str


class JoinedMsg(TypedDict):
    """The answer to ``join``: the seat, and its resume token (§11.7)."""

    type: Literal[ServerMessage.JOINED]
    table: str
    seat: int
    token: str


class ResumedMsg(TypedDict):
    """The answer to ``resume``."""

    type: Literal[ServerMessage.RESUMED]
    table: str
    seat: int


class RedirectMsg(TypedDict):
    """The table of a ``join``, ``spectate``, ``resume`` or ``create_table`` is
    (or is placed) on another node of the cluster, reached at ``address``
    (``HOST:PORT``): connect there and send the same request (§7.4; added in round 2)."""

    type: Literal[ServerMessage.REDIRECT]
    address: str
    table: str


class LeftMsg(TypedDict):
    """The answer to ``leave``."""

    type: Literal[ServerMessage.LEFT]
    table: str


class ScoreSheetRow(TypedDict):
    """One hand ended, on the score sheet of ``state.score_sheet`` (§7.1, added in
    round 2): per seat, the hand's ``points`` (R9, penalties not included), the
    shuffle ``penalties`` paid during it (R10) and the game totals after it."""

    hand_number: int
    points: list[int]
    penalties: list[int]
    scores: list[int]


class StateMsg(TypedDict):
    """A full snapshot of the table for the receiver (§7.1); ``seat`` None for a
    spectator, ``view`` None before the first game. ``events`` (added in round 2):
    the hand in play's events so far, filtered for the receiver as an update's
    are; ``notices`` (added in round 2): the notices of their updates;
    ``score_sheet`` (added in round 2): a row per hand ended this game."""

    type: Literal[ServerMessage.STATE]
    table: TableInfo
    seat: int | None
    view: View | None
    seq: int
    commitments: list[Commitment]
    deadline_ms: int | None
    chat: list[ChatLine]
    events: list[WireEvent]
    score_sheet: list[ScoreSheetRow]
    notices: list[LogNotice]
    next_hand_ms: NotRequired[int]
    """Between hands, while the game is not on hold: ms until the next deal
    (added in round 2)."""
    clocks: NotRequired[Clocks]
    """At a table with a time bank: each seat's bank now (§11.10; issue 27)."""


class UpdateMsg(TypedDict):
    """One change of the game (§7.1): the events, filtered for the receiver, and
    its view after them."""

    type: Literal[ServerMessage.UPDATE]
    table: str
    seq: int
    events: list[WireEvent]
    view: View
    deadline_ms: int | None
    notice: NotRequired[Notice]
    commitments: NotRequired[list[Commitment]]
    next_hand_ms: NotRequired[int]
    """In the update that ends a hand (not the last), unless the game is on
    hold: ms until the next deal (added in round 2)."""
    clocks: NotRequired[Clocks]
    """At a table with a time bank: each seat's bank now (§11.10; issue 27)."""


class DeadlineMsg(TypedDict):
    """The answer to ``back`` when the seat is to act (§11.4): a fresh turn timer."""

    type: Literal[ServerMessage.DEADLINE]
    table: str
    seq: int
    deadline_ms: int | None
    clocks: NotRequired[Clocks]
    """At a table with a time bank: each seat's bank now (§11.10; issue 27)."""


class ChatMsg(TypedDict):
    """Someone at the table said something (§7.1)."""

    type: Literal[ServerMessage.CHAT]
    table: str
    name: str
    seat: int | None
    text: str


class InviteMsg(TypedDict):
    """A private table's invite code, to its creator only (§11.9, added in round
    2): when the creator comes to the table and when the role is handed over."""

    type: Literal[ServerMessage.INVITE]
    table: str
    code: str


class RecordsMsg(TypedDict):
    """The answer to ``list_records`` (§7.3): finished games, newest first."""

    type: Literal[ServerMessage.RECORDS]
    games: list[RecordSummary]


class RecordMsg(TypedDict):
    """The answer to ``get_record`` (§7.3)."""

    type: Literal[ServerMessage.RECORD]
    record: GameRecord


class ReplayMsg(TypedDict):
    """The answer to ``get_replay`` (§7.3; added in round 2): frames ``offset``
    on (at most 200) of hand ``hand`` (1 for the first) of game ``game``,
    which has ``total`` frames."""

    type: Literal[ServerMessage.REPLAY]
    game: int
    hand: int
    offset: int
    total: int
    frames: list[ReplayFrame]


class GamesMsg(TypedDict):
    """The answer to ``my_games`` (§11.11; issue 27): every seat the asker
    holds, the asker's turns first."""

    type: Literal[ServerMessage.GAMES]
    games: list[MyGame]


class HintChoice(TypedDict):
    """One choice of a hint (§7.6): ``action`` (§6, without a seat; None: the call
    not made, "one card" not said); ``points_x100``: the seat's expected points at
    the end of the hand, in hundredths of a point (R9, R10; low is good; None: a
    single choice, nothing judged); ``se_x100``: the standard error of its
    difference from the expert's choice, in hundredths (0 for the expert's own;
    None: unknown). Hundredths: the protocol carries no floats (§3)."""

    action: ActionMap | None
    points_x100: int | None
    se_x100: int | None


class Hint(TypedDict):
    """What the expert bot would do now at a seat (§7.6, ``docs/bots.md`` "Hints"):
    ``kind`` the decision (``play``, ``count``, ``drawn``, ``king``, ``turned_suit``,
    ``one_card``, ``idiot``), ``target`` the seat owing "one card" (for ``one_card``
    and ``idiot``, else None), ``expert`` the expert's action, ``choices`` at most
    three (the expert's first), ``worlds`` the deals sampled."""

    version: int
    seat: int
    kind: str
    target: int | None
    expert: ActionMap | None
    choices: list[HintChoice]
    worlds: int


class HintMsg(TypedDict):
    """The answer to ``hint`` (§7.6): the hint for the asker's seat at table
    ``table`` as the game stood at update ``seq`` (§11.6)."""

    type: Literal[ServerMessage.HINT]
    table: str
    seq: int
    hint: Hint


class AnalysisMsg(TypedDict):
    """The answer to ``analysis`` (§7.6): finished game ``game``'s post-game
    analysis, ``state`` ``"running"`` (``done`` of ``total`` decisions judged so far)
    or ``"ready"`` (``analysis``: ``docs/bots.md``'s document as JSON text — it
    holds fractional points, which msgpack here never carries, §3 — its
    ``decisions`` those of ``seat`` when the request named one)."""

    type: Literal[ServerMessage.ANALYSIS]
    game: int
    state: str
    done: int
    total: int
    seat: NotRequired[int]
    analysis: NotRequired[str]


ServerMsg = (
    WelcomeMsg
    | ServerPingMsg
    | ServerPongMsg
    | ErrorMsg
    | OkMsg
    | TablesMsg
    | TableInfoMsg
    | TableCreatedMsg
    | TableClosedMsg
    | JoinedMsg
    | ResumedMsg
    | LeftMsg
    | StateMsg
    | UpdateMsg
    | DeadlineMsg
    | ChatMsg
    | RecordsMsg
    | RecordMsg
    | ReplayMsg
    | RedirectMsg
    | InviteMsg
    | GamesMsg
    | AccountServerMsg
    | HintMsg
    | AnalysisMsg
)
"""Any message the server sends (§7); narrow it on ``msg["type"] == ServerMessage.…``.
:func:`craits.protocol.messages.parse_server_message` gives one from a decoded map."""

SERVER_MESSAGE_TYPES: dict[ServerMessage, type] = {
    ServerMessage.WELCOME: WelcomeMsg,
    ServerMessage.PING: ServerPingMsg,
    ServerMessage.PONG: ServerPongMsg,
    ServerMessage.ERROR: ErrorMsg,
    ServerMessage.OK: OkMsg,
    ServerMessage.TABLES: TablesMsg,
    ServerMessage.TABLE_INFO: TableInfoMsg,
    ServerMessage.TABLE_CREATED: TableCreatedMsg,
    ServerMessage.TABLE_CLOSED: TableClosedMsg,
    ServerMessage.JOINED: JoinedMsg,
    ServerMessage.RESUMED: ResumedMsg,
    ServerMessage.LEFT: LeftMsg,
    ServerMessage.STATE: StateMsg,
    ServerMessage.UPDATE: UpdateMsg,
    ServerMessage.DEADLINE: DeadlineMsg,
    ServerMessage.CHAT: ChatMsg,
    ServerMessage.RECORDS: RecordsMsg,
    ServerMessage.RECORD: RecordMsg,
    ServerMessage.REPLAY: ReplayMsg,
    ServerMessage.REDIRECT: RedirectMsg,
    ServerMessage.INVITE: InviteMsg,
    ServerMessage.GAMES: GamesMsg,
    **ACCOUNT_SERVER_TYPES,
    ServerMessage.HINT: HintMsg,
    ServerMessage.ANALYSIS: AnalysisMsg,
}
"""The TypedDict of each server message type."""


# --- client → server (§5) ---------------------------------------------------


class HelloMsg(TypedDict):
    """The first message (§4.1): the protocol version, a display name, the client program."""

    type: Literal[ClientMessage.HELLO]
    version: int
    name: NotRequired[str]
    client: NotRequired[str]
    forwarded_for: NotRequired[str]
    """From a trusted relay only (added in round 2): the IP address of the
    person the connection speaks for."""


class PingMsg(TypedDict):
    """A client's ping; the server answers ``pong`` with the same nonce."""

    type: Literal[ClientMessage.PING]
    nonce: NotRequired[int]


class PongMsg(TypedDict):
    """The answer to the server's ping (§4.2)."""

    type: Literal[ClientMessage.PONG]
    nonce: NotRequired[int]


class ListTablesMsg(TypedDict):
    """List the tables from ``offset``; ``watch`` turns lobby updates on (§7.2)."""

    type: Literal[ClientMessage.LIST_TABLES]
    watch: NotRequired[bool]
    offset: NotRequired[int]


class CreateTableMsg(TypedDict):
    """Create a table of 2–8 ``seats``, with rules options and a turn timeout in ms."""

    type: Literal[ClientMessage.CREATE_TABLE]
    name: str
    seats: int
    rules: NotRequired[RulesMap]
    turn_timeout_ms: NotRequired[int]
    placed: NotRequired[bool]
    """Repeated after a cluster's ``redirect``: created where it lands (§7.4; round 2)."""
    private: NotRequired[bool]
    time_bank: NotRequired[TimeBankInfo]
    """A time bank instead of a fixed turn timeout (§11.10; issue 27)."""
    correspondence_ms: NotRequired[int]
    """A correspondence game, whose turns take this long (§11.11; issue 27)."""
    rated: NotRequired[bool]


class JoinMsg(TypedDict):
    """Sit at ``table`` as ``name``; ``code``: a private table's invite code (§11.9)."""

    type: Literal[ClientMessage.JOIN]
    table: str
    name: str
    code: NotRequired[str]


class SpectateMsg(TypedDict):
    """Watch ``table``; ``code``: a private table's invite code (§11.9)."""

    type: Literal[ClientMessage.SPECTATE]
    table: str
    code: NotRequired[str]


class ResumeMsg(TypedDict):
    """Take a seat back with its resume token (§11.7)."""

    type: Literal[ClientMessage.RESUME]
    token: str


class LeaveMsg(TypedDict):
    """Leave the table."""

    type: Literal[ClientMessage.LEAVE]


class BackMsg(TypedDict):
    """A seat marked away is back (§11.4)."""

    type: Literal[ClientMessage.BACK]


class StartMsg(TypedDict):
    """Start the game with the players seated (§11.2)."""

    type: Literal[ClientMessage.START]


class NewGameMsg(TypedDict):
    """Start another game at a finished table (§11.2)."""

    type: Literal[ClientMessage.NEW_GAME]


class CloseTableMsg(TypedDict):
    """Close the table (its creator only); while a game runs, only with
    ``end_game: true``, which ends it as abandoned (§11.2, added in this revision)."""

    type: Literal[ClientMessage.CLOSE_TABLE]
    end_game: NotRequired[bool]


class AddBotMsg(TypedDict):
    """Seat a bot (§11.8) of ``level``; without it,
    :data:`~craits.protocol.vocab.DEFAULT_BOT_LEVEL`."""

    type: Literal[ClientMessage.ADD_BOT]
    level: NotRequired[BotLevel]


class ActMsg(TypedDict):
    """Act (§6, §11.5, §11.6): a fresh ``id``, the action map, the ``seq`` answered."""

    type: Literal[ClientMessage.ACT]
    id: int
    action: ActionMap
    seq: NotRequired[int]


class ChatSendMsg(TypedDict):
    """Say ``text`` to everyone at the table."""

    type: Literal[ClientMessage.CHAT]
    text: str


class ListRecordsMsg(TypedDict):
    """List the finished games (§7.3); ``tokens`` (added in round 3): resume
    tokens (or a creator's token) that prove seats at private tables, whose
    games are then listed too."""

    type: Literal[ClientMessage.LIST_RECORDS]
    tokens: NotRequired[list[str]]


class GetRecordMsg(TypedDict):
    """Fetch the record of finished game ``game`` (§7.3); ``tokens`` as for
    ``list_records``: a private table's game needs one that proves a seat."""

    type: Literal[ClientMessage.GET_RECORD]
    game: int
    tokens: NotRequired[list[str]]


class GetReplayMsg(TypedDict):
    """Fetch hand ``hand`` (1 for the first) of finished game ``game`` move by
    move, its frames from ``offset`` on (default 0) (§7.3; added in round 2)."""

    type: Literal[ClientMessage.GET_REPLAY]
    game: int
    hand: int
    offset: NotRequired[int]
    tokens: NotRequired[list[str]]


class HintRequestMsg(TypedDict):
    """Ask what the expert bot would do now at one's seat (§7.6): a seated player
    with a decision to make, one hint at a time per connection."""

    type: Literal[ClientMessage.HINT]


class AnalysisRequestMsg(TypedDict):
    """Ask for finished game ``game``'s post-game analysis (§7.6); ``tokens`` as for
    ``get_record``; ``seat``: only that seat's decisions."""

    type: Literal[ClientMessage.ANALYSIS]
    game: int
    seat: NotRequired[int]
    tokens: NotRequired[list[str]]


class KickMsg(TypedDict):
    """The creator removes the player at ``seat`` (§11.9): before the first game
    the seat is freed; once a game is played, a bot takes it."""

    type: Literal[ClientMessage.KICK]
    seat: int


class LockMsg(TypedDict):
    """The creator locks (``locked: true``) or unlocks the table (§11.9)."""

    type: Literal[ClientMessage.LOCK]
    locked: bool


class MuteMsg(TypedDict):
    """The creator mutes (``muted``, default true) or unmutes the chat of the
    player at ``seat``, or of every spectator (``watchers: true``); exactly one
    of ``seat`` and ``watchers`` (§11.9)."""

    type: Literal[ClientMessage.MUTE]
    seat: NotRequired[int]
    watchers: NotRequired[bool]
    muted: NotRequired[bool]


class HandOverMsg(TypedDict):
    """The creator hands the role to the player at ``seat`` (§11.9)."""

    type: Literal[ClientMessage.HAND_OVER]
    seat: int


class UnbarMsg(TypedDict):
    """The creator lets back the person removed under ``name``, or everyone
    removed (no ``name``) (§11.9)."""

    type: Literal[ClientMessage.UNBAR]
    name: NotRequired[str]


class MyGamesMsg(TypedDict):
    """Every table where the asker holds a seat (§11.11; issue 27): ``tokens``,
    the resume tokens the client holds."""

    type: Literal[ClientMessage.MY_GAMES]
    tokens: NotRequired[list[str]]


# --- between the games (§11.12; issue 27) ---------------------------------------


class RematchMsg(TypedDict):
    """A seated player accepts the rematch offered after a game (``accept``,
    default true), or declines it (``accept: false``: the seat is freed and
    the player leaves the table, answered ``left``) (§11.12)."""

    type: Literal[ClientMessage.REMATCH]
    accept: NotRequired[bool]


class QuickPlayMsg(TypedDict):
    """Be seated, as ``name`` (default: the hello's), at the public table with
    a free seat whose game starts soonest among those with ``seats`` seats and
    the ``rules`` options given (preferences; absent: any), or at a new one
    whose free seats bots take after a countdown (§11.13). ``table``: sent
    again after a cluster's ``redirect``, the table it named (§7.4)."""

    type: Literal[ClientMessage.QUICK_PLAY]
    name: NotRequired[str]
    seats: NotRequired[int]
    rules: NotRequired[RulesMap]
    table: NotRequired[str]


ClientMsg = (
    HelloMsg
    | PingMsg
    | PongMsg
    | ListTablesMsg
    | CreateTableMsg
    | JoinMsg
    | SpectateMsg
    | ResumeMsg
    | LeaveMsg
    | BackMsg
    | StartMsg
    | NewGameMsg
    | CloseTableMsg
    | AddBotMsg
    | ActMsg
    | ChatSendMsg
    | ListRecordsMsg
    | GetRecordMsg
    | GetReplayMsg
    | KickMsg
    | LockMsg
    | MuteMsg
    | HandOverMsg
    | UnbarMsg
    | MyGamesMsg
    | AccountClientMsg
    | HintRequestMsg
    | AnalysisRequestMsg
    | RematchMsg
    | QuickPlayMsg
)
"""Any message a client sends (§5)."""


class CheckedAct(TypedDict):
    """An ``act`` as the server gets it from the schema check: the action parsed
    (its seat :data:`~craits.protocol.actions.NO_SEAT` until the server fills it in)."""

    type: Literal[ClientMessage.ACT]
    id: int
    action: Action
    seq: NotRequired[int]


class CheckedAddBot(TypedDict):
    """An ``add_bot`` as the server gets it: ``level`` is any name of 1–16
    characters; the server refuses one that is not a :class:`~craits.protocol.vocab.BotLevel`."""

    type: Literal[ClientMessage.ADD_BOT]
    level: NotRequired[str]


CheckedClientMsg = (
    HelloMsg
    | PingMsg
    | PongMsg
    | ListTablesMsg
    | CreateTableMsg
    | JoinMsg
    | SpectateMsg
    | ResumeMsg
    | LeaveMsg
    | BackMsg
    | StartMsg
    | NewGameMsg
    | CloseTableMsg
    | CheckedAddBot
    | CheckedAct
    | ChatSendMsg
    | ListRecordsMsg
    | GetRecordMsg
    | GetReplayMsg
    | KickMsg
    | LockMsg
    | MuteMsg
    | HandOverMsg
    | UnbarMsg
    | MyGamesMsg
    | AccountClientMsg
    | HintRequestMsg
    | AnalysisRequestMsg
    | RematchMsg
    | QuickPlayMsg
)
"""A client message after the schema check (names stripped, the action parsed);
narrow it on ``msg["type"] == ClientMessage.…``."""

CLIENT_MESSAGE_TYPES: dict[ClientMessage, type] = {
    ClientMessage.HELLO: HelloMsg,
    ClientMessage.PING: PingMsg,
    ClientMessage.PONG: PongMsg,
    ClientMessage.LIST_TABLES: ListTablesMsg,
    ClientMessage.CREATE_TABLE: CreateTableMsg,
    ClientMessage.JOIN: JoinMsg,
    ClientMessage.SPECTATE: SpectateMsg,
    ClientMessage.RESUME: ResumeMsg,
    ClientMessage.LEAVE: LeaveMsg,
    ClientMessage.BACK: BackMsg,
    ClientMessage.START: StartMsg,
    ClientMessage.NEW_GAME: NewGameMsg,
    ClientMessage.CLOSE_TABLE: CloseTableMsg,
    ClientMessage.ADD_BOT: AddBotMsg,
    ClientMessage.ACT: ActMsg,
    ClientMessage.CHAT: ChatSendMsg,
    ClientMessage.LIST_RECORDS: ListRecordsMsg,
    ClientMessage.GET_RECORD: GetRecordMsg,
    ClientMessage.GET_REPLAY: GetReplayMsg,
    ClientMessage.KICK: KickMsg,
    ClientMessage.LOCK: LockMsg,
    ClientMessage.MUTE: MuteMsg,
    ClientMessage.HAND_OVER: HandOverMsg,
    ClientMessage.UNBAR: UnbarMsg,
    ClientMessage.MY_GAMES: MyGamesMsg,
    **ACCOUNT_CLIENT_TYPES,
    ClientMessage.HINT: HintRequestMsg,
    ClientMessage.ANALYSIS: AnalysisRequestMsg,
    ClientMessage.REMATCH: RematchMsg,
    ClientMessage.QUICK_PLAY: QuickPlayMsg,
}
"""The TypedDict of each client message type, as a client sends it."""


def action_map(entry: LegalAction) -> ActionMap:
    """A ``view.legal`` entry as ``act.action`` carries it: without its ``seat`` (§6)."""
    # each Legal* is its action map plus "seat": without the seat, it is that map
    return cast(ActionMap, {key: value for key, value in entry.items() if key != "seat"})
