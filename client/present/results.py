"""The end of a hand and of a game, as the summary shows them: every hand revealed,
the threes, points, shuffle penalties and totals (R8–R10), then the standings.
Pure functions of the ``hand_ended`` event (protocol §9) and the model; no Textual.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from craits.protocol.i18n import LazyString, _, lazy_pgettext, ngettext
from craits.protocol.types import HandEndedEvent, TableInfo
from craits.protocol.vocab import Phase, TableState
from craits.protocol.words import count_points, word_list
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.model import TableModel, seat_value, seconds_to_next_hand
from .card_style import CardStyle


def cancelled_text(pairs: Sequence[Sequence[str]], style: CardStyle, sep: str = ", ") -> Text:
    """What a seat's threes cancelled (R9): ``3♦→9♣``, one pair after another."""
    out = Text()
    for i, (three, card) in enumerate(pairs):
        if i:
            out.append(sep)
        out.append_text(style.card(three))
        out.append("→")
        out.append_text(style.card(card))
    return out


HEADINGS: dict[str, LazyString] = {
    # TRANSLATORS: the headings of a hand's scores and the score sheet (short: columns)
    "player": lazy_pgettext("score heading", "Player"),
    "hand": lazy_pgettext("score heading", "Hand"),
    "shuffle": lazy_pgettext("score heading", "Shuffle"),
    "total": lazy_pgettext("score heading", "Total"),
}
"""The score tables' column headings."""


def _player_cell(model: TableModel, seat: int) -> Text:
    me = seat == model.seat
    name = Text(model.name_of(seat), style="bold" if me else "")
    if me:
        name.append(" " + _("(you)"), style="dim")
    return name


def hand_table(result: HandEndedEvent, model: TableModel, style: CardStyle) -> Table:
    """Every seat's revealed hand, what its threes cancelled, and the points."""
    t = Table(
        box=box.ASCII2 if style.ascii else box.SIMPLE_HEAD,
        expand=True,
        padding=(0, 1),
        pad_edge=style.ascii,  # (a space inside the ASCII frame's edges)
    )
    t.add_column(str(HEADINGS["player"]), no_wrap=True, max_width=14)
    t.add_column(_("Cards left"), ratio=3)
    t.add_column(_("Threes cancel"), ratio=2)
    t.add_column(str(HEADINGS["hand"]), justify="right", no_wrap=True)
    t.add_column(str(HEADINGS["shuffle"]), justify="right", no_wrap=True)
    t.add_column(str(HEADINGS["total"]), justify="right", no_wrap=True)
    for r in result["results"]:
        seat = r["seat"]
        went_out = Text(_("went out"), style="italic")
        cards = went_out if r["went_out"] else style.cards(r["cards"])
        cancelled = cancelled_text(r["cancelled"], style)
        penalty = seat_value(result["penalties"], seat, None)  # this hand's shuffle penalties (R10)
        total = seat_value(result["scores"], seat, None)
        t.add_row(
            _player_cell(model, seat),
            cards,
            cancelled or Text("—", style="dim"),
            Text(str(r["points"])),
            Text(f"+{penalty}" if penalty else "—", style="" if penalty else "dim"),
            Text("?" if total is None else str(total), style="bold"),
        )
    return t


NARROW = 60
"""Below this width (columns of the summary's text) each seat's cards go under
its line instead of in columns of their own (a phone's browser)."""


def hand_table_narrow(result: HandEndedEvent, model: TableModel, style: CardStyle) -> Table:
    """:func:`hand_table` for a narrow screen: a line per seat with its points,
    shuffle penalties and total, its cards left and what its threes cancelled
    under it."""
    t = Table(box=box.ASCII2 if style.ascii else box.SIMPLE_HEAD, expand=True, pad_edge=style.ascii)
    t.add_column(str(HEADINGS["player"]), ratio=1)
    t.add_column(str(HEADINGS["hand"]), justify="right", no_wrap=True)
    t.add_column(str(HEADINGS["shuffle"]), justify="right", no_wrap=True)
    t.add_column(str(HEADINGS["total"]), justify="right", no_wrap=True)
    for r in result["results"]:
        seat = r["seat"]
        penalty = seat_value(result["penalties"], seat, None)
        total = seat_value(result["scores"], seat, None)
        player = _player_cell(model, seat)
        player.append("\n")
        if r["went_out"]:
            player.append(_("went out"), style="italic")
        else:
            player.append_text(style.cards(r["cards"]))
        cancelled = cancelled_text(r["cancelled"], style)
        if cancelled:
            player.append("\n" + _("threes:") + " ", style="dim")
            player.append_text(cancelled)
        t.add_row(
            player,
            Text(str(r["points"])),
            Text(f"+{penalty}" if penalty else "—", style="" if penalty else "dim"),
            Text("?" if total is None else str(total), style="bold"),
        )
    return t


