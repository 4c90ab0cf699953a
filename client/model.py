"""What the client knows of the table it sits at or watches: the server's messages, kept.

The model decides no rule. What a seat may do comes from ``view["legal"]``
(the server's list of legal actions), read as the protocol's actions
(:mod:`craits.protocol.actions`); one of them is sent back in ``act``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from craits.protocol.actions import (
    NO_SEAT,
    Action,
    ActionFormError,
    CallIdiot,
    NameSuit,
    Play,
    action_kind,
    parse_action,
)
from craits.protocol.vocab import ActionKind, EventKind, Phase, TableState
from rich.text import Text

from .cards import sort_key

LOG_LINES = 300
"""Event-log (and chat) lines kept per table."""


def legal_actions(listed: object) -> list[Action]:
    """The view's ``legal`` list (action maps with their ``seat``, protocol §8) as
    actions; an entry that is not an action map is left out."""
    actions: list[Action] = []
    for entry in listed if isinstance(listed, list) else []:
        if not isinstance(entry, dict):
            continue
        seat = entry.get("seat")
        form = {k: v for k, v in entry.items() if k != "seat"}
        try:
            actions.append(parse_action(form, seat if isinstance(seat, int) else NO_SEAT))
        except ActionFormError:
            continue
    return actions


class Lobby:
    """The server's tables as the lobby lists them, by name (protocol §7.2)."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] = {}

    def take_page(self, message: dict[str, Any]) -> int | None:
        """Take a ``tables`` message (one page of the list; the first page starts
        the list over). Returns the offset of the next page to ask for, or None."""
        tables = [t for t in message.get("tables") or [] if isinstance(t, dict) and "name" in t]
        offset = message.get("offset") if isinstance(message.get("offset"), int) else 0
        if offset == 0:
            self.tables = {}
        self.tables.update({t["name"]: t for t in tables})
        total = message.get("total")
        if isinstance(total, int) and tables and offset + len(tables) < total:
            return offset + len(tables)
        return None

    def put(self, info: dict[str, Any]) -> None:
        """Take one table's info (new, or changed)."""
        self.tables[info["name"]] = info

    def drop(self, name: object) -> None:
        """Forget a closed table."""
        if isinstance(name, str):
            self.tables.pop(name, None)


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
        chat: chat lines, oldest first.
        log: the event log in words (the latest lines), oldest first.
        logged: how many lines were ever added to ``log``.
        last_result: the last ``hand_ended`` event (the hand-end summary).
        resumed: this client took the seat back with its token.
        summary_due: a hand just ended and its summary is still to be shown.
    """

    name: str
    seat: int | None = None
    token: str | None = None
    me: str | None = None
    info: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    seq: int = 0
    deadline: float | None = None
    chat: list[dict[str, Any]] = field(default_factory=list)
    log: list[Text] = field(default_factory=list)
    logged: int = 0
    last_result: dict[str, Any] | None = None
    resumed: bool = False
    summary_due: bool = False
    _legal_of: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _legal: list[Action] = field(default_factory=list, repr=False, compare=False)

    # ------------------------------------------------------------- messages

    def apply_state(self, message: dict[str, Any]) -> None:
        """Take a full ``state`` message (on joining, watching or resuming)."""
        if isinstance(message.get("table"), dict):
            self.set_info(message["table"])
        self.seat = message.get("seat")
        self.view = message.get("view")
        if self.seat is not None and self.me is None:
            self.me = self.player(self.seat).get("name")
        self.seq = int(message.get("seq") or 0)
        self.set_deadline(message.get("deadline_ms"))
        chat = message.get("chat")
        if isinstance(chat, list):
            self.chat = [c for c in chat if isinstance(c, dict)]

    def apply_update(self, message: dict[str, Any]) -> None:
        """Take an ``update``: the new view, seq and deadline."""
        if message.get("view") is not None:
            self.view = message["view"]
            if isinstance(self.view, dict) and isinstance(self.view.get("seat"), int):
                self.seat = self.view["seat"]
        self.seq = int(message.get("seq") or self.seq)
        self.set_deadline(message.get("deadline_ms"))

    def note_events(self, events: list[dict[str, Any]]) -> None:
        """Keep what the summary needs from an update's events: the hand's result
        (the ``hand_ended`` event, kept whatever is dealt next)."""
        for e in events:
            if e.get("event") == EventKind.HAND_ENDED:
                self.last_result = dict(e)

    def add_log(self, line: Text) -> None:
        """Add a line to the event log (the last :data:`LOG_LINES` are kept)."""
        self.log.append(line)
        self.logged += 1
        if len(self.log) > LOG_LINES:
            del self.log[: len(self.log) - LOG_LINES]

    def log_intro(self) -> None:
        """The log's first line: where this client is (once)."""
        if self.log:
            return
        if self.spectator:
            intro = f"You are watching table {self.name}."
        elif self.resumed:
            intro = f"You are back in your seat at table {self.name}."
        else:
            intro = f"You sit at table {self.name}."
        self.add_log(Text(intro, style="italic"))

    def check_hand_end(self, was: str | None) -> None:
        """After a message that moved the game from phase ``was``: keep the result
        of a hand that ended, and mark its summary due if this client saw it end."""
        phase = self.phase
        if phase not in (Phase.HAND_OVER, Phase.GAME_OVER) or was == phase:
            return
        if self.last_result is None:
            result = (self.view or {}).get("result")
            if isinstance(result, dict):
                self.last_result = result
        if was == Phase.PLAY:
            self.summary_due = True

    def set_info(self, info: dict[str, Any]) -> None:
        """Take the table info. Before a game, seats move down when someone
        leaves: find this player again by name."""
        self.info = info
        if self.view is None and self.me is not None and self.seat is not None:
            for p in self.players:
                if p.get("name") == self.me and isinstance(p.get("seat"), int):
                    self.seat = p["seat"]

    def set_deadline(self, ms: Any) -> None:
        """The turn timer: ``ms`` milliseconds from now, or none."""
        if isinstance(ms, int) and not isinstance(ms, bool):
            self.deadline = time.monotonic() + ms / 1000
        else:
            self.deadline = None

    # --------------------------------------------------------------- people

    @property
    def spectator(self) -> bool:
        """Watching, without a seat."""
        return self.seat is None

    @property
    def players(self) -> list[dict[str, Any]]:
        """The seats as the table info lists them (name, connected, away, bot)."""
        if self.info is None:
            return []
        return [p for p in self.info.get("players", []) if isinstance(p, dict)]

    def seat_count(self) -> int:
        """Number of seats in the game (or taken, before it)."""
        if self.view is not None:
            return int(self.view.get("players") or len(self.players))
        return len(self.players)

    def player(self, seat: int) -> dict[str, Any]:
        """Seat ``seat``'s info (an empty dict if unknown)."""
        for p in self.players:
            if p.get("seat") == seat:
                return p
        return {}

    def name_of(self, seat: int | None) -> str:
        """The name at a seat (``seat N`` if unknown)."""
        if seat is None:
            return "a spectator"
        name = self.player(seat).get("name")
        return str(name) if name else f"seat {seat + 1}"

    @property
    def creator(self) -> str | None:
        """The name of the table's creator, if the server says."""
        if self.info is None:
            return None
        c = self.info.get("creator")
        return c if isinstance(c, str) else None

    @property
    def capacity(self) -> int:
        """The table's number of seats (those taken, if the server does not say)."""
        seats = (self.info or {}).get("seats")
        return int(seats) if isinstance(seats, int) and seats else len(self.players)

    @property
    def keeps_drawn_cards(self) -> bool:
        """Whether a seat at this table may keep a card it drew rather than play it
        (the table's rules hold ``play_drawn_card``, R4): the Pass key belongs on
        the screen. Whether it applies now is the legal actions' say."""
        return bool(((self.view or {}).get("rules") or {}).get("play_drawn_card"))

    @property
    def may_start(self) -> bool:
        """Whether this client may start the game, seat bots or start a new one now
        (its seat is in the table info's ``may_start``, protocol §11.2). The server
        checks again; this only decides which keys look usable."""
        may = (self.info or {}).get("may_start") or []
        return self.seat is not None and self.seat in may

    @property
    def on_hold(self) -> bool:
        """The server holds the game: no person is playing (every person's
        seat is away or disconnected) until one is back (protocol §11.4)."""
        return bool(self.info and self.info.get("on_hold"))

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
        return creator == name and not any(p.get("name") == creator for p in self.players)

    @property
    def away(self) -> bool:
        """Whether the server marks this seat away (it plays the seat's turns)."""
        return self.seat is not None and bool(self.player(self.seat).get("away"))

    @property
    def state(self) -> str:
        """The table's state: waiting, playing, finished or stopped."""
        if self.info is None:
            return TableState.WAITING
        return str(self.info.get("state", TableState.WAITING))

    @property
    def spectators(self) -> int:
        """How many are watching."""
        if self.info is None:
            return 0
        return int(self.info.get("spectators") or 0)

    # ----------------------------------------------------------------- game

    @property
    def phase(self) -> str | None:
        """``play``, ``hand_over``, ``game_over``, or None before a game."""
        return None if self.view is None else self.view.get("phase")

    @property
    def hand(self) -> list[str]:
        """This seat's cards, sorted for display (empty when watching)."""
        if self.view is None or not self.view.get("hand"):
            return []
        return sorted(self.view["hand"], key=sort_key)

    @property
    def legal(self) -> list[Action]:
        """This seat's legal actions, as the server lists them (protocol §8 ``legal``)."""
        view = self.view
        if view is None:
            return []
        if self._legal_of is not view:
            self._legal_of = view
            self._legal = legal_actions(view.get("legal"))
        return self._legal

    @property
    def to_act(self) -> int | None:
        """The seat that must act now, or None."""
        return None if self.view is None else self.view.get("to_act")

    @property
    def my_turn(self) -> bool:
        """Whether this seat must act now."""
        return self.seat is not None and self.to_act == self.seat and self.phase == Phase.PLAY

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
        return next(
            (a for a in self.legal if isinstance(a, CallIdiot) and a.target == target), None
        )

    def can_announce_with_play(self) -> bool:
        """Whether some legal play may carry the "one card" announcement."""
        return any(isinstance(a, Play) and a.announce for a in self.legal)

    def owes_announcement(self) -> bool:
        """Whether this seat must still announce "one card"."""
        return self.find(ActionKind.ANNOUNCE) is not None

    def hand_sizes(self) -> list[int]:
        """Cards held by each seat."""
        if self.view is None:
            return []
        return list(self.view.get("hand_sizes") or [])

    def seconds_left(self) -> float | None:
        """Seconds until the seat to act times out, or None without a timer."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def penalties_paid(self, seat: int) -> int:
        """Shuffle-penalty points ``seat`` paid this game (the view's ``penalties_paid``, R10)."""
        paid = (self.view or {}).get("penalties_paid") or []
        return int(paid[seat]) if seat < len(paid) else 0
