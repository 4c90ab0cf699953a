"""One source of legality (R4, R6, R12): what may be played is decided once.

``playable_cards``, ``legal_actions``, ``legal`` (the vectors' form), and what
``apply`` accepts (a play, or a draw refused while holding a playable card)
must all agree, at every moment of random hands under random rules.
"""

from __future__ import annotations

import random

import pytest
from craits.protocol.vocab import ActionKind, Phase
from craits.server.engine import Draw, Game, IllegalAction, Pass, Play, Rules
from craits.server.engine.cards import CARDS

from tests.support.engine import game_at, snapshot


def _plays(game: Game, seat: int) -> set[str]:
    return {a.card for a in game.legal_actions(seat) if isinstance(a, Play)}


def _accepted(game: Game, seat: int, card: str) -> bool:
    """Whether ``apply`` takes ``card`` from ``seat`` (on a copy), naming its own suit
    for an 8 or a 9."""
    suit = card[1] if card[0] in "89" else None
    try:
        game.copy().apply(Play(seat, card, suit))
    except IllegalAction:
        return False
    return True


def _agree(game: Game) -> None:
    seat = game.turn
    playable = game.playable_cards(seat)
    assert len(playable) == len(set(playable)), "playable cards are distinct"
    if game.pending is not None:
        return
    assert set(playable) == _plays(game, seat)
    for card in set(CARDS) | set(game.hands[seat]):
        assert _accepted(game, seat, card) == (card in playable), card
    kinds = {type(a) for a in game.legal_actions(seat)}
    assert (Draw in kinds) == (not playable and game.drawn is None)
    assert (Pass in kinds) == (game.drawn is not None)
    moves = set(playable)
    moves |= {ActionKind.DRAW} if Draw in kinds else set()
    moves |= {ActionKind.PASS} if Pass in kinds else set()
    assert game.legal() == moves
    if playable:
        before = snapshot(game)
        with pytest.raises(IllegalAction):
            game.apply(Draw(seat))
        assert snapshot(game) == before


@pytest.mark.parametrize("seed", range(6))
def test_playable_cards_legal_actions_legal_and_apply_agree(seed: int) -> None:
    """R4, R6, R12: every statement of what may be played says the same, at every moment."""
    rng = random.Random(seed)
    options = {"play_drawn_card": True, "face_cards": seed % 2 == 0}
    game, _ = Game.start(2 + seed, Rules.from_dict(options), rng)
    for _ in range(2):
        steps = 0
        while game.phase == Phase.PLAY and steps < 400:
            _agree(game)
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
        if game.phase != Phase.HAND_OVER:
            break
        game.next_hand()


def test_a_drawn_card_that_does_not_match_may_only_be_passed() -> None:
    """R4: a drawn card may be played only if it matches; a position holding one
    that does not offers a pass only, and the play is refused."""
    game = game_at(
        {"play_drawn_card": True},
        players=2,
        turn=0,
        hands=[["KD", "TS"], ["AH"]],
        discard=["5C"],
        drawn="TS",
    )
    assert game.playable_cards(0) == []
    assert game.legal_actions(0) == [Pass(0)]
    assert game.legal() == {"pass"}
    assert not _accepted(game, 0, "TS")
