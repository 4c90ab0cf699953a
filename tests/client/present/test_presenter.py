"""The presenter without a terminal: what the table and lobby screens say and which
keys apply, from a model built of the protocol's typed messages."""

from __future__ import annotations

import io
from typing import Any

from craits.client.core.model import TableModel
from craits.client.present import presenter, tableview
from craits.client.present.card_style import CardStyle
from craits.client.present.describe import Describer
from craits.client.present.presenter import KeyContext, table_key
from craits.client.present.results import hand_table, new_game_key, what_next
from craits.protocol.types import HandEndedEvent
from craits.protocol.vocab import BotLevel, EventKind, Suit, TableState
from rich.console import Console

from tests.client.views import model, seat, table_info

STYLE = CardStyle()
ONLINE = KeyContext(online=True, player_name="Ana")
OFFLINE = KeyContext(online=False, player_name="Ana")


# ------------------------------------------------------------------- keys


def test_a_spectator_has_no_game_keys() -> None:
    watcher = model(None, hand=None)
    for action in ("move", "pick", "play", "draw", "pass", "announce", "idiot"):
        assert table_key(action, watcher, ONLINE) is False, action
    assert table_key("chat", watcher, ONLINE) is True


def test_without_a_table_only_leave_and_rules() -> None:
    assert table_key("leave", None, ONLINE) is True
    assert table_key("rules", None, ONLINE) is True
    assert table_key("play", None, ONLINE) is False


def test_play_draw_follow_the_legal_actions() -> None:
    playing = model(legal=[{"seat": 1, "play": "7H"}])
    assert table_key("play", playing, KeyContext(True, "Ana", card="7H")) is True
    assert table_key("play", playing, KeyContext(True, "Ana", card="3C")) is None
    assert table_key("draw", playing, ONLINE) is None
    assert table_key("play", playing, KeyContext(False, "Ana", card="7H")) is None
    drawing = model(legal=[{"seat": 1, "draw": True}])
    assert table_key("draw", drawing, ONLINE) is True
    assert table_key("draw", drawing, OFFLINE) is None


def test_pass_applies_when_a_pass_is_legal() -> None:
    # hidden where no drawn card is ever kept; greyed with the option until legal
    assert table_key("pass", model(), ONLINE) is False
    kept = {"play_drawn_card": True}
    assert table_key("pass", model(rules=kept), ONLINE) is None
    passing = model(rules=kept, legal=[{"seat": 1, "pass": True}], drawn="9C")
    assert table_key("pass", passing, ONLINE) is True


def test_who_may_start_comes_from_the_table_info() -> None:
    waiting = table_info(state=TableState.WAITING, players=[seat(0, "Ben")], may_start=[0])
    ben = TableModel("t1", seat=0, me="Ben", info=waiting)
    assert table_key("add_bot", ben, ONLINE) is True
    assert table_key("start", ben, ONLINE) is None  # one player only
    others = table_info(state=TableState.WAITING, players=[seat(0, "Ben"), seat(1, "Ana")])
    ana = TableModel("t1", seat=1, me="Ana", info={**others, "may_start": [0]})
    assert table_key("add_bot", ana, ONLINE) is False
    assert table_key("start", ana, ONLINE) is False
    ana.info = {**others, "may_start": [0, 1]}  # the creator gone: anyone seated may
    assert table_key("start", ana, ONLINE) is True
    assert "b: add a bot" in presenter.prompt(ana, STYLE, online=True).plain


def test_close_table_is_the_creators_and_not_while_playing() -> None:
    finished = table_info(state=TableState.FINISHED)
    assert table_key("close_table", model(0, info=finished), ONLINE) is True
    assert table_key("close_table", model(1, info=finished), ONLINE) is False
    assert table_key("close_table", model(0), ONLINE) is False  # playing


# ----------------------------------------------------------------- prompt


def test_the_prompt_says_what_to_do() -> None:
    assert "Waiting for the connection" in presenter.prompt(model(), STYLE, online=False).plain
    drawing = model(legal=[{"seat": 1, "draw": True}])
    assert "Nothing to play: d draws a card." in presenter.prompt(drawing, STYLE, online=True)
    count = model(legal=[{"seat": 1, "draw": True}], count=4)
    assert "d draws 4 cards" in presenter.prompt(count, STYLE, online=True).plain
    kept = model(legal=[{"seat": 1, "pass": True}], drawn="9C", rules={"play_drawn_card": True})
    assert "You drew 9♣: Enter plays it, p keeps it." in presenter.prompt(kept, STYLE, online=True)
    theirs = model(to_act=0, turn=0)
    assert presenter.prompt(theirs, STYLE, online=True).plain == "Ben to play."


def test_the_prompt_warns_of_a_game_on_hold_and_a_missed_announcement() -> None:
    info = table_info(players=[seat(0, "Ben"), seat(1, "Ana", away=True)], on_hold=True)
    idle = model(info=info, legal=[{"seat": 1, "idiot": 0}], to_act=0)
    text = presenter.prompt(idle, STYLE, online=True).plain
    assert text.startswith("The game waits for you. b: I'm back\n")
    assert 'Ben did not say "one card": i calls idiot!' in text


