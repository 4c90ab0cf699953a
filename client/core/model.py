"""What the client knows of the tables: the lobby's list, and the table it sits at
or watches, kept from the server's typed messages (:mod:`craits.protocol.types`).

The model decides no rule. What a seat may do comes from the view's ``legal``
(the server's list of legal actions), read as the protocol's actions
(:mod:`craits.protocol.actions`); one of them is sent back in ``act``. Who may
start comes from the table info's ``may_start``, the penalties paid from the
view's ``penalties_paid`` and a hand's from its ``hand_ended`` event.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import overload

from craits.protocol.actions import (
    Action,
    CallIdiot,
    NameSuit,
    Play,
    action_kind,
    parse_action,
)
from craits.protocol.i18n import _
from craits.protocol.types import (
    ChatLine,
    HandEndedEvent,
    LegalAction,
    ScoreSheetRow,
    SeatInfo,
    StateMsg,
    TableInfo,
    TablesMsg,
    UpdateMsg,
    View,
    WireEvent,
    action_map,
)
from craits.protocol.vocab import RANKS, ActionKind, EventKind, Phase, Suit, TableState
from rich.text import Text

LOG_LINES = 300
"""Event-log (and chat) lines kept per table."""

SUIT_ORDER = "".join((Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS))
"""Suits in the order a hand is held: colours alternate, so neighbouring suits differ
in colour too."""


def sort_key(card: str) -> tuple[int, int]:
    """The order a hand is held in (and shown): by suit (:data:`SUIT_ORDER`), then by rank."""
    return (SUIT_ORDER.find(card[1:2]), RANKS.find(card[:1]))


def sheet_row(ended: HandEndedEvent) -> ScoreSheetRow:
    """A hand's row of the score sheet from its ``hand_ended`` event (protocol §9):
    per seat the hand's points (R9), its shuffle penalties (R10) and the totals."""
    points = [0] * len(ended["scores"])
    for r in ended["results"]:
        if 0 <= r["seat"] < len(points):
            points[r["seat"]] = r["points"]
    return ScoreSheetRow(
        hand_number=ended["hand_number"],
        points=points,
        penalties=list(ended["penalties"]),
        scores=list(ended["scores"]),
    )


@overload
def seat_value(values: Sequence[int], seat: int) -> int: ...
@overload
def seat_value(values: Sequence[int], seat: int, missing: None) -> int | None: ...
def seat_value(values: Sequence[int], seat: int, missing: int | None = 0) -> int | None:
    """``values[seat]`` of a list with a value per seat (a view's ``scores``, a
    result's ``penalties``…), or ``missing`` when the list has no such seat (0,
    or None to tell it apart)."""
    return values[seat] if 0 <= seat < len(values) else missing


def legal_actions(listed: list[LegalAction]) -> list[Action]:
    """The view's ``legal`` list (action maps with their ``seat``, protocol §8) as actions."""
    return [parse_action(action_map(entry), entry["seat"]) for entry in listed]


class TableList:
    """The server's tables as the lobby lists them, by name (protocol §7.2)."""

    def __init__(self) -> None:
        self.tables: dict[str, TableInfo] = {}

    def take_page(self, message: TablesMsg) -> int | None:
        """Take a ``tables`` message (one page of the list; the first page starts
        the list over). Returns the offset of the next page to ask for, or None."""
        tables = message["tables"]
        offset = message["offset"]
        if offset == 0:
            self.tables = {}
        self.tables.update({t["name"]: t for t in tables})
        if tables and offset + len(tables) < message["total"]:
            return offset + len(tables)
        return None

    def put(self, info: TableInfo) -> None:
        """Take one table's info (new, or changed)."""
        self.tables[info["name"]] = info

    def drop(self, name: str) -> None:
        """Forget a closed table."""
        self.tables.pop(name, None)


