"""Ratings (docs/accounts.md, *Ratings*): real OpenSkill, real rankings."""

from __future__ import annotations

import pytest
from craits.server.accounts.ratings import (
    PROVISIONAL_GAMES,
    Rating,
    Standing,
    ranking,
    rate_game,
    rerate,
)


def test_a_fresh_rating_is_1500_and_provisional() -> None:
    fresh = Rating()
    assert fresh.value == 1500 and fresh.provisional and fresh.display == "?"
    assert fresh.completion_rate is None


def test_provisional_ends_with_games_and_certainty() -> None:
    assert Rating(sigma=6.0, games=PROVISIONAL_GAMES - 1).display == "?"
    assert Rating(sigma=7.5, games=50).display == "?"
    settled = Rating(mu=30.0, sigma=6.0, games=PROVISIONAL_GAMES)
    assert settled.display == str(settled.value) == "1740"


def test_the_winner_rises_and_the_last_falls() -> None:
    changes = rate_game({}, [Standing(1, 1), Standing(2, 2), Standing(3, 3), Standing(4, 4)])
    assert changes[1].delta > changes[2].delta > changes[3].delta > changes[4].delta
    assert changes[1].delta > 0 > changes[4].delta
    for change in changes.values():
        assert change.after.games == 1 and change.after.completed == 1
        assert change.after.sigma < change.before.sigma


def test_ties_share_a_rank_and_move_alike() -> None:
    assert ranking([Standing(1, 1), Standing(2, 2), Standing(3, 2), Standing(4, 4)]) == {
        1: 1,
        2: 2,
        3: 2,
        4: 3,
    }
    changes = rate_game({}, [Standing(1, 1), Standing(2, 2), Standing(3, 2)])
    assert changes[2].after == changes[3].after


def test_a_leaver_is_last_whatever_their_points() -> None:
    standings = [Standing(1, 1, left=True), Standing(2, 2), Standing(3, 3)]
    assert ranking(standings) == {2: 1, 3: 2, 1: 3}
    changes = rate_game({}, standings)
    assert changes[1].delta < changes[3].delta
    assert changes[1].after.completed == 0 and changes[1].after.games == 1
    assert changes[1].after.completion_rate == 0.0
    assert changes[2].after.completion_rate == 1.0


def test_a_replacement_bot_counts_for_nobody() -> None:
    """The bot in the leaver's seat won: nobody is ranked below it, the others'
    ratings move as if it had not been there."""
    with_bot = rate_game(
        {}, [Standing(None, 1), Standing(2, 2), Standing(3, 3), Standing(1, 4, True)]
    )
    without = rate_game({}, [Standing(2, 1), Standing(3, 2), Standing(1, 3, True)])
    assert with_bot == without


def test_fewer_than_two_accounts_change_nothing() -> None:
    assert rate_game({}, [Standing(1, 1), Standing(None, 2)]) == {}


def test_bad_standings_are_refused() -> None:
    with pytest.raises(ValueError, match="two seats"):
        rate_game({}, [Standing(1, 1), Standing(1, 2)])
    with pytest.raises(ValueError, match="place"):
        rate_game({}, [Standing(1, 0), Standing(2, 1)])


def test_existing_ratings_are_the_starting_point() -> None:
    strong, weak = Rating(mu=35.0, sigma=3.0, games=40, completed=40), Rating()
    upset = rate_game({1: strong, 2: weak}, [Standing(2, 1), Standing(1, 2)])
    assert upset[1].before == strong
    assert upset[1].after.mu < strong.mu and upset[2].after.mu > weak.mu
    assert upset[1].after.games == 41


def test_rerate_replays_in_order() -> None:
    games = [
        ("g1", [Standing(1, 1), Standing(2, 2)]),
        ("g2", [Standing(2, 1), Standing(3, 2), Standing(1, 3, left=True)]),
        ("g3", [Standing(3, 1), Standing(1, 2)]),
    ]
    ratings, changes = rerate(games)
    step: dict[int, Rating] = {}
    for game, standings in games:
        expected = rate_game(step, standings)
        assert changes[game] == expected
        step.update({a: c.after for a, c in expected.items()})
    assert ratings == step
    assert ratings[1].games == 3 and ratings[1].completed == 2
    reordered, _ = rerate([games[2], games[0], games[1]])
    assert reordered != ratings  # order matters: rerate keeps the one given
