"""What the replay viewer shows of a game record, as plain values: no Textual.

A record (``docs/records.md``) exported with ``--frames`` holds, per hand, one
frame per step (the deal, then each move): the view after it as a spectator
saw it, every seat's cards, the cards the seat to act may play, and the step's
events (protocol §7.3, records.md "Frames"). :class:`Replay` walks those steps
and gives, for the step shown, a :class:`~craits.client.core.model.TableModel`
holding the frame's view (so the live table's :mod:`~craits.client.present.tableview`
and :mod:`~craits.client.present.results` read it as they read a live view), the step
in words (:mod:`~craits.client.present.describe`) and every hand. The viewer decides no
rule: everything is read from the frames the server made.
"""

from __future__ import annotations

from dataclasses import dataclass

from craits.protocol.types import GameRecord, ReplayFrame, SeatInfo, TableInfo
from craits.protocol.vocab import AbandonReason, EventKind, Phase, TableState
from rich.text import Text

from ..core.model import TableModel, sheet_row, sort_key
from .card_style import CardStyle
from .describe import Describer
from .replay_marks import Marks

NO_FRAMES_HINT = (
    "This record has no move-by-move frames: export it with craits-server "
    "export --frames, or open it from its server with craits-client ADDRESS "
    "--replay-game N, to step through it on the table. Shown hand by hand."
)
"""The one line a viewer shows for a record without frames."""


ABANDONED: dict[str, str] = {
    AbandonReason.NOBODY_CONNECTED: "abandoned, nobody was connected",
    AbandonReason.NOBODY_PLAYING: "abandoned, nobody was playing",
    AbandonReason.CLOSED_BY_CREATOR: "abandoned, its creator closed the table",
}
"""A record's ``abandoned`` in words (``docs/records.md``)."""


CROWDED = 4
"""More seats than this, and the panel of every hand runs a long line's cards
together rather than wrap it (rows are scarce at 80x24)."""


def has_frames(record: GameRecord) -> bool:
    """Whether every hand of ``record`` holds its frames (``export --frames``)."""
    hands = record["hands"]
    return bool(hands) and all(isinstance(h.get("frames"), list) and h.get("frames") for h in hands)


def table_info(record: GameRecord, hands_in_game: int) -> TableInfo:
    """The record's table as a table info (protocol §10): its name, its seats
    and their names (every seat a connected person: a record keeps no more)."""
    players = [str(p) for p in record["players"]]
    seats = [
        SeatInfo(seat=i, name=name, connected=True, away=False, bot=None)
        for i, name in enumerate(players)
    ]
    return TableInfo(
        name=str(record["table"]),
        seats=len(players),
        players=seats,
        state=TableState.FINISHED,
        rules=record["rules"],
        turn_timeout_ms=0,
        spectators=0,
        creator=None,
        hand_number=len(record["hands"]),
        hands_in_game=hands_in_game,
        on_hold=False,
        may_start=[],
        game=record.get("game"),
    )


def record_model(record: GameRecord, hands_in_game: int | None = None) -> TableModel:
    """A model of the record's table, watched (no seat), with no view yet; its
    score sheet is every hand's result (protocol §7.1 ``score_sheet``)."""
    total = hands_in_game if hands_in_game is not None else len(record["hands"])
    model = TableModel(name=str(record["table"]), info=table_info(record, total))
    results = [h["result"] for h in record["hands"]]
    model.sheet = [sheet_row(r) for r in results if r is not None]
    return model


@dataclass(frozen=True, slots=True)
class Step:
    """Where the viewer stands: ``hand`` (0-based index in the record's hands)
    and ``index`` (0-based index in that hand's frames; 0 is the deal)."""

    hand: int = 0
    index: int = 0


