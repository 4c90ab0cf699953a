"""R9: scoring a hand, with every scoring option, and scoring at the end of a hand."""

from __future__ import annotations

from typing import Any

import pytest
from craits.server.engine import Play, Rules, score_cards
from craits.server.engine.events import HandEnded

from tests.support.engine import game_at


@pytest.mark.parametrize(
    ("cards", "options", "points"),
    [
        # R9's own examples.
        (["A", "3", "3", "6", "7", "9", "K"], {}, 37),
        (["3", "8"], {}, 53),
        (["3", "3"], {}, -100),
        (["3", "2", "8"], {"threes_cancel_eights": True, "cancelling_three_scores": 0}, 20),
        # The table of values, one card each.
        (["A"], {}, 1),
        (["2"], {}, 20),
        (["4"], {}, 15),
        (["5"], {}, 30),
        (["6"], {}, 30),
        (["7"], {}, 20),
        (["8"], {}, 50),
        (["9"], {}, 30),
        (["T"], {}, 25),
        (["J"], {}, 10),
        (["Q"], {}, 10),
        (["K"], {}, 10),
        (["AS", "2H", "TD", "KC"], {}, 56),
        (["3S"], {}, -50),
        (["3S", "3H", "3D"], {}, -150),
        # A 3 cancels the highest-valued card that is neither a 3 nor an 8.
        (["3", "8", "5", "A"], {}, 3 + 50 + 1),
        (["3", "A"], {}, 3),
        (["3", "8", "8"], {}, 103),
        (["3", "3", "3", "K"], {}, 9),
        # threes_cancel_eights: the 8 is the highest, so it goes.
        (["3", "8", "5"], {"threes_cancel_eights": True}, 33),
        (["3", "8"], {"threes_cancel_eights": True}, 3),
        # cancelling_three_scores 0: a cancelling 3 scores nothing, an idle 3 still 3.
        (["3", "K"], {"cancelling_three_scores": 0}, 0),
        (["3", "3", "K"], {"cancelling_three_scores": 0}, 3),
        (["3", "8"], {"cancelling_three_scores": 0}, 53),
        # three_penalty: no cancelling aces; a 3 that cancels nothing scores 100.
        (["3", "A"], {"three_penalty": True}, 101),
        (["3", "A", "K"], {"three_penalty": True}, 4),
        (["3", "8"], {"three_penalty": True}, 150),
        (["3", "3", "K"], {"three_penalty": True}, 3 + 100),
        (["3", "3"], {"three_penalty": True}, -100),
        (["3", "8"], {"three_penalty": True, "threes_cancel_eights": True}, 3),
        (
            ["3", "3", "A", "8"],
            {"three_penalty": True, "threes_cancel_eights": True, "cancelling_three_scores": 0},
            1 + 100,
        ),
        ([], {}, 0),
    ],
)
def test_R9_score_cards(cards: list[str], options: dict[str, Any], points: int) -> None:
    """R9: the value table, the threes, and the options that change them."""
    assert score_cards(cards, Rules.from_dict(options))[0] == points


def test_R9_cancelled_pairs_name_the_cancelled_cards() -> None:
    """R9: the scoring reports which card each 3 cancelled, highest first."""
    points, cancelled = score_cards(["AS", "3H", "3D", "6C", "7C", "9H", "KS"])
    assert points == 37
    assert [c for _, c in cancelled] == ["6C", "9H"] or [c for _, c in cancelled] == ["9H", "6C"]
    assert {t for t, _ in cancelled} == {"3H", "3D"}


def _end_with(options: dict[str, Any]) -> HandEnded:
    """Seat 0 goes out on KH; seat 1 holds 3C 8D 5S, seat 2 holds 3S 3H (R8, R9)."""
    game = game_at(
        options,
        players=3,
        turn=0,
        hands=[["KH"], ["3C", "8D", "5S"], ["3S", "3H"]],
        stock=["4C"],
        discard=["QH"],
        scores=[7, 0, 100],
    )
    events = game.apply(Play(0, "KH"))
    assert isinstance(events[-1], HandEnded)
    assert game.result == events[-1]
    return events[-1]


def test_R9_hand_end_scores_each_seat() -> None:
    """R9: the seat out scores 0; the others their cards; totals add up."""
    result = _end_with({})
    assert [r.points for r in result.results] == [0, 53, -100]
    assert [r.went_out for r in result.results] == [True, False, False]
    assert result.results[1].cancelled == (("3C", "5S"),)
    assert result.scores == (7, 53, 0)


@pytest.mark.parametrize(
    ("options", "points"),
    [
        ({"going_out_bonus": True}, [-10, 53, -100]),
        ({"threes_cancel_eights": True}, [0, 33, -100]),
        ({"threes_cancel_eights": True, "cancelling_three_scores": 0}, [0, 30, -100]),
        ({"three_penalty": True}, [0, 53, -100]),
    ],
)
def test_R9_hand_end_scores_with_options(options: dict[str, Any], points: list[int]) -> None:
    """R9 options at the end of a hand: going_out_bonus, threes_cancel_eights, the 3's score."""
    result = _end_with(options)
    assert [r.points for r in result.results] == points
    assert list(result.scores) == [a + b for a, b in zip([7, 0, 100], points, strict=True)]


def test_R9_rules_reject_a_bad_cancelling_three_score() -> None:
    """R9: cancelling_three_scores is 0 or 3, nothing else."""
    with pytest.raises(ValueError, match="0 or 3"):
        Rules.from_dict({"cancelling_three_scores": 1})
    with pytest.raises(ValueError, match="integer"):
        Rules.from_dict({"cancelling_three_scores": True})
    with pytest.raises(ValueError, match="unknown"):
        Rules.from_dict({"threes_cancel_nines": True})
