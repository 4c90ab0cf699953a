"""``craits-client HOST --games``'s lines (protocol §11.11), from games as the
server lists them."""

from __future__ import annotations

from datetime import UTC

from craits.client.present.games_text import format_games, span
from craits.protocol.types import MyGame

YOURS: MyGame = {
    "table": "friday",
    "seat": 1,
    "name": "Ana",
    "state": "playing",  # type: ignore[typeddict-item]
    "to_act": 1,
    "to_act_name": "Ana",
    "your_turn": True,
    "deadline_ms": 86_100_000,
    "deadline_at_ms": 1_800_086_100_000,
    "hand_number": 3,
    "on_hold": False,
    "correspondence_ms": 86_400_000,
}
THEIRS: MyGame = {
    **YOURS,
    "table": "club",
    "seat": 0,
    "to_act": 2,
    "to_act_name": "Cy\x1b[2J",
    "your_turn": False,
    "deadline_ms": None,
    "deadline_at_ms": None,
    "on_hold": True,
    "correspondence_ms": 43_200_000,
}
OVER: MyGame = {
    **THEIRS,
    "table": "done",
    "state": "finished",  # type: ignore[typeddict-item]
    "to_act": None,
    "to_act_name": None,
    "on_hold": False,
}
del OVER["correspondence_ms"]


def test_spans_read_at_a_glance() -> None:
    assert [span(ms) for ms in (0, 9_999, 245_000, 18_420_000, 183_600_000, -5)] == [
        "0s",
        "9s",
        "4m 05s",
        "5h 07m",
        "2d 3h",
        "0s",
    ]


def test_the_lines_for_a_script_are_tab_separated_in_the_servers_order() -> None:
    lines = format_games([YOURS, THEIRS, OVER], zone=UTC).splitlines()
    assert [line.split("\t") for line in lines] == [
        ["table", "as", "turn", "left", "due", "turns"],
        ["friday", "Ana (seat 1)", "you", "23h 55m", "Sat 16 Jan 07:55", "1d"],
        ["club", "Ana (seat 0)", "Cy?[2J (on hold)", "-", "-", "12h"],
        ["done", "Ana (seat 0)", "finished", "-", "-", "-"],
    ]


def test_a_terminal_gets_columns_and_is_told_when_there_are_none() -> None:
    text = format_games([YOURS], aligned=True, zone=UTC).splitlines()
    assert text[0].startswith("table   as            turn  left")
    assert text[1].split() == [
        "friday",
        "Ana",
        "(seat",
        "1)",
        "you",
        "23h",
        "55m",
        "Sat",
        "16",
        "Jan",
        "07:55",
        "1d",
    ]
    assert format_games([], aligned=True).splitlines() == [
        "table  as  turn  left  due  turns",
        "(no games: this client holds no seat at this server)",
    ]
    assert format_games([]) == "table\tas\tturn\tleft\tdue\tturns"
