"""The post-game analysis (docs/bots.md, "Post-game analysis"): every decision of a
record judged by the expert from its seat's view then.

- A player's obvious blunders are marked: a wild 8 played that kept a 6 (which
  cannot go out) where 6 then 8 went out at once; a play leaving one card
  without "one card", called idiot. The same moves made well are not marked,
  and "one card" said late but in time counts as said.
- A game played by the expert in every seat shows small losses, a random
  player's many times larger.
- It never reads a hidden card: hidden cards exchanged consistently with all
  that a seat saw give that seat's decisions the same analysis.
- It is deterministic for a seed, in one process or in parts over the worker
  processes; it reports progress and stops when told.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from craits.protocol.vocab import Phase
from craits.server.bots import basic_policy
from craits.server.bots.expert.analysis import (
    FORMAT,
    THRESHOLDS,
    VERSION,
    AnalysisStopped,
    analyse,
    count_decisions,
)
from craits.server.bots.expert.moments import IDIOT, PLAY, moments
from craits.server.bots.expert.worker import ExpertPool
from craits.server.bots.recorded import bot_record
from craits.server.engine import Game, Rules, action_from_dict, full_deck, view
from craits.server.engine.shuffles import ScriptedShuffle

BUDGET = 3000
"""A small search per decision: the tests check what is judged, and from what."""


class _Source:
    """A seeded shuffle source that deals ``crafted`` for the next deal it is told of,
    and keeps every order it made (the record's shuffles)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.orders: list[list[str]] = []
        self.crafted: list[str] | None = None

    def shuffle(self, x: list[Any], /) -> None:
        if self.crafted is not None:
            x[:] = self.crafted
            self.crafted = None
        else:
            self.rng.shuffle(x)
        self.orders.append(list(x))

    def entries(self) -> list[list[Any]]:
        out: list[list[Any]] = [["shuffle", {"order": o}] for o in self.orders]
        self.orders = []
        return out


class _Game:
    """A 2-player game of basic bots written down as a record's log, steered by the test."""

    def __init__(self, seed: int) -> None:
        self.source = _Source(seed)
        self.game, _ = Game.start(2, Rules(), self.source)
        self.log: list[list[Any]] = [*self.source.entries(), ["start", {}]]

    def act(self, seat: int, action: dict[str, Any]) -> None:
        wire = {k: v for k, v in action.items() if k != "seat"}
        self.game.apply(action_from_dict(wire, seat))
        self.log += self.source.entries()
        self.log.append(["action", {"seat": seat, "id": None, "action": wire}])

    def basic(self) -> None:
        """The seat to act plays as the basic bot (its calls first, R7)."""
        seat = self.game.to_act
        assert seat is not None
        choice = basic_policy(view(self.game, seat))
        assert choice is not None
        self.act(seat, dict(choice))

    def until_hand(self, number: int, deck: list[str] | None = None) -> None:
        """Basic bots play on until hand ``number`` is dealt (from ``deck``, top first)."""
        while True:
            if self.game.phase == Phase.HAND_OVER:
                if self.game.hand_number == number - 1:
                    self.source.crafted = deck
                self.game.next_hand()
                self.log += [*self.source.entries(), ["next_hand", {}]]
                if self.game.hand_number == number:
                    return
            else:
                self.basic()

    def to_end(self) -> None:
        """Basic bots play the rest of the game."""
        while self.game.phase != Phase.GAME_OVER:
            if self.game.phase == Phase.HAND_OVER:
                self.game.next_hand()
                self.log += [*self.source.entries(), ["next_hand", {}]]
            else:
                self.basic()

    def record(self) -> dict[str, Any]:
        return {"game": 1, "players": ["Ana", "Ben"], "rules": {}, "log": self.log}


def _two_card_hand(seed: int, first: str = "6H") -> _Game:
    """Hand 7 (two cards each, R2) dealt so that the seat to play first holds ``first``
    and 8♠ over a 3♥, its opponent K♣ Q♣. With 6♥: 6♥ then 8♠ goes out at once (R5:
    a 6 plays again), 8♠ first keeps the 6, which cannot go out (R8)."""
    g = _Game(seed)
    top = [first, "KC", "8S", "QC", "3H"]
    deck = top + [c for c in full_deck(2) if c not in top]
    g.until_hand(7, deck)
    assert g.game.hands[g.game.to_act or 0] == [first, "8S"]
    return g


def _entry(analysis: dict[str, Any], hand: int, move: int) -> dict[str, Any]:
    found = [e for e in analysis["decisions"] if e["hand"] == hand and e["move"] == move]
    assert len(found) == 1, found
    return found[0]


def test_an_eight_played_that_kept_the_six_when_six_then_eight_went_out_is_a_blunder() -> None:
    """The wild 8 played over the 6 (with "one card"): the hand not gone out, a blunder;
    6 then 8, as the expert plays it, loses nothing."""
    for blunder in (True, False):
        g = _two_card_hand(3)
        seat = g.game.to_act
        assert seat is not None
        legal = view(g.game, seat)["legal"]
        if blunder:
            g.act(seat, next(a for a in legal if a.get("play") == "8S" and a.get("announce")))
        else:
            g.act(seat, next(a for a in legal if a.get("play") == "6H" and a.get("announce")))
            g.act(seat, next(a for a in view(g.game, seat)["legal"] if "play" in a))
        g.to_end()
        result = analyse(g.record(), seed=1, budget=BUDGET)
        e = _entry(result, 7, 0)
        assert e["seat"] == seat and e["kind"] == PLAY
        assert e["expert"]["play"] == "6H"
        if blunder:
            assert e["played"] == {"play": "8S", "suit": "S", "announce": True}
            assert e["mark"] == "blunder" and e["lost"] >= THRESHOLDS.blunder
            assert e["expert_points"] <= 0 < e["points"]
            summary = result["players"][seat]
            assert summary["blunders"] >= 1 and e["index"] in summary["costliest"]
        else:
            assert e["played"] == e["expert"] and e["lost"] == 0 and e["mark"] is None


def _one_card_forgotten(late: bool) -> dict[str, Any]:
    """The seat to act plays Q♥ over the 3♥, leaving 8♠, without "one card" (R7), then
    says it at once (``late``) or is called idiot by the basic bot."""
    g = _two_card_hand(5, "QH")
    seat = g.game.to_act
    assert seat is not None
    legal = view(g.game, seat)["legal"]
    g.act(seat, next(a for a in legal if a.get("play") == "QH" and not a.get("announce")))
    if late:
        g.act(seat, next(a for a in view(g.game, seat)["legal"] if "announce" in a))
    g.to_end()
    return g.record()


def test_a_play_without_one_card_is_marked_and_one_card_said_in_time_counts() -> None:
    """Q♥ played leaving 8♠ without "one card": called idiot (two cards drawn, a turn
    lost, R7), the decision is marked, the expert's being the same card with "one
    card"; the same play with "one card" said right after, before any call, loses
    nothing."""
    forgot = analyse(_one_card_forgotten(late=False), seed=2, budget=BUDGET)
    e = _entry(forgot, 7, 0)
    assert e["played"] == {"play": "QH"}
    assert e["expert"] == {"play": "QH", "announce": True}
    assert e["mark"] in ("mistake", "blunder") and e["lost"] >= THRESHOLDS.mistake
    called = _entry(forgot, 7, 1)
    assert called["kind"] == IDIOT and called["played"] == {"idiot": e["seat"]}
    assert called["target"] == e["seat"] and called["mark"] is None

    said = analyse(_one_card_forgotten(late=True), seed=2, budget=BUDGET)
    e = _entry(said, 7, 0)
    assert e["late"] is True and e["played"] == {"play": "QH"} and e["lost"] == 0
    assert e["mark"] is None


def test_an_idiot_call_let_pass_is_judged_for_every_other_seat() -> None:
    """A play left "one card" unsaid and nobody called before the next game action:
    each other seat let the call pass, judged at the move that closed the window."""
    g = _two_card_hand(5)
    seat = g.game.to_act
    assert seat is not None
    legal = view(g.game, seat)["legal"]
    g.act(seat, next(a for a in legal if a.get("play") == "6H" and not a.get("announce")))
    g.act(seat, next(a for a in view(g.game, seat)["legal"] if "play" in a))  # goes out
    g.to_end()
    found = [m for m in moments(g.record()) if m.hand == 7 and m.move <= 1]
    let_pass = [m for m in found if m.kind == IDIOT]
    assert [(m.seat, m.move, m.taken, m.target) for m in let_pass] == [(1 - seat, 1, None, seat)]
    assert let_pass[0].view["unannounced"] == [seat]


def _expert_game_losses(level: str) -> tuple[float, int, int]:
    record = bot_record([level, "expert"], seed=21, rules=Rules(short_game=True), budget=BUDGET)
    result = analyse(record, seed=4, budget=BUDGET)
    me = result["players"][0]
    return me["average_lost"], me["decisions"], me["blunders"]


def test_the_experts_own_game_shows_small_losses_a_random_players_large() -> None:
    """The expert in both seats: small average losses and no blunder; a random player
    in its place, on the same deal, loses many times more per decision."""
    expert, decisions, blunders = _expert_game_losses("expert")
    rand, rand_decisions, _ = _expert_game_losses("random")
    assert decisions >= 20 and rand_decisions >= 20
    assert expert < 1.0 and blunders == 0
    assert rand > 4 * expert + 1.0


def _state_at(record: dict[str, Any], cut: int) -> Game:
    """The game after the first ``cut`` entries of ``record``'s log (the engine's truth)."""
    script = ScriptedShuffle()
    game: Game | None = None
    for kind, data in record["log"][:cut]:
        if kind == "shuffle":
            script.feed(list(data["order"]))
        elif kind == "start":
            game, _ = Game.start(len(record["players"]), Rules(), script)
        elif kind == "action":
            assert game is not None
            game.apply(action_from_dict(data["action"], data["seat"]))
        else:
            assert game is not None
            game.next_hand()
    assert game is not None
    return game


def _hidden_swap(
    record: dict[str, Any], rng: random.Random
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``record`` cut after a decision of seat 0 in hand 1 past its 8th move, as it is,
    and with two cards seat 0 could not see then exchanged in the deal: one in another
    seat's hand, one in another hand or the stock. None if no such exchange replays."""
    log = record["log"]
    start = next(i for i, (k, _) in enumerate(log) if k == "start")
    later = [m for m in moments(record) if m.hand == 1 and m.seat == 0 and m.move >= 8]
    if not later:
        return None
    actions = [i for i, (k, _) in enumerate(log) if k == "action"]
    cut = actions[later[rng.randrange(len(later))].move]  # the decision's own move left out
    if any(k in ("shuffle", "next_hand") for k, _ in log[start:cut]):
        return None  # a reshuffle (R10) before it: keep to the deal's order
    game = _state_at(record, cut)
    held = [c for s in range(1, game.players) for c in game.hands[s]]
    a = rng.choice(held)
    b = rng.choice([c for c in held + list(game.stock) if c != a])
    order = list(log[start - 1][1]["order"])  # hand 1's deck: the last shuffle before it
    swapped = [b if c == a else a if c == b else c for c in order]
    other_log = [list(e) for e in log[: cut + 1]]
    other_log[start - 1] = ["shuffle", {"order": swapped}]
    other = {**record, "log": other_log, "complete": False}
    try:
        moments(other)
    except ValueError:
        return None  # the exchange breaks what was played: not consistent with it
    return {**record, "log": log[: cut + 1], "complete": False}, other


def _seat_0(analysis: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Seat 0's part of an analysis: its decisions and summary, each decision named by
    its place in the game (its ``index`` counts the other seats' decisions too)."""
    place = {e["index"]: (e["hand"], e["move"], e["kind"]) for e in analysis["decisions"]}
    mine = [
        {k: v for k, v in e.items() if k != "index"}
        for e in analysis["decisions"]
        if e["seat"] == 0
    ]
    summary = dict(analysis["players"][0])
    summary["costliest"] = [place[i] for i in summary["costliest"]]
    return mine, summary


@pytest.mark.parametrize("players", [2, 3])
def test_the_analysis_never_reads_a_hidden_card(players: int) -> None:
    """Two cards seat 0 could not see exchanged in the deal (one from another hand), the
    game still replaying: seat 0's views and events are the same, and so is the
    analysis of every decision of seat 0."""
    rng = random.Random(players)
    levels = ["basic", "easy", "basic"][:players]
    checked = 0
    for seed in range(40):
        if checked >= 3:
            break
        record = bot_record(levels, seed=seed)
        found = None
        for _ in range(100):
            found = _hidden_swap(record, rng)
            if found is not None:
                break
        if found is None:
            continue
        original, other = found
        mine = [(m.view, m.events) for m in moments(original) if m.seat == 0]
        assert mine == [(m.view, m.events) for m in moments(other) if m.seat == 0]
        a = _seat_0(analyse(original, seed=3, budget=BUDGET))
        assert a == _seat_0(analyse(other, seed=3, budget=BUDGET))
        assert a[0]  # decisions judged
        checked += 1
    assert checked >= 3


def test_the_same_seed_gives_the_same_analysis_and_another_seed_another() -> None:
    """Deterministic: twice the same; the value is JSON-able and versioned; another
    seed samples other worlds."""
    record = bot_record(["easy", "basic"], seed=11, rules=Rules(short_game=True))
    a = analyse(record, seed=5, budget=BUDGET)
    b = analyse(record, seed=5, budget=BUDGET)
    assert a == b
    assert json.loads(json.dumps(a)) == a
    assert a["format"] == FORMAT and a["version"] == VERSION and a["game"] == 0
    assert len(a["decisions"]) == count_decisions(record) > 0
    assert [e["index"] for e in a["decisions"]] == list(range(len(a["decisions"])))
    c = analyse(record, seed=6, budget=BUDGET)
    assert [e["points"] for e in c["decisions"]] != [e["points"] for e in a["decisions"]]


def test_progress_is_reported_and_a_stop_is_obeyed() -> None:
    """``progress(done, total)`` after each decision; ``stop`` ends it."""
    record = bot_record(["basic", "basic"], seed=12, rules=Rules(short_game=True))
    seen: list[tuple[int, int]] = []
    analyse(record, budget=1000, progress=lambda d, t: seen.append((d, t)))
    total = count_decisions(record)
    assert seen == [(i, total) for i in range(1, total + 1)]
    done: list[int] = []

    def stop_after(k: int) -> Callable[[], bool]:
        return lambda: len(done) >= k

    with pytest.raises(AnalysisStopped):
        analyse(record, budget=1000, progress=lambda d, t: done.append(d), stop=stop_after(3))
    assert done == [1, 2, 3]


def test_the_worker_pool_gives_the_same_analysis_in_parts() -> None:
    """In two worker processes, three decisions a part: the very analysis of one
    process; progress rises to the total; a cancelled analysis leaves the pool usable."""
    record = bot_record(["easy", "basic"], seed=13, rules=Rules(short_game=True))
    alone = analyse(record, seed=8, budget=BUDGET)
    pool = ExpertPool(workers=2)
    seen: list[tuple[int, int]] = []

    async def run() -> dict[str, Any]:
        return await pool.analyse(record, 8, BUDGET, lambda d, t: seen.append((d, t)), part=3)

    async def cancelled() -> None:
        task = asyncio.ensure_future(pool.analyse(record, 8, BUDGET, part=3))
        await asyncio.sleep(0.5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        assert asyncio.run(run()) == alone
        total = count_decisions(record)
        assert seen[-1] == (total, total)
        assert [d for d, _ in seen] == sorted(d for d, _ in seen)
        asyncio.run(cancelled())
        assert asyncio.run(run()) == alone
    finally:
        pool.close()


def test_a_record_that_does_not_replay_is_refused() -> None:
    """A record whose log does not replay, or no record at all: ValueError, saying where."""
    record = bot_record(["basic", "basic"], seed=14, rules=Rules(short_game=True))
    log = [list(e) for e in record["log"]]
    i = next(i for i, (k, d) in enumerate(log) if k == "action" and "play" in d["action"])
    log[i] = ["action", {"seat": log[i][1]["seat"], "id": None, "action": {"play": "XX"}}]
    with pytest.raises(ValueError, match=f"entry {i}"):
        analyse({**record, "log": log}, budget=BUDGET)
    with pytest.raises(ValueError, match="not a game record"):
        analyse({"players": ["a"]}, budget=BUDGET)