def standings(result: HandEndedEvent, model: TableModel, style: CardStyle) -> Text:
    """Final standings, lowest total first, and the winner or winners."""
    scores = result["scores"]
    winners = set(result["winners"])
    order = sorted(range(len(scores)), key=lambda s: (scores[s], s))
    out = Text()
    names = [model.name_of(w) for w in sorted(winners)]
    star = "*" if style.ascii else "★"
    if len(names) == 1:
        won = _("{player} wins the game!").format(player=names[0])
        out.append(f"{star} {won} {star}\n", style="bold")
    elif names:
        won = _("Shared win: {players}").format(players=word_list(names))
        out.append(f"{star} {won} {star}\n", style="bold")
    place = 0
    last: int | None = None
    for i, s in enumerate(order):
        if scores[s] != last:
            place = i + 1
            last = scores[s]
        line = f"{place}. {model.name_of(s)}  {count_points(scores[s])}"
        out.append(line, style="bold" if s in winners else "")
        if s == model.seat:
            out.append("  " + _("(you)"), style="dim")
        out.append("\n")
    return out


def _hands_in_game(model: TableModel) -> int | str:
    if model.view is not None:
        return model.view["hands_in_game"]
    return "?" if model.info is None else model.info["hands_in_game"]


def summary(
    result: HandEndedEvent, model: TableModel, style: CardStyle, width: int | None = None
) -> RenderableType:
    """The whole summary: the hand's table, then the standings if the game is over
    (for a summary ``width`` columns wide below :data:`NARROW`, the narrow table)."""
    hand = result["hand_number"]
    parts: list[RenderableType] = []
    title = _("Hand {hand} of {of} — scores").format(hand=hand, of=_hands_in_game(model))
    if result["game_over"]:
        title = _("Game over after hand {hand}").format(hand=hand)
    parts.append(Text(title, style="bold"))
    if result["game_over"]:
        parts.append(standings(result, model, style))
        parts.append(Text(_("The last hand (hand {hand}):").format(hand=hand), style="bold"))
    narrow = width is not None and width < NARROW
    parts.append((hand_table_narrow if narrow else hand_table)(result, model, style))
    return Group(*parts)


def what_next(result: HandEndedEvent, model: TableModel) -> Text:
    """The summary's last line: what comes next (in how many seconds, when the
    server said: protocol §7.1), and the keys for it."""
    view = model.view
    if result["game_over"]:
        keys = _("n: start a new game · Enter: back to the table")
        if not model.may_start:
            keys = _("Enter: back to the table")
        offer = rematch_line(model)
        return Text(keys) if offer is None else offer.append(f" · {keys}")
    if view is None or view["phase"] != Phase.PLAY or view["hand_number"] == result["hand_number"]:
        if model.on_hold:
            said = _("The game waits for a player to come back — Enter: back to the table")
            return Text(said, style="bold")
        left = seconds_to_next_hand(model)
        if left is not None:
            said = _("The next hand is dealt in {n} s — Enter: back to the table")
            return Text(said.format(n=math.ceil(left)))
        return Text(_("The next hand is coming — Enter: back to the table"))
    hand = view["hand_number"]
    if model.my_turn and not model.spectator:
        left = model.seconds_left()
        if left is not None:
            said = _("Hand {hand} is dealt: your turn ({n} s left) — Enter")
            return Text(said.format(hand=hand, n=math.ceil(left)), style="bold reverse")
        said = _("Hand {hand} is dealt: your turn — Enter")
        return Text(said.format(hand=hand), style="bold reverse")
    if model.spectator:
        return Text(_("Hand {hand} is dealt — Enter: watch it").format(hand=hand), style="bold")
    said = _("Hand {hand} is dealt: {player} to play — Enter: back to the table")
    return Text(said.format(hand=hand, player=model.name_of(model.to_act)), style="bold")


