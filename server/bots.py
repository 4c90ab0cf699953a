"""Computer players: bot policies, the server's timeout move, and engine-only self-play.

A policy sees exactly what a human at that seat would see: the plain dict
returned by :func:`craits.server.engine.view` for its seat (own hand, hand
sizes, top card, suit in force, count, scores, ``unannounced``, and ``legal``,
the seat's legal actions in dict form). It never sees the :class:`Game`. It
answers with one of the dicts of ``view["legal"]`` (the very object, unchanged)
or ``None`` when it does nothing now.

Levels (:data:`LEVELS`):

- ``"random"`` — on its turn, uniform among all its legal actions (plays with
  and without an announcement, draws, announcements, idiot calls alike). Off
  its turn it takes one of its legal actions (an announcement or an idiot
  call, R7) only now and then (:data:`RANDOM_OFF_TURN_RATE`).
- ``"basic"`` — a sensible player; see :func:`choose_basic`.

:func:`timeout_action` is the move the server makes for a seat whose turn
timed out. :func:`play_game` runs a whole game between policies, through the
engine only (no server), and returns its figures; ``scripts/selfplay.py``
drives it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .engine import Game, Rules, action_from_dict, view
from .engine.cards import COLOUR_PARTNER, POINTS, SUITS
from .engine.events import CountChanged, HandEnded, IdiotCalled, ShufflePenalty

__all__ = [
    "LEVELS",
    "RANDOM_OFF_TURN_RATE",
    "GameRecord",
    "choose",
    "choose_basic",
    "choose_random",
    "play_game",
    "timeout_action",
]

View = Mapping[str, Any]
"""A seat's view, as returned by :func:`craits.server.engine.view`."""
ActionDict = dict[str, Any]
"""An action in dict form, one of ``view["legal"]``."""

RANDOM_OFF_TURN_RATE = 0.1
"""How often the random bot takes an action offered off its turn (R7 calls)."""

_WILD = "89"
_TURN_KEYS = ("play", "draw", "pass", "name_suit")
"""Keys of the actions that only the seat to act can take (R3, R4)."""


def _is_turn_action(action: Mapping[str, Any]) -> bool:
    return any(k in action for k in _TURN_KEYS)


def _to_act(v: View) -> bool:
    return v.get("phase") == "play" and v.get("seat") is not None and v["to_act"] == v["seat"]


# --------------------------------------------------------------------- random


def choose_random(v: View, rng: random.Random) -> ActionDict | None:
    """The ``"random"`` policy: a uniform choice among ``v["legal"]``.

    On the seat's turn (``v["to_act"] == v["seat"]``) it always picks one,
    uniformly among every legal action (so it announces "one card" or calls
    idiot, R7, only when the draw falls on those). Off its turn it acts only
    with probability :data:`RANDOM_OFF_TURN_RATE`, then uniformly.

    Returns:
        One of the dicts of ``v["legal"]``, or None (nothing legal, or it lets
        an off-turn chance go).
    """
    legal = v["legal"]
    if not legal:
        return None
    if not _to_act(v) and rng.random() >= RANDOM_OFF_TURN_RATE:
        return None
    return rng.choice(legal)


# ---------------------------------------------------------------------- basic