class EventLog:
    """A table's event log in words: its latest :data:`LOG_LINES` lines, and where
    the hand in play's lines begin, so a ``state`` can rewrite them (protocol §7.1
    ``events``).

    Attributes:
        lines: the latest lines, oldest first.
        added: how many lines were ever added to ``lines``.
        hand_start: the value of ``added`` when the hand in play's first line was
            added (None: not known); a ``state`` rewrites the log from there.
        rewrites: how many times the log was rewritten (the screen draws it anew).
    """

    def __init__(self) -> None:
        self.lines: list[Text] = []
        self.added = 0
        self.hand_start: int | None = None
        self.rewrites = 0

    def add(self, line: Text) -> None:
        """Add a line (the last :data:`LOG_LINES` are kept)."""
        self.lines.append(line)
        self.added += 1
        if len(self.lines) > LOG_LINES:
            del self.lines[: len(self.lines) - LOG_LINES]

    def mark_hand_start(self) -> None:
        """The next line is the hand in play's first (its deal, or the cut)."""
        self.hand_start = self.added

    def drop_hand(self) -> None:
        """Let go of the hand in play's lines (a ``state`` brings them anew)."""
        start = self.hand_start
        if start is None:
            return
        first = self.added - len(self.lines)  # the number of lines[0]
        keep = max(0, start - first)
        if keep < len(self.lines):
            dropped = len(self.lines) - keep
            del self.lines[keep:]
            self.added -= dropped
            self.rewrites += 1


