"""The expert bot (docs/bots.md): its seat's view only, legal choices, what it infers.

- Positions whose hidden cards are permuted consistently with everything public
  (the same actions replayed legally on a deck whose unseen cards were
  exchanged) give the same decision, and the same judgement of every choice,
  with the same seed: the expert reads only its seat's view and events.
- It only ever chooses one of its legal actions, under every rules option, and
  always announces "one card" with a play that leaves one (R7).
- A seat that drew for want of a play (R4), or took the count (R6), is never
  dealt, in a sampled world, a card it could have played then.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from craits.server.bots import basic_policy, choose
from craits.server.bots.expert import Search
from craits.server.bots.expert.belief import Belief
from craits.server.bots.expert.card_codes import NAME
from craits.server.bots.expert.policy import expert_at, seat_inputs
from craits.server.engine import (
    Event,
    Game,
    IllegalAction,
    Rules,
    action_from_dict,
    events_for,
    full_deck,
    view,
)
from craits.server.engine.events import ShufflePenalty
from craits.server.ops.vectors import load_position

from .test_sim import random_rules

BUDGET = 3000
"""A small search: the tests check what it decides from, not how well."""


def _choices(game: Game, seat: int) -> int:
    """Distinct cards ``seat`` may play (a decision worth a search when over one)."""
    return len(game.playable_cards(seat)) + (1 if game.pending is not None else 0)


def _history(seed: int, players: int) -> tuple[list[str], int, int, list[Any]] | None:
    """A hand dealt from a random deck and played by basic bots until seat 0 must
    choose among several cards, with no reshuffle: (deck, dealer, hand number, actions)."""
    rng = random.Random(seed)
    deck = full_deck(players)
    rng.shuffle(deck)
    dealer = rng.randrange(players)
    hand_number = rng.choice([1, 2, 3, 13, 14, 15])
    game = _dealt(deck, dealer, hand_number, players)
    game.deal(deck)
    actions: list[Any] = []
    moves = rng.randrange(4, 30)
    while game.phase == "play":
        actor = game.to_act
        assert actor is not None
        if actor == 0 and len(actions) >= moves and _choices(game, 0) > 1:
            return deck, dealer, hand_number, actions
        choice = basic_policy(view(game, actor))
        assert choice is not None
        action = action_from_dict(choice, actor)
        if any(type(e) is ShufflePenalty for e in game.copy().apply(action)):
            return None
        game.apply(action)
        actions.append(action)
    return None


def _dealt(deck: list[str], dealer: int, hand_number: int, players: int) -> Game:
    game = Game(players, Rules(), random.Random(0))
    game.dealer = dealer
    game.hand_number = hand_number
    return game


def _replay(
    deck: list[str], dealer: int, hand_number: int, actions: list[Any], players: int
) -> tuple[Game, list[Event]]:
    """The hand dealt from ``deck`` and ``actions`` applied (IllegalAction if one is not legal)."""
    game = _dealt(deck, dealer, hand_number, players)
    events = game.deal(deck)
    for a in actions:
        events += game.apply(a)
    return game, events


def _permuted(deck: list[str], game: Game, rng: random.Random, full: bool) -> dict[str, str] | None:
    """An exchange of the cards seat 0 has not seen (other hands and the stock): all
    of them shuffled (``full``), or two of them swapped."""
    hidden = [c for h in game.hands[1:] for c in h] + list(game.stock)
    if full:
        image = hidden[:]
        rng.shuffle(image)
        return dict(zip(hidden, image, strict=True))
    a, b = rng.sample(hidden, 2)
    return {a: b, b: a}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_expert_decides_from_its_seat_view_only(players: int) -> None:
    """Hidden cards exchanged consistently with all that is public: the same decision,
    and every choice judged alike, with the same seed."""
    rng = random.Random(players)
    checked = 0
    for seed in range(200):
        if checked >= 3:
            break
        found = _history(seed * 10 + players, players)
        if found is None:
            continue
        deck, dealer, hand_number, actions = found
        game_a, events_a = _replay(deck, dealer, hand_number, actions, players)
        other: tuple[Game, list[Event]] | None = None
        for attempt in range(300):
            swap = _permuted(deck, game_a, rng, full=attempt < 100)
            assert swap is not None
            deck_b = [swap.get(c, c) for c in deck]
            try:
                other = _replay(deck_b, dealer, hand_number, actions, players)
            except IllegalAction:
                continue
            if other[0].hands[1:] != game_a.hands[1:]:
                break
            other = None
        if other is None:
            continue
        game_b, events_b = other
        assert seat_inputs(game_a, events_a, 0) == seat_inputs(game_b, events_b, 0)
        seed_ = rng.getrandbits(64)
        decided_a = expert_at(game_a, events_a, 0, seed_, BUDGET)
        decided_b = expert_at(game_b, events_b, 0, seed_, BUDGET)
        assert decided_a == decided_b
        search = Search(BUDGET)
        judged_a = search.judge(*seat_inputs(game_a, events_a, 0), seed_)
        judged_b = search.judge(*seat_inputs(game_b, events_b, 0), seed_)
        assert [(j.action, j.mean) for j in judged_a.ranked] == [
            (j.action, j.mean) for j in judged_b.ranked
        ]
        checked += 1
    assert checked >= 3


RULE_SETS = [
    {},
    {"face_cards": True, "play_drawn_card": True},
    {"one_card_deal": True, "idiot_card": True, "seven_hits_next": True},
    {"strip_kings_queens": True, "three_penalty": True, "going_out_bonus": True},
]


@pytest.mark.parametrize("options", RULE_SETS, ids=["default", "face+drawn", "misc", "scoring"])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_the_expert_only_ever_chooses_a_legal_action(
    options: dict[str, bool], players: int
) -> None:
    """A hand of experts against basic bots: every choice is one of the seat's legal
    dicts (the same object), and a play leaving one card announces it (R7).

    The search plays two worlds per decision: what it returns is picked from the
    view's ``legal`` list whatever its budget (the budget only weighs the
    candidates), so the property is the same as at the bot's budget, at a
    fraction of the time (a seven-seat hand took 17-20 s at 1,500 actions)."""
    rng = random.Random(players * 31 + len(options))
    rules = Rules.from_dict({"short_game": True, **options})
    game, first = Game.start(players, rules, random.Random(rng.getrandbits(32)))
    hand: list[Event] = list(first)
    search = Search(1, min_worlds=2, max_worlds=2)
    steps = 0
    while game.phase == "play" and steps < 120:
        steps += 1
        actor = game.to_act
        assert actor is not None
        chosen = None
        for seat in range(players):
            v = view(game, seat)
            a = search.decide(v, events_for(hand, seat), rng.getrandbits(64))
            if seat == actor:
                assert a is not None and any(a is x for x in v["legal"]), (a, v["legal"])
                if "play" in a and len(v["hand"]) == 2:
                    assert a.get("announce") is True
                chosen = a
            else:
                assert a is None or any(a is x for x in v["legal"])
        assert chosen is not None
        hand += game.apply(action_from_dict(chosen, actor))


def _position(**fields: Any) -> Game:
    base: dict[str, Any] = {"players": 3, "turn": 0}
    base.update(fields)
    return load_position(base, Rules())


def _playable_then(game: Game, reason: str) -> set[str]:
    """The cards that could be played just before a draw for ``reason`` (R4, R6)."""
    if reason == "count":
        return {c for c in full_deck(2) if c[0] in "A2"}
    top = game.discard[-1]
    return {c for c in full_deck(2) if c[1] == game.suit or c[0] == top[0] or c[0] in "89"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_that_could_not_play_is_never_dealt_what_it_could_have_played(
    players: int,
) -> None:
    """Real hands of basic bots: right after another seat drew for want of a play (R4,
    after a 6 too) or took the count (R6), every world seat 0 samples gives that
    seat no more cards it could have played then than the cards it just drew."""
    rng = random.Random(players)
    checked = 0
    for _ in range(40):
        game, first = Game.start(players, Rules(), random.Random(rng.getrandbits(32)))
        hand: list[Event] = list(first)
        while game.phase == "play" and checked < 60:
            actor = game.to_act
            assert actor is not None
            choice = basic_policy(view(game, actor))
            assert choice is not None
            before = game.copy()
            events = game.apply(action_from_dict(choice, actor))
            hand += events
            drew = [e for e in events if type(e).__name__ == "Drew" and e.seat == actor]
            if actor == 0 or not drew or drew[0].reason not in ("turn", "six", "count"):
                continue
            if any(type(e) is ShufflePenalty for e in events) or game.phase != "play":
                continue
            could = _playable_then(before, drew[0].reason)
            belief = Belief(*seat_inputs(game, hand, 0))
            assert belief.consistent
            for _ in range(30):
                world = belief.sample(rng)
                held = [NAME[c] for c in world.hands[actor]]
                assert sorted(world.hands[0]) == sorted(belief.sample(rng).hands[0])
                assert sum(c in could for c in held) <= drew[0].n, (held, could)
            checked += 1
    assert checked >= 10


def test_judge_ranks_every_choice_best_first() -> None:
    """The search judges every turn choice (the hint's and the analysis' question):
    each once, best (fewest expected points) first, the chosen one among them."""
    game = _position(
        players=3,
        hands=[["8S", "5H", "KH", "3C"], ["2C", "3D", "4C", "9D"], ["5D", "6D", "TD"]],
        stock=["AS", "JS", "AH", "JH", "AC", "JC", "AD", "JD", "KS", "QS", "QD"],
        discard=["7H"],
    )
    v = view(game, 0)
    judged = Search(BUDGET).judge(v, [], 7)
    means = [j.mean for j in judged.ranked]
    assert means == sorted(means)
    plays = {(j.action["play"], j.action.get("suit")) for j in judged.ranked}
    assert plays == {("5H", None), ("KH", None), *{("8S", s) for s in "SHDC"}}
    assert judged.chosen is not None and any(judged.chosen is j.action for j in judged.ranked)
    assert judged.worlds >= 12


def test_choose_by_level_name_reaches_the_expert() -> None:
    """``choose("expert", …)`` (the view alone) answers with a legal dict."""
    game = _position(
        hands=[["8S", "5H", "KH", "3C"], ["2C", "3D", "4C", "9D"], ["5D", "6D", "TD"]],
        stock=["AS", "JS", "AH", "JH", "AC"],
        discard=["7H"],
    )
    v = view(game, 0)
    a = choose("expert", v, random.Random(3))
    assert a is not None and any(a is x for x in v["legal"])


def test_random_rules_cover_every_option() -> None:
    """The legality test's rules, and the simulator's, reach each option on and off."""
    rng = random.Random(0)
    seen: dict[str, set[Any]] = {}
    for _ in range(200):
        for k, val in random_rules(rng).to_dict().items():
            seen.setdefault(k, set()).add(val)
    assert all(len(vals) == 2 for vals in seen.values())


def test_a_network_bot_keeps_the_hands_events_as_its_seat_saw_them() -> None:
    """``craits-bot``'s memory of the hand (protocol §7.1): a ``state`` brings the hand so
    far, each ``update`` adds its events, a deal starts the hand over."""
    from craits.server.bots.network.seen import SeenEvents

    seen = SeenEvents()
    dealt = {"event": "dealt", "hand_number": 2, "hand_size": 7}
    played = {"event": "played", "seat": 1, "card": "5H", "suit": "H", "announced": False}
    seen.take({"type": "state", "events": [dealt, played]})
    assert seen.events == [dealt, played]
    seen.take({"type": "update", "events": [played]})
    assert seen.events == [dealt, played, played]
    seen.take({"type": "update", "events": [{"event": "hand_ended"}, dealt]})
    assert seen.events == [dealt]
    seen.take({"type": "state", "events": []})
    assert seen.events == []


def test_the_workers_answer_is_an_index_into_the_views_legal_actions() -> None:
    """What a worker process sends back (``decide_index``): the chosen entry's index in
    ``legal``; None when the seat has nothing to do. A search told to stop at once
    still answers from the two worlds it played."""
    from craits.server.bots.expert.worker import decide_index

    game = _position(
        hands=[["8S", "5H", "KH", "3C"], ["2C", "3D", "4C", "9D"], ["5D", "6D", "TD"]],
        stock=["AS", "JS", "AH", "JH", "AC"],
        discard=["7H"],
    )
    v = view(game, 0)
    index = decide_index(v, [], 5, BUDGET)
    assert index is not None and "play" in v["legal"][index]
    assert decide_index(view(game, 1), [], 5, BUDGET) is None
    judged = Search(BUDGET).judge(v, [], 5, stop=lambda: True)
    assert judged.worlds == 2 and judged.chosen is not None