def overtaken(result: HandEndedEvent, model: TableModel) -> bool:
    """Whether what comes after ``result`` has come: for a hand's end, the next
    hand is dealt; for the game's end, a new game started (``new_game``, a
    rematch), or the table waits for players again (a rematch's seat was freed,
    protocol §11.12)."""
    view = model.view
    if view is None:
        return result["game_over"] and model.state == TableState.WAITING
    if result["game_over"]:
        return view["phase"] != Phase.GAME_OVER
    return view["hand_number"] != result["hand_number"]


def new_game_key(result: HandEndedEvent, model: TableModel | None) -> bool | None:
    """The summary's ``n`` (new game): at the end of a game, for who may start one;
    greyed until the table is finished (True applies, None greyed, False hidden)."""
    if not result["game_over"] or model is None or not model.may_start:
        return False
    return True if model.state == TableState.FINISHED else None


# issue 27: between the games (protocol §11.12)


def rematch_offer(info: TableInfo | None, seat: int | None) -> tuple[int, int, bool | None] | None:
    """The rematch on offer at the table ``info`` (protocol §11.12), or None: how
    many seats accepted, of how many, and the answer of ``seat`` (True
    accepted, False still to give, None: no seat, a spectator)."""
    offer = None if info is None else info.get("rematch")
    if offer is None:
        return None
    accepted, waiting = offer["accepted"], offer["waiting"]
    mine = None if seat is None else seat in accepted
    return len(accepted), len(accepted) + len(waiting), mine


def series_wins(model: TableModel) -> list[tuple[str, int]]:
    """The games each player won in the table's series, by seat (protocol §10's
    ``series``); empty before a game of it ended."""
    wins = [] if model.info is None else model.info.get("series", [])
    return [(model.name_of(seat), n) for seat, n in enumerate(wins)]


def rematch_line(model: TableModel) -> Text | None:
    """The rematch on offer in words, with its key when this player is still to
    answer: ``r: rematch (1/2 accepted)``; None when none is on offer."""
    offer = rematch_offer(model.info, model.seat)
    if offer is None:
        return None
    accepted, seats, mine = offer
    if mine is False:
        # TRANSLATORS: the rematch on offer, r its key: "r: rematch (1/2 accepted)"
        said = ngettext(
            "r: rematch ({n}/{seats} accepted)", "r: rematch ({n}/{seats} accepted)", accepted
        )
        return Text(said.format(n=accepted, seats=seats), style="bold")
    if mine:
        said = ngettext(
            "Rematch: you accepted, {n}/{seats} accepted",
            "Rematch: you accepted, {n}/{seats} accepted",
            accepted,
        )
        return Text(said.format(n=accepted, seats=seats))
    said = ngettext("Rematch: {n}/{seats} accepted", "Rematch: {n}/{seats} accepted", accepted)
    return Text(said.format(n=accepted, seats=seats))


def rematch_key(model: TableModel | None) -> bool | None:
    """The ``r`` (rematch) key: while a rematch is on offer to this player's seat;
    greyed once accepted (True applies, None greyed, False hidden)."""
    offer = None if model is None else rematch_offer(model.info, model.seat)
    if offer is None or offer[2] is None:
        return False
    return None if offer[2] else True


def series_line(model: TableModel) -> Text | None:
    """The series so far (protocol §10's ``series``): ``Series: Ana 2 · Ben 1``;
    None before a game of it ended."""
    series = series_wins(model)
    if not series:
        return None
    wins = " · ".join(f"{name} {n}" for name, n in series)
    # TRANSLATORS: the games each player won in this table's series: "Series: Ana 2 · Ben 1"
    return Text(_("Series: {wins}").format(wins=wins), style="bold")