@dataclass
class TableModel:
    """One table as this client sees it.

    Attributes:
        name: the table's name.
        seat: this client's seat, or None when watching.
        token: the resume token of the seat (None when watching or unknown).
        me: this player's name at the table (to find the seat again while waiting).
        info: the table as the lobby describes it (seats, names, state…).
        view: the game as the seat (or a spectator) may see it; None before a game.
        seq: the number of the last update; actions carry it.
        deadline: when the turn of the seat to act times out (``time.monotonic()``).
        next_hand: when the next hand is dealt (``time.monotonic()``), between
            hands; None when the server did not say (protocol §7.1).
        chat: chat lines, oldest first.
        log: the event log in words (:class:`EventLog`).
        last_result: the last ``hand_ended`` event (the hand-end summary).
        sheet: the score sheet: a row per hand ended this game, oldest first (from
            the ``state``'s ``score_sheet``, then each ``hand_ended`` event).
        resumed: this client took the seat back with its token.
        summary_due: a hand just ended and its summary is still to be shown.
    """

    name: str
    seat: int | None = None
    token: str | None = None
    me: str | None = None
    info: TableInfo | None = None
    view: View | None = None
    seq: int = 0
    deadline: float | None = None
    next_hand: float | None = None
    chat: list[ChatLine] = field(default_factory=list)
    log: EventLog = field(default_factory=EventLog)
    last_result: HandEndedEvent | None = None
    sheet: list[ScoreSheetRow] = field(default_factory=list)
    resumed: bool = False
    summary_due: bool = False
    _legal_of: View | None = field(default=None, repr=False, compare=False)
    _legal: list[Action] = field(default_factory=list, repr=False, compare=False)

    # ------------------------------------------------------------- messages

    def apply_state(self, message: StateMsg) -> None:
        """Take a full ``state`` message (on joining, watching or resuming)."""
        self.set_info(message["table"])
        self.seat = message["seat"]
        self.view = message["view"]
        if self.seat is not None and self.me is None:
            player = self.player(self.seat)
            self.me = player["name"] if player is not None else None
        self.seq = message["seq"]
        self.set_deadline(message["deadline_ms"])
        self.next_hand = due(message.get("next_hand_ms"))
        self.chat = list(message["chat"])
        sheet: object = message.get("score_sheet")  # (none from a server before round 2)
        if isinstance(sheet, list):
            self.sheet = list(message["score_sheet"])

    def apply_update(self, message: UpdateMsg) -> None:
        """Take an ``update``: the new view, seq and deadline."""
        self.view = message["view"]
        if self.view["seat"] is not None:
            self.seat = self.view["seat"]
        self.seq = message["seq"]
        self.set_deadline(message["deadline_ms"])
        self.next_hand = due(message.get("next_hand_ms"))

    def note_events(self, events: list[WireEvent]) -> None:
        """Keep what the summary and the score sheet need from an update's events:
        the hand's result (the ``hand_ended`` event, kept whatever is dealt next)
        as the sheet's next row; a cut (a new game) starts the sheet over."""
        for e in events:
            if e["event"] == EventKind.CUT:
                self.sheet = []
            elif e["event"] == EventKind.HAND_ENDED:
                self.last_result = e
                row = sheet_row(e)
                self.sheet = [r for r in self.sheet if r["hand_number"] != row["hand_number"]]
                self.sheet.append(row)

    def log_intro(self) -> None:
        """The log's first line: where this client is (once)."""
        if self.log.lines:
            return
        if self.spectator:
            intro = _("You are watching table {table}.").format(table=self.name)
        elif self.resumed:
            intro = _("You are back in your seat at table {table}.").format(table=self.name)
        else:
            intro = _("You sit at table {table}.").format(table=self.name)
        self.log.add(Text(intro, style="italic"))

    def restore_log(self, lines: list[Text]) -> None:
        """Rewrite the log with the hand so far (``lines``: a ``state``'s events in
        words): the lines of earlier hands stay, this hand's are replaced, so
        nothing missed while away is lost and nothing is shown twice."""
        log = self.log
        back = log.added > 0  # this client showed the table before
        log.drop_hand()
        self.log_intro()
        if back and lines:
            log.add(Text(_("Back at the table. The hand so far:"), style="italic"))
        log.mark_hand_start()
        for line in lines:
            log.add(line)

    def check_hand_end(self, was: Phase | None) -> None:
        """After a message that moved the game from phase ``was``: keep the result
        of a hand that ended, and mark its summary due if this client saw it end."""
        phase = self.phase
        if phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or was == phase:
            return
        if self.last_result is None and self.view is not None:
            self.last_result = self.view["result"]
        if was == Phase.PLAY:
            self.summary_due = True

    def set_info(self, info: TableInfo) -> None:
        """Take the table info. Before a game, seats move down when someone
        leaves: find this player again by name."""
        self.info = info
        if self.view is None and self.me is not None and self.seat is not None:
            for p in info["players"]:
                if p["name"] == self.me:
                    self.seat = p["seat"]

    def set_deadline(self, ms: int | None) -> None:
        """The turn timer: ``ms`` milliseconds from now, or none."""
        self.deadline = None if ms is None else time.monotonic() + ms / 1000

    def seconds_left(self) -> float | None:
        """Seconds until the seat to act times out, or None without a timer."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    # ------------------------------------------------------- the table info

    @property
    def spectator(self) -> bool:
        """Watching, without a seat."""
        return self.seat is None

    @property
    def players(self) -> list[SeatInfo]:
        """The seats as the table info lists them (name, connected, away, bot)."""
        return [] if self.info is None else self.info["players"]

    @property
    def capacity(self) -> int:
        """The table's number of seats (those taken, before the server says)."""
        return len(self.players) if self.info is None else self.info["seats"]

    def player(self, seat: int) -> SeatInfo | None:
        """Seat ``seat``'s info, or None if it is not taken."""
        return next((p for p in self.players if p["seat"] == seat), None)

    def name_of(self, seat: int | None) -> str:
        """The name at a seat (``seat N`` if unknown)."""
        if seat is None:
            return "a spectator"
        player = self.player(seat)
        return player["name"] if player is not None and player["name"] else f"seat {seat + 1}"

    @property
    def creator(self) -> str | None:
        """The name of the table's creator, if the server says."""
        return None if self.info is None else self.info["creator"]

    def is_creator(self, name: str) -> bool:
        """Whether this client opened the table (only its creator may close it).
        Seated, the creator is known by the seat's name; watching, by ``name``
        (the client's own), unless a seat has that name. The server checks
        again; this only decides whether the key is offered."""
        creator = self.creator
        if creator is None:
            return False
        if self.seat is not None:
            return creator == self.name_of(self.seat)
        return creator == name and not any(p["name"] == creator for p in self.players)

    @property
    def may_start(self) -> bool:
        """Whether this client may start the game, seat bots or start a new one now
        (its seat is in the table info's ``may_start``, protocol §11.2). The server
        checks again; this only decides which keys look usable."""
        return self.info is not None and self.seat in self.info["may_start"]

    @property
    def keeps_drawn_cards(self) -> bool:
        """Whether a seat at this table may keep a card it drew rather than play it
        (the table's rules hold ``play_drawn_card``, R4): the Pass key belongs on
        the screen. Whether it applies now is the legal actions' say."""
        return self.view is not None and bool(self.view["rules"].get("play_drawn_card"))

    @property
    def on_hold(self) -> bool:
        """The server holds the game: no person is playing (every person's
        seat is away or disconnected) until one is back (protocol §11.4)."""
        return self.info is not None and self.info["on_hold"]

    @property
    def away(self) -> bool:
        """Whether the server marks this seat away (it plays the seat's turns)."""
        player = None if self.seat is None else self.player(self.seat)
        return player is not None and player["away"]

    @property
    def state(self) -> TableState:
        """The table's state: waiting, playing, finished, stopped or paused."""
        return TableState.WAITING if self.info is None else TableState(self.info["state"])

    @property
    def spectators(self) -> int:
        """How many are watching."""
        return 0 if self.info is None else self.info["spectators"]

    # ------------------------------------------------------------- the view

    @property
    def phase(self) -> Phase | None:
        """``play``, ``hand_over``, ``game_over``, or None before a game."""
        return None if self.view is None else Phase(self.view["phase"])

    def seat_count(self) -> int:
        """Number of seats in the game (or taken, before it)."""
        return len(self.players) if self.view is None else self.view["players"]

    @property
    def hand(self) -> list[str]:
        """This seat's cards, sorted for display (empty when watching)."""
        if self.view is None or not self.view["hand"]:
            return []
        return sorted(self.view["hand"], key=sort_key)

    def hand_sizes(self) -> list[int]:
        """Cards held by each seat."""
        return [] if self.view is None else self.view["hand_sizes"]

    def penalties_paid(self, seat: int) -> int:
        """Shuffle-penalty points ``seat`` paid this game (the view's ``penalties_paid``, R10)."""
        paid = [] if self.view is None else self.view["penalties_paid"]
        return paid[seat] if seat < len(paid) else 0

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, or None."""
        return None if self.view is None else self.view["to_act"]

    @property
    def my_turn(self) -> bool:
        """Whether this seat must act now."""
        return self.seat is not None and self.to_act == self.seat and self.phase == Phase.PLAY

    # -------------------------------------------------------- legal actions

    @property
    def legal(self) -> list[Action]:
        """This seat's legal actions, as the server lists them (protocol §8 ``legal``)."""
        view = self.view
        if view is None:
            return []
        if self._legal_of is not view:
            self._legal_of = view
            self._legal = legal_actions(view["legal"])
        return self._legal

    def plays(self, card: str) -> list[Play]:
        """The legal plays of ``card`` (one per suit it may name, with or without announcing)."""
        return [a for a in self.legal if isinstance(a, Play) and a.card == card]

    def playable(self, card: str) -> bool:
        """Whether the server lists a play of ``card``."""
        return any(isinstance(a, Play) and a.card == card for a in self.legal)

    def find(self, kind: ActionKind) -> Action | None:
        """The first legal action of a kind (``draw``, ``pass``, ``announce``…), or None."""
        return next((a for a in self.legal if action_kind(a) == kind), None)

    def suit_choices(self) -> list[NameSuit]:
        """The legal ``name_suit`` actions (the dealer names a turned-up 8 or 9's suit)."""
        return [a for a in self.legal if isinstance(a, NameSuit)]

    def idiot_targets(self) -> list[int]:
        """Seats this seat may call idiot on now."""
        return [a.target for a in self.legal if isinstance(a, CallIdiot)]

    def idiot_call(self, target: int) -> CallIdiot | None:
        """The legal call of idiot on ``target``, or None."""
        calls = (a for a in self.legal if isinstance(a, CallIdiot) and a.target == target)
        return next(calls, None)

    def can_announce_with_play(self) -> bool:
        """Whether some legal play may carry the "one card" announcement."""
        return any(isinstance(a, Play) and a.announce for a in self.legal)

    def owes_announcement(self) -> bool:
        """Whether this seat must still announce "one card"."""
        return self.find(ActionKind.ANNOUNCE) is not None


def due(ms: object) -> float | None:
    """``ms`` milliseconds from now (an int from the network) as a
    ``time.monotonic()`` time; None for anything else (absent, null)."""
    if isinstance(ms, int) and not isinstance(ms, bool):
        return time.monotonic() + ms / 1000
    return None


def seconds_to_next_hand(model: TableModel) -> float | None:
    """Seconds until the next hand is dealt, between hands; None when not known
    (a hand in play, the game on hold, a server before round 2; protocol §7.1)."""
    if model.next_hand is None or model.phase != Phase.HAND_OVER or model.on_hold:
        return None
    return max(0.0, model.next_hand - time.monotonic())


def turn_on_hold(model: TableModel, seat: int) -> bool:
    """Whether ``seat`` is to act in a game on hold (protocol §11.4): nobody
    plays, the bots included, until an away player is back; its turn is shown
    as paused, not as a turn in play. This player's own turn is not (playing a
    card is one way to be back)."""
    view = model.view
    if view is None or not model.on_hold or view["phase"] != Phase.PLAY:
        return False
    return seat == view["to_act"] and not (model.seat == seat and not model.spectator)