class Replay:
    """A record with frames, walked step by step.

    Args:
        record: a record whose every hand has ``frames`` (:func:`has_frames`).
        style: how cards and suits are written.

    Raises:
        ValueError: a hand has no frames.
    """

    def __init__(self, record: GameRecord, style: CardStyle):
        if not has_frames(record):
            raise ValueError("the record has no frames")
        self.record = record
        self.style = style
        self.frames: list[list[ReplayFrame]] = [h["frames"] for h in record["hands"]]
        first = self.frames[0][0]["view"]
        self.model = record_model(record, first["hands_in_game"])
        self.sheet = list(self.model.sheet)
        """Every hand's row of the score sheet (the model holds those shown so far)."""
        self.describer = Describer(style, self.model.name_of, None)
        self.marks: Marks | None = None
        """The post-game analysis' marks, when the viewer has the analysis (§7.6)."""
        self.step = Step()
        self.show(self.step)

    # ------------------------------------------------------------ moving

    @property
    def frame(self) -> ReplayFrame:
        """The frame of the step shown."""
        return self.frames[self.step.hand][self.step.index]

    def show(self, step: Step) -> None:
        """Stand at ``step`` (clamped to the record): the model takes its view."""
        hand = min(max(step.hand, 0), len(self.frames) - 1)
        index = min(max(step.index, 0), len(self.frames[hand]) - 1)
        self.step = Step(hand, index)
        view = self.frame["view"]
        self.model.view = view
        self.model.last_result = view["result"]
        done = {view["result"]["hand_number"]} if view["result"] is not None else set()
        self.model.sheet = [
            r
            for r in self.sheet
            if r["hand_number"] < view["hand_number"] or r["hand_number"] in done
        ]

    def forward(self) -> bool:
        """The next step (into the next hand's deal after a hand's last); False at the end."""
        hand, index = self.step.hand, self.step.index
        if index + 1 < len(self.frames[hand]):
            self.show(Step(hand, index + 1))
        elif hand + 1 < len(self.frames):
            self.show(Step(hand + 1, 0))
        else:
            return False
        return True

    def back(self) -> bool:
        """The step before (a hand's last from the next hand's deal); False at the start."""
        hand, index = self.step.hand, self.step.index
        if index > 0:
            self.show(Step(hand, index - 1))
        elif hand > 0:
            self.show(Step(hand - 1, len(self.frames[hand - 1]) - 1))
        else:
            return False
        return True

    def to_hand(self, hand: int) -> bool:
        """The deal of hand ``hand`` (0-based); False if there is no such hand."""
        if not 0 <= hand < len(self.frames):
            return False
        self.show(Step(hand, 0))
        return True

    def to_next_mark(self) -> bool:
        """The next step with a mark of the analysis; False if none comes after."""
        found = None if self.marks is None else self.marks.next_after(*self.step_place)
        if found is None:
            return False
        self.show(Step(*found))
        return True

    @property
    def step_place(self) -> tuple[int, int]:
        """The step shown as ``(hand, index)``."""
        return self.step.hand, self.step.index

    def mark_lines(self) -> list[Text]:
        """The analysis' marks of the step shown (none without the analysis)."""
        if self.marks is None:
            return []
        return self.marks.lines(*self.step_place, self.style, self.model.name_of)

    def at_start(self) -> bool:
        """At the first hand's deal."""
        return self.step == Step()

    def at_end(self) -> bool:
        """At the last hand's last step."""
        last = len(self.frames) - 1
        return self.step == Step(last, len(self.frames[last]) - 1)

    # ------------------------------------------------------------ saying

    @property
    def hand_over(self) -> bool:
        """The step shown ended its hand (the result is in the view)."""
        return self.frame["view"]["phase"] != Phase.PLAY

    @property
    def shown_seat(self) -> int | None:
        """The seat whose cards are drawn as faces: the seat to act, else None."""
        view = self.frame["view"]
        return view["to_act"] if view["phase"] == Phase.PLAY else None

    def shown_cards(self) -> list[str]:
        """The cards of :attr:`shown_seat`, sorted for display."""
        seat = self.shown_seat
        hands = self.frame["hands"]
        if seat is None or not 0 <= seat < len(hands):
            return []
        return sorted(hands[seat], key=sort_key)

    def drawn_now(self, seat: int | None) -> frozenset[str]:
        """The cards ``seat`` drew in the step shown (marked "new" in its hand)."""
        out: set[str] = set()
        for e in self.frame["events"]:
            if e["event"] == EventKind.DREW and e["seat"] == seat and e["cards"]:
                out.update(e["cards"])
        return frozenset(out)

    def played_now(self) -> bool:
        """The step shown put a card on the discard pile."""
        return any(e["event"] == EventKind.PLAYED for e in self.frame["events"])

    def lines(self, frame: ReplayFrame | None = None) -> list[Text]:
        """A step's events in words, as the live log words them."""
        return self.describer.update((frame or self.frame)["events"])

    def hand_lines(self) -> list[Text]:
        """Every step of the hand shown so far (to the step shown), in words."""
        frames = self.frames[self.step.hand][: self.step.index + 1]
        return [line for f in frames for line in self.lines(f)]

    def position(self) -> str:
        """Where the viewer stands, e.g. "hand 2/8 · move 5/36"."""
        hand, index = self.step.hand, self.step.index
        moves = len(self.frames[hand]) - 1
        what = "the deal" if index == 0 else f"move {index}/{moves}"
        return f"hand {hand + 1}/{len(self.frames)} · {what}"

    def topbar(self) -> Text:
        """The top line: the record's table and game, the players, where the viewer stands."""
        out = Text("Replay", style="bold")
        out.append(f" · table {self.record['table']}")
        game = self.record.get("game")
        if game is not None:
            out.append(f" · game {game}")
        out.append(f" · {self.position()}")
        out.append(" · " + ", ".join(str(p) for p in self.record["players"]), style="dim")
        return out

    def prompt(self) -> Text:
        """What the step was, in words, and what comes next."""
        index = self.step.index
        out = Text("The deal: " if index == 0 else f"Move {index}: ", style="bold")
        out.append_text(Text(" — ").join(self.lines()))
        for line in self.mark_lines():
            out.append("\n")
            out.append_text(line)
        view = self.frame["view"]
        if view["phase"] == Phase.PLAY and view["to_act"] is not None:
            out.append(f"\nNext: {self.model.name_of(view['to_act'])} to act.", style="italic")
        elif self.step.hand + 1 < len(self.frames):
            out.append("\nPgDn or →: the next hand's deal.", style="italic")
        else:
            why = ABANDONED.get(self.record.get("abandoned") or "")
            end = f"The game ended here, unfinished: {why}." if why else "The end of the record."
            out.append("\n" + end, style="bold" if why else "italic")
        return out

    def hands_text(self, width: int = 0) -> Text:
        """Every seat's cards, a line each (``width``: the columns there are;
        at a crowded table a line too long for them runs its cards together,
        else it wraps), face up: the seat
        to act marked with the turn marker, the cards it may play in bold and
        underlined."""
        frame = self.frame
        view = frame["view"]
        playing = view["phase"] == Phase.PLAY
        playable = set(frame["playable"])
        lines = []
        crowded = width > 0 and len(frame["hands"]) > CROWDED
        for seat, cards in enumerate(frame["hands"]):
            to_act = playing and seat == view["to_act"]
            line = Text(f"{self.style.turn_marker if to_act else ' '} ", style="bold")
            line.append(self.model.name_of(seat), style="bold" if to_act else "")
            line.append(f" {len(cards)}: ", style="dim")
            faces = [
                self.style.card(card, "bold underline" if to_act and card in playable else "")
                for card in sorted(cards, key=sort_key)
            ]
            spaced = Text(" ").join(faces)
            if crowded and line.cell_len + spaced.cell_len > width:
                spaced = Text("").join(faces)
            line.append_text(spaced if cards else Text("out", style="italic"))
            lines.append(line)
        return Text("\n").join(lines)
