"""Property tests: random hands under random rules keep the engine's invariants (R1–R12).

Each example deals one or two hands at a random point of a game (any hand
number, so the one-card hand of R7 comes up), for 2–8 players under a random
set of rules options, and steps through them choosing uniformly among the
legal actions of the seat to act; now and then another seat announces or calls
idiot (R7). After every action:

- no card is created or lost (R1): hands + stock + discard pile = the full deck;
- while a hand is in play the seat to act has a legal action (R4, R12);
- a hand ends within a bounded number of actions (R8, R10);
- no view (each seat, and a spectator) holds a card code its recipient may
  not see: its own hand, the top card, and once the hand is over every revealed
  hand (R9); nor does any event as filtered by ``event_for``; and the views and
  events a table sends (``Moment``, which shares their public parts) are
  exactly ``view`` and ``event_dict_for``'s;
- the position round trip (to_position → load_position → to_position) is identical;
- a probe action by a random seat is accepted exactly when it is (up to
  defaults) one of that seat's legal actions, and when refused changes nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from craits.server.engine import (
    Action,
    Announce,
    CallIdiot,
    Draw,
    Event,
    Game,
    IllegalAction,
    Moment,
    NameSuit,
    Pass,
    Play,
    Rules,
    event_dict_for,
    event_for,
    full_deck,
    view,
)
from craits.server.engine.cards import CARDS, SUITS
from craits.server.engine.events import Dealt, Drew, ShufflePenalty
from craits.server.ops.vectors import load_position
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.support.engine import all_cards, card_codes, snapshot

MAX_ACTIONS = 10_000
"""Actions a hand may take before it counts as endless (random play needs ~100, rarely 2000)."""

BOOL_OPTIONS = [k for k, v in Rules().to_dict().items() if isinstance(v, bool)]
OPTIONS = st.fixed_dictionaries(
    {
        **{name: st.booleans() for name in BOOL_OPTIONS},
        "cancelling_three_scores": st.sampled_from([0, 3]),
    }
)

HIDDEN_EVENTS = (Dealt, Drew, ShufflePenalty)
"""The events that can carry cards some recipients may not see."""


def _allowed(game: Game, seat: int | None) -> set[str]:
    """The card codes ``seat`` may see: own hand, the top card, every hand once it is over."""
    allowed = {game.discard[-1]}
    if seat is not None:
        allowed.update(game.hands[seat])
    if game.phase != "play" and game.result is not None:
        for r in game.result.results:
            allowed.update(r.cards)
    return allowed


def _check_secrets(game: Game, events: list[Event]) -> None:
    """No view nor filtered event shows a recipient a card it may not see; the
    shared :class:`Moment` gives each recipient exactly its own view and events."""
    moment = Moment(game, events)
    for seat in [*range(game.players), None]:
        v = view(game, seat)
        assert moment.view(seat) == v, f"shared view for {seat} differs"
        assert moment.events(seat) == [event_dict_for(e, seat) for e in events], seat
        leaked = card_codes(v) - _allowed(game, seat)
        assert not leaked, f"view for {seat} shows {leaked}"
        own = set() if seat is None else set(game.hands[seat])
        for ev in events:
            if type(ev) in HIDDEN_EVENTS:
                leaked = card_codes(event_for(ev, seat)) - own
                assert not leaked, f"{type(ev).__name__} for {seat} shows {leaked}"


def _normal(game: Game, action: Action) -> Action:
    """The form ``legal_actions`` lists an action in: an 8 or 9 names its own suit by
    default (R12), and an announcement counts only with a play leaving one card (R7)."""
    if type(action) is Play:
        seat, card, suit, announce = action
        if suit is None and card[0] in "89":
            suit = card[1]
        return Play(seat, card, suit, announce and len(game.hands[seat]) == 2)
    return action


def _probe(game: Game, rng: random.Random) -> Action:
    """A random action, legal or not, by a random seat (sometimes a seat out of range)."""
    n = game.players
    seat = rng.randrange(-1, n + 1) if rng.random() < 0.05 else rng.randrange(n)
    kind = rng.randrange(6)
    if kind == 0:
        hand = game.hands[seat] if 0 <= seat < n else []
        card = rng.choice(hand) if hand and rng.random() < 0.7 else rng.choice(CARDS)
        suit = rng.choice([None, None, *SUITS])
        return Play(seat, card, suit, rng.random() < 0.3)
    if kind == 1:
        return Draw(seat)
    if kind == 2:
        return Pass(seat)
    if kind == 3:
        return Announce(seat)
    if kind == 4:
        return CallIdiot(seat, rng.randrange(n))
    return NameSuit(seat, rng.choice(SUITS))


def _check_probe(game: Game, rng: random.Random) -> None:
    """A probe is accepted iff it is legal; refused, it changes nothing (on a copy of the game)."""
    pos = game.to_position()
    copy = load_position(pos, game.rules, random.Random(0))
    copy.phase = game.phase
    copy.result = game.result
    action = _probe(copy, rng)
    legal = False
    if 0 <= action.seat < game.players:
        # Actions are NamedTuples: Draw(1) == Pass(1) as tuples, so compare kinds too.
        norm = _normal(copy, action)
        legal = any(type(a) is type(norm) and a == norm for a in copy.legal_actions(action.seat))
    before = snapshot(copy)
    try:
        copy.apply(action)
    except IllegalAction:
        assert not legal, f"legal {action!r} refused"
        assert snapshot(copy) == before, f"refused {action!r} changed the game"
    else:
        assert legal, f"{action!r} accepted, not listed in legal_actions"


def _check(game: Game, deck: Counter[str], events: list[Event], rng: random.Random) -> None:
    """Every invariant, after one action (or a deal)."""
    assert all_cards(game) == deck, "a card was created or lost"
    if game.phase == "play":
        to_act = game.to_act
        assert to_act is not None
        assert game.legal_actions(), f"seat {to_act} has no legal action"
        for seat in range(game.players):
            if seat != to_act:
                assert all(type(a) in (Announce, CallIdiot) for a in game.legal_actions(seat)), (
                    f"seat {seat} may act out of turn"
                )
    else:
        assert game.result is not None and game.legal_actions() == []
    _check_secrets(game, events)
    pos = game.to_position()
    assert load_position(pos, game.rules).to_position() == pos, "round trip differs"
    if rng.random() < 0.3:
        _check_probe(game, rng)


def _step(game: Game, rng: random.Random) -> Action:
    """The seat to act's uniform choice; sometimes another seat's announcement or idiot call."""
    if game.unannounced and rng.random() < 0.3:
        seat = rng.randrange(game.players)
        side = [a for a in game.legal_actions(seat) if type(a) in (Announce, CallIdiot)]
        if side:
            return rng.choice(side)
    return rng.choice(game.legal_actions())


@pytest.mark.parametrize("players", range(2, 9))
@settings(
    # 7 × 29 = 203 examples, as the 200 drawn over every table size before: one test
    # per table size, so that the workers (pytest-xdist) share the sweep
    max_examples=29,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    # No explain phase: replaying whole hands to explain a failure takes minutes.
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    options=OPTIONS,
    hand_number=st.integers(1, 15),
    hands=st.integers(1, 2),
)
def test_random_hands_keep_the_invariants(
    players: int, seed: int, options: dict[str, Any], hand_number: int, hands: int
) -> None:
    """R1–R12: random hands under random rules keep every invariant after every action."""
    rng = random.Random(seed)
    rules = Rules.from_dict(options)
    deck = Counter(full_deck(players, rules.strip_kings_queens))
    game = Game(players, rules, rng)
    game.hand_number = min(hand_number, rules.hands)
    game.dealer = rng.randrange(players)
    events = game.deal()
    _check(game, deck, events, rng)
    for _ in range(hands):
        actions = 0
        while game.phase == "play":
            events = game.apply(_step(game, rng))
            actions += 1
            assert actions <= MAX_ACTIONS, "the hand does not end"
            _check(game, deck, events, rng)
        if game.phase == "game_over":
            break
        events = game.next_hand()
        _check(game, deck, events, rng)