def _suit_counts(cards: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Per suit: (number of non-wild cards held, their points) (R5, R9)."""
    out = {s: [0, 0] for s in SUITS}
    for c in cards:
        if c[0] not in _WILD:
            out[c[1]][0] += 1
            out[c[1]][1] += POINTS[c[0]]
    return {s: (k, p) for s, (k, p) in out.items()}


def _best_suit(cards: Sequence[str], allowed: Sequence[str], default: str) -> str:
    """The suit of ``allowed`` that ``cards`` hold most of (non-wild cards).

    Ties go to the suit holding more points (shed them sooner), then to
    ``default`` if it is among the best, then to the order of ``allowed``.
    """
    counts = _suit_counts(cards)
    best = max(counts[s] for s in allowed)
    tied = [s for s in allowed if counts[s] == best]
    return default if default in tied else tied[0]


def _pick(legal: Sequence[ActionDict], card: str, suit: str | None, announce: bool) -> ActionDict:
    """The legal play dict of ``card`` naming ``suit``, announcing if ``announce``.

    Falls back on the closest legal variant (another suit or announce flag).
    """
    same = [a for a in legal if a.get("play") == card]
    for a in same:
        if a.get("suit") == suit and bool(a.get("announce")) == announce:
            return a
    for a in same:
        if a.get("suit") == suit:
            return a
    for a in same:
        if bool(a.get("announce")) == announce:
            return a
    return same[0]


def _without(hand: Sequence[str], card: str) -> list[str]:
    rest = list(hand)
    rest.remove(card)
    return rest


def _follow_ups(cards: Iterable[str], suit: str, rank: str) -> int:
    """How many of ``cards`` (wilds left out) could be played on ``rank`` in ``suit`` (R4)."""
    return sum(1 for c in cards if c[0] not in _WILD and (c[1] == suit or c[0] == rank))


def _keep_value(card: str) -> float:
    """What shedding ``card`` is worth to the basic bot: its points (R9), except
    that threes (which cancel a card at scoring) and aces (which follow the
    count, R6, and score 1) are worth keeping."""
    rank = card[0]
    if rank == "3":
        return -15.0
    if rank == "A":
        return -3.0
    return float(POINTS[rank])


def _play_score(v: View, card: str, suit: str, rest: Sequence[str]) -> float:
    """How good the basic bot finds playing ``card`` naming ``suit``, keeping ``rest``."""
    rank = card[0]
    n = v["players"]
    seat = v["seat"]
    d = v["direction"]
    sizes = v["hand_sizes"]
    face = bool(v.get("rules", {}).get("face_cards"))
    nxt = (seat + d) % n
    after = (seat + 2 * d) % n
    danger_next = sizes[nxt] <= 2
    score = _keep_value(card)
    if v["count"]:
        # R6: a 2 raises the count more and sheds 20 points; keep aces for later.
        return score
    if not rest:
        # Going out (R8) — except on a 6, which makes you play again (R5).
        if rank == "6" or (face and rank == "K"):
            return -500.0
        return 1000.0
    counters = sum(1 for c in rest if c[0] in "A2")
    stock = v.get("stock_size", 1 << 30)
    penalty = v.get("next_penalty") or [0] * n

    def pays(victim: int, drawn_before: int, k: int) -> float:
        # Half the shuffle penalty (R10) of a victim who will empty the stock drawing.
        return penalty[victim] / 2 if drawn_before <= stock < drawn_before + k else 0.0

    if rank == "2":
        score += 15 + (10 if danger_next else 0) + (8 if counters else -5)
        score += pays(nxt, 0, 2) / 2  # only if they cannot follow the count (R6)
    elif rank == "4":
        score += 12 + (20 if danger_next else 0)
        if n == 2:
            score += 10 if _follow_ups(rest, suit, rank) else -10
    elif rank == "5":
        score += 8 * (n - 1) + (10 if any(sizes[s] <= 2 for s in range(n) if s != seat) else 0)
        score += sum(pays((seat + i * d) % n, i - 1, 1) for i in range(1, n))
    elif rank == "6":
        score += 25 if _follow_ups(rest, suit, rank) else -30
    elif rank == "7":
        victim = nxt if n <= 3 or v.get("rules", {}).get("seven_hits_next") else after
        score += 10 + (15 if sizes[victim] <= 2 else 0) + pays(victim, 0, 1)
    elif rank == "T":
        prev = (seat - d) % n
        if n > 2 and danger_next and sizes[prev] > sizes[nxt]:
            score += 15
    elif face and rank == "J":
        jacks = v.get("jacks", 0) + 1
        score += 20 + (15 if danger_next else 0) + pays(nxt, 0, 2 * jacks)
    elif face and card == "QS":
        score += 40 + pays(nxt, 0, 5)
    elif face and rank == "K":
        score += 10 if _follow_ups(rest, suit, rank) >= 2 else -25
    # Continuity: leave a suit in force (and a rank) that we can follow next time.
    follow = _follow_ups(rest, suit, rank)
    score += 4 * min(follow, 4)
    wilds = sum(1 for c in rest if c[0] in _WILD)
    if follow == 0 and not wilds:
        score -= 6
    if len(rest) == 1:
        # Down to one card: best left holding a wild, or a card we can follow with.
        last = rest[0]
        if last[0] in _WILD:
            score += 20
        elif last[1] == suit or last[0] == rank:
            score += 12
        if last[0] == "6":
            score -= 10
    return score


def _endgame(v: View) -> bool:
    """Whether an opponent is down to one card and may go out at any moment (R8):
    then the 50 or 30 points of a wild are worth more shed than kept."""
    seat = v["seat"]
    return any(k <= 1 for s, k in enumerate(v["hand_sizes"]) if s != seat)


def _choose_play(v: View, plays: Sequence[ActionDict]) -> ActionDict:
    """The basic bot's play among ``plays`` (all for the seat to act)."""
    hand = v["hand"]
    cards = list(dict.fromkeys(a["play"] for a in plays))
    endgame = _endgame(v)
    if not v["count"] and not endgame:
        plain = [c for c in cards if c[0] not in _WILD]
        if plain:
            cards = plain  # keep 8s and 9s for when nothing else is legal
    best: tuple[float, str, str] | None = None
    for card in cards:
        rest = _without(hand, card) if card in hand else list(hand)
        if card[0] == "8":
            suit = _best_suit(rest, SUITS, card[1])
        elif card[0] == "9":
            suit = _best_suit(rest, (card[1], COLOUR_PARTNER[card[1]]), card[1])
        else:
            suit = card[1]
        score = _play_score(v, card, suit, rest)
        if card[0] in _WILD and not endgame:
            # Only wilds are legal: the fewer points, the better — part with the
            # 9 first and keep the 8 (which names any suit).
            score -= 2 * POINTS[card[0]]
        if best is None or score > best[0]:
            best = (score, card, suit)
    assert best is not None
    _, card, suit = best
    rest = _without(hand, card) if card in hand else list(hand)
    named = suit if card[0] in _WILD else None
    return _pick(plays, card, named, len(rest) == 1)


def choose_basic(v: View, rng: random.Random | None = None) -> ActionDict | None:
    """The ``"basic"`` policy: a sensible, deterministic player.

    In order of priority:

    1. announces "one card" if it owes the announcement (R7);
    2. calls idiot whenever a legal call exists, on its turn or not (R7);
    3. off its turn, does nothing more;
    4. names the pending suit of a turned-up 8 or 9 as the suit it holds most
       of (R3, R5);
    5. plays rather than draws whenever it can (the engine requires it, R4,
       R12); during the count (R6) it follows with a 2 before an ace;
    6. keeps 8s and 9s (wild, R5) for when nothing else is legal — or when an
       opponent is down to one card and may go out (R8): then it sheds them
       like any card with high points (R9) — naming the suit it holds most of
       (the 9: of its two suits);
    7. otherwise scores each legal card: its points (R9: shed high values
       first; threes and aces are worth keeping), the harm it does
       (2 starts the count, 4 skips, 5 and 7 make others draw, more so when
       the victim is close to going out; R5), a 6 only with a follow-up, not
       as the last card, and how many of its remaining cards can follow it;
    8. always announces "one card" with a play that leaves one card (R7);
    9. with a drawn card to play or pass (option ``play_drawn_card``, R4), plays
       it unless it is a wild it keeps (as in 6.) or a 6 with no follow-up.

    ``rng`` is accepted for a common signature and not used.

    Returns:
        One of the dicts of ``v["legal"]``, or None when it has nothing to do.
    """
    legal = v["legal"]
    if not legal:
        return None
    seat = v["seat"]
    for a in legal:
        if a.get("announce") is True and "play" not in a:
            return a
    for a in legal:
        if "idiot" in a and a["idiot"] != seat:
            return a
    if not _to_act(v):
        return None
    names = [a for a in legal if "name_suit" in a]
    if names:
        allowed = [a["name_suit"] for a in names]
        top = v["top"]
        suit = _best_suit(v["hand"], allowed, top[1] if top else allowed[0])
        return next(a for a in names if a["name_suit"] == suit)
    plays = [a for a in legal if "play" in a]
    passes = [a for a in legal if "pass" in a]
    if plays and passes:
        card = plays[0]["play"]
        rest = _without(v["hand"], card) if card in v["hand"] else list(v["hand"])
        if (card[0] in _WILD and not _endgame(v)) or (
            card[0] == "6" and not _follow_ups(rest, card[1], "6")
        ):
            return passes[0]
    if plays:
        return _choose_play(v, plays)
    for key in ("draw", "pass"):
        for a in legal:
            if key in a:
                return a
    return None


# -------------------------------------------------------------------- timeout


def timeout_action(v: View) -> ActionDict:
    """The move the server makes for the seat whose turn timed out.

    The policy, deterministic, from the seat's view ``v`` only:

    - a pending suit for a turned-up 8 or 9 (R3): the card's own suit;
    - during the count (R6): follow it if it can, with a 2 before an ace;
    - otherwise play a legal card if there is one (it must, R4): non-wild
      before wild (R5), the highest points first (R9), the first in
      ``v["legal"]`` order on a tie; an 8 or 9 names the suit it holds most of
      among its remaining non-wild cards (a 9: of its two suits; ties keep
      the card's own suit);
    - a play that leaves one card always announces "one card" (R7);
    - a drawn card that may be played (option ``play_drawn_card``, R4) is
      played, as any legal card;
    - with nothing to play: draw (R4, R6), or pass.

    It never calls idiot, and makes no separate announcement: the turn's game
    action closes any window it had left open (R7).

    Returns:
        One of the dicts of ``v["legal"]``: a ``name_suit``, ``play``,
        ``draw`` or ``pass`` action.

    Raises:
        ValueError: the seat has no turn action (it is not to act, or no hand
            is being played).
    """
    legal = v["legal"]
    names = [a for a in legal if "name_suit" in a]
    if names:
        own = v["top"][1] if v.get("top") else None
        return next((a for a in names if a["name_suit"] == own), names[0])
    plays = [a for a in legal if "play" in a]
    if plays:
        hand = v["hand"]
        cards = list(dict.fromkeys(a["play"] for a in plays))
        # Non-wild before wild, then highest points; max() keeps the first on ties.
        card = max(cards, key=lambda c: (c[0] not in _WILD, POINTS[c[0]]))
        rest = _without(hand, card) if card in hand else list(hand)
        named: str | None = None
        if card[0] == "8":
            named = _best_suit(rest, SUITS, card[1])
        elif card[0] == "9":
            named = _best_suit(rest, (card[1], COLOUR_PARTNER[card[1]]), card[1])
        return _pick(plays, card, named, len(rest) == 1)
    for key in ("draw", "pass"):
        for a in legal:
            if key in a:
                return a
    raise ValueError(f"seat {v.get('seat')} has no turn action to time out")


# ---------------------------------------------------------------- dispatching

Policy = Callable[[View, random.Random], ActionDict | None]

_POLICIES: dict[str, Policy] = {"random": choose_random, "basic": choose_basic}
LEVELS: tuple[str, ...] = tuple(_POLICIES)
"""The bot levels :func:`choose` knows: ``"random"``, ``"basic"``."""


def choose(level: str, view: View, rng: random.Random) -> ActionDict | None:
    """The action bot ``level`` takes now, from its seat's ``view`` only.

    ``view`` is :func:`craits.server.engine.view` for the bot's seat; ``rng``
    is used for the random level's choices. Call it whenever the view changes:
    on the seat's turn it always answers; off its turn it may answer with an
    announcement or an idiot call (R7), or None.

    Returns:
        One of the dicts of ``view["legal"]`` (the same object), or None when
        the bot does nothing now (including when nothing is legal).

    Raises:
        ValueError: ``level`` is not one of :data:`LEVELS`.
    """
    policy = _POLICIES.get(level)
    if policy is None:
        raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    return policy(view, rng)


# ------------------------------------------------------------------ self-play


@dataclass
class GameRecord:
    """The figures of one self-play game (:func:`play_game`).

    Attributes:
        levels: the level of each seat.
        scores: final game totals, shuffle penalties included (R9, R10).
        winners: the seats with the lowest total (R2; ties share the win).
        hands: hands played.
        actions: actions applied, off-turn calls included.
        turn_actions: plays, draws, passes and suit namings (game actions and R3).
        shuffle_penalties: shuffle penalties paid by each seat (R10).
        count_peaks: the highest value of each count (R6), in order.
        idiot_calls: idiot calls made by each seat (R7).
        idiot_called: idiot calls suffered by each seat (R7).
        went_out: hands each seat went out in (R8).
    """

    levels: tuple[str, ...]
    scores: list[int] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    hands: int = 0
    actions: int = 0
    turn_actions: int = 0
    shuffle_penalties: list[int] = field(default_factory=list)
    count_peaks: list[int] = field(default_factory=list)
    idiot_calls: list[int] = field(default_factory=list)
    idiot_called: list[int] = field(default_factory=list)
    went_out: list[int] = field(default_factory=list)


def play_game(
    levels: Sequence[str],
    rng: random.Random,
    rules: Rules | None = None,
    max_actions: int = 1_000_000,
) -> GameRecord:
    """Play one whole game between bots, through the engine only (R2).

    ``levels[s]`` is the level of seat ``s`` (2–8 seats). The game and its
    shuffles are seeded from ``rng``; each bot decides from its own
    :func:`~craits.server.engine.view` only. Before each action of the seat
    to act, every other seat, in a random order, is offered its off-turn
    actions (announcing, calling idiot: R7) until nobody takes one; this is
    skipped while nobody owes an announcement, as no seat then has any.

    Returns:
        The game's :class:`GameRecord`.

    Raises:
        ValueError: an unknown level, or a number of seats outside 2–8.
        RuntimeError: a bot gave no action on its turn, or the game ran past
            ``max_actions``.
        IllegalAction: a bot chose an illegal action (a bug).
    """
    n = len(levels)
    for level in levels:
        if level not in _POLICIES:
            raise ValueError(f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    policies = [_POLICIES[level] for level in levels]
    game, _ = Game.start(n, rules, random.Random(rng.getrandbits(64)))
    rec = GameRecord(
        tuple(levels),
        shuffle_penalties=[0] * n,
        idiot_calls=[0] * n,
        idiot_called=[0] * n,
        went_out=[0] * n,
    )
    count_peak = 0
    if game.count:
        count_peak = game.count
    others = list(range(n))

    def apply(seat: int, action: ActionDict) -> None:
        nonlocal count_peak
        events = game.apply(action_from_dict(action, seat))
        rec.actions += 1
        if _is_turn_action(action):
            rec.turn_actions += 1
        for e in events:
            kind = type(e)
            if kind is CountChanged:
                if e.count:
                    count_peak = max(count_peak, e.count)
                elif count_peak:
                    rec.count_peaks.append(count_peak)
                    count_peak = 0
            elif kind is ShufflePenalty:
                rec.shuffle_penalties[e.seat] += 1
            elif kind is IdiotCalled:
                rec.idiot_calls[e.seat] += 1
                rec.idiot_called[e.target] += 1

    while True:
        while game.phase == "play":
            if rec.actions > max_actions:
                raise RuntimeError(f"the game ran past {max_actions} actions")
            actor = game.to_act
            assert actor is not None
            if game.unannounced:
                acted = True
                while acted and game.unannounced and game.phase == "play":
                    acted = False
                    rng.shuffle(others)
                    for s in others:
                        if s == actor or game.phase != "play":
                            continue
                        a = policies[s](view(game, s), rng)
                        if a is not None:
                            apply(s, a)
                            acted = True
                if game.phase != "play":
                    break
            a = policies[actor](view(game, actor), rng)
            if a is None:
                raise RuntimeError(f"seat {actor} ({levels[actor]}) gave no action on its turn")
            apply(actor, a)
        if count_peak:
            rec.count_peaks.append(count_peak)
            count_peak = 0
        rec.hands += 1
        result = game.result
        assert isinstance(result, HandEnded)
        for hs in result.results:
            if hs.went_out:
                rec.went_out[hs.seat] += 1
        if game.phase == "game_over":
            break
        game.next_hand()
        if game.count:
            count_peak = game.count
    rec.scores = list(game.scores)
    rec.winners = result.winners
    return rec