def test_before_the_game_a_player_waits_for_the_creator() -> None:
    waiting = table_info(state=TableState.WAITING, may_start=[0])
    ana = TableModel("t1", seat=1, me="Ana", info=waiting)
    assert presenter.prompt(ana, STYLE, online=True).plain == (
        "Waiting for the creator (Ben) to start."
    )


# ------------------------------------------------------------------ seats


def test_seats_show_penalties_paid_from_the_view() -> None:
    ana, ben = tableview.seat_views(model(penalties_paid=[15, 0], one_card=[1]))
    assert (ben.name, ben.cards, ben.score, ben.penalty) == ("Ben", 8, 0, 15)
    assert tableview.DEALER in ben.badges
    assert tableview.ONE_CARD in ana.badges and ana.penalty == 0
    assert ana.me and not ben.me


def test_seats_before_the_game_list_the_empty_seats() -> None:
    info = table_info(state=TableState.WAITING, seats=3, players=[seat(0, "Ben")])
    seats = tableview.seat_views(TableModel("t1", seat=0, info=info))
    assert [s.name for s in seats] == ["Ben", "", ""]


# -------------------------------------------------------------- the plays


def test_a_play_keeps_the_announcement_asked_and_offers_the_suits() -> None:
    legal = [
        {"seat": 1, "play": "8S", "suit": s, "announce": a} for s in "SHDC" for a in (False, True)
    ]
    m = model(legal=legal)
    plain = presenter.play_choice(m, "8S", announce=False)
    assert plain.suits == ["S", "H", "D", "C"]
    assert not any(p.announce for p in plain.plays)
    said = presenter.play_choice(m, "8S", announce=True, suit="D")
    assert [(p.suit, p.announce) for p in said.plays] == [("D", True)]


# ------------------------------------------------------------------ lobby


def test_lobby_rows_and_keys() -> None:
    full = table_info(
        players=[seat(0, "Ben"), seat(1, "basic-bot-1", bot=BotLevel.BASIC)],
        rules={"short_game": True, "cancelling_three_scores": 3},
    )
    row = [cell.plain for cell in presenter.lobby_row(full)]
    assert row == ["t1", "2/2", "hand 1/15", "0", "Ben, 1 bot", "short; no timer"]
    assert presenter.lobby_key("join", full, online=True, saved=False) is None
    assert presenter.lobby_key("spectate", full, online=True, saved=False) is True
    assert presenter.lobby_key("rejoin", full, online=True, saved=False) is False
    assert presenter.join_refusal(full, online=True) == (
        "Table t1 is full: no seat to take (s watches it)."
    )
    open_ = table_info(state=TableState.WAITING, players=[seat(0, "Ben", connected=False)])
    assert presenter.lobby_key("join", open_, online=True, saved=False) is True
    assert presenter.players_text(open_).plain == "Ben (offline)"
    assert presenter.lobby_key("join", open_, online=False, saved=False) is None


# ---------------------------------------------------------------- results


def hand_ended(**fields: Any) -> HandEndedEvent:
    e = HandEndedEvent(
        event=EventKind.HAND_ENDED,
        hand_number=1,
        results=[
            {"seat": 0, "cards": ["3D", "9C"], "cancelled": [("3D", "9C")], "points": 0,
             "went_out": False},
            {"seat": 1, "cards": [], "cancelled": [], "points": 0, "went_out": True},
        ],
        scores=[10, 0],
        pressure=[1, 0],
        penalties=[10, 0],
        next_dealer=1,
        game_over=False,
        winners=[],
    )  # fmt: skip
    e.update(fields)
    return e


def test_the_hand_table_takes_the_penalties_from_the_event() -> None:
    console = Console(width=80, file=io.StringIO(), record=True, color_system=None)
    console.print(hand_table(hand_ended(), model(), STYLE))
    text = console.export_text()
    assert "3♦→9♣" in text and "went out" in text and "+10" in text


def test_what_comes_after_the_summary() -> None:
    over = hand_ended(game_over=True, winners=[1])
    assert what_next(over, model(0)).plain.startswith("n: start a new game")
    assert what_next(over, model(1)).plain == "Enter: back to the table"
    assert new_game_key(over, model(1)) is False
    assert new_game_key(over, model(0)) is None  # not finished yet
    assert new_game_key(over, model(0, info=table_info(state=TableState.FINISHED))) is True
    dealt = model(hand_number=2)
    assert what_next(hand_ended(), dealt).plain.startswith("Hand 2 is dealt: your turn")


# ------------------------------------------------------------- log lines


def test_events_in_words() -> None:
    words = Describer(STYLE, model().name_of, 1)
    lines = words.update(
        [
            {"event": EventKind.PLAYED, "seat": 1, "card": "8S", "suit": Suit.DIAMONDS,
             "announced": True},
            {"event": EventKind.DREW, "seat": 0, "n": 2, "cards": None, "reason": "five"},
            {"event": EventKind.SKIPPED, "seat": 1, "reason": "four"},
        ]
    )  # fmt: skip
    assert [line.plain for line in lines] == [
        'You played 8♠ and named ♦ — "One card!" — Ben drew 2 cards (a 5) — You are skipped by a 4'
    ]
